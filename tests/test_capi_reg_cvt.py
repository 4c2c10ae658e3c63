"""The Reg C API's conversions asc_<src>2<dst>[_round][_sat][_v2]
(arc/capi_cvt.h, dav-3510) against NumPy: widening reads the even (_v2: odd)
source lanes, narrowing writes the even (_v2: odd) destination lanes and
zeroes the rest, the rounding suffixes, saturation by the suffix or the CTRL
register (CTRL[60] set: CTRL[59] decides; clear: the suffix), truncation
keeping the low bits, asc_storealign_pack and a C-style register cast."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.lowp_ref import hif8_decode, hif8_thr_f16, to_hif8

SRC = r'''
#include "c_api/asc_simd.h"
template <class VS, class VD, class S, class D, int F>
__simd_vf__ inline void cvt_vf(__ubuf__ D *o, __ubuf__ S *x)
{
    VS vx;
    VD vz;
    vector_bool all = asc_create_mask_b8(PAT_ALL);
    asc_loadalign(vx, x, 0);
    if constexpr (F == 0) asc_half2int32_rd(vz, vx, all);
    if constexpr (F == 1) asc_half2int32_rn_v2(vz, vx, all);
    if constexpr (F == 2) asc_float2int16_rna(vz, vx, all);
    if constexpr (F == 3) asc_float2int16_rna_sat_v2(vz, vx, all);
    if constexpr (F == 4) asc_int322int16(vz, vx, all);
    if constexpr (F == 5) asc_float2half_ro(vz, vx, all);
    if constexpr (F == 6) asc_int162half_rz(vz, vx, all);
    if constexpr (F == 7) asc_half2hif8_rna(vz, vx, all);
    if constexpr (F == 8) asc_half2hif8_rh_sat_v2(vz, vx, all);
    if constexpr (F == 9) asc_hif82half_v2(vz, vx, all);
    asc_storealign(o, vz, 0, all);
}
template <class VS, class VD, class S, class D, int F>
__aicore__ inline void run(__gm__ S *x, __gm__ D *o, uint64_t ctrl)
{
    asc_init();
    AscendC::SetCtrlSpr<59, 60>((int64_t)ctrl); /* CTRL[60:59] */
    __ubuf__ S *lx = (__ubuf__ S *)asc_get_phy_buf_addr(0);
    __ubuf__ D *lo = (__ubuf__ D *)(lx + 256 / sizeof(S));
    asc_copy_gm2ub_align(lx, x, 256);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_vf_call<cvt_vf<VS, VD, S, D, F>>(lo, lx);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_align(o, lo, 1, 256, asc_store_l2_cache_mode::NORMAL_FIRST_VICTIM, 0, 0);
    asc_sync();
}
__vector__ __global__ void h2i_rd(__gm__ half *x, __gm__ int32_t *o, uint64_t c) { run<vector_half, vector_int32_t, half, int32_t, 0>(x, o, c); }
__vector__ __global__ void h2i_rn_v2(__gm__ half *x, __gm__ int32_t *o, uint64_t c) { run<vector_half, vector_int32_t, half, int32_t, 1>(x, o, c); }
__vector__ __global__ void f2s_rna(__gm__ float *x, __gm__ int16_t *o, uint64_t c) { run<vector_float, vector_int16_t, float, int16_t, 2>(x, o, c); }
__vector__ __global__ void f2s_rna_sat_v2(__gm__ float *x, __gm__ int16_t *o, uint64_t c) { run<vector_float, vector_int16_t, float, int16_t, 3>(x, o, c); }
__vector__ __global__ void i2s(__gm__ int32_t *x, __gm__ int16_t *o, uint64_t c) { run<vector_int32_t, vector_int16_t, int32_t, int16_t, 4>(x, o, c); }
__vector__ __global__ void f2h_ro(__gm__ float *x, __gm__ half *o, uint64_t c) { run<vector_float, vector_half, float, half, 5>(x, o, c); }
__vector__ __global__ void s2h_rz(__gm__ int16_t *x, __gm__ half *o, uint64_t c) { run<vector_int16_t, vector_half, int16_t, half, 6>(x, o, c); }

__vector__ __global__ void h2f8_rna(__gm__ half *x, __gm__ hifloat8_t *o, uint64_t c) { run<vector_half, vector_hifloat8_t, half, hifloat8_t, 7>(x, o, c); }
__vector__ __global__ void h2f8_rh_sat_v2(__gm__ half *x, __gm__ hifloat8_t *o, uint64_t c) { run<vector_half, vector_hifloat8_t, half, hifloat8_t, 8>(x, o, c); }
__vector__ __global__ void f82h_v2(__gm__ hifloat8_t *x, __gm__ half *o, uint64_t c) { run<vector_hifloat8_t, vector_half, hifloat8_t, half, 9>(x, o, c); }

__simd_vf__ inline void pack_vf(__ubuf__ int32_t *o, __ubuf__ float *x)
{
    vector_float vx;
    vector_int16_t vz;
    vector_bool all = asc_create_mask_b32(PAT_ALL);
    asc_loadalign(vx, x, 0);
    asc_float2int16_rn_sat(vz, vx, all);
    asc_storealign_pack(o, (vector_int32_t)vz, all);   /* the cast example's store */
}
__vector__ __global__ void pack(__gm__ float *x, __gm__ int16_t *o)
{
    asc_init();
    __ubuf__ float *lx = (__ubuf__ float *)asc_get_phy_buf_addr(0);
    __ubuf__ int32_t *lo = (__ubuf__ int32_t *)(lx + 64);
    asc_copy_gm2ub_align(lx, x, 256);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_vf_call<pack_vf>(lo, lx);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_align((__gm__ int32_t *)o, lo, 1, 128, asc_store_l2_cache_mode::NORMAL_FIRST_VICTIM, 0, 0);
    asc_sync();
}
'''
RESET, TRUNCATE, BY_SUFFIX = 0b10, 0b11, 0b00   # CTRL[60:59]: reset (saturate), CTRL[59] truncates, CTRL[60] clear


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "reg_cvt.asc").compile(["--npu-arch=dav-3510"]).load()


def run(mod, name, x, dt, ctrl=RESET):
    o = np.zeros(256 // np.dtype(dt).itemsize, dt)
    mod.get_kernel(name)[1](x, o, np.uint64(ctrl))
    arc.synchronize()
    return o


def test_widening_reads_even_or_odd_lanes(mod):
    x = (np.random.default_rng(1).uniform(-100, 100, 128)).astype(np.float16)
    x[:4] = [2.5, -2.5, 3.5, -0.5]
    np.testing.assert_array_equal(run(mod, "h2i_rd", x, np.int32), np.floor(x[0::2].astype(np.float64)))
    np.testing.assert_array_equal(run(mod, "h2i_rn_v2", x, np.int32), np.rint(x[1::2].astype(np.float64)))


def test_narrowing_writes_even_or_odd_lanes_and_saturates_by_ctrl(mod):
    x = np.random.default_rng(2).uniform(-30000, 30000, 64).astype(np.float32)
    x[:6] = [2.5, -2.5, 40000.0, -40000.0, np.nan, np.inf]
    rna = np.sign(x) * np.floor(np.abs(x) + 0.5)
    sat = np.nan_to_num(np.clip(rna, -32768, 32767), nan=0).astype(np.int16)
    # reset CTRL (bit 60 set, bit 59 clear): saturating, the suffix does not matter
    o = run(mod, "f2s_rna", x, np.int16)
    np.testing.assert_array_equal(o[0::2], sat)
    np.testing.assert_array_equal(o[1::2], 0)
    o = run(mod, "f2s_rna_sat_v2", x, np.int16)
    np.testing.assert_array_equal(o[1::2], sat)
    np.testing.assert_array_equal(o[0::2], 0)
    # CTRL[60] clear: the suffix decides; no _sat truncates to the low 16 bits (inf to the extreme, NaN 0)
    o = run(mod, "f2s_rna", x, np.int16, ctrl=BY_SUFFIX)
    trunc = np.where(np.isfinite(x), np.where(np.isfinite(rna), rna, 0).astype(np.int64).astype(np.int16), sat)
    np.testing.assert_array_equal(o[0::2], trunc)
    assert o[4] == -25536                              # 40000 keeps its low 16 bits
    np.testing.assert_array_equal(run(mod, "f2s_rna_sat_v2", x, np.int16, ctrl=BY_SUFFIX)[1::2], sat)


def test_integer_narrowing_truncates_when_ctrl59_says_so(mod):
    x = np.array([70000, -70000, 5, -5] * 16, np.int32)
    np.testing.assert_array_equal(run(mod, "i2s", x, np.int16)[0::2], np.clip(x, -32768, 32767))
    np.testing.assert_array_equal(run(mod, "i2s", x, np.int16, ctrl=TRUNCATE)[0::2], x.astype(np.int16))


def test_float_rounding_suffixes(mod):
    x = np.random.default_rng(3).uniform(-1000, 1000, 64).astype(np.float32)
    x[0] = 1 + 2 ** -11                                 # halfway between two halves: odd picks the odd one
    o = run(mod, "f2h_ro", x, np.float16)[0::2]
    lo, hi = np.float16(1.0), np.nextafter(np.float16(1.0), np.float16(2))
    assert o[0] == hi and (hi.view(np.uint16) & 1)
    for a, b in zip(x[1:], o[1:]):                      # round to odd: exact, else the neighbour with an odd bit pattern
        h = np.float16(a)
        if float(h) != float(a):
            n = np.nextafter(h, np.float16(np.inf) if float(h) < float(a) else np.float16(-np.inf))
            h = h if h.view(np.uint16) & 1 else n
        assert b == h
    s = np.arange(-32000, 32000, 1000, dtype=np.int16)[:128]
    s = np.resize(s, 128).astype(np.int16)
    want = np.trunc(s.astype(np.float64))
    got = run(mod, "s2h_rz", s, np.float16).astype(np.float64)
    assert (np.abs(got) <= np.abs(want)).all() and (np.abs(want - got) < 32).all()   # toward zero


def test_storealign_pack_of_a_cast_register(mod):
    x = np.linspace(-40000, 40000, 64).astype(np.float32)
    o = np.zeros(128, np.int16)
    mod.get_kernel("pack")[1](x, o)
    arc.synchronize()
    np.testing.assert_array_equal(o[:64], np.clip(np.rint(x), -32768, 32767).astype(np.int16))


def test_hifloat8_conversions(mod):
    h = np.random.default_rng(4).uniform(-40000, 40000, 128).astype(np.float16)
    h[:8] = [0.0, -0.0, np.inf, -np.inf, 1.1, 3.3e-3, 40000, np.nan]
    o = np.zeros(256, np.uint8)
    mod.get_kernel("h2f8_rna")[1](h, o, np.uint64(0b10))
    arc.synchronize()
    got = [hif8_decode(int(b)) for b in o[0::2]]              # even lanes; odd lanes 0
    want = [to_hif8(float(x), "rna", False) for x in h]         # CTRL[48] = 1 at launch: inf and NaN stay
    np.testing.assert_array_equal(np.array(got), np.array(want))
    np.testing.assert_array_equal(o[1::2], 0)
    mod.get_kernel("h2f8_rh_sat_v2")[1](h, o, np.uint64(0b10))
    arc.synchronize()
    got = [hif8_decode(int(b)) for b in o[1::2]]
    want = [to_hif8(float(x), "rh", True, hif8_thr_f16(x.view(np.uint16)), 2) for x in h]
    np.testing.assert_array_equal(np.array(got), np.array(want))
    b = np.arange(256, dtype=np.uint8)
    z = np.zeros(128, np.float16)
    mod.get_kernel("f82h_v2")[1](b, z, np.uint64(0b10))
    arc.synchronize()
    np.testing.assert_array_equal(z, np.array([hif8_decode(int(v)) for v in b[1::2]], np.float16))
