"""Ops of CANN's op libraries (ops-nn, ops-math) with NumPy references
written here from each op's documented semantics (its README's formula and
its op definition's attribute defaults), for tests/test_op_library_mirrors.py.

CASES: (library variable, op directory, SoC, case name, make) where
make(rng) -> (inputs, attrs, expected outputs, rtol, atol).  The SoC is the
one the library builds the op for (its CMake's COMPUTE_UNIT)."""
import numpy as np

A950, B910 = "Ascend950PR_9599", "Ascend910B1"
SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _x(rng, dt=np.float32, lo=-4.0, hi=4.0, shape=(8, 256)):
    return rng.uniform(lo, hi, shape).astype(dt)


def unary(f, dt=np.float32, lo=-4.0, hi=4.0, attrs=None, tol=(1e-5, 1e-6)):
    """A one-input case: y = f(x in float64, **attrs)."""
    def make(rng):
        x = _x(rng, dt, lo, hi)
        a = dict(attrs or {})
        return [x], a, [f(x.astype(np.float64), **a).astype(dt)], tol[0], tol[1]
    return make


def binary(f, dt=np.float32, lo=-4.0, hi=4.0, attrs=None, tol=(1e-5, 1e-6)):
    def make(rng):
        x, y = _x(rng, dt, lo, hi), _x(rng, dt, lo, hi)
        a = dict(attrs or {})
        return [x, y], a, [f(x.astype(np.float64), y.astype(np.float64), **a).astype(dt)], tol[0], tol[1]
    return make


def celu(x, alpha1=1.0, alpha2=1.0, alpha3=1.0):
    return np.where(x >= 0, alpha3 * x, alpha1 * (np.exp(x / alpha2) - 1))


def hard_sigmoid(x, alpha=1.0 / 6, beta=0.5):
    return np.clip(alpha * x + beta, 0, 1)


def _ndtri(p):
    """The standard normal distribution's inverse CDF (the stdlib's)."""
    from statistics import NormalDist
    inv = NormalDist().inv_cdf
    return np.vectorize(lambda v: inv(float(v)))(p)


def pows(exponent, dt=np.float32, tol=(1e-5, 1e-6)):
    """Pows: y = x1 ** x2 with x2 a one-element tensor (the README's
    exponent).  Its kernel computes the exponents aclnnPow routes to it
    (-2, -1, -0.5, 0.5, 2, 3); the output has x1's shape."""
    def make(rng):
        x = _x(rng, dt, 0.25, 4.0)
        e = np.array([exponent], dt)
        return [x, e], {"out_shapes": [x.shape]}, [np.power(x.astype(np.float64), exponent).astype(dt)], tol[0], tol[1]
    return make


FP16 = (2e-3, 2e-3)
CASES = [
    ("OPS_NN_SRC", "activation/bnll", A950, "bnll", unary(lambda x: np.log1p(np.exp(x)))),
    ("OPS_NN_SRC", "activation/celu", A950, "celu", unary(celu)),
    ("OPS_NN_SRC", "activation/celu", A950, "celu attrs",
     unary(celu, attrs={"alpha1": 0.5, "alpha2": 2.0, "alpha3": 1.5}, tol=(1e-5, 1e-5))),
    ("OPS_NN_SRC", "activation/relu6", A950, "relu6", unary(lambda x: np.clip(x, 0, 6), lo=-8, hi=8)),
    ("OPS_NN_SRC", "activation/relu6", A950, "relu6 fp16", unary(lambda x: np.clip(x, 0, 6), np.float16, -8, 8)),
    ("OPS_NN_SRC", "activation/selu", A950, "selu",
     unary(lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * (np.exp(x) - 1)), tol=(1e-5, 1e-5))),
    ("OPS_NN_SRC", "activation/softsign_grad", A950, "softsign_grad",
     binary(lambda g, f: g / (1 + np.abs(f)) ** 2)),
    ("OPS_NN_SRC", "activation/hard_shrink", A950, "hard_shrink",
     unary(lambda x, lambd=0.5: np.where(np.abs(x) > lambd, x, 0))),
    ("OPS_NN_SRC", "activation/hard_shrink", A950, "hard_shrink attrs",
     unary(lambda x, lambd: np.where(np.abs(x) > lambd, x, 0), attrs={"lambd": 1.25})),
    ("OPS_NN_SRC", "activation/softshrink", A950, "softshrink",
     unary(lambda x, lambd=0.5: np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, 0)))),
    ("OPS_NN_SRC", "activation/softshrink", A950, "softshrink attrs",
     unary(lambda x, lambd: np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, 0)),
           attrs={"lambd": 2.0})),
    ("OPS_NN_SRC", "activation/hard_sigmoid", A950, "hard_sigmoid", unary(hard_sigmoid)),
    ("OPS_NN_SRC", "activation/hard_sigmoid", A950, "hard_sigmoid attrs",
     unary(hard_sigmoid, attrs={"alpha": 0.25, "beta": 0.25})),
    ("OPS_NN_SRC", "activation/hard_swish", A950, "hard_swish", unary(lambda x: x * np.clip(x + 3, 0, 6) / 6)),
    ("OPS_MATH_SRC", "math/ndtri", A950, "ndtri", unary(_ndtri, lo=0.01, hi=0.99, tol=(1e-4, 1e-5))),
    ("OPS_NN_SRC", "activation/hard_sigmoid_grad", A950, "hard_sigmoid_grad",
     binary(lambda g, x, alpha=1.0 / 6, beta=0.5: np.where((alpha * x + beta > 0) & (alpha * x + beta < 1),
                                                           g * alpha, 0))),
    ("OPS_NN_SRC", "activation/soft_shrink_grad", A950, "soft_shrink_grad",
     binary(lambda g, x, lambd=0.5: np.where(np.abs(x) > lambd, g, 0))),
    ("OPS_NN_SRC", "loss/logit", B910, "logit", unary(lambda x: np.log(x / (1 - x)), lo=0.02, hi=0.98,
                                                      tol=(1e-5, 1e-5))),
    ("OPS_NN_SRC", "activation/squared_relu", B910, "squared_relu", unary(lambda x: np.maximum(x, 0) ** 2)),
    ("OPS_NN_SRC", "activation/heaviside", B910, "heaviside",
     binary(lambda x, v: np.where(x > 0, 1.0, np.where(x == 0, v, 0.0)))),
    ("OPS_MATH_SRC", "math/pows", B910, "pows cube", pows(3.0)),
    ("OPS_MATH_SRC", "math/pows", B910, "pows rsqrt fp16", pows(-0.5, np.float16, FP16)),
]
