"""LoadDataWithStride (dav-3510, arc/cube_load3d_stride.h): the 3D load's
img2col window into L0A as Nz with K-adjacent fractals dstStride apart
(SetLoadDataRepeatWithStride), into L0B transposed as Zn, and into L0A with
enTranspose (X^T as A).  A 1x1 filter over an H = 1 feature map is the 2D
move the asc-devkit example makes: A (or A^T) and B sit in L1 as NZ (=
NC1HWC0 with W the rows), the loads feed Mmad, and C matches NumPy's product
of the half inputs; a load before SetLoadDataRepeatWithStride, a dstStride
that would overlap and repeatTime 2 are refused by name."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t M = 32, K = 48, N = 32;

__aicore__ inline LoadData3DParamsV2<half> win(uint16_t w, uint16_t c, bool tr)
{
    LoadData3DParamsV2<half> p;
    p.l1H = 1; p.l1W = w; p.channelSize = c; p.kExtension = c; p.mExtension = w;
    p.strideW = p.strideH = p.filterW = p.filterH = p.dilationFilterW = p.dilationFilterH = 1;
    p.enTranspose = tr;
    return p;
}
extern "C" __global__ __cube__ void mm(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t atr, uint32_t mode)
{
    GlobalTensor<half> ga, gb; ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b);
    GlobalTensor<float> gc; gc.SetGlobalBuffer((__gm__ float *)c);
    LocalTensor<half> a1(TPosition::A1, 0, M * K), b1(TPosition::B1, 8192, K * N);
    LocalTensor<half> a2(TPosition::A2, 0, M * K), b2(TPosition::B2, 0, K * N);
    LocalTensor<float> co1(TPosition::CO1, 0, M * N);
    if (atr)   // A^T (K x M) as NZ: K rows
        DataCopy(a1, ga, Nd2NzParams{1, (uint16_t)K, (uint16_t)M, 0, (uint16_t)M, (uint16_t)K, 1, 0});
    else       // A (M x K) as NZ: M rows
        DataCopy(a1, ga, Nd2NzParams{1, (uint16_t)M, (uint16_t)K, 0, (uint16_t)K, (uint16_t)M, 1, 0});
    DataCopy(b1, gb, Nd2NzParams{1, (uint16_t)K, (uint16_t)N, 0, (uint16_t)N, (uint16_t)K, 1, 0});
    PipeBarrier<PIPE_ALL>();
    LoadDataRepeatParamWithStride r;
    r.repeatTime = mode == 3 ? 2 : 1;
    r.dstStride = mode == 2 ? M / 16 - 1 : M / 16;
    if (mode != 1) SetLoadDataRepeatWithStride(r);
    LoadDataWithStride(a2, a1, atr ? win(K, M, true) : win(M, K, false));
    r.dstStride = N / 16;
    SetLoadDataRepeatWithStride(r);
    LoadDataWithStride(b2, b1, win(K, N, true));
    PipeBarrier<PIPE_ALL>();
    Mmad(co1, a2, b2, MmadParams{(uint16_t)M, (uint16_t)N, (uint16_t)K, 0, false, true});
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> f;
    f.nSize = N; f.mSize = M; f.srcStride = M; f.dstStride = N;
    Fixpipe<float, float, CFG_ROW_MAJOR>(gc, co1, f);
    PipeBarrier<PIPE_ALL>();
}
"""
M, K, N = 32, 48, 32


@pytest.fixture(scope="module")
def kern():
    return arc.Program(SRC, "lds.asc").compile(["--npu-arch=dav-3510"]).load().get_kernel("mm")


@pytest.mark.parametrize("atr", [0, 1])
def test_load_data_with_stride_feeds_mmad(kern, atr):
    rng = np.random.default_rng(atr)
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    c = np.zeros((M, N), np.float32)
    kern[1](np.ascontiguousarray(a.T) if atr else a, b, c, np.uint32(atr), np.uint32(0))
    arc.synchronize()
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode, msg", [(1, "dstStride was never set"), (2, "dstStride 1 fractals is below the 2"),
                                       (3, "repeatTime 2: more than one iteration")])
def test_load_data_with_stride_refusals(kern, mode, msg):
    z = np.zeros(M * K, np.float16)
    with pytest.raises(arc.Error, match=msg):
        kern[1](z, np.zeros(K * N, np.float16), np.zeros(M * N, np.float32), np.uint32(0), np.uint32(mode))
        arc.synchronize()
