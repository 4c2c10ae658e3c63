"""CANN's leniency: a dtype the SoC lacks is an error where the call runs,
not where it compiles; ASSERT after a statement missing its ';' compiles as
in CANN's device build; a host <<<>>> launcher compiles as in the
single-source flow; host headers get an error naming them as host code
(and compile when guarded)."""
import numpy as np
import pytest

import ascendrtc as arc

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
    mod = arc.Program(BRANCHY, "branchy.asc").compile(["--npu-arch=dav-2201"]).load()
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


def test_host_header_is_named_as_host_code():
    src = '#include <iostream>\n' + HEAD + 'extern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n'
    with pytest.raises(arc.CompileError) as ei:
        arc.Program(src, "mixed.asc").compile()
    assert "host code in the kernel source: <iostream> is a host-side header" in str(ei.value)
    guarded = '#ifndef __ASCENDRTC__\n#include <iostream>\nint main() { std::cout << 1; }\n#endif\n' + HEAD + \
        'extern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n'
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


def test_kernel_assert_takes_a_message():
    src = HEAD + 'extern "C" __global__ __aicore__ void k(GM_ADDR x, int32_t n)\n' \
        '{ assert(n == 0, "n is %d\\n", n); assert(n < 5); }\n'
    mod = arc.Program(src, "assert_msg.asc").compile().load()
    mod.get_kernel("k")[1](np.zeros(8, np.int32), np.int32(0))
    arc.synchronize()
    with pytest.raises(arc.LaunchError, match=r"assert.*n == 0"):
        mod.get_kernel("k")[1](np.zeros(8, np.int32), np.int32(3))
        arc.synchronize()
