"""dav-3510 Reg operations beyond arithmetic, in both spellings (AscendC::Reg
and the C API), against NumPy and the API pages: Compare/Compares,
Truncate in its five rounding modes (= asc_rint/round/floor/ceil/trunc),
Arange increasing and decreasing (integers wrap), ReduceDataBlock
SUM/MAX/MIN (a block's sum as an adjacent-pairs tree), PairReduceElem,
Reduce MAX/MIN (value and first index; NaN, +-0, an empty mask),
Histograms (frequency and cumulative, added to dst), Div's subnormal
modes (the FTZ table of CANN's subnormal example), asc_copy."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r"""
#include "kernel_operator.h"
#include "c_api/asc_simd.h"
using namespace AscendC;

// x: 64 floats at UB 0; out: 8 rows of 64 floats at UB 256.
#define FRAME(BODY)                                                              \
    __ubuf__ float *ux = (__ubuf__ float *)asc_get_phy_buf_addr(0);             \
    __ubuf__ float *uo = (__ubuf__ float *)asc_get_phy_buf_addr(256);           \
    asc_copy_gm2ub_align(ux, (__gm__ float *)x, 256);                            \
    asc_sync();                                                                  \
    BODY;                                                                        \
    asc_sync();                                                                  \
    asc_copy_ub2gm_align((__gm__ float *)out, uo, 1, 8 * 256,                    \
                         asc_store_l2_cache_mode::NORMAL_FIRST_VICTIM, 0, 0);

__simd_vf__ inline void rounds_vf(__ubuf__ float *x, __ubuf__ float *o)
{
    Reg::RegTensor<float> a, d;
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::LoadAlign(a, x);
    Reg::Truncate<float, RoundMode::CAST_RINT>(d, a, all);  Reg::StoreAlign(o, d, all);
    Reg::Truncate<float, RoundMode::CAST_ROUND>(d, a, all); Reg::StoreAlign(o + 64, d, all);
    Reg::Truncate<float, RoundMode::CAST_FLOOR>(d, a, all); Reg::StoreAlign(o + 128, d, all);
    asc_ceil(d, a, all);                                     Reg::StoreAlign(o + 192, d, all);
    Reg::MaskReg half = Reg::CreateMask<float, Reg::MaskPattern::H>();
    asc_trunc(d, a, half);                                   Reg::StoreAlign(o + 256, d, all);
    Reg::MaskReg gt;
    Reg::Compares<float, CMPMODE::GT>(gt, a, 0.25f, all);
    Reg::Duplicate(d, 1.0f);
    Reg::RegTensor<float> z;
    Reg::Duplicate(z, 0.0f);
    Reg::Select(d, d, z, gt);                                Reg::StoreAlign(o + 320, d, all);
    Reg::RegTensor<float> b;
    Reg::Truncate<float, RoundMode::CAST_TRUNC>(b, a, all);
    Reg::Compare<float, CMPMODE::EQ>(gt, a, b, all);        // integral already
    Reg::Duplicate(d, 1.0f);
    Reg::Select(d, d, z, gt);                                Reg::StoreAlign(o + 384, d, all);
}
__vector__ __global__ void rounds(GM_ADDR x, GM_ADDR out) { FRAME(asc_vf_call<rounds_vf>(ux, uo)) }

__simd_vf__ inline void arange_vf(__ubuf__ float *o)
{
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::RegTensor<float> f;
    Reg::Arange(f, 2.5f);                                             Reg::StoreAlign(o, f, all);
    Reg::Arange<float, Reg::IndexOrder::DECREASE_ORDER>(f, -3.0f);    Reg::StoreAlign(o + 64, f, all);
    vector_int8_t b;
    asc_arange(b, (int8_t)100);                                       // wraps past 127
    vector_bool all8 = asc_create_mask_b8(PAT_ALL);
    asc_storealign((__ubuf__ int8_t *)(o + 128), b, all8);
    vector_int32_t i;
    asc_arange_descend(i, 7);
    asc_storealign((__ubuf__ int32_t *)(o + 192), i, asc_create_mask_b32(PAT_ALL));
}
__vector__ __global__ void arange(GM_ADDR x, GM_ADDR out) { FRAME(asc_vf_call<arange_vf>(uo)) }

