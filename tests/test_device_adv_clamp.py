"""Device API: Clamp (tensor and scalar bounds, NaN kept, min > max gives
max), ClampMin/ClampMax (dav-2201 too), Fma (one rounding), Rint (ties to
even) and Where (tensor and scalar sources, condition bytes)
(lib/math/clamp.h, lib/math/fma_rint_where.h), against NumPy and the pages'
examples."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

N, BIG = 120, 128
A35 = ("--npu-arch=dav-3510",)
CLAMP_T = [np.float32, np.float16, np.int8, np.int32, np.uint16, np.int64]
CLAMP_FORMS = {"tt": "lo, hi", "ts": "lo, (%s)5", "st": "(%s)-5, hi", "ss": "(%s)-5, (%s)5"}


@pytest.fixture(scope="module")
def mod():
    ks = []
    for dt in CLAMP_T:
        c = dev.ctype(dt)
        p = [("x", dt, BIG), ("lo", dt, BIG), ("hi", dt, BIG), ("z", dt, BIG)]
        for f, args in CLAMP_FORMS.items():
            ks.append(dev.ub_kernel("clamp_%s_%s" % (f, np.dtype(dt).name), p,
                                    "Clamp(z, x, %s, %d);" % (args.replace("%s", c), N)))
    for dt in (np.float32, np.float16):
        c, n = dev.ctype(dt), np.dtype(dt).name
        p = [("a", dt, BIG), ("b", dt, BIG), ("c", dt, BIG), ("z", dt, BIG), ("tmp", np.uint8, 256)]
        ks.append(dev.ub_kernel("fma_" + n, p, "Fma(z, a, b, c, %d);" % N))
        ks.append(dev.ub_kernel("fma_tmp_" + n, p, "Fma(z, a, b, c, tmp, %d);" % N))
        ks.append(dev.ub_kernel("rint_" + n, p, "Rint(z, a, %d);" % N))
        ks.append(dev.ub_kernel("rint_tmp_" + n, p, "Rint(z, a, tmp, %d);" % N))
    p = [("a", np.float32, BIG), ("b", np.float32, BIG), ("m", np.uint8, BIG), ("z", np.float32, BIG)]
    for f, args in {"tt": "a, b", "st": "1.5f, b", "ts": "a, -2.0f", "ss": "1.5f, -2.0f"}.items():
        ks.append(dev.ub_kernel("where_" + f, p, "Where(z, %s, m.ReinterpretCast<bool>(), %d);" % (args, N)))
    return dev.program(ks, A35)


def clamp_inputs(dt, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(-20, 21, BIG).astype(dt)
    lo = rng.integers(-8, 0, BIG).astype(dt)
    hi = rng.integers(0, 8, BIG).astype(dt)
    lo[:4], hi[:4] = 6, 2  # min > max: every element but NaN becomes max
    if np.issubdtype(dt, np.floating):
        x[4:6] = np.nan
    return x, lo, hi


@pytest.mark.parametrize("dt", CLAMP_T, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("form", list(CLAMP_FORMS))
def test_clamp(mod, form, dt):
    x, lo, hi = clamp_inputs(dt, 11)
    if np.dtype(dt).kind == "u":
        x, lo, hi = np.abs(x.astype(np.int64)).astype(dt), np.zeros(BIG, dt), np.abs(hi.astype(np.int64)).astype(dt)
    p = [("x", dt, BIG), ("lo", dt, BIG), ("hi", dt, BIG), ("z", dt, BIG)]
    z = dev.run(mod, "clamp_%s_%s" % (form, np.dtype(dt).name), p, [x, lo, hi, np.full(BIG, 9, dt)])[3]
    lo_v = lo if form[0] == "t" else np.full(BIG, -5, np.int64).astype(dt)  # (uint16_t)-5 wraps as in C++
    hi_v = hi if form[1] == "t" else np.full(BIG, 5, np.int64).astype(dt)
    want = np.minimum(np.maximum(x, lo_v), hi_v)   # NumPy propagates NaN from x, and min > max gives max
    np.testing.assert_array_equal(z[:N], want[:N])
    np.testing.assert_array_equal(z[N:], 9)


@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("api", ["ClampMin", "ClampMax"])
def test_clamp_min_max_on_dav2201(api, dt):
    c = dev.ctype(dt)
    p = [("x", dt, BIG), ("z", dt, BIG), ("tmp", np.uint8, 256)]
    m = dev.program([dev.ub_kernel("k", p, "%s<%s, false>(z, x, (%s)0.5f, %d); %s(z[%d], x[%d], tmp, (%s)0.5f, 8);"
                                   % (api, c, c, 64, api, 64, 64, c))])
    x = np.linspace(-3, 3, BIG).astype(dt)
    x[3] = np.nan
    z = dev.run(m, "k", p, [x, np.zeros(BIG, dt), np.zeros(256, np.uint8)])[1]
    f = np.maximum if api == "ClampMin" else np.minimum
    np.testing.assert_array_equal(z[:72], f(x, dt(0.5))[:72])   # NaN stays (NumPy keeps it too)
    np.testing.assert_array_equal(z[72:], 0)


@pytest.mark.parametrize("tmp", ["", "tmp_"])
def test_fma_float_rounds_once(mod, tmp):
    a = np.full(BIG, 1 + 2.0 ** -12, np.float32)
    b = np.full(BIG, 1 - 2.0 ** -12, np.float32)
    c = np.full(BIG, -1.0, np.float32)
    rng = np.random.default_rng(5)
    a[8:], b[8:], c[8:] = (rng.uniform(-4, 4, (3, BIG - 8))).astype(np.float32)
    p = [("a", np.float32, BIG), ("b", np.float32, BIG), ("c", np.float32, BIG), ("z", np.float32, BIG),
         ("tmp", np.uint8, 256)]
    z = dev.run(mod, "fma_%sfloat32" % tmp, p, [a, b, c, np.zeros(BIG, np.float32), np.zeros(256, np.uint8)])[3]
    want = (a.astype(np.float64) * b + c).astype(np.float32)   # exact product and sum in double, one rounding
    np.testing.assert_array_equal(z[:N], want[:N])
    assert z[0] == np.float32(-2.0 ** -24)                      # a*b rounded first would give 0


def test_fma_half_through_float(mod):
    rng = np.random.default_rng(6)
    a, b, c = rng.uniform(-8, 8, (3, BIG)).astype(np.float16)
    p = [("a", np.float16, BIG), ("b", np.float16, BIG), ("c", np.float16, BIG), ("z", np.float16, BIG),
         ("tmp", np.uint8, 256)]
    z = dev.run(mod, "fma_float16", p, [a, b, c, np.zeros(BIG, np.float16), np.zeros(256, np.uint8)])[3]
    want = (a.astype(np.float64) * b + c).astype(np.float32).astype(np.float16)
    np.testing.assert_array_equal(z[:N], want[:N])


@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("tmp", ["", "tmp_"])
def test_rint_ties_to_even(mod, dt, tmp):
    a = np.random.default_rng(7).uniform(-50, 50, BIG).astype(dt)
    a[:8] = [3.9, 3.3, 3.5, 2.5, -2.5, -0.5, 0.5, 1.5]        # the page: Rint(3.9)=4, Rint(3.3)=3, Rint(3.5)=4
    p = [("a", dt, BIG), ("b", dt, BIG), ("c", dt, BIG), ("z", dt, BIG), ("tmp", np.uint8, 256)]
    z = dev.run(mod, "rint_%s%s" % (tmp, np.dtype(dt).name), p, [a, a, a, np.zeros(BIG, dt), np.zeros(256, np.uint8)])[3]
    np.testing.assert_array_equal(z[:N], np.rint(a)[:N])
    np.testing.assert_array_equal(z[:8], np.array([4, 3, 4, 2, -2, -0.0, 0, 2], dt))


@pytest.mark.parametrize("form", ["tt", "st", "ts", "ss"])
def test_where(mod, form):
    rng = np.random.default_rng(8)
    a, b = rng.uniform(-9, 9, (2, BIG)).astype(np.float32)
    m = rng.integers(0, 3, BIG).astype(np.uint8)               # byte 2 counts as true
    p = [("a", np.float32, BIG), ("b", np.float32, BIG), ("m", np.uint8, BIG), ("z", np.float32, BIG)]
    z = dev.run(mod, "where_" + form, p, [a, b, m, np.full(BIG, 7, np.float32)])[3]
    s0 = a if form[0] == "t" else np.float32(1.5)
    s1 = b if form[1] == "t" else np.float32(-2.0)
    np.testing.assert_array_equal(z[:N], np.where(m != 0, s0, s1)[:N])
    np.testing.assert_array_equal(z[N:], 7)


def test_where_scalar_of_another_type_is_refused():
    p = [("a", np.float32, 64), ("m", np.uint8, 64), ("z", np.float32, 64)]
    with pytest.raises(arc.CompileError) as ei:
        dev.program([dev.ub_kernel("k", p, "Where(z, a, 1.0, m.ReinterpretCast<bool>(), 64);")], A35)
    assert "AscendC::Where: src0 and src1 are dst's type" in ei.value.log


def test_clamp_overlap_is_refused():
    p = [("x", np.float32, 128), ("z", np.float32, 128)]
    m = dev.program([dev.ub_kernel("k", p, "Clamp(x[8], x, z, 1.0f, 64);")], A35)
    with pytest.raises(arc.Error) as ei:
        dev.run(m, "k", p, [np.zeros(128, np.float32)] * 2)
    assert "AscendC::Clamp" in str(ei.value) and "overlaps src" in str(ei.value)

