"""dav-3510's MX cube (arc/mmad_mx.h): A [M, K] and B^T [N, K] of fp8
(e4m3fn, e5m2) or fp4 pairs (e2m1, e1m2) with one e8m0 scale per 32 values
along K (scaleA [M, K/32], scaleB^T [N, K/32]), moved GM -> L1 as the
asc-devkit mmad_mx example's data flow does (Nd2Nz for the matrices,
Dn2Nz of the scale pairs as half), L1 -> L0A/L0B + L0A_MX/L0B_MX
(LoadData with LoadData2DMxParams), MmadMx, Fixpipe to GM.  Reference:
each code decoded exactly (helpers/lowp_ref.py), times 2^(e - 127), the
products (exact in float) added in increasing k in float32 as the cube's
order is (arc/cube_micro.h); bit for bit.  M is ragged (40 of 48 rows).
The C API's spelling of the same flow (asc_copy_gm2l1_nd2nz/_dn2nz,
asc_copy_l12l0a/b, asc_copy_l12l0a/b_mx with the L0 address / 16,
asc_mmad_mx, asc_copy_l0c2gm) on static cube arrays gives the same bits."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import lowp_ref as ref

SRC = r"""
#include "kernel_operator.h"
#include "c_api/asc_simd.h"
using namespace AscendC;

constexpr uint32_t M = 40, N = 48, K = 128, MA = 48, SK = K / 32;

template <class TA, class TB, uint32_t PER>
__aicore__ inline void run(GM_ADDR a, GM_ADDR sa, GM_ADDR b, GM_ADDR sb, GM_ADDR bias, GM_ADDR c, uint32_t mode)
{
    constexpr uint32_t KP = K / PER;   // bytes (elements of TA) per row
    GlobalTensor<TA> ga; ga.SetGlobalBuffer((__gm__ TA *)a);
    GlobalTensor<TB> gb; gb.SetGlobalBuffer((__gm__ TB *)b);
    GlobalTensor<half> gsa, gsb; gsa.SetGlobalBuffer((__gm__ half *)sa); gsb.SetGlobalBuffer((__gm__ half *)sb);
    GlobalTensor<float> gbias, gc; gbias.SetGlobalBuffer((__gm__ float *)bias); gc.SetGlobalBuffer((__gm__ float *)c);
    LocalTensor<TA> a1(TPosition::A1, 0, MA * KP);
    LocalTensor<TB> b1(TPosition::B1, 32768, N * KP);
    LocalTensor<fp8_e8m0_t> sa1(TPosition::A1, 65536, MA * SK), sb1(TPosition::B1, 69632, N * SK);
    LocalTensor<float> bias1(TPosition::C1, 73728, N);
    DataCopy(a1, ga, Nd2NzParams{1, (uint16_t)M, (uint16_t)KP, 0, (uint16_t)KP, (uint16_t)MA, 1, 0});
    DataCopy(b1, gb, Nd2NzParams{1, (uint16_t)N, (uint16_t)KP, 0, (uint16_t)KP, (uint16_t)N, 1, 0});
    LocalTensor<half> sa1h = sa1.template ReinterpretCast<half>(), sb1h = sb1.template ReinterpretCast<half>();
    DataCopy(sa1h, gsa, Dn2NzParams{1, (uint16_t)(SK / 2), M, 0, SK / 2, (uint16_t)(SK / 2), 1, 0});
    DataCopy(sb1h, gsb, Dn2NzParams{1, (uint16_t)(SK / 2), N, 0, SK / 2, (uint16_t)(SK / 2), 1, 0});
    DataCopy(bias1, gbias, N);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<TA> a2(TPosition::A2, 0, MA * KP);
    LocalTensor<TB> b2(TPosition::B2, 0, N * KP);
    LoadData2DMxParams mxa{0, 0, MA / 16, SK / 2, SK / 2, SK / 2}, mxb{0, 0, N / 16, SK / 2, SK / 2, SK / 2};
    LoadData(a2, a1, sa1, LoadData2DParamsV2{0, 0, MA / 16, KP / 32, MA / 16, MA / 16, false, 0}, mxa);
    LoadData(b2, b1, sb1, LoadData2DParamsV2{0, 0, N / 16, KP / 32, N / 16, N / 16, false, 0}, mxb);
    LocalTensor<float> bt(TPosition::C2, 0, N);
    DataCopy(bt, bias1, DataCopyParams{1, N * 4 / 32, 0, 0});
    PipeBarrier<PIPE_ALL>();
    LocalTensor<float> co1(TPosition::CO1, 0, MA * N);
    MmadParams p{M, N, K, 0, false, true};
    if (mode == 1) {                      // the bias tensor starts the sums
        p.cmatrixInitVal = false;
        MmadMx(co1, a2, b2, bt, p);
    } else {
        MmadMx(co1, a2, b2, p);
        if (mode == 2) {                  // and again, accumulating in L0C
            p.cmatrixInitVal = false;
            PipeBarrier<PIPE_ALL>();
            MmadMx(co1, a2, b2, p);
        }
    }
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> f;
    f.nSize = N; f.mSize = M; f.srcStride = MA; f.dstStride = N;
    Fixpipe<float, float, CFG_ROW_MAJOR>(gc, co1, f);
    PipeBarrier<PIPE_ALL>();
}
extern "C" __global__ __cube__ void mx_e4m3_e5m2(GM_ADDR a, GM_ADDR sa, GM_ADDR b, GM_ADDR sb, GM_ADDR bias, GM_ADDR c,
                                          uint32_t mode)
{
    run<fp8_e4m3fn_t, fp8_e5m2_t, 1>(a, sa, b, sb, bias, c, mode);
}
extern "C" __global__ __cube__ void mx_e5m2_e4m3(GM_ADDR a, GM_ADDR sa, GM_ADDR b, GM_ADDR sb, GM_ADDR bias, GM_ADDR c,
                                          uint32_t mode)
{
    run<fp8_e5m2_t, fp8_e4m3fn_t, 1>(a, sa, b, sb, bias, c, mode);
}
extern "C" __global__ __cube__ void mx_e2m1_e1m2(GM_ADDR a, GM_ADDR sa, GM_ADDR b, GM_ADDR sb, GM_ADDR bias, GM_ADDR c,
                                          uint32_t mode)
{
    run<fp4x2_e2m1_t, fp4x2_e1m2_t, 2>(a, sa, b, sb, bias, c, mode);
}
extern "C" __global__ __cube__ void mx_e1m2_e2m1(GM_ADDR a, GM_ADDR sa, GM_ADDR b, GM_ADDR sb, GM_ADDR bias, GM_ADDR c,
                                          uint32_t mode)
{
    run<fp4x2_e1m2_t, fp4x2_e2m1_t, 2>(a, sa, b, sb, bias, c, mode);
}