__simd_vf__ inline void reduce_vf(__ubuf__ float *x, __ubuf__ float *o)
{
    Reg::RegTensor<float> a, d;
    Reg::MaskReg all = Reg::CreateMask<float>(), m3 = Reg::CreateMask<float, Reg::MaskPattern::M3>();
    Reg::LoadAlign(a, x);
    Reg::ReduceDataBlock<Reg::ReduceType::SUM>(d, a, all);  Reg::StoreAlign(o, d, all);
    Reg::ReduceDataBlock<Reg::ReduceType::MAX>(d, a, m3);   Reg::StoreAlign(o + 64, d, all);
    asc_reduce_min_datablock(d, a, m3);                      Reg::StoreAlign(o + 128, d, all);
    uint32_t n = 50;
    Reg::MaskReg m50 = Reg::UpdateMask<float>(n);
    Reg::PairReduceElem(d, a, m50);                          Reg::StoreAlign(o + 192, d, all);
    Reg::Reduce<Reg::ReduceType::MAX>(d, a, m3);             Reg::StoreAlign(o + 256, d, all);
    asc_reduce_min(d, a, all);                               Reg::StoreAlign(o + 320, d, all);
    Reg::MaskReg none = Reg::CreateMask<float, Reg::MaskPattern::ALLF>();
    Reg::Reduce<Reg::ReduceType::MAX>(d, a, none);           Reg::StoreAlign(o + 384, d, all);
    asc_reduce_sum_datablock(d, a, m3);                      Reg::StoreAlign(o + 448, d, all);
}
__vector__ __global__ void reduce(GM_ADDR x, GM_ADDR out) { FRAME(asc_vf_call<reduce_vf>(ux, uo)) }

// x's 256 bytes as uint8 values; histograms into rows 0..3 (uint16), starting from 5
__simd_vf__ inline void hist_vf(__ubuf__ float *x, __ubuf__ float *o)
{
    Reg::RegTensor<uint8_t> s;
    Reg::RegTensor<uint16_t> f0, f1, c0;
    Reg::LoadAlign(s, (__ubuf__ uint8_t *)x);
    Reg::Duplicate(f0, (uint16_t)5);
    Reg::Duplicate(f1, (uint16_t)5);
    Reg::Duplicate(c0, (uint16_t)5);
    Reg::MaskReg h = Reg::CreateMask<uint8_t, Reg::MaskPattern::H>(), all = Reg::CreateMask<uint16_t>();
    Reg::Histograms<uint8_t, uint16_t, Reg::HistogramsBinType::BIN0, Reg::HistogramsType::FREQUENCY>(f0, s, h);
    asc_frequency_histogram_bin1(f1, s, h);
    asc_cumulative_histogram_bin0(c0, s, h);
    Reg::StoreAlign((__ubuf__ uint16_t *)o, f0, all);
    Reg::StoreAlign((__ubuf__ uint16_t *)(o + 64), f1, all);
    Reg::StoreAlign((__ubuf__ uint16_t *)(o + 128), c0, all);
}
__vector__ __global__ void hist(GM_ADDR x, GM_ADDR out) { FRAME(asc_vf_call<hist_vf>(ux, uo)) }

