"""MIX kernels (KERNEL_TYPE_MIX_AIC_1_2 / 1_1): each block runs an AIC and
its AIVs with the indices the facts give (GetBlockIdx, GetBlockNum,
GetSubBlockIdx, GetTaskRatio), CrossCoreSetFlag/WaitFlag modes 1 and 2
order them (the C API's asc_sync_block_arrive/_wait are mode 2; mode 0:
tests/test_cross_core_mode0.py), waits nothing can satisfy fail with every core's position,
and a MIX Matmul kernel's AIC only serves (its AIVs compute)."""
import re

import numpy as np
import pytest

import ascendrtc as arc
import ascendrtc.matmul_tiling as mt
from helpers.cube_mm import MM_TILE
from helpers import dev

SRC = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "c_api/asc_simd.h"
using namespace AscendC;
#include "mm_tile.h"

__aicore__ inline void Ids(GM_ADDR out)
{
    GlobalTensor<int32_t> o; o.SetGlobalBuffer((__gm__ int32_t *)out);
    int slot = ASCEND_IS_AIC ? 0 : 1 + (int)GetSubBlockIdx();
    int base = (GetBlockIdx() / (ASCEND_IS_AIV ? GetTaskRatio() : 1)) * 3 + slot;
    o.SetValue(base * 4 + 0, (int32_t)GetBlockIdx());
    o.SetValue(base * 4 + 1, (int32_t)GetBlockNum());
    o.SetValue(base * 4 + 2, (int32_t)GetSubBlockIdx());
    o.SetValue(base * 4 + 3, (int32_t)GetTaskRatio() * 10 + (ASCEND_IS_AIC ? 1 : 0));
}
extern "C" __global__ __aicore__ void ids12(GM_ADDR out) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2); Ids(out); }
extern "C" __global__ __aicore__ void ids11(GM_ADDR out) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1); Ids(out); }

