"""Device API: quantisation and reduce of the advanced API
(lib/quantization, lib/reduce): AscendQuant (per tensor, via half, round
half to even, saturating), AscendDequant (int32 times a per-column scale
tensor or a scalar), AscendAntiQuant (per channel with groups, transposed or
not, and per tensor), Sum and Mean over rows; each with and without the
shared tmp buffer, against NumPy.  Exact for the integer results; float32
rtol 1e-6, float16 rtol 1e-3 (one rounding)."""
import numpy as np
import pytest

from helpers import dev

TMP = ("tmp", np.uint8, 1024)
N = 128
DM, DN, DC = 4, 16, 12          # AscendDequant m, n, calCount
K, AN, G = 8, 32, 2             # AscendAntiQuant K, N, groups
SO, SI, SN = 4, 32, 30          # Sum/Mean outter, inner, n


def qt(dt):
    return [("x", dt, N), ("q", np.int8, N), TMP]


def deq_t(dt, st):
    return [("src", np.int32, DM * DN), ("scale", st, DN), ("z", dt, DM * DN), TMP]


def aq_t(dt):
    return [("src", np.int8, K * AN), ("off", dt, G * AN), ("sc", dt, G * AN), ("z", dt, K * AN), TMP]


def red_t(dt):
    return [("x", dt, SO * SI), ("z", dt, SO), TMP]


@pytest.fixture(scope="module")
def mod():
    ks = []
    for dt in (np.float32, np.float16):
        c = dev.ctype(dt)
        ks.append(dev.ub_kernel("quant_" + c, qt(dt), "AscendQuant<%s>(q, x, 2.5f, -3.0f, %d);" % (c, N)))
        ks.append(dev.ub_kernel("quant_tmp_" + c, qt(dt), "AscendQuant<%s, false>(q, x, tmp, 2.5f, -3.0f);" % c))
        ks.append(dev.ub_kernel("deq_" + c, deq_t(dt, np.float32),
                                "AscendDequant(z, src, scale, tmp, {%d, %d, %d});" % (DM, DN, DC)))
        ks.append(dev.ub_kernel("deq_scalar_" + c, deq_t(dt, np.float32),
                                "AscendDequant<%s, float>(z, src, 0.25f, {%d, %d, %d});" % (c, DM, DN, DC)))
        for tr in ("false", "true"):
            shape = "AntiQuantShapeInfo si; si.%s = %d;" % ("offsetWidth" if tr == "true" else "offsetHeight", G)
            ks.append(dev.ub_kernel("aq_%s_%s" % (tr, c), aq_t(dt), shape +
                                    "AscendAntiQuant<int8_t, %s, %s>(z, src, off, sc, tmp, %d, si);" % (c, tr, K)))
        ks.append(dev.ub_kernel("aq_scalar_" + c, aq_t(dt),
                                "AscendAntiQuant<int8_t, %s, false>(z, src, (%s)1.5f, (%s)0.5f, %d);" % (c, c, c, K)))
        ks.append(dev.ub_kernel("sum_" + c, red_t(dt), "Sum(z, x, SumParams{%d, %d, %d});" % (SO, SI, SN)))
        ks.append(dev.ub_kernel("mean_" + c, red_t(dt), "Mean(z, x, tmp, MeanParams{%d, %d, %d});" % (SO, SI, SN)))
    return dev.program(ks)


DT = pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["float", "half"])


def close(got, want, dt):
    np.testing.assert_allclose(got.astype(np.float64), np.asarray(want, dt).astype(np.float64),
                               rtol=1e-3 if dt == np.float16 else 1e-6, atol=1e-6)


@DT
@pytest.mark.parametrize("form", ["", "tmp_"], ids=["count", "tmp_whole"])
def test_ascend_quant(mod, dt, form):
    x = np.random.default_rng(1).uniform(-60, 60, N).astype(dt)
    x[:5] = [1.0, 3.0, -1.0, 5.0, 60.0]  # 2.5x - 3 = -0.5, 4.5, -5.5, 9.5 (ties go to even), 147 (saturates)
    q = dev.run(mod, "quant_%s%s" % (form, dev.ctype(dt)), qt(dt), [x, np.zeros(N, np.int8), np.zeros(1024, np.uint8)])[1]
    v = (x.astype(np.float32) * np.float32(2.5) + np.float32(-3.0)).astype(np.float16).astype(np.float64)
    want = np.clip(np.rint(v), -128, 127).astype(np.int8)
    np.testing.assert_array_equal(q, want)
    assert list(q[:5]) == [0, 4, -6, 10, 127]