extern "C" __global__ __cube__ void capi_mx(__gm__ fp8_e4m3fn_t *a, __gm__ half *sa, __gm__ fp8_e5m2_t *b,
                                             __gm__ half *sb, __gm__ float *c)
{
    asc_init();
    __cbuf__ fp8_e4m3fn_t a1[MA * K];
    __cbuf__ fp8_e5m2_t b1[N * K];
    __cbuf__ half sa1[MA * SK / 2], sb1[N * SK / 2];
    __ca__ fp8_e4m3fn_t a0[MA * K];
    __cb__ fp8_e5m2_t b0[N * K];
    __cc__ float c0[MA * N];
    asc_set_gm2l1_nz_para((uint64_t)MA << 32 | 1u << 16 | 1u);
    asc_copy_gm2l1_nd2nz(a1, a, K, 0, M, K, 0, false);
    asc_set_gm2l1_nz_para((uint64_t)N << 32 | 1u << 16 | 1u);
    asc_copy_gm2l1_nd2nz(b1, b, K, 0, N, K, 0, false);
    asc_set_gm2l1_nz_para((uint64_t)(SK / 2) << 32 | 1u << 16 | 1u);
    asc_copy_gm2l1_dn2nz(sa1, sa, SK, 0, SK / 2, M, 0, false);
    asc_copy_gm2l1_dn2nz(sb1, sb, SK, 0, SK / 2, N, 0, false);
    asc_sync_pipe(PIPE_ALL);
    asc_copy_l12l0a(a0, a1, 0, 0, MA / 16, K / 32, MA / 16, MA / 16);
    asc_copy_l12l0b(b0, b1, 0, 0, N / 16, K / 32, N / 16, N / 16);
    asc_copy_l12l0a_mx((uint64_t)(uintptr_t)a0 / 16, (__cbuf__ fp8_e8m0_t *)sa1, 0, 0, MA / 16, SK / 2, SK / 2, SK / 2);
    asc_copy_l12l0b_mx((uint64_t)(uintptr_t)b0 / 16, (__cbuf__ fp8_e8m0_t *)sb1, 0, 0, N / 16, SK / 2, SK / 2, SK / 2);
    asc_sync_pipe(PIPE_ALL);
    asc_mmad_mx(c0, a0, b0, M, K, N, 0, false, false, true);
    asc_sync_pipe(PIPE_ALL);
    asc_set_l0c2gm_nz2nd(1, 0, 0);
    asc_copy_l0c2gm(c, c0, N, M, N, MA, 0, 0, 0, (uint64_t)QuantMode_t::NoQuant, 0, false, true,
                    (uint64_t)QuantMode_post::NoConv, 0, false, 0, false, false, false, false);
    asc_sync_pipe(PIPE_ALL);
}

