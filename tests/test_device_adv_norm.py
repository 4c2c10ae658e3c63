"""Device API: the advanced API's row-wise functions with host tiling
(lib/activation/softmax.h, lib/normalization): SoftMax (with and without
sum/max outputs, float sum/max for half input, a narrower valid width),
SimpleSoftMax, LayerNorm, DeepNorm and RmsNorm, each fed the tiling struct that
ascendrtc.adv_tiling builds (the tiling-helper form) as a GM argument, and
each with and without the shared tmp buffer.  References: NumPy in float64.
Tolerances: float32 rtol 1e-5 / atol 1e-6; float16 rtol 4e-3 / atol 4e-3."""
import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc import adv_tiling
from helpers import dev

M, K = 4, 64
B, S, H = 2, 3, 32
TILING = ", GM_ADDR g_tiling"
TMP = ("tmp", np.uint8, 4096)


def load(struct):
    return "%s tl = *(__gm__ %s *)g_tiling;" % (struct, struct)


def softmax_ref(x, k=None):
    k = x.shape[1] if k is None else k
    v = x[:, :k]
    m = v.max(axis=1, keepdims=True)
    e = np.exp(v - m)
    s = e.sum(axis=1, keepdims=True)
    out = np.zeros_like(x)
    out[:, :k] = e / s
    return out, m[:, 0], s[:, 0]


def tol(dt):
    return dict(rtol=4e-3, atol=4e-3) if dt == np.float16 else dict(rtol=1e-5, atol=1e-6)


def sm_tensors(dt, st):
    blk = 32 // np.dtype(st).itemsize
    return [("x", dt, M * K), ("z", dt, M * K), ("s", st, M * blk), ("m", st, M * blk), TMP]


@pytest.fixture(scope="module")
def mod():
    ks = []
    for dt, st in ((np.float32, np.float32), (np.float16, np.float16), (np.float16, np.float32)):
        c, sc = dev.ctype(dt), dev.ctype(st)
        tag = "%s_%s" % (c, sc)
        t = sm_tensors(dt, st)
        ks.append(dev.ub_kernel("sm_" + tag, t, load("SoftMaxTiling") +
                                "SoftMax<%s>(z, s, m, x, tl);" % c, TILING))
        ks.append(dev.ub_kernel("sm_tmp_" + tag, t, load("SoftMaxTiling") +
                                "SoftMax<%s, false>(z, s, m, x, tmp, tl, SoftMaxShapeInfo{%d, %d, %d, 40});"
                                % (c, M, K, M), TILING))
        ks.append(dev.ub_kernel("simple_" + tag, t, load("SoftMaxTiling") +
                                "SimpleSoftMax<%s>(z, s, m, x, tmp, tl);" % c, TILING))
    for dt in (np.float32, np.float16):
        c = dev.ctype(dt)
        ks.append(dev.ub_kernel("sm_plain_" + c, sm_tensors(dt, dt), load("SoftMaxTiling") +
                                "SoftMax<%s>(z, x, tmp, tl);" % c, TILING))
        ln = [("x", dt, B * S * H), ("g", dt, H), ("b", dt, H), ("z", dt, B * S * H), ("mean", dt, B * S),
              ("var", dt, B * S), TMP]
        ks.append(dev.ub_kernel("ln_" + c, ln, load("LayerNormTiling") +
                                "LayerNorm<%s>(z, mean, var, x, g, b, (%s)1e-5f, tl);" % (c, c), TILING))
        ks.append(dev.ub_kernel("ln_tmp_" + c, ln, load("LayerNormTiling") +
                                "LayerNorm<%s, false>(z, mean, var, x, g, b, tmp, (%s)1e-5f, tl);" % (c, c), TILING))
        dn = [("x", dt, B * S * H), ("gx", dt, B * S * H), ("b", dt, H), ("g", dt, H), ("z", dt, B * S * H),
              ("mean", dt, B * S), ("var", dt, B * S), TMP]
        ks.append(dev.ub_kernel("deep_" + c, dn, load("DeepNormTiling") +
                                "DeepNorm<%s>(z, mean, var, x, gx, b, g, (%s)-1.75f, (%s)1e-5f, tl);" % (c, c, c),
                                TILING))
        ks.append(dev.ub_kernel("deep_tmp_" + c, dn, load("DeepNormTiling") +
                                "DeepNorm<%s, false, false>(z, mean, var, x, gx, b, g, tmp, (%s)-1.75f, (%s)1e-5f, tl);"
                                % (c, c, c), TILING))
        rn = [("x", dt, B * S * H), ("g", dt, H), ("z", dt, B * S * H), TMP]
        ks.append(dev.ub_kernel("rms_" + c, rn, load("RmsNormTiling") +
                                "RmsNorm<%s>(z, x, g, (%s)1e-6f, tl);" % (c, c), TILING))
        ks.append(dev.ub_kernel("rms_tmp_" + c, rn, load("RmsNormTiling") +
                                "RmsNorm<%s, false>(z, x, g, tmp, (%s)1e-6f, tl);" % (c, c), TILING))
    return dev.program(ks)


