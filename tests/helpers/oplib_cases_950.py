"""More Ascend 950 ops of CANN's libraries (Reg kernels and atvoss
templates: logs, rounding, bit tests, activations with attributes), with
NumPy references written from each op's README formula and its op
definition's attribute defaults, for tests/test_op_library_mirrors.py: the
same CASES rows as oplib_cases.py (run in full with ASCENDRTC_OPLIB_ALL=1).

Tolerances: fp32 results within 1e-5 relative (the kernels' logs and
divisions are within an ulp or two of the correctly rounded value; the
references are float64 rounded once); fp16 within 2e-3 (about two fp16
ulps: a kernel computing in float and rounding once may differ from the
reference by one ulp, and a kernel computing in half by two); bf16 within
1e-2 (about two bf16 ulps).  Exact ops (rounding, comparisons, bit tests,
squares of small integers) are compared exactly."""
import math

import ml_dtypes
import numpy as np

from helpers.oplib_cases import A950, FP16, binary, unary

BF16, BF16_DT = (1e-2, 1e-2), ml_dtypes.bfloat16


def _special(rng, dt=np.float32):
    """(8, 256) values with NaN, +-inf, +-0 and halves (rounding ties) among them."""
    x = rng.uniform(-6, 6, (8, 256)).astype(dt)
    x[0, :8] = [np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -2.5, 3.5]
    x[1::2, ::5] = np.round(x[1::2, ::5]) + 0.5   # ties
    return x


def exact(f, dt=np.float32, out=None):
    """A case whose result is exact: NumPy's f on special values."""
    def make(rng):
        x = _special(rng, dt)
        with np.errstate(invalid="ignore"):
            want = f(x)
        return [x], {}, [want.astype(out or dt)], 0, 0
    return make


def _leaky(x, negative_slope=0.0):
    return np.maximum(x, 0) + negative_slope * np.minimum(x, 0)


def _fast_gelu(x):
    return x / (1 + np.exp(-1.702 * np.abs(x))) * np.exp(0.851 * (x - np.abs(x)))


def _hardshrink_grad(g, x, lambd=0.5):
    return np.where((x > lambd) | (x < -lambd), g, 0)


def _gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def _gelu_erf(x):
    return 0.5 * x * (1 + np.vectorize(math.erf)(x / np.sqrt(2)))


def _gelu_v2(x, approximate="none"):
    return _gelu_tanh(x) if approximate == "tanh" else _gelu_erf(x)


def _swish(x, scale=1.0):
    return x / (1 + np.exp(-scale * x))


def _mish(x):
    return x * np.tanh(np.log1p(np.exp(x)))


def bcast(f, sa, sb, dt=np.float32, lo=-4.0, hi=4.0, tol=(1e-6, 1e-6), zeros=False):
    """A two-input case with NumPy broadcasting between shapes sa and sb
    (the broadcast kernels copy their inputs in with the DMA loop mode);
    zeros: a third of the first input's values 0."""
    def make(rng):
        a, b = rng.uniform(lo, hi, sa).astype(dt), rng.uniform(lo, hi, sb).astype(dt)
        if zeros:
            a[rng.random(sa) < 1 / 3] = 0
        with np.errstate(divide="ignore", invalid="ignore"):
            want = f(a.astype(np.float64), b.astype(np.float64))
        return [a, b], {}, [want.astype(dt)], tol[0], tol[1]
    return make


def _shrink(x, lambd=0.5, bias=0.0):
    return np.where(x > lambd, x - bias, np.where(x < -lambd, x + bias, 0))


def cmp(f, sa, sb):
    """A comparison with broadcasting on small integers (so ties occur): a bool result, exact."""
    def make(rng):
        a, b = rng.integers(-3, 4, sa).astype(np.float32), rng.integers(-3, 4, sb).astype(np.float32)
        return [a, b], {}, [f(a, b)], 0, 0
    return make


