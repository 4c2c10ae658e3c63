"""The kernel type as CANN's compiler decides it: KERNEL_TASK_TYPE_DEFAULT
when written, else inferred from what the code uses (the Matmul API, or cube
and vector instructions together: MIX AIC:AIV 1:2; cube alone: AIC only;
else AIV only), on the Python and the C (aclrtc + aclrtLaunchKernel) paths.
A MIX launch's blockDim counts AI cores and each side's block queries answer
as the docs say; launches that would leave tiles of C uncomputed fail
naming the kernel, the tiling field and the limit."""
import numpy as np
import pytest

import ascendrtc as arc
import ascendrtc.matmul_tiling as mt
from helpers import acl, rt
from helpers.cube_mm import MM_TILE
from helpers import dev

AIV_ONLY, AIC_ONLY, MIX_1_2 = 0, 1, 5
CUBE, VEC, MATMUL, WRITTEN = 1, 2, 4, 0x100   # ARC_USES_* (device/arc/core_abi.h)

KINDS = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using MM = matmul::Matmul<matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                          matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                          matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>>;

__aicore__ inline void Vec(GM_ADDR x)
{
    TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 256);
    LocalTensor<float> t = b.Get<float>();
    Duplicate(t, 1.0f, 64);
    GlobalTensor<float> g; g.SetGlobalBuffer((__gm__ float *)x);
    DataCopy(g, t, 64);
}
__attribute__((noinline)) __aicore__ void Cube(GM_ADDR x)
{
    TPipe pipe; TBuf<TPosition::A2> a; TBuf<TPosition::B2> b; TBuf<TPosition::CO1> c;
    pipe.InitBuffer(a, 512); pipe.InitBuffer(b, 512); pipe.InitBuffer(c, 1024);
    Mmad(c.Get<float>(), a.Get<half>(), b.Get<half>(), MmadParams(16, 16, 16, 0, false, true));
}
__aicore__ inline void Regist(GM_ADDR tiling)
{
    TPipe pipe; MM mm;
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tiling);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
}
extern "C" __global__ __aicore__ void scalar_only(GM_ADDR x)
{
    GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t *)x); g.SetValue(0, 1);
}
extern "C" __global__ __aicore__ void vec_only(GM_ADDR x) { Vec(x); }
extern "C" __global__ __aicore__ void cube_only(GM_ADDR x) { Cube(x); }
extern "C" __global__ __aicore__ void cube_and_vec(GM_ADDR x)
{
    if ASCEND_IS_AIC { Cube(x); }
    if ASCEND_IS_AIV { Vec(x); }
}
extern "C" __global__ __aicore__ void matmul_api(GM_ADDR tiling) { Regist(tiling); }
extern "C" __global__ __aicore__ void written_aiv(GM_ADDR x)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    Cube(x); Vec(x);
}
extern "C" __global__ __aicore__ void written_per_key(GM_ADDR x)
{
    KERNEL_TASK_TYPE(1, KERNEL_TYPE_MIX_AIC_1_1);
    Vec(x);
}
// Cube code reached only through a function pointer.
__aicore__ void (*const PICK[2])(GM_ADDR) = {Vec, Cube};
extern "C" __global__ __aicore__ void through_pointer(GM_ADDR x, int i) { PICK[i & 1](x); }
'''

CUBE_ONLY = r'''
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void matmul_cube_only(GM_ADDR tiling)
{
    TPipe pipe;
    matmul::Matmul<matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tiling);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
}
'''


def kinds(src, name):
    b = arc.Program(src, name).compile(["--npu-arch=dav-2201"])
    return {k.name: (k.ktype, k.uses) for k in b.meta.kernels}


def test_inference_rules():
    k = kinds(KINDS, "kinds.cpp")
    assert k["scalar_only"] == (AIV_ONLY, 0)
    assert k["vec_only"] == (AIV_ONLY, VEC)
    assert k["cube_only"] == (AIC_ONLY, CUBE)             # through a noinline helper
    assert k["cube_and_vec"] == (MIX_1_2, CUBE | VEC)     # both branches count, as both binaries do on CANN
    assert k["matmul_api"][0] == MIX_1_2 and k["matmul_api"][1] & MATMUL
    assert k["written_aiv"] == (AIV_ONLY, CUBE | VEC | WRITTEN)
    assert k["written_per_key"] == (4, VEC | WRITTEN)
    # an indirect call may reach every function whose address is taken (here the other kernels too)
    assert k["through_pointer"][0] == MIX_1_2 and k["through_pointer"][1] & (CUBE | VEC) == CUBE | VEC
    assert kinds(CUBE_ONLY, "cube_only.cpp")["matmul_cube_only"] == (AIC_ONLY, CUBE)


QUALIFIED = KINDS.split("extern \"C\"")[0] + r'''
extern "C" __global__ __cube__ void q_cube(GM_ADDR x) { Vec(x); }
extern "C" __global__ __vector__ void q_vector(GM_ADDR x) { Cube(x); Vec(x); }
extern "C" __global__ __mix__(1, 1) void q_mix_1_1(GM_ADDR x) { Vec(x); }
extern "C" __global__ __mix__(1, 2) void q_mix_1_2(GM_ADDR x) { Vec(x); }
extern "C" __global__ __mix__(1, 0) void q_mix_aic(GM_ADDR x) { Cube(x); }
extern "C" __global__ __mix__(0, 1) void q_mix_aiv(GM_ADDR x) { Vec(x); }
extern "C" __global__ __vector__ void q_both(GM_ADDR x)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);   // the macro wins over the qualifier
    Cube(x);
}
'''


def test_qualifiers_set_the_kernel_type():
    k = kinds(QUALIFIED, "qualified.cpp")
    assert k["q_cube"] == (AIC_ONLY, VEC | WRITTEN)     # the qualifier, not what the code uses
    assert k["q_vector"] == (AIV_ONLY, CUBE | VEC | WRITTEN)
    assert k["q_mix_1_1"][0] == 4 and k["q_mix_1_2"][0] == MIX_1_2
    assert k["q_mix_aic"][0] == 3 and k["q_mix_aiv"][0] == 2
    assert k["q_both"][0] == AIC_ONLY


def test_mix_ratio_outside_the_documented_set_is_a_compile_error():
    src = '#include "kernel_operator.h"\nextern "C" __global__ __mix__(2, 1) void k(GM_ADDR x) {}\n'
    with pytest.raises(arc.CompileError) as ei:
        arc.Program(src, "bad_mix.cpp").compile(["--npu-arch=dav-2201"])
    assert "__mix__(cube, vec): the ratio must be (1, 0), (0, 1), (1, 1) or (1, 2)" in ei.value.log
    assert kinds(QUALIFIED, "qualified.cpp")["q_cube"][0] == AIC_ONLY   # the next compile is fine


# A Matmul-API kernel written as the samples write it (no kernel type, tiles
# by GetBlockIdx() over usedCoreNum), which also records each side's block
# queries before REGIST_MATMUL_OBJ (where a MIX kernel's AIC stops to serve).
MM = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
#include "mm_tile.h"
using HalfMatmul = matmul::Matmul<matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                                  matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                                  matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>>;
template <typename T> __aicore__ inline GlobalTensor<T> Gm(GM_ADDR p)
{
    GlobalTensor<T> g; g.SetGlobalBuffer((__gm__ T *)p); return g;
}
extern "C" __global__ __aicore__ void mm_ids(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR ids, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, tl, tiling);
    TCubeTiling t = tl;
    GlobalTensor<int32_t> o; o.SetGlobalBuffer((__gm__ int32_t *)ids);
    int row = ASCEND_IS_AIC ? (int)GetBlockIdx() : 64 + (int)GetBlockIdx();
    o.SetValue(row * 4 + 0, (int32_t)GetBlockIdx());
    o.SetValue(row * 4 + 1, (int32_t)GetBlockNum());
    o.SetValue(row * 4 + 2, (int32_t)GetSubBlockIdx());
    o.SetValue(row * 4 + 3, (int32_t)GetTaskRation());
    TPipe pipe;
    HalfMatmul mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    MatmulTile(mm, t, Gm<half>(a), Gm<half>(b), Gm<float>(c));
}
extern "C" __global__ __aicore__ void mm_aiv_only(GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tiling);
    TPipe pipe;
    HalfMatmul mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
}
'''
rng = np.random.default_rng(27)
M, N, K = 192, 256, 64


