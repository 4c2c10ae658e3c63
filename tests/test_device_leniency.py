"""CANN's leniency: a dtype the SoC lacks is an error where the call runs,
not where it compiles; ASSERT after a statement missing its ';' compiles as
in CANN's device build; a host <<<>>> launcher compiles as in the
single-source flow; a kernel file with host code (main, ACL calls, the C++
library) compiles as one unit with the system headers and its kernels run;
a host header this machine lacks gets an error naming it as host code (and
compiles when guarded)."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

HEAD = '#include "kernel_operator.h"\nusing namespace AscendC;\n'

BRANCHY = HEAD + r'''
template <typename T>
__aicore__ inline void scale(GM_ADDR x, uint32_t isBf16)
{
    TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 1024);
    GlobalTensor<T> g; g.SetGlobalBuffer((__gm__ T *)x);
    LocalTensor<T> a = b.Get<T>(64);
    DataCopy(a, g, 64);
    PipeBarrier<PIPE_ALL>();
    if (isBf16) {            // not `if constexpr`: both branches are instantiated
        Muls(a, a, (T)2.0f, 64);
    } else {
        Muls(a, a, (T)3.0f, 64);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(g, a, 64);
}
extern "C" __global__ __aicore__ void k_float(GM_ADDR x, uint32_t f) { scale<float>(x, f); }
extern "C" __global__ __aicore__ void k_bf16(GM_ADDR x, uint32_t f)
{
    if (f) { scale<bfloat16_t>(x, f); }
}
'''


def test_dtype_hole_is_a_launch_error_where_the_call_runs():
    mod = dev.load(BRANCHY, "branchy.asc")
    x = np.arange(64, dtype=np.float32)
    mod.get_kernel("k_float")[1](x, np.uint32(0))
    arc.synchronize()
    np.testing.assert_array_equal(x, 3 * np.arange(64))
    y = np.zeros(64, np.uint16)
    mod.get_kernel("k_bf16")[1](y, np.uint32(0))      # the bf16 path never runs: fine
    arc.synchronize()
    with pytest.raises(arc.LaunchError, match=r"AscendC::Muls: dav-2201 supports .*bfloat16_t.*ran on dav-2201"):
        mod.get_kernel("k_bf16")[1](y, np.uint32(1))
        arc.synchronize()


def test_float_only_api_on_integers_is_still_a_compile_error():
    src = HEAD + 'extern "C" __global__ __aicore__ void k(GM_ADDR x) { LocalTensor<int32_t> a; Exp(a, a, 8); }'
    with pytest.raises(arc.CompileError) as ei:
        arc.Program(src, "exp_int.asc").compile()
    assert "AscendC::Exp: supports half and float only" in ei.value.log


LAX_ASSERT = HEAD + r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, uint32_t n)
{
    uint32_t m = n * 2
    ASSERT(m != 0 && "m can not be zero!");
    GlobalTensor<uint32_t> g; g.SetGlobalBuffer((__gm__ uint32_t *)x);
    g.SetValue(0, m);
}
'''


def test_assert_after_a_missing_semicolon_compiles_as_in_cann():
    prog = arc.Program(LAX_ASSERT, "lax.asc")
    binary = prog.compile()
    assert "lax.asc:7:1: warning: ASSERT(...) follows a statement that lacks its ';'" in binary.log
    x = np.zeros(8, np.uint32)
    binary.load().get_kernel("k")[1](x, np.uint32(0))    # ASSERT is off there, as on the NPU
    arc.synchronize()
    assert x[0] == 0


HOST_CODE = r'''
#include <cstdint>
#include <iostream>
#include <vector>
#include <algorithm>
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;

struct Tiling { uint32_t n; float scale; };

extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, Tiling t)
{
    TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 1024);
    GlobalTensor<float> gx, gy; gx.SetGlobalBuffer((__gm__ float *)x); gy.SetGlobalBuffer((__gm__ float *)y);
    LocalTensor<float> a = b.Get<float>(64);
    DataCopy(a, gx, t.n);
    PipeBarrier<PIPE_ALL>();
    Muls(a, a, t.scale, t.n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, a, t.n);
}

static std::vector<float> run_on_npu(std::vector<float> &x)
{
    aclInit(nullptr);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    size_t bytes = x.size() * sizeof(float);
    uint8_t *dx, *dy;
    aclrtMalloc((void **)&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    scale<<<1, nullptr, stream>>>(dx, dy, Tiling{(uint32_t)x.size(), 2.0f});
    aclrtSynchronizeStream(stream);
    std::vector<float> y(x.size());
    aclrtMemcpy(y.data(), bytes, dy, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    return y;
}

int32_t main(int32_t argc, char const *argv[])
{
    std::vector<float> x(64, 1.5f);
    std::vector<float> y = run_on_npu(x);
    std::cout << (std::all_of(y.begin(), y.end(), [](float v) { return v == 3.0f; }) ? "ok" : "bad") << std::endl;
    return 0;
}
'''


def test_host_code_compiles_as_one_unit_and_its_kernels_run():
    b = arc.Program(HOST_CODE, "single_source.asc").compile(["--npu-arch=dav-2201"])
    assert b.kernel_names == ["scale"]
    assert "single_source.asc:1:1: note: host code (functions the kernels do not call, main included)" in b.log
    x = np.linspace(-2, 2, 64).astype(np.float32)
    y = np.zeros(64, np.float32)
    tiling = np.zeros(1, np.dtype([("n", np.uint32), ("scale", np.float32)]))
    tiling["n"], tiling["scale"] = 64, 2.5
    b.load().get_kernel("scale")[1](x, y, tiling.tobytes())
    arc.synchronize()
    np.testing.assert_array_equal(y, x * np.float32(2.5))


def test_host_code_type_errors_are_compile_errors():
    bad = HOST_CODE.replace("std::vector<float> y = run_on_npu(x);", "std::vector<float> y = run_on_npu(3);")
    with pytest.raises(arc.CompileError, match=r"single_source.asc:44:28: error: no matching function"):
        arc.Program(bad, "single_source.asc").compile()


def test_missing_host_header_is_named_as_host_code():
    src = '#include "torch_npu/csrc/core/npu/NPUStream.h"\n' + HEAD + 'extern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n'
    with pytest.raises(arc.CompileError) as ei:
        arc.Program(src, "mixed.asc").compile()
    assert ("host code in the kernel source: <torch_npu/csrc/core/npu/NPUStream.h> is a host-side header that "
            "this machine does not have") in str(ei.value)
    guarded = '#ifndef __ASCENDRTC__\n#include "torch_npu/csrc/core/npu/NPUStream.h"\nint main() { return 0; }\n#endif\n' + \
        HEAD + 'extern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n'
    assert arc.Program(guarded, "guarded.asc").compile().kernel_names == ["k"]


def test_unguarded_launch_compiles_as_in_the_single_source_flow():
    src = HEAD + 'extern "C" __global__ __aicore__ void k(GM_ADDR x)\n' \
        '{ GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t *)x); g.SetValue(0, 42); }\n' \
        'void run(uint32_t n, void *s, uint8_t *x)\n{\n    k<<<n, nullptr,\n      s>>>(x);\n}\n' \
        'extern "C" __global__ __aicore__ void after(GM_ADDR x) { *(__gm__ int32_t *)x = __LINE__; }\n'
    b = arc.Program(src, "launch.asc").compile()
    assert "launch.asc:7:1: warning: a <<<...>>> kernel launch in host code" in b.log
    mod = b.load()
    x = np.zeros(8, np.int32)
    mod.get_kernel("k")[1](x)
    mod.get_kernel("after")[1](x[4:])
    arc.synchronize()
    assert x[0] == 42 and x[4] == 10       # lines did not move


def test_template_launch_on_the_line_after_its_name_compiles():
    """asc-devkit writes `k<T, N>` and its `<<<...>>>` on the next line."""
    src = HEAD + 'template <typename T, int N> __global__ __aicore__ void k(GM_ADDR x)\n' \
        '{ GlobalTensor<T> g; g.SetGlobalBuffer((__gm__ T *)x); g.SetValue(0, N); }\n' \
        'void run(uint32_t n, void *s, uint8_t *x)\n{\n    k<int32_t, 7>\n        <<<n, nullptr, s>>>(x);\n}\n'
    b = arc.Program(src, "tlaunch.asc").compile()
    assert "tlaunch.asc:8:1: warning: a <<<...>>> kernel launch in host code" in b.log


def test_an_ai_cpu_kernel_is_refused_naming_the_ai_cpu():
    src = '#include "acl/acl.h"\n\nextern __global__ __aicpu__ uint32_t MyTiling(void *args);\n' \
        'int main() { return 0; }\n'
    with pytest.raises(arc.CompileError) as ei:
        arc.Program(src, "main.asc").compile(["--npu-arch=dav-2201"])
    assert ("main.asc:3:1: error: 'MyTiling' is an AI CPU kernel (__global__ __aicpu__): it runs on the AI CPU, "
            "which the simulated NPU does not model") in str(ei.value)
    ok = '// __global__ __aicpu__ kernels live in .aicpu files\n' + HEAD + 'extern "C" __global__ __aicore__ void k() {}\n'
    assert arc.Program(ok, "k.asc").compile().kernel_names == ["k"]


def test_kernel_assert_takes_a_message():
    src = HEAD + 'extern "C" __global__ __aicore__ void k(GM_ADDR x, int32_t n)\n' \
        '{ assert(n == 0, "n is %d\\n", n); assert(n < 5); }\n'
    mod = arc.Program(src, "assert_msg.asc").compile().load()
    mod.get_kernel("k")[1](np.zeros(8, np.int32), np.int32(0))
    arc.synchronize()
    with pytest.raises(arc.LaunchError, match=r"assert.*n == 0"):
        mod.get_kernel("k")[1](np.zeros(8, np.int32), np.int32(3))
        arc.synchronize()


HOST_TILING = r'''
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "acl/acl.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

__global__ __aicore__ void mm(GM_ADDR a, __kfc_workspace__ GM_ADDR workspace, AscendC::tiling::TCubeTiling tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    AscendC::GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t *)a);
    g.SetValue(0, tiling.baseM + (GetSysWorkSpacePtr() != nullptr));
}

AscendC::tiling::TCubeTiling make_tiling()
{
    auto *platform = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
    matmul_tiling::MultiCoreMatmulTiling api(*platform);
    api.SetDim(2);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetShape(64, 64, 64);
    api.SetOrgShape(64, 64, 64);
    AscendC::tiling::TCubeTiling t;
    api.GetTiling(t);
    return t;
}

int32_t main(int32_t argc, char *argv[])
{
    uint8_t *a = nullptr;
    aclrtMalloc((void **)&a, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    mm<<<1, nullptr, nullptr>>>(a, nullptr, make_tiling());
    return 0;
}
'''


def test_host_code_calls_the_host_tiling_api():
    # the host part sees the host tiling API (matmul_tiling::, platform_ascendc::) as
    # CANN's host pass does; the kernel sees the kernel's TCubeTiling
    b = arc.Program(HOST_TILING, "host_tiling.asc").compile(["--npu-arch=dav-2201"])
    assert b.kernel_names == ["mm"]


def test_bisheng_target_attribute_and_cce_mark(tmp_path):
    """bisheng's function target attribute ([host, aicore] after a function
    specifier, as CATLASS's CATLASS_HOST_DEVICE writes it) compiles, in an
    included header and in the source; an array subscript named like it
    is left alone; __CCE__ is defined as bisheng defines it."""
    (tmp_path / "hd.h").write_text(
        "#pragma once\n#if defined(__CCE__)\n#include <kernel_operator.h>\n#endif\n"
        "#define HD __forceinline__[host, aicore]\n"
        "HD int twice(int x) { return 2 * x; }\n"
        "inline [aicore] int thrice(int x) { return 3 * x; }\n")
    src = ('#include "hd.h"\n'
           'static __forceinline__ [host] int four(int x) { return 4 * x; }\n'
           'extern "C" __global__ __aicore__ void k(GM_ADDR x)\n'
           '{\n'
           '    __gm__ int *p = (__gm__ int *)x;\n'
           '    int host[2] = {5, 6}, aicore = 1;\n'
           '    p[0] = twice(p[0]) + thrice(1) + four(1) + host[aicore];\n'
           '}\n')
    mod = arc.Program(src, "target_attr.asc").compile(["--npu-arch=dav-2201", "-I" + str(tmp_path)]).load()
    x = np.array([10, 0], np.int32)
    mod.get_kernel("k")[1](x)
    arc.synchronize()
    assert x[0] == 20 + 3 + 4 + 6
