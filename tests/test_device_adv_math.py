"""Device API: the advanced API's element-wise functions (Sigmoid, Silu,
Tanh, the trig and hyperbolic functions, Erf/Erfc, Log/Log2/Log10, Trunc,
Frac, Sign, Power in its three forms), with and without the shared tmp
buffer, in float32 and float16, against NumPy (float64, then rounded)."""
import math

import numpy as np
import pytest

from helpers import dev

N = 200
erf = np.vectorize(math.erf)
erfc = np.vectorize(math.erfc)

# name: (NumPy reference, input domain (lo, hi))
OPS = {
    "Sigmoid": (lambda a: 1 / (1 + np.exp(-a)), (-8, 8)),
    "Silu": (lambda a: a / (1 + np.exp(-a)), (-8, 8)),
    "Tanh": (np.tanh, (-4, 4)),
    "Sin": (np.sin, (-6, 6)),
    "Cos": (np.cos, (-6, 6)),
    "Tan": (np.tan, (-1.4, 1.4)),
    "Asin": (np.arcsin, (-0.99, 0.99)),
    "Acos": (np.arccos, (-0.99, 0.99)),
    "Atan": (np.arctan, (-10, 10)),
    "Sinh": (np.sinh, (-5, 5)),
    "Cosh": (np.cosh, (-5, 5)),
    "Asinh": (np.arcsinh, (-10, 10)),
    "Acosh": (np.arccosh, (1, 10)),
    "Atanh": (np.arctanh, (-0.95, 0.95)),
    "Erf": (erf, (-3, 3)),
    "Erfc": (erfc, (-3, 3)),
    "Log": (np.log, (0.01, 100)),
    "Log2": (np.log2, (0.01, 100)),
    "Log10": (np.log10, (0.01, 100)),
    "Trunc": (np.trunc, (-20, 20)),
    "Frac": (lambda a: a - np.trunc(a), (-20, 20)),
    "Sign": (np.sign, (-2, 2)),
}
DTYPES = [np.float32, np.float16]


def kn(op, dt, tmp=False):
    return "adv_%s_%s%s" % (op, np.dtype(dt).name, "_tmp" if tmp else "")


@pytest.fixture(scope="module")
def mod():
    ks = []
    for dt in DTYPES:
        c = dev.ctype(dt)
        t = [("x", dt, N), ("z", dt, N)]
        for op in OPS:
            ks.append(dev.ub_kernel(kn(op, dt), t, "%s(z, x, %d);" % (op, N)))
            ks.append(dev.ub_kernel(kn(op, dt, True), t + [("tmp", np.uint8, 1024)],
                                    "%s<%s, false>(z, x, tmp, %d);" % (op, c, N)))
        p = [("x", dt, N), ("y", dt, N), ("z", dt, N)]
        ks.append(dev.ub_kernel("pow_tt_%s" % np.dtype(dt).name, p, "Power(z, x, y, %d);" % N))
        ks.append(dev.ub_kernel("pow_ts_%s" % np.dtype(dt).name, p, "Power(z, x, (%s)1.5f, %d);" % (c, N)))
        ks.append(dev.ub_kernel("pow_st_%s" % np.dtype(dt).name, p + [("tmp", np.uint8, 1024)],
                                "Power(z, (%s)2.0f, y, tmp, %d);" % (c, N)))
    return dev.program(ks)


def data(dt, lo, hi, seed):
    x = np.random.default_rng(seed).uniform(lo, hi, N).astype(dt)
    x[:3] = np.array([lo, hi, (lo + hi) / 2], dtype=dt)  # ends of the domain and its middle
    return x


def check(got, want, dt):
    if dt == np.float16:
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float16).astype(np.float32),
                                   rtol=2e-3, atol=2e-3)
    else:
        np.testing.assert_allclose(got, want.astype(np.float32), rtol=4e-6, atol=1e-6)


@pytest.mark.parametrize("tmp", [False, True], ids=["count", "tmp_buffer"])
@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", list(OPS))
def test_unary(mod, op, dt, tmp):
    f, (lo, hi) = OPS[op]
    x = data(dt, lo, hi, seed=len(op))
    tensors = [("x", dt, N), ("z", dt, N)] + ([("tmp", np.uint8, 1024)] if tmp else [])
    arrays = [x, np.zeros(N, dt)] + ([np.zeros(1024, np.uint8)] if tmp else [])
    z = dev.run(mod, kn(op, dt, tmp), tensors, arrays)[1]
    check(z, f(x.astype(np.float64)), dt)


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
def test_power_forms(mod, dt):
    name = np.dtype(dt).name
    x, y = data(dt, 0.1, 4, 1), data(dt, -2, 2, 2)
    p = [("x", dt, N), ("y", dt, N), ("z", dt, N)]
    xd, yd = x.astype(np.float64), y.astype(np.float64)
    check(dev.run(mod, "pow_tt_" + name, p, [x, y, np.zeros(N, dt)])[2], xd ** yd, dt)
    check(dev.run(mod, "pow_ts_" + name, p, [x, y, np.zeros(N, dt)])[2], xd ** 1.5, dt)
    z = dev.run(mod, "pow_st_" + name, p + [("tmp", np.uint8, 1024)], [x, y, np.zeros(N, dt), np.zeros(1024, np.uint8)])
    check(z[2], 2.0 ** yd, dt)


def test_integer_types_are_refused_at_compile_time():
    import ascendrtc as arc
    k = dev.ub_kernel("adv_int", [("x", np.int32, 64), ("z", np.int32, 64)], "Sigmoid(z, x, 64);")
    with pytest.raises(arc.CompileError) as ei:
        dev.program([k])
    assert "AscendC::Sigmoid: supports half and float only" in ei.value.log


@pytest.mark.parametrize("tmp", [False, True], ids=["plain", "tmp_buffer"])
def test_whole_tensor_forms(tmp):
    # without calCount "the whole source tensor takes part": every element
    # of x's 256-element LocalTensor, where z is larger (its tail stays)
    n, big = 256, 320
    x = data(np.float32, 1, 10, 3)[:1].repeat(n) + np.linspace(0, 5, n, dtype=np.float32)
    t = [("x", np.float32, n), ("z", np.float32, big)] + ([("tmp", np.uint8, 1024)] if tmp else [])
    body = "Acosh<float, false>(z, x%s);" % (", tmp" if tmp else "")
    m = dev.program([dev.ub_kernel("whole", t, body)])
    arrays = [x, np.full(big, -7, np.float32)] + ([np.zeros(1024, np.uint8)] if tmp else [])
    z = dev.run(m, "whole", t, arrays)[1]
    check(z[:n], np.arccosh(x.astype(np.float64)), np.float32)
    assert (z[n:] == -7).all()


@pytest.mark.parametrize("dt,out", [(np.float32, np.float32), (np.float16, np.float16)], ids=["f32", "f16"])
def test_isfinite(dt, out):
    n = 64
    x = np.linspace(-3, 3, n).astype(dt)
    x[[1, 5, 9, 60]] = [np.nan, np.inf, -np.inf, np.finfo(dt).max]
    t = [("x", dt, n), ("z", out, n)]
    m = dev.program([dev.ub_kernel("isfin", t, "IsFinite(z, x, %d);" % n)])
    z = dev.run(m, "isfin", t, [x, np.zeros(n, out)])[1]
    np.testing.assert_array_equal(z, np.isfinite(x).astype(out))