// x: 8 dividends, at 32 8 divisors; rows: FTZ_FALSE, FTZ_TRUE, the default; row 3: asc_copy
__simd_vf__ inline void divs_vf(__ubuf__ float *x, __ubuf__ float *o)
{
    static constexpr Reg::DivSpecificMode keep = {Reg::MaskMergeMode::ZEROING, false, DivAlgo::PRECISION_1ULP_FTZ_FALSE};
    static constexpr Reg::DivSpecificMode ftz = {Reg::MaskMergeMode::ZEROING, false, DivAlgo::PRECISION_1ULP_FTZ_TRUE};
    Reg::RegTensor<float> a, b, d;
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::LoadAlign(a, x);
    Reg::LoadAlign(b, x + 32);
    Reg::Div<float, &keep>(d, a, b, all); Reg::StoreAlign(o, d, all);
    Reg::Div<float, &ftz>(d, a, b, all);  Reg::StoreAlign(o + 64, d, all);
    Reg::Div(d, a, b, all);                Reg::StoreAlign(o + 128, d, all);
    vector_bool m4 = asc_create_mask_b32(PAT_M4);
    asc_copy(d, a, m4);                    Reg::StoreAlign(o + 192, d, all);
}
__vector__ __global__ void divs(GM_ADDR x, GM_ADDR out) { FRAME(asc_vf_call<divs_vf>(ux, uo)) }
"""


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "reg_more.asc").compile(["--npu-arch=dav-3510"]).load()


def _run(mod, name, x):
    out = np.full(8 * 64, 77, np.float32)
    mod.get_kernel(name)[1](x, out)
    arc.synchronize()
    return out.reshape(8, 64)


def test_truncate_modes_and_compares(mod):
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, 2.0000002, -7.0, 3.7, -3.7, 1e9 + 64]
                 + list(np.random.default_rng(0).uniform(-100, 100, 52)), np.float32)
    o = _run(mod, "rounds", x)
    np.testing.assert_array_equal(o[0], np.rint(x))
    away = np.sign(x) * np.floor(np.abs(x.astype(np.float64)) + 0.5)   # ties away from zero, in f64
    np.testing.assert_array_equal(o[1], away.astype(np.float32))
    np.testing.assert_array_equal(o[2], np.floor(x))
    np.testing.assert_array_equal(o[3], np.ceil(x))
    np.testing.assert_array_equal(o[4], np.where(np.arange(64) < 32, np.trunc(x), 0))
    np.testing.assert_array_equal(o[5], (x > 0.25).astype(np.float32))
    np.testing.assert_array_equal(o[6], (np.trunc(x) == x).astype(np.float32))


def test_arange_both_orders_and_wrap(mod):
    o = _run(mod, "arange", np.zeros(64, np.float32))
    np.testing.assert_array_equal(o[0], 2.5 + np.arange(64, dtype=np.float32))
    np.testing.assert_array_equal(o[1], -3.0 + np.arange(63, -1, -1, dtype=np.float32))
    np.testing.assert_array_equal(o[2].view(np.int8), (100 + np.arange(256)).astype(np.uint8).view(np.int8))
    np.testing.assert_array_equal(o[3].view(np.int32), 7 + np.arange(63, -1, -1))


def test_reductions(mod):
    r = np.random.default_rng(5)
    x = r.uniform(-10, 10, 64).astype(np.float32)
    x[42] = x[45] = 60.0                      # a tie among the M3 lanes: the first index wins
    o = _run(mod, "reduce", x)
    m3 = np.arange(64) % 3 == 0
    blocks = x.reshape(8, 8)
    tree = ((blocks[:, 0] + blocks[:, 1]) + (blocks[:, 2] + blocks[:, 3])) + \
           ((blocks[:, 4] + blocks[:, 5]) + (blocks[:, 6] + blocks[:, 7]))
    np.testing.assert_array_equal(o[0][:8], tree)
    assert np.all(o[0][8:] == 0)
    bm = np.where(m3, x, -np.inf).reshape(8, 8).max(1)
    np.testing.assert_array_equal(o[1][:8], bm)
    np.testing.assert_array_equal(o[2][:8], np.where(m3, x, np.inf).reshape(8, 8).min(1))
    xm = np.where(np.arange(64) < 50, x, 0)
    np.testing.assert_array_equal(o[3][:32], xm[0::2] + xm[1::2])
    assert np.all(o[3][32:] == 0)
    sel = np.nonzero(m3)[0]
    best = sel[np.argmax(x[sel])]
    assert o[4][0] == x[best] and o[4][1:2].view(np.uint32)[0] == best == 42 and np.all(o[4][2:] == 0)
    assert o[5][0] == x.min() and o[5][1:2].view(np.uint32)[0] == np.argmin(x)
    assert o[6][0] == np.finfo(np.float32).min or o[6][0] == -np.inf
    xs = np.where(m3, x, 0).reshape(8, 8)
    tree3 = ((xs[:, 0] + xs[:, 1]) + (xs[:, 2] + xs[:, 3])) + ((xs[:, 4] + xs[:, 5]) + (xs[:, 6] + xs[:, 7]))
    np.testing.assert_array_equal(o[7][:8], tree3)


def test_reduce_max_nan_and_signed_zero(mod):
    x = np.zeros(64, np.float32)
    x[0] = -0.0
    x[3] = 0.0
    o = _run(mod, "reduce", x)
    assert o[4][0] == 0 and not np.signbit(o[4][0])     # max(-0, +0) = +0 (M3 selects 0 and 3)
    assert o[4][1:2].view(np.uint32)[0] == 0            # the first index stays
    x[9] = np.nan
    x[12] = np.nan
    o = _run(mod, "reduce", x)
    assert np.isnan(o[4][0]) and o[4][1:2].view(np.uint32)[0] == 9


def test_histograms(mod):
    v = np.random.default_rng(9).integers(0, 256, 256).astype(np.uint8)
    v[:8] = [0, 0, 127, 128, 255, 255, 255, 3]
    o = _run(mod, "hist", v.view(np.float32))
    active = v[:128]                                   # MaskPattern::H: the first half of the lanes
    freq = np.bincount(active, minlength=256).astype(np.uint16)
    np.testing.assert_array_equal(o[0].view(np.uint16), freq[:128] + 5)
    np.testing.assert_array_equal(o[1].view(np.uint16), freq[128:] + 5)
    np.testing.assert_array_equal(o[2].view(np.uint16), np.cumsum(freq[:128]).astype(np.uint16) + 5)


def test_cumulative_histogram_of_bin1_is_refused():
    src = """#include "kernel_operator.h"