SM_TYPES = [(np.float32, np.float32), (np.float16, np.float16), (np.float16, np.float32)]
SM_IDS = ["float", "half", "half_float_stats"]


def sm_run(mod, kname, dt, st, m_in=None, s_in=None):
    blk = 32 // np.dtype(st).itemsize
    x = np.random.default_rng(3).uniform(-4, 4, (M, K)).astype(dt)
    s = np.zeros(M * blk, st) if s_in is None else np.repeat(s_in, blk).astype(st)
    m = np.zeros(M * blk, st) if m_in is None else np.repeat(m_in, blk).astype(st)
    tl = adv_tiling.softmax_tiling((M, K), np.dtype(dt).itemsize)
    out = dev.run(mod, kname, sm_tensors(dt, st), [x.ravel(), np.zeros(M * K, dt), s, m, np.zeros(4096, np.uint8)],
                  extra=(tl,))
    return x.astype(np.float64), out[1].reshape(M, K), out[2].reshape(M, blk), out[3].reshape(M, blk)


@pytest.mark.parametrize("dt,st", SM_TYPES, ids=SM_IDS)
def test_softmax_with_sum_and_max(mod, dt, st):
    x, z, s, m = sm_run(mod, "sm_%s_%s" % (dev.ctype(dt), dev.ctype(st)), dt, st)
    want, wm, ws = softmax_ref(x)
    np.testing.assert_allclose(z.astype(np.float64), want, **tol(dt))
    for col in range(s.shape[1]):  # every element of a row's block holds the row's value
        np.testing.assert_allclose(m[:, col].astype(np.float64), wm, **tol(st))
        np.testing.assert_allclose(s[:, col].astype(np.float64), ws, **tol(st))


@pytest.mark.parametrize("dt,st", SM_TYPES, ids=SM_IDS)
def test_softmax_tmp_buffer_and_narrower_valid_width(mod, dt, st):
    x, z, s, m = sm_run(mod, "sm_tmp_%s_%s" % (dev.ctype(dt), dev.ctype(st)), dt, st)
    want, wm, ws = softmax_ref(x, 40)
    np.testing.assert_allclose(z.astype(np.float64), want, **tol(dt))
    np.testing.assert_allclose(m[:, 0].astype(np.float64), wm, **tol(st))


@pytest.mark.parametrize("dt,st", SM_TYPES, ids=SM_IDS)
def test_simple_softmax_uses_the_given_max_and_sum(mod, dt, st):
    x = np.random.default_rng(3).uniform(-4, 4, (M, K)).astype(dt).astype(np.float64)
    m_in = np.array([1.0, 2.0, 0.5, 3.0])
    s_in = np.array([10.0, 20.0, 5.0, 40.0])
    _, z, _, _ = sm_run(mod, "simple_%s_%s" % (dev.ctype(dt), dev.ctype(st)), dt, st, m_in, s_in)
    want = np.exp(x - m_in.astype(st)[:, None]) / s_in.astype(st)[:, None]
    np.testing.assert_allclose(z.astype(np.float64), want, **tol(dt))


@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["float", "half"])
def test_softmax_without_stats(mod, dt):
    x, z, _, _ = sm_run(mod, "sm_plain_" + dev.ctype(dt), dt, dt)
    np.testing.assert_allclose(z.astype(np.float64), softmax_ref(x)[0], **tol(dt))


def ln_inputs(dt):
    rng = np.random.default_rng(5)
    return (rng.uniform(-3, 3, (B * S, H)).astype(dt), rng.uniform(0.5, 1.5, H).astype(dt),
            rng.uniform(-1, 1, H).astype(dt))


@pytest.mark.parametrize("tmp", ["", "tmp_"], ids=["no_tmp", "tmp_buffer"])
@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["float", "half"])
def test_layernorm(mod, dt, tmp):
    x, g, b = ln_inputs(dt)
    n = B * S
    t = [("x", dt, n * H), ("g", dt, H), ("b", dt, H), ("z", dt, n * H), ("mean", dt, n), ("var", dt, n), TMP]
    tl = adv_tiling.layernorm_tiling((B, S, H), np.dtype(dt).itemsize)
    out = dev.run(mod, "ln_%s%s" % (tmp, dev.ctype(dt)), t,
                  [x.ravel(), g, b, np.zeros(n * H, dt), np.zeros(n, dt), np.zeros(n, dt), np.zeros(4096, np.uint8)],
                  extra=(tl,))
    xd = x.astype(np.float64)
    mean, var = xd.mean(axis=1), xd.var(axis=1)
    want = (xd - mean[:, None]) / np.sqrt(var[:, None] + 1e-5) * g.astype(np.float64) + b.astype(np.float64)
    np.testing.assert_allclose(out[3].reshape(n, H).astype(np.float64), want, **tol(dt))
    np.testing.assert_allclose(out[4].astype(np.float64), mean, **tol(dt))
    np.testing.assert_allclose(out[5].astype(np.float64), var, **tol(dt))


