"""Cube unit: the transposing 3D loads (LoadData3DParamsV2 with a 1x1
filter, dav-2201): to L0B (always transposed) and to L0A with enTranspose,
b16 and b32, read back raw and against NumPy models of the layouts that
asc-devkit's load_data_l12l0 example (scripts/load3d.py) describes: to
L0B the img2col window X (mExtension x kExtension) lands as B with K = the
m axis, in ZN fractals (16 columns of X by C0 rows, kExtension padded to
16 and the pad not written); to L0A transposed, X^T as A.  Then B loaded
that way into a float Mmad (asc-devkit's batch_matmul computes so), against
NumPy's matmul."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
// L1 <- x (C1 x H x W x C0, NC1HWC0 with N = 1); a 1x1-filter 3D load of the window
// [mStart, +mExt) x [0, kExt) into L0B (toB) or, transposed, L0A; that buffer back raw.
template <typename T>
__aicore__ inline void Raw(GM_ADDR x, GM_ADDR y, uint32_t H, uint32_t W, uint32_t C1, uint32_t mStart,
                           uint32_t mExt, uint32_t kExt, uint32_t toB)
{
    constexpr uint32_t C0 = 32 / sizeof(T);
    GlobalTensor<T> gx, gy; gx.SetGlobalBuffer((__gm__ T *)x); gy.SetGlobalBuffer((__gm__ T *)y);
    TPipe pipe; TBuf<TPosition::A1> l1; TBuf<TPosition::A2> l0a; TBuf<TPosition::B2> l0b;
    pipe.InitBuffer(l1, 16384); pipe.InitBuffer(l0a, 8192); pipe.InitBuffer(l0b, 8192);
    LocalTensor<T> s = l1.Get<T>(), d = toB ? l0b.Get<T>() : l0a.Get<T>();
    DataCopy(s, gx, C1 * H * W * C0); PipeBarrier<PIPE_ALL>();
    LoadData2DParams fill(0, 16, 0, 0, 0, false, 0);     // L0 first set from a known fractal: x's first 512 bytes
    LoadData(d, s, fill); PipeBarrier<PIPE_ALL>();
    LoadData3DParamsV2<T> p;
    p.l1H = H; p.l1W = W; p.channelSize = C1 * C0; p.kExtension = kExt; p.mExtension = mExt; p.mStartPt = mStart;
    p.enTranspose = !toB;
    LoadData(d, s, p); PipeBarrier<PIPE_ALL>();
    DataCopy(gy, d, 8192 / sizeof(T)); PipeBarrier<PIPE_ALL>();
}
extern "C" __global__ __aicore__ void raw_h(GM_ADDR x, GM_ADDR y, uint32_t H, uint32_t W, uint32_t C1, uint32_t m0,
                                            uint32_t me, uint32_t ke, uint32_t b)
{ Raw<half>(x, y, H, W, C1, m0, me, ke, b); }
extern "C" __global__ __aicore__ void raw_f(GM_ADDR x, GM_ADDR y, uint32_t H, uint32_t W, uint32_t C1, uint32_t m0,
                                            uint32_t me, uint32_t ke, uint32_t b)
{ Raw<float>(x, y, H, W, C1, m0, me, ke, b); }

// C (M x N) = A (M x K) B (K x N), float, M = 32, K = 40, N = 24: A by ND -> NZ and 2D loads,
// B by ND -> NZ (rows K padded to 48) and one 3D load to L0B, Fixpipe to GM.
extern "C" __global__ __aicore__ void mm_f32_load3d(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    constexpr uint32_t M = 32, K = 40, N = 24, KP = 48;
    GlobalTensor<float> ga, gb, gc;
    ga.SetGlobalBuffer((__gm__ float *)a); gb.SetGlobalBuffer((__gm__ float *)b); gc.SetGlobalBuffer((__gm__ float *)c);
    TPipe pipe; TBuf<TPosition::A1> a1, b1; TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2; TBuf<TPosition::CO1> c1;
    pipe.InitBuffer(a1, 8192); pipe.InitBuffer(b1, 8192); pipe.InitBuffer(a2, 8192); pipe.InitBuffer(b2, 8192);
    pipe.InitBuffer(c1, 8192);
    LocalTensor<float> la1 = a1.Get<float>(), lb1 = b1.Get<float>(), la2 = a2.Get<float>(), lb2 = b2.Get<float>();
    LocalTensor<float> lc = c1.Get<float>();
    Duplicate(lb1, 0.0f, KP * N); PipeBarrier<PIPE_ALL>();
    DataCopy(la1, ga, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    DataCopy(lb1, gb, Nd2NzParams(1, K, N, 0, N, KP, 1, 0)); PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < M / 16; i++)                  // NZ -> ZZ, one row of fractals at a time
        LoadData(la2[i * 5 * 128], la1[i * 128], LoadData2DParams(0, 5, M / 16, 0, 0, false, 0));
    LoadData3DParamsV2<float> p;
    p.l1H = KP; p.l1W = 1; p.channelSize = N; p.kExtension = N; p.mExtension = KP;
    LoadData(lb2, lb1, p); PipeBarrier<PIPE_ALL>();
    MmadParams mp; mp.m = M; mp.n = N; mp.k = K;
    Mmad(lc, la2, lb2, mp); PipeBarrier<PIPE_ALL>();
    Fixpipe(gc, lc, FixpipeParamsV220(N, M, M, N, false)); PipeBarrier<PIPE_ALL>();
}
'''

rng = np.random.default_rng(7)


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "load3d_t.asc").compile(["--npu-arch=dav-2201"]).load()


def window(x, m0, me, ke):
    """The img2col matrix of a 1x1 filter: rows = pixels, columns = channels."""
    c1, h, w, c0 = x.shape
    X = x.transpose(1, 2, 0, 3).reshape(h * w, c1 * c0)
    return X[m0:m0 + me, :ke]


def to_l0b(X, c0):
    """X as B (K = rows): ZN fractals of 16 columns by c0 rows, columns padded to 16."""
    me, ke = X.shape
    kp = (ke + 15) // 16 * 16
    Xp = np.zeros((me, kp), X.dtype)
    Xp[:, :ke] = X
    out = Xp.reshape(me // c0, c0, kp).transpose(0, 2, 1)          # (row block, column, row in block)
    written = np.zeros((me, kp), bool)
    written[:, :ke] = True
    return out.reshape(-1), written.reshape(me // c0, c0, kp).transpose(0, 2, 1).reshape(-1)


def to_l0a_t(X, c0):
    """X^T as A: fractals of 16 columns of X by c0 rows, column blocks outermost."""
    me, ke = X.shape
    kp = (ke + 15) // 16 * 16
    Xp = np.zeros((me, kp), X.dtype)
    Xp[:, :ke] = X
    out = Xp.reshape(me // c0, c0, kp // 16, 16).transpose(2, 0, 3, 1)   # (col block, row block, col, row)
    written = np.zeros((me, kp), bool)
    written[:, :ke] = True
    return out.reshape(-1), written.reshape(me // c0, c0, kp // 16, 16).transpose(2, 0, 3, 1).reshape(-1)


CASES = [("raw_h", np.float16, 16, 3, 1), ("raw_h", np.float16, 16, 3, 0),
         ("raw_f", np.float32, 8, 3, 1), ("raw_f", np.float32, 8, 3, 0)]


@pytest.mark.parametrize("kern,dt,c0,c1,to_b", CASES, ids=["b16_L0B", "b16_L0A_T", "b32_L0B", "b32_L0A_T"])
def test_transposing_3d_load(mod, kern, dt, c0, c1, to_b):
    H, W, m0, me = 8, 8, 16, 32
    ke = c1 * c0                          # b32: 24 columns, padded to 32 (the pad keeps what was there)
    x = rng.integers(-50, 50, (c1, H, W, c0)).astype(dt)
    y = np.zeros(8192 // np.dtype(dt).itemsize, dt)
    mod.get_kernel(kern)[1](x, y, *(np.uint32(v) for v in (H, W, c1, m0, me, ke, to_b)))
    arc.synchronize()
    want, written = (to_l0b if to_b else to_l0a_t)(window(x, m0, me, ke), c0)
    before = np.tile(x.reshape(-1)[:512 // np.dtype(dt).itemsize], 16)[:want.size]   # the fill: fractal 0 of x, 16 times
    np.testing.assert_array_equal(y[:want.size], np.where(written, want, before))


def test_float_mmad_with_b_by_3d_load(mod):
    M, K, N = 32, 40, 24
    a = rng.integers(-8, 9, (M, K)).astype(np.float32)
    b = rng.integers(-8, 9, (K, N)).astype(np.float32)
    c = np.zeros((M, N), np.float32)
    mod.get_kernel("mm_f32_load3d")[1](a, b, c)
    arc.synchronize()
    np.testing.assert_array_equal(c, a @ b)