extern "C" __global__ __cube__ void no_scales(GM_ADDR c)
{
    LocalTensor<fp8_e4m3fn_t> a2(TPosition::A2, 0, 16 * 64), b2(TPosition::B2, 0, 16 * 64);
    LocalTensor<float> co1(TPosition::CO1, 0, 256);
    InitConstValue(a2, InitConstValueParams<fp8_e4m3fn_t>{2, 1, 0, fp8_e4m3fn_t(0.0f)});
    InitConstValue(b2, InitConstValueParams<fp8_e4m3fn_t>{2, 1, 0, fp8_e4m3fn_t(0.0f)});
    PipeBarrier<PIPE_ALL>();
    MmadMx(co1, a2, b2, MmadParams{16, 16, 64, 0, false, true});
}
"""

M, N, K, SK = 40, 48, 128, 4
# codes that decode to finite values
FINITE = {f: [b for b in range(1 << (8 if f[1] in "45" else 4)) if np.isfinite(ref.decode(b, f))]
          for f in ("e4m3", "e5m2", "e2m1", "e1m2")}


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "mmad_mx.asc").compile(["--npu-arch=dav-3510"]).load()


def codes(rng, fmt, shape):
    return rng.choice(np.array(FINITE[fmt], np.uint8), size=shape)


def packed(c, fmt):
    """fp4 codes -> pairs in a byte (the first in the low nibble); fp8 as is."""
    return (c[:, 0::2] | (c[:, 1::2] << 4)).astype(np.uint8) if fmt[1] in "12" else c


def deq(c, fmt, s):
    v = np.vectorize(lambda b: ref.decode(int(b), fmt))(c).astype(np.float64)
    return (v * np.repeat(2.0 ** (s.astype(np.float64) - 127), 32, axis=1)).astype(np.float32)


@pytest.mark.parametrize("name", ["mx_e4m3_e5m2", "mx_e5m2_e4m3", "mx_e2m1_e1m2", "mx_e1m2_e2m1"])
@pytest.mark.parametrize("mode", [0, 1, 2])
def test_mmad_mx(mod, name, mode):
    fa, fb = name.split("_")[1:]
    rng = np.random.default_rng(hash(name) % 1000 + mode)
    a, bt = codes(rng, fa, (M, K)), codes(rng, fb, (N, K))
    sa = rng.integers(118, 136, (M, SK)).astype(np.uint8)
    sb = rng.integers(118, 136, (N, SK)).astype(np.uint8)
    bias = rng.integers(-8, 8, N).astype(np.float32)
    c = np.zeros((M, N), np.float32)
    mod.get_kernel(name)[1](packed(a, fa), sa, packed(bt, fb), sb, bias, c, np.uint32(mode))
    arc.synchronize()
    A, B = deq(a, fa, sa), deq(bt, fb, sb)
    acc = np.tile(bias, (M, 1)) if mode == 1 else np.zeros((M, N), np.float32)
    for rep in range(2 if mode == 2 else 1):
        for k in range(K):                                    # products exact; each add rounds in float32
            acc = (acc + np.outer(A[:, k], B[:, k])).astype(np.float32)
    np.testing.assert_array_equal(c, acc)


def test_capi_mmad_mx(mod):
    rng = np.random.default_rng(3)
    a, bt = codes(rng, "e4m3", (M, K)), codes(rng, "e5m2", (N, K))
    sa = rng.integers(118, 136, (M, SK)).astype(np.uint8)
    sb = rng.integers(118, 136, (N, SK)).astype(np.uint8)
    c = np.zeros((M, N), np.float32)
    mod.get_kernel("capi_mx")[1](a, sa.view(np.float16), bt, sb.view(np.float16), c)   # scale pairs as half
    arc.synchronize()
    A, B = deq(a, "e4m3", sa), deq(bt, "e5m2", sb)
    acc = np.zeros((M, N), np.float32)
    for k in range(K):
        acc = (acc + np.outer(A[:, k], B[:, k])).astype(np.float32)
    np.testing.assert_array_equal(c, acc)


def test_mmad_mx_without_scales(mod):
    with pytest.raises(arc.Error, match="scaleA: L0A_MX bytes 0..31 were never loaded"):
        mod.get_kernel("no_scales")[1](np.zeros(256, np.float32))
        arc.synchronize()
