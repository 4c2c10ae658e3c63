"""The Tensor API's convolution path on dav-3510 against a NumPy
convolution: a feature map from GM (NHWC or NCHW) into L1 as NC1HWC0,
Img2Col into L0A (stride, dilation, padding with a pad value, a row count
that is not a multiple of 16), the weights ND -> ZN, Mmad, and the output
to GM as NHWC, NC1HWC0 or NCHW."""
import numpy as np
import pytest

import ascendrtc as arc

H, W, C, CO, KH, KW, S, D, P, PADV = 9, 9, 32, 16, 3, 3, 2, 1, 1, 0.5
HO = (H + 2 * P - D * (KH - 1) - 1) // S + 1
WO = (W + 2 * P - D * (KW - 1) - 1) // S + 1

SRC = r'''#include "tensor_api/tensor.h"
using namespace AscendC::Te;
constexpr int32_t H = %d, W = %d, C = %d, CO = %d, KH = %d, KW = %d, S = %d, D = %d, P = %d;
constexpr int32_t HO = %d, WO = %d, M = HO * WO, MA = (M + 15) / 16 * 16, K = C * KH * KW;
// NCHW_IN: the input is NCHW (else NHWC); OUT: 0 NHWC, 1 NC1HWC0, 2 NCHW
template <bool NCHW_IN, int OUT> __aicore__ inline void conv(__gm__ half *x, __gm__ half *wt, __gm__ float *y)
{
    __cbuf__ half l1x[C * H * W];
    __cbuf__ half l1w[K * CO];
    __ca__ half l0a[MA * K];
    __cb__ half l0b[K * CO];
    __cc__ float l0c[MA * CO];
    auto tX1 = MakeTensor(MakeMemPtr(l1x), MakeFrameLayout<NC1HWC0LayoutPtn>(1, C / 16, H, W, 16));
    if constexpr (NCHW_IN)
        Copy(MakeCopy(CopyGM2L1{}), tX1, MakeTensor(MakeMemPtr(x), MakeFrameLayout<NCHWLayoutPtn>(1, C, H, W)));
    else
        Copy(MakeCopy(CopyGM2L1{}), tX1, MakeTensor(MakeMemPtr(x), MakeFrameLayout<NHWCLayoutPtn>(1, H, W, C)));
    auto tW1 = MakeTensor(MakeMemPtr(l1w), MakeFrameLayout<ZNLayoutPtn, half>(K, CO));
    Copy(MakeCopy(CopyGM2L1{}), tW1, MakeTensor(MakeMemPtr(wt), MakeFrameLayout<NDExtLayoutPtn>(K, CO)));
    AscendC::PipeBarrier<PIPE_ALL>();
    auto tA = MakeTensor(MakeMemPtr(l0a), MakeFrameLayout<NZLayoutPtn, half>(MA, K));
    auto tB = MakeTensor(MakeMemPtr(l0b), MakeFrameLayout<ZNLayoutPtn, half>(K, CO));
    auto tC = MakeTensor(MakeMemPtr(l0c), MakeFrameLayout<NZLayoutPtn>(MA, CO));
    Img2ColParams<half> ip;
    ip.mExtension = M; ip.kExtension = K; ip.filterW = KW; ip.filterH = KH; ip.strideW = S; ip.strideH = S;
    ip.dilationFilterW = D; ip.dilationFilterH = D;
    ip.padList[0] = P; ip.padList[1] = P; ip.padList[2] = P; ip.padList[3] = P;
    ip.padValue = (half)0.5f;
    Copy(MakeCopy(CopyL12L0A{}).with(ip), tA, tX1);
    Copy(MakeCopy(CopyL12L0B{}), tB, tW1);
    AscendC::PipeBarrier<PIPE_ALL>();
    MmadParams mp; mp.m = M; mp.n = CO; mp.k = K; mp.cmatrixInitVal = true;
    Mmad(MakeMmad(MmadOperation{}).with(mp), tC, tA, tB);
    AscendC::PipeBarrier<PIPE_ALL>();
    if constexpr (OUT == 1)
        Copy(MakeCopy(CopyL0C2GM{}), MakeTensor(MakeMemPtr(y), MakeFrameLayout<NC1HWC0LayoutPtn>(1, CO / 16, HO, WO, 16)), tC);
    else if constexpr (OUT == 2)
        Copy(MakeCopy(CopyL0C2GM{}), MakeTensor(MakeMemPtr(y), MakeFrameLayout<NCHWLayoutPtn>(1, CO, HO, WO)), tC);
    else
        Copy(MakeCopy(CopyL0C2GM{}), MakeTensor(MakeMemPtr(y), MakeFrameLayout<NHWCLayoutPtn>(1, HO, WO, CO)), tC);
    AscendC::PipeBarrier<PIPE_ALL>();
}
extern "C" __global__ __cube__ void nhwc(__gm__ half *x, __gm__ half *w, __gm__ float *y) { conv<false, 0>(x, w, y); }
extern "C" __global__ __cube__ void nchw_nz(__gm__ half *x, __gm__ half *w, __gm__ float *y) { conv<true, 1>(x, w, y); }
extern "C" __global__ __cube__ void nhwc_nchw(__gm__ half *x, __gm__ half *w, __gm__ float *y) { conv<false, 2>(x, w, y); }
''' % (H, W, C, CO, KH, KW, S, D, P, HO, WO)


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "te_conv.asc").compile(["--npu-arch=dav-3510"]).load()


