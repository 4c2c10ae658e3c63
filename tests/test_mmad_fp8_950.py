"""Mmad on Ascend 950 (dav-3510) with 8-bit floating operands (the Mmad
page's tables 5/6): hifloat8_t x hifloat8_t, fp8_e4m3fn_t / fp8_e5m2_t in
every pairing, into float, with and without a bias row; against NumPy on
the decoded values (helpers/lowp_ref.py).  The operands are laid out on the
host as L0A (Nz: fractal (k / 32) * M1 + m / 16, element (m % 16) * 32 +
k % 32) and L0B (Zn: fractal (k / 32) * N1 + n / 16, element (n % 16) * 32
+ k % 32) and moved there as whole fractals (LoadData2DParamsV2
without transpose); values small enough that every sum is exact.  The
pairings outside the tables do not compile."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import lowp_ref as ref

M, N, K = 32, 32, 64

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
template <typename TA, typename TB>
__aicore__ inline void Mm(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, uint32_t with_bias)
{
    constexpr uint32_t M = 32, N = 32, K = 64;
    GlobalTensor<TA> ga; GlobalTensor<TB> gb; GlobalTensor<float> gbias, gc;
    ga.SetGlobalBuffer((__gm__ TA *)a); gb.SetGlobalBuffer((__gm__ TB *)b);
    gbias.SetGlobalBuffer((__gm__ float *)bias); gc.SetGlobalBuffer((__gm__ float *)c);
    TPipe pipe; TBuf<TPosition::A1> ta1; TBuf<TPosition::B1> tb1; TBuf<TPosition::C1> tbias1;
    TBuf<TPosition::A2> ta2; TBuf<TPosition::B2> tb2; TBuf<TPosition::CO1> tc; TBuf<TPosition::C2> tbt;
    pipe.InitBuffer(ta1, M * K); pipe.InitBuffer(tb1, K * N); pipe.InitBuffer(tbias1, N * 4);
    pipe.InitBuffer(ta2, M * K); pipe.InitBuffer(tb2, K * N); pipe.InitBuffer(tc, M * N * 4); pipe.InitBuffer(tbt, N * 4);
    LocalTensor<TA> a1 = ta1.Get<TA>(), a2 = ta2.Get<TA>();
    LocalTensor<TB> b1 = tb1.Get<TB>(), b2 = tb2.Get<TB>();
    LocalTensor<float> bias1 = tbias1.Get<float>(), bt = tbt.Get<float>(), co1 = tc.Get<float>();
    DataCopy(a1, ga, M * K); DataCopy(b1, gb, K * N); DataCopy(bias1, gbias, N);
    PipeBarrier<PIPE_ALL>();
    // whole 512-byte fractals, in order (the host laid them out as L0A / L0B hold them)
    LoadData(a2, a1, LoadData2DParamsV2{0, 0, M * K / 512, 1, 0, 0, false, 0});
    LoadData(b2, b1, LoadData2DParamsV2{0, 0, K * N / 512, 1, 0, 0, false, 0});
    DataCopy(bt, bias1, DataCopyParams{1, N * 4 / 32, 0, 0});
    PipeBarrier<PIPE_ALL>();
    MmadParams p; p.m = M; p.n = N; p.k = K;
    if (with_bias) { p.cmatrixInitVal = false; Mmad(co1, a2, b2, bt, p); }
    else Mmad(co1, a2, b2, p);
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> f(N, M, M, N);
    Fixpipe<float, float, CFG_ROW_MAJOR>(gc, co1, f);
    PipeBarrier<PIPE_ALL>();
}
#define MM_ARGS GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, uint32_t with_bias
extern "C" __global__ __aicore__ void mm_hif8(MM_ARGS) { Mm<hifloat8_t, hifloat8_t>(a, b, bias, c, with_bias); }
extern "C" __global__ __aicore__ void mm_e4e4(MM_ARGS) { Mm<fp8_e4m3fn_t, fp8_e4m3fn_t>(a, b, bias, c, with_bias); }
extern "C" __global__ __aicore__ void mm_e4e5(MM_ARGS) { Mm<fp8_e4m3fn_t, fp8_e5m2_t>(a, b, bias, c, with_bias); }
extern "C" __global__ __aicore__ void mm_e5e4(MM_ARGS) { Mm<fp8_e5m2_t, fp8_e4m3fn_t>(a, b, bias, c, with_bias); }
extern "C" __global__ __aicore__ void mm_e5e5(MM_ARGS) { Mm<fp8_e5m2_t, fp8_e5m2_t>(a, b, bias, c, with_bias); }
'''


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "mmfp8.asc").compile(["--npu-arch=dav-3510"]).load()


def codes(fmt, rng, shape):
    """Random codes of small finite values (|v| <= 8, at most 4 significant bits) and their values."""
    dec = ref.hif8_decode if fmt == "hif8" else (lambda b: ref.decode(b, fmt))
    ok = [b for b in range(256) if np.isfinite(dec(b)) and abs(dec(b)) <= 8 and
          (dec(b) == 0 or abs(dec(b)) >= 2 ** -4)]
    c = rng.choice(np.array(ok, np.uint8), size=shape)
    return c, np.vectorize(lambda b: float(dec(int(b))))(c)


def nz_a(x):
    """M x K -> L0A Nz bytes: fractal (k / 32) * M1 + m / 16, element (m % 16) * 32 + k % 32."""
    return x.reshape(M // 16, 16, K // 32, 32).transpose(2, 0, 1, 3).ravel()


def zn_b(x):
    """K x N -> L0B Zn bytes: fractal (k / 32) * N1 + n / 16, element (n % 16) * 32 + k % 32."""
    return x.reshape(K // 32, 32, N // 16, 16).transpose(0, 2, 3, 1).ravel()


@pytest.mark.parametrize("name, fa, fb", [("mm_hif8", "hif8", "hif8"), ("mm_e4e4", "e4m3", "e4m3"),
                                          ("mm_e4e5", "e4m3", "e5m2"), ("mm_e5e4", "e5m2", "e4m3"),
                                          ("mm_e5e5", "e5m2", "e5m2")])
@pytest.mark.parametrize("with_bias", [0, 1])
def test_mmad_8bit_float(mod, name, fa, fb, with_bias):
    rng = np.random.default_rng(17)
    ca, va = codes(fa, rng, (M, K))
    cb, vb = codes(fb, rng, (K, N))
    bias = rng.integers(-20, 20, N).astype(np.float32)
    c = np.zeros(M * N, np.float32)
    mod.get_kernel(name)[1](nz_a(ca), zn_b(cb), bias, c, np.uint32(with_bias))
    arc.synchronize()
    want = va @ vb + (bias[None, :] if with_bias else 0)
    np.testing.assert_array_equal(c.reshape(M, N), want.astype(np.float32))
    assert np.abs(want).max() > 1


def test_mixed_pairs_outside_the_tables_do_not_compile():
    src = SRC.replace("Mm<fp8_e5m2_t, fp8_e5m2_t>", "Mm<fp8_e5m2_t, hifloat8_t>")
    with pytest.raises(arc.CompileError, match="fm and filter must have the same type"):
        arc.Program(src, "mmbad.asc").compile(["--npu-arch=dav-3510"])


def test_8bit_floats_are_950_only():
    src = SRC.replace("FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> f(N, M, M, N);", "FixpipeParamsV220 f(N, M, M, N, false);")
    src = src.replace("LoadData2DParamsV2{0, 0, M * K / 512, 1, 0, 0, false, 0}", "LoadData2DParams(0, M * K / 512, 1, 0, 0, false, 0)")
    src = src.replace("LoadData2DParamsV2{0, 0, K * N / 512, 1, 0, 0, false, 0}", "LoadData2DParams(0, K * N / 512, 1, 0, 0, false, 0)")
    with pytest.raises(arc.CompileError, match=r"on dav-3510 also fp8_e4m3fn_t/fp8_e5m2_t"):
        arc.Program(src, "mm2201.asc").compile(["--npu-arch=dav-2201"])