@pytest.mark.parametrize("tmp", ["", "tmp_"], ids=["no_tmp", "tmp_buffer"])
@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["float", "half"])
def test_deepnorm_is_layernorm_of_alpha_x_plus_gx(mod, dt, tmp):
    """The third output holds the variance, as DeepNorm's page example and
    CANN's deepnorm example show (the page calls it rstd)."""
    x, g, b = ln_inputs(dt)
    gx = np.random.default_rng(6).uniform(-2, 2, x.shape).astype(dt)
    n = B * S
    t = [("x", dt, n * H), ("gx", dt, n * H), ("b", dt, H), ("g", dt, H), ("z", dt, n * H), ("mean", dt, n),
         ("var", dt, n), TMP]
    tl = adv_tiling.layernorm_tiling((B, S, H), np.dtype(dt).itemsize)  # DeepNormTiling has its fields
    out = dev.run(mod, "deep_%s%s" % (tmp, dev.ctype(dt)), t,
                  [x.ravel(), gx.ravel(), b, g, np.zeros(n * H, dt), np.zeros(n, dt), np.zeros(n, dt),
                   np.zeros(4096, np.uint8)], extra=(tl,))
    zd = -1.75 * x.astype(np.float64) + gx.astype(np.float64)
    mean, var = zd.mean(axis=1), zd.var(axis=1)
    want = (zd - mean[:, None]) / np.sqrt(var[:, None] + 1e-5) * g.astype(np.float64) + b.astype(np.float64)
    np.testing.assert_allclose(out[4].reshape(n, H).astype(np.float64), want, **tol(dt))
    np.testing.assert_allclose(out[5].astype(np.float64), mean, **tol(dt))
    np.testing.assert_allclose(out[6].astype(np.float64), var, **tol(dt))


@pytest.mark.parametrize("tmp", ["", "tmp_"], ids=["no_tmp", "tmp_buffer"])
@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["float", "half"])
@pytest.mark.parametrize("ori_h", [H, 27], ids=["full", "narrower"])
def test_rmsnorm(mod, dt, tmp, ori_h):
    x, g, _ = ln_inputs(dt)
    n = B * S
    t = [("x", dt, n * H), ("g", dt, H), ("z", dt, n * H), TMP]
    tl = adv_tiling.rmsnorm_tiling((B, S, H), np.dtype(dt).itemsize, original_h=ori_h)
    out = dev.run(mod, "rms_%s%s" % (tmp, dev.ctype(dt)), t, [x.ravel(), g, np.zeros(n * H, dt),
                                                              np.zeros(4096, np.uint8)], extra=(tl,))
    xd = x.astype(np.float64)[:, :ori_h]
    want = np.zeros((n, H))
    want[:, :ori_h] = xd / np.sqrt((xd ** 2).mean(axis=1, keepdims=True) + 1e-6) * g.astype(np.float64)[:ori_h]
    np.testing.assert_allclose(out[2].reshape(n, H).astype(np.float64), want, **tol(dt))


def test_tiling_from_another_shape_is_caught(mod):
    """A SoftMaxTiling for more rows than the tensors hold stops the kernel
    with the API and the operand named."""
    dt = np.float32
    tl = adv_tiling.softmax_tiling((64, K), 4)
    with pytest.raises(arc.LaunchError, match=r"AscendC::SoftMax: dst: count 4096 exceeds"):
        dev.run(mod, "sm_float_float", sm_tensors(dt, dt),
                [np.zeros(M * K, dt), np.zeros(M * K, dt), np.zeros(M * 8, dt), np.zeros(M * 8, dt),
                 np.zeros(4096, np.uint8)], extra=(tl,))


def test_nz_layout_is_refused_at_run_time():
    """isDataFormatNZ = true is not implemented: the kernel stops saying so
    rather than computing ND rows."""
    dt = np.float32
    t = sm_tensors(dt, dt)
    m = dev.program([dev.ub_kernel("sm_nz", t, load("SoftMaxTiling") + "SoftMax<float, false, false, true>(z, s, m, x, tl);",
                                   TILING)])
    with pytest.raises(arc.LaunchError, match=r"AscendC::SoftMax: isDataFormatNZ = true \(NZ layout\) is not implemented"):
        dev.run(m, "sm_nz", t, [np.zeros(M * K, dt), np.zeros(M * K, dt), np.zeros(M * 8, dt), np.zeros(M * 8, dt),
                                np.zeros(4096, np.uint8)], extra=(adv_tiling.softmax_tiling((M, K), 4),))