@pytest.fixture(scope="module")
def mod():
    return dev.load(MM, "mm_ids.cpp", headers=MM_TILE)


def operands(cores):
    a = rng.integers(-3, 4, (M, K)).astype(np.float16)
    b = rng.integers(-3, 4, (K, N)).astype(np.float16)
    return a, b, mt.tiling(M, N, K, cores=cores)


def check_ids(ids, blocks):
    for blk in range(blocks):
        assert list(ids[blk]) == [blk, blocks, 0, 1]                       # the AIC
        for sub in range(2):
            assert list(ids[64 + 2 * blk + sub]) == [2 * blk + sub, blocks, sub, 2]   # its AIVs


def test_mix_launch_computes_all_of_c_and_answers_block_queries(mod):
    a, b, t = operands(cores=6)
    blocks = (t.usedCoreNum + 1) // 2          # as the samples' main.cpp launches
    c = np.full((M, N), np.nan, np.float32)
    ids = np.full((128, 4), -1, np.int32)
    mod.get_kernel("mm_ids")[blocks](a, b, c, ids, t.array())
    arc.synchronize()
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))
    check_ids(ids, blocks)
    assert (ids[blocks:64] == -1).all() and (ids[64 + 2 * blocks:] == -1).all()


def test_too_few_blocks_for_the_tiling_is_refused(mod):
    a, b, t = operands(cores=8)
    assert t.usedCoreNum > 2
    c = np.zeros((M, N), np.float32)
    with pytest.raises(arc.Error) as e:
        mod.get_kernel("mm_ids")[1](a, b, c, np.zeros((128, 4), np.int32), t.array())
        arc.synchronize()
    msg = str(e.value)
    assert "mm_ids" in msg and f"TCubeTiling.usedCoreNum is {t.usedCoreNum}" in msg
    assert "1 blocks x 2 AIVs = 2 vector cores" in msg and f"launch (usedCoreNum + 1) / 2 = {(t.usedCoreNum + 1) // 2}" in msg
    test_mix_launch_computes_all_of_c_and_answers_block_queries(mod)


