"""Copies out of L0C under the atomic mode (dav-2201): SetAtomicAdd/Max makes
"every later copy whose destination is GM" combine with what GM holds
(asc-devkit docs, SetAtomicAdd), the Fixpipe and the block-mode DataCopy
of L0C fractals included.  Split-k as CATLASS's single-core split-k matmul
does it (k slices of one C tile accumulated in GM, on one core and across
cores), against NumPy; integer-valued data keep every sum exact, so the
order in which cores land does not matter."""

import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

# A is (32, 32 S) half, B given as (N, K) = (32, 32 S); slice s of k makes a
# 32x32 float partial in L0C, copied to C (32x32) under `mode` (0 none,
# 1 add, 2 max).  `all_slices` 1: this block runs every slice in turn;
# 0: block i runs slice i.  `how` 0: Fixpipe NZ -> ND float, 1: Fixpipe
# F322F16 to half, 2: block-mode DataCopy of the four raw fractals.
SRC = r'''
using namespace AscendC;
template <typename TD>
__aicore__ inline void SplitK(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t S, uint32_t mode, uint32_t all_slices,
                              uint32_t how)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GlobalTensor<half> ga, gb; GlobalTensor<TD> gc;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b); gc.SetGlobalBuffer((__gm__ TD *)c);
    TPipe pipe; TBuf<TPosition::A1> a1, b1; TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2; TBuf<TPosition::CO1> c1;
    pipe.InitBuffer(a1, 2048); pipe.InitBuffer(b1, 2048); pipe.InitBuffer(a2, 2048); pipe.InitBuffer(b2, 2048);
    pipe.InitBuffer(c1, 4096);
    LocalTensor<half> la1 = a1.Get<half>(), lb1 = b1.Get<half>(), la2 = a2.Get<half>(), lb2 = b2.Get<half>();
    LocalTensor<float> lc = c1.Get<float>();
    uint32_t lo = all_slices ? 0 : GetBlockIdx(), hi = all_slices ? S : GetBlockIdx() + 1;
    for (uint32_t s = lo; s < hi; s++) {
        DataCopy(la1, ga[s * 32], Nd2NzParams(1, 32, 32, 0, 32 * S, 32, 1, 0));
        DataCopy(lb1, gb[s * 32], Nd2NzParams(1, 32, 32, 0, 32 * S, 32, 1, 0));
        PipeBarrier<PIPE_ALL>();
        for (int i = 0; i < 2; i++) LoadData(la2[i * 512], la1[i * 256], LoadData2DParams(0, 2, 2, 0, 0, false, 0));
        LoadData(lb2, lb1, LoadData2DParams(0, 4, 1, 0, 0, false, 0));
        PipeBarrier<PIPE_ALL>();
        MmadParams mp; mp.m = 32; mp.n = 32; mp.k = 32;
        Mmad(lc, la2, lb2, mp);
        PipeBarrier<PIPE_ALL>();
        if (mode == 1) SetAtomicAdd<TD>();
        else if (mode == 2) SetAtomicMax<TD>();
        if constexpr (sizeof(TD) == 4) {   // the block-mode copy keeps L0C's type
            if (how == 2) {
                DataCopyEnhancedParams e; e.blockMode = BlockMode::BLOCK_MODE_MATRIX;
                DataCopy(gc, lc, DataCopyParams(1, 4, 0, 0), e);
            }
        }
        if (how != 2) {
            FixpipeParamsV220 fp(32, 32, 32, 32, false);
            if (how == 1) fp.quantPre = QuantMode_t::F322F16;
            Fixpipe(gc, lc, fp);
        }
        PipeBarrier<PIPE_ALL>();
        SetAtomicNone();
    }
}
extern "C" __global__ __aicore__ void splitk_f32(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t S, uint32_t mode,
                                                 uint32_t all_slices, uint32_t how)
{ SplitK<float>(a, b, c, S, mode, all_slices, how); }
extern "C" __global__ __aicore__ void splitk_f16(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t S, uint32_t mode,
                                                 uint32_t all_slices, uint32_t how)
{ SplitK<half>(a, b, c, S, mode, all_slices, how); }
'''

rng = np.random.default_rng(27)


@pytest.fixture(scope="module")
def mod():
    return dev.program([SRC])


def partials(S):
    a = rng.integers(-4, 5, (32, 32 * S)).astype(np.float16)
    bt = rng.integers(-4, 5, (32, 32 * S)).astype(np.float16)
    af, bf = a.astype(np.float32), bt.astype(np.float32)
    return a, bt, [af[:, s * 32:(s + 1) * 32] @ bf[:, s * 32:(s + 1) * 32].T for s in range(S)]


def launch(mod, kernel, a, bt, c, S, mode, all_slices, how=0):
    mod.get_kernel(kernel)[1 if all_slices else S](a, bt, c, np.uint32(S), np.uint32(mode), np.uint32(all_slices),
                                                   np.uint32(how))
    arc.synchronize()


@pytest.mark.parametrize("all_slices", [1, 0], ids=["one_core", "cores"])
def test_fixpipe_atomic_add_splitk(mod, all_slices):
    S = 3
    a, bt, ps = partials(S)
    c0 = rng.integers(-50, 50, (32, 32)).astype(np.float32)    # what GM held: added to, not overwritten
    c = c0.copy()
    launch(mod, "splitk_f32", a, bt, c, S, 1, all_slices)
    np.testing.assert_array_equal(c, c0 + sum(ps))


def test_fixpipe_without_atomic_overwrites(mod):
    S = 3
    a, bt, ps = partials(S)
    c = rng.integers(-50, 50, (32, 32)).astype(np.float32)
    launch(mod, "splitk_f32", a, bt, c, S, 0, 1)
    np.testing.assert_array_equal(c, ps[-1])                   # SetAtomicNone: the last slice's copy wins


def test_fixpipe_atomic_max(mod):
    S = 3
    a, bt, ps = partials(S)
    c0 = np.full((32, 32), -1.0e4, np.float32)
    c = c0.copy()
    launch(mod, "splitk_f32", a, bt, c, S, 2, 0)
    np.testing.assert_array_equal(c, np.maximum.reduce(ps))


def test_fixpipe_f16_atomic_add(mod):
    S = 2
    a, bt, ps = partials(S)
    c0 = rng.integers(-50, 50, (32, 32)).astype(np.float16)
    c = c0.copy()
    launch(mod, "splitk_f16", a, bt, c, S, 1, 0, how=1)
    np.testing.assert_array_equal(c, (c0.astype(np.float32) + ps[0] + ps[1]).astype(np.float16))


def test_block_mode_copy_atomic_add(mod):
    S = 2
    a, bt, ps = partials(S)
    c = np.ones(32 * 32, np.float32)
    launch(mod, "splitk_f32", a, bt, c, S, 1, 1, how=2)
    nz = (ps[0] + ps[1]).reshape(32, 2, 16).transpose(1, 0, 2).ravel()   # L0C's fractals: column block, row, column
    np.testing.assert_array_equal(c, 1 + nz)
