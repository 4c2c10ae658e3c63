"""The 8/4-bit floating types shared by SIMD and SIMT code (arc/lowp.h) and
the fp8/hif8 conversion functions of simt_api/asc_fp8.h, bit for bit
against exact rational references (helpers/lowp_ref.py): every code
decoded, rounding edges (grid points, midpoints and their float
neighbours), subnormals, NaN/inf, saturation, the hybrid rounding's
threshold."""
import math

import numpy as np
import pytest

import ascendrtc as arc
from helpers import lowp_ref as ref
from helpers import dev

PRELUDE = '#include "kernel_operator.h"\n#include "simt_api/asc_fp8.h"\n'


def kernel(name, tin, tout, body):
    """A one-core kernel running `body` for i in [0, n) over x (tin *) and
    y (tout *)."""
    return ('extern "C" __global__ __aicore__ void %s(GM_ADDR gx, GM_ADDR gy, int32_t n)\n{\n'
            '    __gm__ %s *x = (__gm__ %s *)gx; __gm__ %s *y = (__gm__ %s *)gy;\n'
            '    for (int32_t i = 0; i < n; ++i) { %s }\n}\n' % (name, tin, tin, tout, tout, body))


KERNELS = {
    "hif8_f32": ("hifloat8x2_t", "float2", "y[i] = __hif822float2(x[i]);"),
    "hif8_f16": ("hifloat8x2_t", "half2", "y[i] = __hif822half2(x[i]);"),
    "e4m3_f32": ("float8_e4m3x2_t", "float2", "y[i] = __e4m3x22float2(x[i]);"),
    "e5m2_f32": ("float8_e5m2x2_t", "float2", "y[i] = __e5m2x22float2(x[i]);"),
    "e4m3_nosat": ("float2", "uint16_t", "y[i] = __asc_cvt_float2_to_fp8x2(x[i], __ASC_NOSAT, __ASC_E4M3);"),
    "e4m3_sat": ("float2", "uint16_t", "y[i] = __asc_cvt_float2_to_fp8x2(x[i], __ASC_SATFINITE, __ASC_E4M3);"),
    "e5m2_nosat": ("float2", "uint16_t", "y[i] = __asc_cvt_float2_to_fp8x2(x[i], __ASC_NOSAT, __ASC_E5M2);"),
    "e5m2_sat": ("float2", "uint16_t", "y[i] = __asc_cvt_float2_to_fp8x2(x[i], __ASC_SATFINITE, __ASC_E5M2);"),
    # implicit conversions of the scalar types (SIMD side too)
    "e4m3_ctor": ("float", "fp8_e4m3fn_t", "y[i] = fp8_e4m3fn_t(x[i]);"),
    "e5m2_ctor": ("float", "fp8_e5m2_t", "y[i] = fp8_e5m2_t(x[i]);"),
    "hif8_ctor": ("float", "hifloat8_t", "y[i] = hifloat8_t(x[i]);"),
    "e2m1_ctor": ("float2", "fp4x2_e2m1_t", "y[i] = fp4x2_e2m1_t(x[i].x, x[i].y);"),
    "e1m2_ctor": ("float2", "float4_e1m2x2_t", "y[i] = float4_e1m2x2_t(x[i].x, x[i].y);"),
    "e8m0_back": ("fp8_e8m0_t", "float", "y[i] = (float)x[i];"),
}
for _m in ("rna", "rna_sat", "rh", "rh_sat"):
    KERNELS["f32_hif8_" + _m] = ("float2", "hifloat8x2_t", "y[i] = __float22hif82_%s(x[i]);" % _m)
    KERNELS["f16_hif8_" + _m] = ("half2", "hifloat8x2_t", "y[i] = __half22hif82_%s(x[i]);" % _m)


@pytest.fixture(scope="module")
def mod():
    src = PRELUDE + "\n".join(kernel(k, *v[:2], v[2]) for k, v in KERNELS.items())
    return dev.load(src, "lowp_test.asc")


def run(mod, name, x, out_dtype, out_per_in=1.0):
    """Launch kernel `name` on x; returns its output array of out_dtype
    (out elements = len(x) * out_per_in)."""
    x = np.ascontiguousarray(x)
    n_pairs = {"float2": 2, "half2": 2, "hifloat8x2_t": 2, "float8_e4m3x2_t": 2,
               "float8_e5m2x2_t": 2}.get(KERNELS[name][0], 1)
    n = x.size // n_pairs
    y = np.zeros(int(x.size * out_per_in), out_dtype)
    mod.get_kernel(name)[1](x, y, n)
    arc.synchronize()
    return y