def test_mix_beyond_the_ai_cores_is_refused(mod):
    a, b, t = operands(cores=2)
    with pytest.raises(arc.Error) as e:
        mod.get_kernel("mm_ids")[25](a, b, np.zeros((M, N), np.float32), np.zeros((128, 4), np.int32), t.array())
    msg = str(e.value)
    assert "'mm_ids' is a MIX kernel (KERNEL_TYPE_MIX_AIC_1_2, inferred from its use of the Matmul API" in msg
    assert "25 blocks" in msg and "24 AI cores" in msg
    test_mix_launch_computes_all_of_c_and_answers_block_queries(mod)


def test_matmul_api_in_an_aiv_only_kernel_is_refused(mod):
    _, _, t = operands(cores=2)
    with pytest.raises(arc.Error) as e:
        mod.get_kernel("mm_aiv_only")[1](t.array())
        arc.synchronize()
    assert "mm_aiv_only" in str(e.value) and "KERNEL_TYPE_AIV_ONLY" in str(e.value)


def test_c_api_path():
    """aclrtc compiles it, aclrtLaunchKernel launches it as MIX: all of C."""
    import ctypes
    blob, _prog = acl.compile_binary(MM, name="mm_ids.cpp", headers=MM_TILE)
    meta = acl.read_meta(blob)
    k = {k["name"]: k for k in meta["kernels"]}["mm_ids"]
    assert (k["ktype"], k["uses"] & MATMUL) == (MIX_1_2, MATMUL)
    rc, binh = rt.load(blob)
    rt.ok(rc)
    f = rt.function(binh, "mm_ids")
    a, b, t = operands(cores=4)
    blocks = (t.usedCoreNum + 1) // 2
    bufs = [rt.to_dev(x) for x in (a, b, np.full((M, N), np.nan, np.float32), np.full((128, 4), -1, np.int32),
                                   t.array())]
    rt.ok(rt.launch(f, blocks, [ctypes.c_void_p(p) for p in bufs]))
    rt.ok(rt.lib().aclrtSynchronizeDevice())
    c = rt.from_dev(bufs[2], np.zeros((M, N), np.float32))
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))
    check_ids(rt.from_dev(bufs[3], np.zeros((128, 4), np.int32)), blocks)