def _round(x, decimals=0):
    return np.round(x, decimals)


CASES = [
    ("OPS_MATH_SRC", "math/log", A950, "log", unary(np.log, lo=0.01, hi=8.0)),
    ("OPS_MATH_SRC", "math/log", A950, "log fp16", unary(np.log, np.float16, 0.01, 8.0, tol=FP16)),
    ("OPS_MATH_SRC", "math/log1p", A950, "log1p", unary(np.log1p, lo=-0.9, hi=8.0)),
    ("OPS_MATH_SRC", "math/ceil", A950, "ceil", exact(np.ceil)),
    ("OPS_MATH_SRC", "math/trunc", A950, "trunc", exact(np.trunc)),
    ("OPS_MATH_SRC", "math/floor", A950, "floor", exact(np.floor)),
    ("OPS_MATH_SRC", "math/neg", A950, "neg", exact(np.negative)),
    ("OPS_MATH_SRC", "math/is_pos_inf", A950, "is_pos_inf", exact(np.isposinf, out=np.bool_)),
    ("OPS_MATH_SRC", "math/is_neg_inf", A950, "is_neg_inf", exact(np.isneginf, out=np.bool_)),
    ("OPS_MATH_SRC", "math/acosh", A950, "acosh", unary(np.arccosh, lo=1.0, hi=8.0, tol=(1e-5, 1e-6))),
    ("OPS_MATH_SRC", "math/rint", A950, "rint", exact(np.rint)),
    ("OPS_MATH_SRC", "math/round", A950, "round", exact(np.round)),
    ("OPS_MATH_SRC", "math/round", A950, "round attrs", unary(_round, attrs={"decimals": 2}, tol=(1e-6, 1e-6))),
    ("OPS_MATH_SRC", "math/tanh", A950, "tanh", unary(np.tanh, tol=(1e-5, 1e-6))),
    ("OPS_MATH_SRC", "math/tanh", A950, "tanh fp16", unary(np.tanh, np.float16, tol=FP16)),
    ("OPS_MATH_SRC", "math/inv", A950, "inv", unary(lambda x: 1 / x, lo=0.25, hi=4.0)),
    ("OPS_MATH_SRC", "math/rsqrt", A950, "rsqrt", unary(lambda x: 1 / np.sqrt(x), lo=0.01, hi=8.0)),
    ("OPS_MATH_SRC", "math/square", A950, "square", unary(np.square)),
    ("OPS_MATH_SRC", "math/square", A950, "square bf16", unary(np.square, BF16_DT, tol=BF16)),
    ("OPS_MATH_SRC", "math/is_finite", A950, "is_finite", exact(np.isfinite, out=np.bool_)),
    ("OPS_MATH_SRC", "math/is_inf", A950, "is_inf", exact(np.isinf, out=np.bool_)),
    ("OPS_MATH_SRC", "math/atan", A950, "atan", unary(np.arctan, tol=(1e-5, 1e-6))),
    ("OPS_MATH_SRC", "math/atan", A950, "atan fp16", unary(np.arctan, np.float16, tol=FP16)),
    ("OPS_MATH_SRC", "math/erf", A950, "erf", unary(np.vectorize(math.erf), tol=(1e-5, 1e-6))),
    ("OPS_MATH_SRC", "math/erfc", A950, "erfc", unary(np.vectorize(math.erfc), tol=(1e-5, 1e-6))),
    ("OPS_MATH_SRC", "math/sinh", A950, "sinh", unary(np.sinh, tol=(1e-5, 1e-6))),
    ("OPS_MATH_SRC", "math/add", A950, "add", bcast(np.add, (8, 256), (1, 256))),
    ("OPS_MATH_SRC", "math/add", A950, "add fp16", bcast(np.add, (8, 256), (8, 256), np.float16, tol=FP16)),
    ("OPS_MATH_SRC", "math/sub", A950, "sub", bcast(np.subtract, (8, 256), (8, 1))),
    ("OPS_MATH_SRC", "math/maximum", A950, "maximum", bcast(np.maximum, (4, 1, 64), (1, 8, 64))),
    ("OPS_MATH_SRC", "math/greater", A950, "greater", cmp(np.greater, (8, 256), (1, 256))),
    ("OPS_MATH_SRC", "math/less", A950, "less", cmp(np.less, (8, 256), (8, 1))),
    ("OPS_MATH_SRC", "math/equal", A950, "equal", cmp(np.equal, (8, 256), (8, 256))),
    ("OPS_MATH_SRC", "math/xdivy", A950, "xdivy",
     bcast(lambda x, y: np.where(x == 0, 0, x / y), (8, 256), (8, 256), lo=0.5, tol=(1e-6, 0), zeros=True)),
    ("OPS_MATH_SRC", "math/xlogy", A950, "xlogy",
     bcast(lambda x, y: np.where(x == 0, 0, x * np.log(y)), (8, 256), (256,), lo=0.5, tol=(1e-5, 1e-6), zeros=True)),
    ("OPS_NN_SRC", "activation/relu_grad", A950, "relu_grad",
     bcast(lambda g, x: np.where(x > 0, g, 0), (8, 256), (8, 256), tol=(0, 0))),
    ("OPS_NN_SRC", "activation/softplus_grad", A950, "softplus_grad",
     bcast(lambda g, f: g / (1 + np.exp(-f)), (8, 256), (256,), tol=(1e-5, 1e-6))),
    ("OPS_NN_SRC", "activation/leaky_relu", A950, "leaky_relu", unary(_leaky)),
    ("OPS_NN_SRC", "activation/leaky_relu", A950, "leaky_relu attrs",
     unary(_leaky, attrs={"negative_slope": 0.125})),
    ("OPS_NN_SRC", "activation/gelu", A950, "gelu", unary(_gelu_tanh, tol=(1e-5, 1e-6))),
    ("OPS_NN_SRC", "activation/gelu_v2", A950, "gelu_v2", unary(_gelu_v2, tol=(1e-5, 1e-6))),
    ("OPS_NN_SRC", "activation/gelu_v2", A950, "gelu_v2 attrs",
     unary(_gelu_v2, attrs={"approximate": "tanh"}, tol=(1e-5, 1e-6))),
    ("OPS_NN_SRC", "activation/mish", A950, "mish", unary(_mish, tol=(1e-5, 1e-6))),
    ("OPS_NN_SRC", "activation/swish", A950, "swish", unary(_swish, tol=(1e-5, 1e-6))),
    ("OPS_NN_SRC", "activation/swish", A950, "swish attrs", unary(_swish, attrs={"scale": 1.5}, tol=(1e-5, 1e-6))),
    ("OPS_NN_SRC", "activation/log_sigmoid", A950, "log_sigmoid",
     unary(lambda x: -np.log1p(np.exp(-x)), tol=(1e-5, 1e-6))),
    ("OPS_NN_SRC", "activation/shrink", A950, "shrink attrs",
     unary(_shrink, attrs={"lambd": 1.0, "bias": 0.25})),
    ("OPS_NN_SRC", "activation/leaky_relu_grad", A950, "leaky_relu_grad attrs",
     binary(lambda g, x, negative_slope=0.0: np.where(x > 0, g, g * negative_slope), attrs={"negative_slope": 0.2})),
    ("OPS_NN_SRC", "activation/fast_gelu", A950, "fast_gelu", unary(_fast_gelu, tol=(1e-5, 1e-6))),
    ("OPS_NN_SRC", "activation/hard_shrink_grad", A950, "hard_shrink_grad", binary(_hardshrink_grad)),
    ("OPS_NN_SRC", "activation/hard_shrink_grad", A950, "hard_shrink_grad attrs",
     binary(_hardshrink_grad, attrs={"lambd": 1.5})),
]
