"""Ascend 950 ops of CANN's libraries whose kernels are opbase's atvoss
templates (elementwise schedules, Reg code), with NumPy references written
from each op's README formula, for tests/test_op_library_mirrors.py: the
same CASES rows as oplib_cases.py.  They run on the SoC their library
builds an Ascend C kernel for (ops-math's unary ops name ascend910b too,
with no arch22 sources: Ascend 950 here)."""
import numpy as np

from helpers.oplib_cases import A950, binary, unary


def _is_nan(rng):
    x = rng.uniform(-4, 4, (8, 256)).astype(np.float32)
    x[::3, ::7] = np.nan
    return [x], {}, [np.isnan(x)], 0, 0


CASES = [
    ("OPS_MATH_SRC", "math/sqrt", A950, "sqrt", unary(np.sqrt, lo=0.0, hi=8.0)),
    ("OPS_MATH_SRC", "math/exp", A950, "exp", unary(np.exp, tol=(1e-5, 1e-6))),
    ("OPS_MATH_SRC", "math/sqrt_grad", A950, "sqrt_grad", binary(lambda y, dy: dy * 0.5 / y, lo=0.5, hi=4.0)),
    ("OPS_MATH_SRC", "math/inv_grad", A950, "inv_grad", binary(lambda x, g: -1.0 * x * x * g)),
    ("OPS_MATH_SRC", "math/is_nan", A950, "is_nan", _is_nan),
    ("OPS_NN_SRC", "activation/relu", A950, "relu", unary(lambda x: np.maximum(x, 0))),
    ("OPS_NN_SRC", "activation/softplus", A950, "softplus", unary(lambda x: np.log1p(np.exp(x)), tol=(1e-5, 1e-6))),
]
