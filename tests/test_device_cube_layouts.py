"""Cube unit layouts beyond the basic matmul: the img2col 3D load
(LoadData3DParamsV2) into L0A, Fixpipe keeping NZ (CFG_NZ), the block-mode
DataCopy of L0C fractals, and GEMV (m = 1 reads L0A as a plain row),
against NumPy models of the layouts of "Cube unit" in csrc/device/README.md."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev
from helpers.cube_kernels import CUBE_HELPERS

SRC = r'''
using namespace AscendC;
// helpers/cube_kernels.py's Img2col with every field in the params -> L0A raw.
extern "C" __global__ __aicore__ void img2col(GM_ADDR x, GM_ADDR y, uint32_t H, uint32_t W, uint32_t mode)
{
    Img2col(x, y, H, W, mode);   // 0: fields set one by one, 3: LoadData3DParamsV2's constructor
}
// 32x32x32 half tile (B as (N, K)); the L0C tile out as NZ (CFG_NZ) and by block-mode DataCopy.
extern "C" __global__ __aicore__ void nz_out(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR d)
{
    GlobalTensor<float> gc, gd;
    gc.SetGlobalBuffer((__gm__ float *)c); gd.SetGlobalBuffer((__gm__ float *)d);
    TPipe pipe; Tile32 t; t.Load(pipe, a, b);
    MmadParams p; p.m = 32; p.n = 32; p.k = 32;
    Mmad(t.lc, t.la2, t.lb2, p); PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 f(32, 32, 32, 64, false);   // NZ out: column blocks 64 x 32 B (32 rows of 16 floats) apart
    Fixpipe<float, float, CFG_NZ>(gc, t.lc, f);
    DataCopyEnhancedParams e; e.blockMode = BlockMode::BLOCK_MODE_MATRIX;
    DataCopy(gd, t.lc, DataCopyParams(2, 1, 1, 1), e); PipeBarrier<PIPE_ALL>();   // fractals 0 and 2 -> slots 0 and 2
}
// GEMV: one row of K halves straight from GM into L0A (2D load), B (N, K).
extern "C" __global__ __aicore__ void gemv(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    GlobalTensor<half> ga, gb; GlobalTensor<float> gc;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b); gc.SetGlobalBuffer((__gm__ float *)c);
    TPipe pipe; TBuf<TPosition::B1> b1; TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2; TBuf<TPosition::CO1> c1;
    pipe.InitBuffer(b1, 8192); pipe.InitBuffer(a2, 512); pipe.InitBuffer(b2, 8192); pipe.InitBuffer(c1, 4096);
    LocalTensor<half> lb1 = b1.Get<half>(), la2 = a2.Get<half>(), lb2 = b2.Get<half>();
    LocalTensor<float> lc = c1.Get<float>();
    LoadData(la2, ga, LoadData2DParams(0, 1, 1, 0, 0, false, 0)); PipeBarrier<PIPE_ALL>();        // 256 halves: a plain row
    DataCopy(lb1, gb, Nd2NzParams(1, 48, 64, 0, 64, 48, 1, 0)); PipeBarrier<PIPE_ALL>();
    LoadData(lb2, lb1, LoadData2DParams(0, 12, 1, 0, 0, false, 0)); PipeBarrier<PIPE_ALL>();
    MmadParams p; p.m = 1; p.n = 48; p.k = 64;
    Mmad(lc, la2, lb2, p); PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 f(48, 1, 16, 48, false);
    Fixpipe(gc, lc, f); PipeBarrier<PIPE_ALL>();
}
'''


@pytest.fixture(scope="module")
def mod():
    return dev.program([CUBE_HELPERS, SRC])


rng = np.random.default_rng(9)


@pytest.mark.parametrize("mode", [0, 3], ids=["fields", "constructor"])
def test_img2col_to_l0a(mod, mode):
    H, W = 5, 6
    x = rng.integers(-9, 9, (H, W, 16)).astype(np.float16)
    y = np.zeros(32 * 144, np.float16)
    mod.get_kernel("img2col")[1](x, y, np.uint32(H), np.uint32(W), np.uint32(mode))
    arc.synchronize()
    xp = np.full((H + 2, W + 2, 16), -1, np.float16)
    xp[1:-1, 1:-1] = x
    want = np.zeros((H * W, 144), np.float16)          # rows: oh * W + ow; cols ((kh * 3 + kw) * 16 + c0)
    for oh in range(H):
        for ow in range(W):
            want[oh * W + ow] = xp[oh:oh + 3, ow:ow + 3].reshape(-1)
    zz = y.reshape(2, 9, 16, 16)                        # (M1, K1, 16, C0)
    got = zz.transpose(0, 2, 1, 3).reshape(32, 144)
    np.testing.assert_array_equal(got[:H * W], want)


def test_fixpipe_nz_and_block_copy(mod):
    a = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 32)).astype(np.float16)     # (N, K)
    acc = a.astype(np.float32) @ b.astype(np.float32).T
    c = np.zeros(32 * 32, np.float32)
    d = np.full(4 * 256, -5, np.float32)
    mod.get_kernel("nz_out")[1](a, b, c, d)
    arc.synchronize()
    nz = acc.reshape(32, 2, 16).transpose(1, 0, 2)           # (N1, M, 16): L0C's NZ
    np.testing.assert_array_equal(c.reshape(2, 32, 16), nz)
    fr = nz.reshape(2, 2, 16, 16).reshape(4, 256)            # fractals in L0C order
    got = d.reshape(4, 256)
    np.testing.assert_array_equal(got[0], fr[0])
    np.testing.assert_array_equal(got[2], fr[2])
    assert (got[1] == -5).all() and (got[3] == -5).all()


def test_gemv_reads_a_plain_row(mod):
    a = rng.integers(-4, 5, 256).astype(np.float16)          # only the first 64 are used (k = 64)
    b = rng.integers(-4, 5, (48, 64)).astype(np.float16)
    c = np.zeros(48, np.float32)
    mod.get_kernel("gemv")[1](a, b, c)
    arc.synchronize()
    np.testing.assert_array_equal(c, b.astype(np.float32) @ a[:64].astype(np.float32))