def reference(x_hwc, w_ckk):
    """y[oh, ow, co] = sum over c, kh, kw of the padded input times w."""
    xp = np.full((H + 2 * P, W + 2 * P, C), np.float32(np.float16(PADV)), np.float64)
    xp[P:P + H, P:P + W] = x_hwc
    y = np.zeros((HO, WO, CO))
    for oh in range(HO):
        for ow in range(WO):
            win = xp[oh * S:oh * S + D * (KH - 1) + 1:D, ow * S:ow * S + D * (KW - 1) + 1:D]  # KH x KW x C
            y[oh, ow] = np.einsum("hwc,chwo->o", win, w_ckk)
    return y


def weights(rng):
    w = rng.standard_normal((C, KH, KW, CO)).astype(np.float16)
    # K is ordered (C1, KH, KW, C0): row (c1, kh, kw, c0) of the GM matrix
    nd = w.reshape(C // 16, 16, KH, KW, CO).transpose(0, 2, 3, 1, 4).reshape(-1, CO)
    return w, np.ascontiguousarray(nd)


def test_nhwc_in_nhwc_out(mod):
    rng = np.random.default_rng(11)
    x = rng.standard_normal((H, W, C)).astype(np.float16)
    w, wnd = weights(rng)
    y = np.zeros((HO, WO, CO), np.float32)
    mod.get_kernel("nhwc")[1](x, wnd, y)
    arc.synchronize()
    np.testing.assert_allclose(y, reference(x.astype(np.float64), w.astype(np.float64)), rtol=1e-5, atol=1e-3)


def test_nchw_in_nc1hwc0_out(mod):
    rng = np.random.default_rng(12)
    x = rng.standard_normal((C, H, W)).astype(np.float16)
    w, wnd = weights(rng)
    y = np.zeros((CO // 16, HO, WO, 16), np.float32)
    mod.get_kernel("nchw_nz")[1](x, wnd, y)
    arc.synchronize()
    want = reference(x.transpose(1, 2, 0).astype(np.float64), w.astype(np.float64))
    np.testing.assert_allclose(y.transpose(1, 2, 0, 3).reshape(HO, WO, CO), want, rtol=1e-5, atol=1e-3)


def test_nhwc_in_nchw_out(mod):
    rng = np.random.default_rng(14)
    x = rng.standard_normal((H, W, C)).astype(np.float16)
    w, wnd = weights(rng)
    y = np.zeros((CO, HO, WO), np.float32)
    mod.get_kernel("nhwc_nchw")[1](x, wnd, y)
    arc.synchronize()
    want = reference(x.astype(np.float64), w.astype(np.float64))
    np.testing.assert_allclose(y.transpose(1, 2, 0), want, rtol=1e-5, atol=1e-3)