__simd_vf__ inline void f(__ubuf__ uint8_t *x) {
    AscendC::Reg::RegTensor<uint8_t> s; AscendC::Reg::RegTensor<uint16_t> d;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<uint8_t>();
    AscendC::Reg::Histograms<uint8_t, uint16_t, AscendC::Reg::HistogramsBinType::BIN1,
                             AscendC::Reg::HistogramsType::ACCUMULATE>(d, s, m);
}
__global__ __vector__ void k(GM_ADDR x) { asc_vf_call<f>((__ubuf__ uint8_t *)x); }
"""
    with pytest.raises(arc.CompileError, match="cumulative histogram of BIN1"):
        arc.Program(src, "hist1.asc").compile(["--npu-arch=dav-3510"])


def test_div_subnormal_modes_and_copy(mod):
    # the cases of CANN's subnormal example (its README's table), then ordinary ones
    n = np.array([2.0 ** -126, 2.0 ** -125, 2.0 ** -130, 2.0 ** -130, 2.0 ** -140, 7.0, -1.0, 0.0])
    d = np.array([4.0, 2.0 ** -127, 2.0, 2.0 ** -20, 2.0 ** -145, 2.0, 3.0, -5.0])
    x = np.zeros(64, np.float32)
    x[:8], x[32:40] = n, d
    o = _run(mod, "divs", x)
    exact = (n / d).astype(np.float32)
    np.testing.assert_array_equal(o[0][:8].view(np.uint32), exact.view(np.uint32))
    ftz = o[1][:8].view(np.uint32)
    assert list(ftz[:5]) == [0x00000000, 0x7F800000, 0x00000000, 0x00000000, 0x7FFFFFFF]
    np.testing.assert_array_equal(o[1][5:8], exact[5:8])
    np.testing.assert_array_equal(o[2][:8].view(np.uint32), o[1][:8].view(np.uint32))  # INTRINSIC flushes too
    # asc_copy merges: the M4 lanes from a, the rest keep d (the default Div's result)
    lanes = np.arange(64) % 4 == 0
    np.testing.assert_array_equal(o[3].view(np.uint32), np.where(lanes, x[:64], o[2]).astype(np.float32).view(np.uint32))
