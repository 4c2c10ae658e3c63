"""Device API: LayerNormGrad and LayerNormGradBeta
(lib/normalization/layernorm_grad.h) against LayerNormGrad's page's NumPy
formulas and the usual gamma/beta gradients, in float64; in place (the
pages let sources and destinations share space); a padded H refused.
Tolerances: float32 rtol 1e-4 / atol 1e-4 (sums of H products), float16
rtol 1e-2 / atol 1e-2."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

B, S, H = 2, 3, 32
N = B * S
TMP = ("tmp", np.uint8, 1024)


def shape(t, ori=H):
    return "%s tl{}; tl.bLength = %d; tl.sLength = %d; tl.hLength = %d; tl.originalHLength = %d;\n" % (t, B, S, H, ori)


def tensors(dt):
    return [("dy", dt, N * H), ("x", dt, N * H), ("var", dt, N), ("mean", dt, N), ("g", dt, H), ("pdx", dt, N * H),
            ("res", dt, N * H), ("pg", dt, H), ("pb", dt, H), TMP]


@pytest.fixture(scope="module")
def mod():
    ks = []
    for dt in (np.float32, np.float16):
        c = dev.ctype(dt)
        grad = shape("LayerNormGradTiling") + "LayerNormGrad<%s>(pdx, res, dy, x, var, mean, g, (%s)1e-4f, tl);\n" % (c, c)
        beta = shape("LayerNormGradBetaTiling").replace("tl", "tb") + "LayerNormGradBeta<%s>(pg, pb, res, dy, tb);" % c
        ks.append(dev.ub_kernel("lng_" + c, tensors(dt), grad + beta))
        ks.append(dev.ub_kernel("lng_tmp_" + c, tensors(dt), grad.replace("g, (", "g, tmp, (") +
                                beta.replace("dy, tb)", "dy, tmp, tb)")))
    # in place: pd_x over dy, resForGamma over x
    ks.append(dev.ub_kernel("lng_inplace", tensors(np.float32), shape("LayerNormGradTiling") +
                            "LayerNormGrad<float>(dy, x, dy, x, var, mean, g, 1e-4f, tl);"))
    ks.append(dev.ub_kernel("lng_padded", tensors(np.float32), shape("LayerNormGradTiling", 30) +
                            "LayerNormGrad<float>(pdx, res, dy, x, var, mean, g, 1e-4f, tl);"))
    return dev.program(ks)


def inputs(dt):
    rng = np.random.default_rng(9)
    x = rng.uniform(-3, 3, (N, H)).astype(dt)
    dy = rng.uniform(-2, 2, (N, H)).astype(dt)
    g = rng.uniform(0.5, 1.5, H).astype(dt)
    xd = x.astype(np.float64)
    mean, var = xd.mean(axis=1).astype(dt), xd.var(axis=1).astype(dt)
    z = np.zeros(N * H, dt)
    return [dy.ravel(), x.ravel(), var, mean, g, z, z, np.zeros(H, dt), np.zeros(H, dt), np.zeros(1024, np.uint8)]


def reference(arrays):
    dy, x, var, mean, g = (a.astype(np.float64) for a in arrays[:5])
    dy, x, var, mean = dy.reshape(N, H), x.reshape(N, H), var[:, None], mean[:, None]
    eps = 1e-4
    x1, x2 = dy * g, x - mean
    pd_var = np.sum(-0.5 * x1 * x2 * np.power(var + eps, -1.5), axis=1, keepdims=True)
    pd_mean = np.sum(-1.0 * x1 * np.power(var + eps, -0.5), axis=1, keepdims=True) + \
        pd_var * (1.0 / H) * np.sum(-2.0 * x2, axis=1, keepdims=True)
    pd_x = x1 * np.power(var + eps, -0.5) + pd_var * (2.0 / H) * x2 + pd_mean * (1.0 / H)
    res = x2 * np.power(var + eps, -0.5)
    return pd_x, res, (dy * res).sum(axis=0), dy.sum(axis=0)


def tol(dt):
    return dict(rtol=1e-2, atol=1e-2) if dt == np.float16 else dict(rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("tmp", ["", "tmp_"], ids=["no_tmp", "tmp_buffer"])
@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["float", "half"])
def test_layernorm_grad_and_beta(mod, dt, tmp):
    arrays = inputs(dt)
    out = dev.run(mod, "lng_%s%s" % (tmp, dev.ctype(dt)), tensors(dt), arrays)
    pd_x, res, pg, pb = reference(arrays)
    np.testing.assert_allclose(out[5].reshape(N, H).astype(np.float64), pd_x, **tol(dt))
    np.testing.assert_allclose(out[6].reshape(N, H).astype(np.float64), res, **tol(dt))
    # LayerNormGradBeta sums the resForGamma the kernel computed
    res_k = out[6].reshape(N, H).astype(np.float64)
    dy = arrays[0].reshape(N, H).astype(np.float64)
    np.testing.assert_allclose(out[7].astype(np.float64), (dy * res_k).sum(axis=0), **tol(dt))
    np.testing.assert_allclose(out[8].astype(np.float64), pb, **tol(dt))
    np.testing.assert_allclose(out[7].astype(np.float64), pg, rtol=5e-2 if dt == np.float16 else 1e-4, atol=5e-2)


def test_layernorm_grad_in_place(mod):
    arrays = inputs(np.float32)
    out = dev.run(mod, "lng_inplace", tensors(np.float32), arrays)
    pd_x, res, _, _ = reference(arrays)
    np.testing.assert_allclose(out[0].reshape(N, H), pd_x, **tol(np.float32))
    np.testing.assert_allclose(out[1].reshape(N, H), res, **tol(np.float32))


def test_a_padded_h_is_refused(mod):
    with pytest.raises(arc.LaunchError, match=r"AscendC::LayerNormGrad: tiling: hLength 32, originalHLength 30 "
                                              r"\(H padding is not supported"):
        dev.run(mod, "lng_padded", tensors(np.float32), inputs(np.float32))