def same(got, want):
    """Float arrays equal bit-for-bit in value: NaN where NaN, signed zeros."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    bad = ~((got == want) & (np.signbit(got) == np.signbit(want)) | (np.isnan(got) & np.isnan(want)))
    assert not bad.any(), "first mismatches (in, got, want): %s" % list(zip(
        np.nonzero(bad)[0][:8], got[bad][:8], want[bad][:8]))


def edge_floats(grid, seed=0, n_rand=3000, lo=-26, hi=17):
    """Grid points, midpoints and their float32 neighbours, random
    log-uniform values with random low bits, specials; both signs."""
    g = np.array(sorted(set(abs(v) for v in grid if math.isfinite(v))), np.float64)
    mids = (g[:-1] + g[1:]) / 2
    pts = np.concatenate([g, mids]).astype(np.float32)
    near = np.concatenate([pts, np.nextafter(pts, np.float32(np.inf)), np.nextafter(pts, np.float32(0))])
    rng = np.random.default_rng(seed)
    rand = (2.0 ** rng.uniform(lo, hi, n_rand)).astype(np.float32)
    spec = np.array([0.0, np.inf, np.nan, 1e-45, 1.1754942e-38, 3e38, 65504, 65520, 2 ** -24, 2 ** -25,
                     1.75, 2.5, 0.5 + 2 ** -12], np.float32)
    v = np.concatenate([near, rand, spec])
    v = np.concatenate([v, -v])
    return v if v.size % 2 == 0 else np.append(v, np.float32(1))


HIF8_GRID = ref.HIF8_POS + [ref.HIF8_INF_AT, 2.0 ** 16, 2.0 ** -23, 2.0 ** -24]


def test_decode_every_code(mod):
    codes = np.arange(256, dtype=np.uint8)
    same(run(mod, "hif8_f32", codes, np.float32), [ref.hif8_decode(int(b)) for b in codes])
    same(run(mod, "hif8_f16", codes, np.float16), [ref.hif8_decode(int(b)) for b in codes])
    same(run(mod, "e4m3_f32", codes, np.float32), [ref.decode(int(b), "e4m3") for b in codes])
    same(run(mod, "e5m2_f32", codes, np.float32), [ref.decode(int(b), "e5m2") for b in codes])
    want = [math.nan if b == 255 else 2.0 ** (b - 127) for b in range(256)]
    same(run(mod, "e8m0_back", codes, np.float32), want)


def test_hif8_documented_values():
    """The docs' facts: 0x6E is the largest finite (32768, the saturation
    value), 0x6F inf, 0x80 NaN, the dot-field example 0 01 0 1 110 = 14."""
    assert ref.hif8_decode(0x6E) == 32768.0 and ref.hif8_decode(0x6F) == math.inf
    assert math.isnan(ref.hif8_decode(0x80)) and ref.hif8_decode(0x2E) == 14.0
    assert ref.hif8_decode(0x01) == 2.0 ** -22 and min(v for v in ref.HIF8_POS if v) == 2.0 ** -22


@pytest.mark.parametrize("mode", ["rna", "rna_sat", "rh", "rh_sat"])
def test_float_to_hif8(mod, mode):
    x = edge_floats(HIF8_GRID)
    got = run(mod, "f32_hif8_" + mode, x, np.uint8)
    sat = mode.endswith("_sat")
    want = [ref.to_hif8(float(v), mode[:3].rstrip("_"), sat, ref.hif8_thr_f32(float(v)), 14) for v in x]
    same([ref.hif8_decode(int(b)) for b in got], want)
    assert not np.any(got == 0x80) or not sat


@pytest.mark.parametrize("mode", ["rna", "rna_sat", "rh", "rh_sat"])
def test_half_to_hif8(mod, mode):
    h = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)  # every half
    got = run(mod, "f16_hif8_" + mode, h, np.uint8)
    sat = mode.endswith("_sat")
    bits = h.view(np.uint16)
    want = [ref.to_hif8(float(v), mode[:3].rstrip("_"), sat, ref.hif8_thr_f16(b), 2) for v, b in zip(h, bits)]
    same([ref.hif8_decode(int(b)) for b in got], want)


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
@pytest.mark.parametrize("sat", [False, True])
def test_float_to_fp8(mod, fmt, sat):
    grid = [ref.decode(b, fmt) for b in range(256)] + [float(ref.max_finite(fmt)) * 1.2]
    x = edge_floats(grid, lo=-22, hi=18)
    got = run(mod, "%s_%s" % (fmt, "sat" if sat else "nosat"), x, np.uint8)
    same([ref.decode(int(b), fmt) for b in got], [ref.to_format(float(v), fmt, "rn", sat) for v in x])


@pytest.mark.parametrize("name,fmt", [("e4m3_ctor", "e4m3"), ("e5m2_ctor", "e5m2")])
def test_fp8_implicit_conversion_saturates(mod, name, fmt):
    grid = [ref.decode(b, fmt) for b in range(256)]
    x = edge_floats(grid, lo=-22, hi=18)
    got = run(mod, name, x, np.uint8)
    same([ref.decode(int(b), fmt) for b in got], [ref.to_format(float(v), fmt, "rn", True) for v in x])


def test_hif8_implicit_conversion(mod):
    x = edge_floats(HIF8_GRID, seed=3)
    got = run(mod, "hif8_ctor", x, np.uint8)
    same([ref.hif8_decode(int(b)) for b in got], [ref.to_hif8(float(v), "rna", True) for v in x])


@pytest.mark.parametrize("name,fmt", [("e2m1_ctor", "e2m1"), ("e1m2_ctor", "e1m2")])
def test_fp4_pairs(mod, name, fmt):
    grid = [ref.decode(b, fmt) for b in range(16)]
    x = edge_floats(grid, n_rand=500, lo=-4, hi=4)
    got = run(mod, name, x, np.uint8, 0.5)
    lo = [ref.decode(int(b) & 15, fmt) for b in got]
    hi = [ref.decode(int(b) >> 4, fmt) for b in got]
    dec = np.array([lo, hi]).T.reshape(-1)
    want = np.array([ref.to_format(float(v), fmt, "rn", True) for v in x])
    # fp4 has no -0 distinct from its sign bit: compare values and signs
    same(dec, want)