@DT
def test_ascend_dequant(mod, dt):
    rng = np.random.default_rng(2)
    src = rng.integers(-5000, 5000, (DM, DN)).astype(np.int32)
    scale = rng.uniform(0.01, 0.1, DN).astype(np.float32)
    z0 = np.full(DM * DN, 7, dt)
    z = dev.run(mod, "deq_" + dev.ctype(dt), deq_t(dt, np.float32), [src.ravel(), scale, z0, np.zeros(1024, np.uint8)])[2]
    z = z.reshape(DM, DN)
    close(z[:, :DC], src[:, :DC] * scale[:DC].astype(np.float64), dt)
    assert (z[:, DC:] == 7).all()  # columns past calCount are left alone
    z = dev.run(mod, "deq_scalar_" + dev.ctype(dt), deq_t(dt, np.float32),
                [src.ravel(), scale, z0, np.zeros(1024, np.uint8)])[2].reshape(DM, DN)
    close(z[:, :DC], src[:, :DC] * 0.25, dt)


@DT
@pytest.mark.parametrize("tr", [False, True], ids=["KxN", "NxK_transposed"])
def test_ascend_antiquant_per_channel(mod, dt, tr):
    rng = np.random.default_rng(3)
    src = rng.integers(-128, 128, K * AN).astype(np.int8)
    off = rng.uniform(-2, 2, G * AN).astype(dt)
    sc = rng.uniform(0.1, 1, G * AN).astype(dt)
    z = dev.run(mod, "aq_%s_%s" % ("true" if tr else "false", dev.ctype(dt)), aq_t(dt),
                [src, off, sc, np.zeros(K * AN, dt), np.zeros(1024, np.uint8)])[3]
    s64, o64, c64 = src.astype(np.float64), off.astype(np.float64), sc.astype(np.float64)
    gs = K // G
    if not tr:  # src [K, N], offset/scale [G, N]
        grp = np.repeat(np.arange(G), gs)
        want = c64.reshape(G, AN)[grp] * (s64.reshape(K, AN) + o64.reshape(G, AN)[grp])
    else:       # src [N, K], offset/scale [N, G]
        grp = np.repeat(np.arange(G), gs)
        want = c64.reshape(AN, G)[:, grp] * (s64.reshape(AN, K) + o64.reshape(AN, G)[:, grp])
    close(z, want.ravel(), dt)


def test_ascend_antiquant_half_rounds_the_add_and_the_mul(mod):
    """Its page's algorithm for a half output: src cast to half, a half Add
    of offset, a half Mul by scale, each rounded; exact against NumPy's half
    arithmetic (the asc-devkit example's golden), which differs from one
    rounding of the float result in some elements."""
    dt = np.float16
    rng = np.random.default_rng(5)
    src = rng.integers(-128, 128, K * AN).astype(np.int8)
    off = rng.uniform(-10, 10, G * AN).astype(dt)
    sc = rng.uniform(-10, 10, G * AN).astype(dt)
    z = dev.run(mod, "aq_false_half", aq_t(dt), [src, off, sc, np.zeros(K * AN, dt), np.zeros(1024, np.uint8)])[3]
    grp = np.repeat(np.arange(G), K // G)
    o, c = off.reshape(G, AN)[grp], sc.reshape(G, AN)[grp]
    want = (c * (src.reshape(K, AN).astype(dt) + o)).ravel()  # float16 throughout
    np.testing.assert_array_equal(z, want)
    once = (c.astype(np.float32) * (src.reshape(K, AN).astype(np.float32) + o.astype(np.float32))).astype(dt)
    assert (once.ravel() != want).any()  # the case tells the two apart


@DT
def test_ascend_antiquant_per_tensor(mod, dt):
    src = np.arange(-128, 128, dtype=np.int8)
    z = dev.run(mod, "aq_scalar_" + dev.ctype(dt), aq_t(dt),
                [src, np.zeros(G * AN, dt), np.zeros(G * AN, dt), np.zeros(K * AN, dt), np.zeros(1024, np.uint8)])[3]
    close(z, 0.5 * (src.astype(np.float64) + 1.5), dt)


@DT
@pytest.mark.parametrize("op", ["sum", "mean"])
def test_sum_and_mean_over_rows(mod, dt, op):
    x = np.random.default_rng(4).uniform(-2, 2, (SO, SI)).astype(dt)
    z = dev.run(mod, "%s_%s" % (op, dev.ctype(dt)), red_t(dt), [x.ravel(), np.zeros(SO, dt), np.zeros(1024, np.uint8)])[1]
    v = x.astype(np.float64)[:, :SN]
    want = v.sum(axis=1) if op == "sum" else v.mean(axis=1)
    np.testing.assert_allclose(z.astype(np.float64), want.astype(dt).astype(np.float64),
                               rtol=2e-3 if dt == np.float16 else 1e-5, atol=2e-3 if dt == np.float16 else 1e-5)