// AIVs publish values, the AIC (which runs first) must wait for both before
// summing them; then the AIVs wait for the AIC's sum.
extern "C" __global__ __aicore__ void handshake(GM_ADDR ws, GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<int32_t> w, o; w.SetGlobalBuffer((__gm__ int32_t *)ws); o.SetGlobalBuffer((__gm__ int32_t *)out);
    int b = ASCEND_IS_AIC ? GetBlockIdx() : GetBlockIdx() / 2;
    if ASCEND_IS_AIC {
        CrossCoreWaitFlag(1);
        w.SetValue(b * 4 + 2, w.GetValue(b * 4) + w.GetValue(b * 4 + 1));
        DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(w);  // scalar writes leave the data cache
        CrossCoreSetFlag<2, PIPE_S>(2);
    }
    if ASCEND_IS_AIV {
        w.SetValue(b * 4 + GetSubBlockIdx(), 100 * b + 7 * (GetSubBlockIdx() + 1));
        DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(w);
        CrossCoreSetFlag<2, PIPE_MTE3>(1);
        CrossCoreWaitFlag(2);
        o.SetValue(GetBlockIdx(), w.GetValue(b * 4 + 2));
    }
}
// The same in the C API's spelling (asc_sync_block_arrive / _wait: mode 2).
extern "C" __global__ __aicore__ void capi_handshake(GM_ADDR ws, GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<int32_t> w, o; w.SetGlobalBuffer((__gm__ int32_t *)ws); o.SetGlobalBuffer((__gm__ int32_t *)out);
    int b = ASCEND_IS_AIC ? GetBlockIdx() : GetBlockIdx() / 2;
    if ASCEND_IS_AIC {
        asc_sync_block_wait(PIPE_S, 1);
        w.SetValue(b * 4 + 2, w.GetValue(b * 4) + w.GetValue(b * 4 + 1));
        DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(w);
        asc_sync_block_arrive(PIPE_S, 2);
    }
    if ASCEND_IS_AIV {
        w.SetValue(b * 4 + GetSubBlockIdx(), 100 * b + 7 * (GetSubBlockIdx() + 1));
        DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(w);
        asc_sync_block_arrive(PIPE_MTE3, 1);
        asc_sync_block_wait(PIPE_S, 2);
        o.SetValue(GetBlockIdx(), w.GetValue(b * 4 + 2));
    }
}
// mode 1: the two AIVs meet; each reads what the other wrote before.
extern "C" __global__ __aicore__ void aiv_barrier(GM_ADDR ws, GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<int32_t> w, o; w.SetGlobalBuffer((__gm__ int32_t *)ws); o.SetGlobalBuffer((__gm__ int32_t *)out);
    if ASCEND_IS_AIV {
        w.SetValue(GetBlockIdx(), (int32_t)GetBlockIdx() + 1);
        DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(w);
        CrossCoreSetFlag<1, PIPE_MTE3>(4);
        CrossCoreWaitFlag(4);
        o.SetValue(GetBlockIdx(), w.GetValue(GetBlockIdx() ^ 1));
    }
}
// The AIC waits for a flag nobody sets.
extern "C" __global__ __aicore__ void stuck(GM_ADDR ws, GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIC { CrossCoreWaitFlag(5); }
    if ASCEND_IS_AIV { if (GetSubBlockIdx() == 1) CrossCoreWaitFlag(6); }
}
// Matmul API in a MIX kernel (no ASCENDC_CUBE_ONLY): the AIC serves, the
// 2n AIVs compute their tiles.
extern "C" __global__ __aicore__ void mm_mix(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR marks, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    TCubeTiling t;
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, tl, tiling);
    t = tl;
    TPipe pipe;
    GlobalTensor<half> ga, gb; GlobalTensor<float> gc; GlobalTensor<int32_t> gm;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b); gc.SetGlobalBuffer((__gm__ float *)c);
    gm.SetGlobalBuffer((__gm__ int32_t *)marks);
    matmul::Matmul<matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    gm.SetValue(GetBlockIdx() * 2 + (ASCEND_IS_AIC ? 1 : 0), 1);   // only AIVs get here
    MatmulTile(mm, t, ga, gb, gc);
}
extern "C" __global__ __aicore__ void mode4(GM_ADDR ws, GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIC { CrossCoreSetFlag<4, PIPE_FIX>(8); CrossCoreWaitFlag(8); }
}
extern "C" __global__ __aicore__ void too_many_sets(GM_ADDR ws, GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIC { for (int i = 0; i < 16; i++) CrossCoreSetFlag<2, PIPE_FIX>(1); }
}
extern "C" __global__ __aicore__ void good(GM_ADDR ws, GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<int32_t> o; o.SetGlobalBuffer((__gm__ int32_t *)out);
    if ASCEND_IS_AIC { CrossCoreSetFlag<2, PIPE_FIX>(3); }
    if ASCEND_IS_AIV { CrossCoreWaitFlag(3); o.SetValue(GetBlockIdx(), 1); }
}
'''


@pytest.fixture(scope="module")
def mod():
    return dev.load(SRC, "mix.cpp", headers=MM_TILE)


def run(mod, name, blocks, *arrays):
    mod.get_kernel(name)[blocks](*arrays)
    arc.synchronize()


def test_mix_1_2_indices(mod):
    n = 5
    out = np.full((n, 3, 4), -1, np.int32)
    run(mod, "ids12", n, out)
    for b in range(n):
        assert list(out[b, 0]) == [b, n, 0, 11]              # AIC: block idx, n, sub 0, ratio 1
        assert list(out[b, 1]) == [2 * b, n, 0, 20]          # AIV 0: 2b, n (not 2n), sub 0, ratio 2
        assert list(out[b, 2]) == [2 * b + 1, n, 1, 20]      # AIV 1


def test_mix_1_1_indices(mod):
    n = 3
    out = np.full((n, 3, 4), -1, np.int32)
    run(mod, "ids11", n, out)
    for b in range(n):
        assert list(out[b, 0]) == [b, n, 0, 11]
        assert list(out[b, 1]) == [b, n, 0, 10]
        assert (out[b, 2] == -1).all()                       # no second AIV


@pytest.mark.parametrize("name", ["handshake", "capi_handshake"])
def test_cross_core_mode2_orders_aic_and_aivs(mod, name):
    n = 6
    ws = np.zeros(n * 4, np.int32)
    out = np.zeros(2 * n, np.int32)
    run(mod, name, n, ws, out)
    want = np.repeat([200 * b + 21 for b in range(n)], 2)
    np.testing.assert_array_equal(out, want)


def test_cross_core_mode1_aiv_barrier(mod):
    n = 4
    ws = np.zeros(2 * n, np.int32)
    out = np.zeros(2 * n, np.int32)
    run(mod, "aiv_barrier", n, ws, out)
    np.testing.assert_array_equal(out, (np.arange(2 * n) ^ 1) + 1)


def test_unsatisfiable_wait_reports_positions(mod):
    with pytest.raises(arc.LaunchError) as ei:
        run(mod, "stuck", 2, np.zeros(8, np.int32), np.zeros(8, np.int32))
    msg = str(ei.value)
    assert re.search(r"stuck block \d/2: CrossCoreWaitFlag: the block's cores wait for flags no core will set", msg), msg
    at = {n: next(i for i, ln in enumerate(SRC.splitlines(), 1) if f"CrossCoreWaitFlag({n})" in ln) for n in (5, 6)}
    assert (f"AIC waits in CrossCoreWaitFlag(5) at mix.cpp:{at[5]}; AIV 0 returned; "
            f"AIV 1 waits in CrossCoreWaitFlag(6) at mix.cpp:{at[6]};") in msg, msg
    out = np.zeros(8, np.int32)
    run(mod, "good", 4, np.zeros(8, np.int32), out)
    np.testing.assert_array_equal(out, 1)


def test_matmul_api_in_mix_kernel(mod):
    M, N, K = 128, 96, 64
    rng = np.random.default_rng(3)
    a = rng.integers(-3, 4, (M, K)).astype(np.float16)
    b = rng.integers(-3, 4, (K, N)).astype(np.float16)
    t = mt.tiling(M, N, K, cores=8)            # 8 AIVs: launch 4 blocks of 1 AIC + 2 AIVs
    blocks = -(-t.usedCoreNum // 2)
    c = np.zeros((M, N), np.float32)
    marks = np.zeros((2 * blocks, 2), np.int32)
    run(mod, "mm_mix", blocks, a, b, c, marks, t.array())
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))
    assert (marks[:, 0] == 1).all() and (marks[:, 1] == 0).all()   # AIVs ran on, every AIC stopped at REGIST


@pytest.mark.parametrize("name,pattern", [
    ("mode4", r"mode4 block 0/2 \(AIC\): CrossCoreSetFlag: mode 4 \(flag 8\) is not a mode of Atlas A2"),
    ("too_many_sets", r"too_many_sets block 0/2 \(AIC\): CrossCoreSetFlag: flag 1 was set 15 times"),
])
def test_mix_misuse_reports_and_recovers(mod, name, pattern):
    with pytest.raises(arc.LaunchError, match=pattern):
        run(mod, name, 2, np.zeros(8, np.int32), np.zeros(8, np.int32))
    out = np.zeros(8, np.int32)
    run(mod, "good", 4, np.zeros(8, np.int32), out)
    np.testing.assert_array_equal(out, 1)
