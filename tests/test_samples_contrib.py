"""More of the public samples' op projects (operator_contrib) end to end:
their own host tiling and kernel, against NumPy references written here
(activations, comparisons, triangular masks, losses, special functions,
layer norm, cross product).  Skipped without ASCEND_SAMPLES_SRC
(tests/helpers/samples.py); nothing from the samples is in this repository."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.samples import sample_path

C = "operator_contrib/"
rng = np.random.default_rng(11)


def rn(shape, lo=-3.0, hi=3.0):
    return rng.uniform(lo, hi, shape).astype(np.float32)


def simpson(f, a, b, n=2000):
    """Composite Simpson's rule of f over [a, b] per element (float64)."""
    t = np.linspace(0.0, 1.0, n + 1)[:, None]
    x = a + (b - a) * t
    w = np.ones(n + 1)
    w[1:-1:2], w[2:-1:2] = 4, 2
    return (b - a) / (3 * n) * (w[:, None] * f(x)).sum(axis=0)


def dawson(x):
    """Dawson's integral exp(-x^2) * integral_0^x exp(t^2) dt."""
    x = np.asarray(x, np.float64).ravel()
    return (np.exp(-x * x) * simpson(lambda t: np.exp(t * t), 0.0, x))


def spence(x):
    """Spence's function (SciPy's convention): integral_1^x log(t) / (1 - t) dt."""
    x = np.asarray(x, np.float64).ravel()

    def f(t):
        d = 1.0 - t
        safe = np.where(np.abs(d) < 1e-12, 1.0, d)
        return np.where(np.abs(d) < 1e-12, -1.0, np.log(t) / safe)
    return simpson(f, 1.0, x)


def run(rel, *args, **attrs):
    return arc.op_project(sample_path(C + rel))(*args, **attrs)


def test_gelu():
    # the sample's sigmoid form of the tanh approximation, with its constants
    x = rn((8, 1024))
    y = run("GeluSample/FrameworkLaunch/GELU", x)
    xd = x.astype(np.float64)
    want = xd / (1 + np.exp(-1.595769122 * (xd + 0.0455399241 * xd ** 3)))
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)


def test_fast_gelu():
    x = rn((8, 1024))
    xd = x.astype(np.float64)
    want = xd / (1 + np.exp(-1.702 * np.abs(xd))) * np.exp(0.851 * (xd - np.abs(xd)))
    np.testing.assert_allclose(run("FastGeluSample/FrameworkLaunch/FastGelu", x), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name,fn", [("GreaterEqual", np.greater_equal), ("LessEqual", np.less_equal)])
def test_compare_to_bool(name, fn):
    a, b = rn(4096), rn(4096)
    b[::7] = a[::7]                       # equal elements too
    y = run(f"{name}Sample/FrameworkLaunch/{name}", a, b)
    assert y.dtype == np.bool_
    np.testing.assert_array_equal(y, fn(a, b))


@pytest.mark.parametrize("name,fn,shape,diag", [("Tril", np.tril, (64, 64), 1), ("Tril", np.tril, (16, 16), -2),
                                                ("Triu", np.triu, (16, 16), 0), ("Triu", np.triu, (16, 16), -2),
                                                ("Triu", np.triu, (64, 64), 3)])
def test_triangular(name, fn, shape, diag):
    x = rn(shape)
    np.testing.assert_array_equal(run(f"{name}Sample/FrameworkLaunch/{name}", x, diagonal=diag), fn(x, diag))


@pytest.mark.parametrize("diag", [0, -2])
def test_triu_fast_path_first_tile(diag):
    """Triu's tiling key 4 (diagonal <= 0, columns a multiple of 256 bytes) as
    its kernel is written: the first tile's zeroing loop starts at row
    1 - diagonal but its UB offset at row 0, so row r < 64 - (1 - diagonal)
    gets r + 1 leading zeros and the rest keep x: not np.triu (the sample's
    bug, docs/compatibility.md); ascendrtc computes what the kernel says."""
    x = rn((64, 64), 1.0, 2.0)
    y = run("TriuSample/FrameworkLaunch/Triu", x, diagonal=diag)
    want = x.copy()
    for r in range(64 - (1 - diag)):
        want[r, :r + 1] = 0
    np.testing.assert_array_equal(y, want)
    assert (y != np.triu(x, diag)).any()


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss(reduction):
    p, q = rn((8, 1024)), rn((8, 1024))
    y = run("MseLossSample/FrameworkLaunch/MseLoss", p, q, reduction=reduction)
    d2 = (p.astype(np.float64) - q) ** 2
    if reduction == "none":
        np.testing.assert_allclose(y, d2, rtol=1e-6)
    else:   # the reduced value is the first element (the op's InferShape keeps the input shape)
        want = d2.mean() if reduction == "mean" else d2.sum()
        np.testing.assert_allclose(y.reshape(-1)[0], want, rtol=1e-5)


def test_mse_loss_grad():
    p, q, d = rn((8, 1024)), rn((8, 1024)), rn((8, 1024))
    y = run("MseLossGradSample/FrameworkLaunch/MseLossGrad", p, q, d, reduction="mean")
    np.testing.assert_allclose(y, 2 * (p.astype(np.float64) - q) * d / p.size, rtol=1e-5, atol=1e-9)


def test_dawsn():
    x = rn((8, 1024))
    y = run("DawsnSample/FrameworkLaunch/Dawsn", x)
    np.testing.assert_allclose(y.ravel(), dawson(x), rtol=1e-5, atol=1e-6)


def test_spence():
    x = rn((8, 1024), 0.1, 3.0)
    y = run("SpenceSample/FrameworkLaunch/Spence", x)
    np.testing.assert_allclose(y.ravel(), spence(x), rtol=1e-5, atol=2e-6)


def test_layer_norm_custom():
    x, g, b = rn((16, 256)), rn(256), rn(256)
    y = run("LayerNormCustomSample/FrameworkLaunch/LayerNormCustom", x, g, b, epsilon=1e-5)
    xd = x.astype(np.float64)
    want = (xd - xd.mean(-1, keepdims=True)) / np.sqrt(xd.var(-1, keepdims=True) + 1e-5) * g + b
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-5)


def test_cross():
    a, b = rn((3, 256)), rn((3, 256))
    y = run("CrossSample/FrameworkLaunch/Cross", a, b, dim=0)
    np.testing.assert_allclose(y, np.cross(a.astype(np.float64), b, axis=0), rtol=1e-5, atol=1e-5)
