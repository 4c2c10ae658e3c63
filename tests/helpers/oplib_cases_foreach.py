"""ops-nn's foreach ops (lists of tensors in, a list out) with NumPy
references written from each op's README formula (y_i = f(x_i, ...)), for
tests/test_op_library_mirrors.py: the same CASES rows as oplib_cases.py.
Every case runs three tensors of different shapes on Ascend910B (the
ops' arch22 kernels), through dynamic (list) inputs and outputs."""
import math

import numpy as np

B910 = "Ascend910B1"
SHAPES = [(8, 64), (100,), (3, 5, 7)]


def foreach(f, lists=1, scalar=None, scalars=None, lo=-2.0, hi=2.0, dt=np.float32, tol=(1e-5, 1e-6),
            scalar_first=False):
    """y_i = f(x1_i, ..., [scalar | scalars_i]) over three tensors; scalar:
    a one-element tensor input, scalars: one value per tensor."""
    def make(rng):
        xs = [[rng.uniform(lo, hi, s).astype(dt) for s in SHAPES] for _ in range(lists)]
        ins = list(xs)
        extra = []
        if scalar is not None:
            extra = [np.array([scalar], dt)]
            per = [scalar] * len(SHAPES)
        elif scalars is not None:
            extra = [np.array(scalars, dt)]
            per = list(scalars)
        ins = extra + ins if scalar_first else ins + extra
        want = []
        for i in range(len(SHAPES)):
            args = [x[i].astype(np.float64) for x in xs]
            if scalar is not None or scalars is not None:
                args.append(np.float64(np.array(per[i], dt)))
            want.append(f(*args).astype(dt))
        return ins, {}, [want], tol[0], tol[1]
    return make


def _case(rel, name, make):
    return ("OPS_NN_SRC", "foreach/" + rel, B910, name, make)


CASES = [
    _case("foreach_abs", "foreach_abs", foreach(np.abs)),
    _case("foreach_exp", "foreach_exp", foreach(np.exp, tol=(1e-5, 1e-6))),
    _case("foreach_expm1", "foreach_expm1", foreach(np.expm1, tol=(1e-4, 1e-5))),
    _case("foreach_sqrt", "foreach_sqrt", foreach(np.sqrt, lo=0.0, hi=4.0)),
    _case("foreach_sign", "foreach_sign", foreach(np.sign)),
    _case("foreach_div_list", "foreach_div_list", foreach(lambda a, b: a / b, 2, lo=0.5, hi=2.0)),
    _case("foreach_maximum_list", "foreach_maximum_list", foreach(np.maximum, 2)),
    _case("foreach_minimum_list", "foreach_minimum_list", foreach(np.minimum, 2)),
    _case("foreach_mul_list", "foreach_mul_list", foreach(lambda a, b: a * b, 2)),
    _case("foreach_sub_list", "foreach_sub_list alpha", foreach(lambda a, b, al: a - b * al, 2, scalar=1.5)),
    _case("foreach_mul_scalar", "foreach_mul_scalar", foreach(lambda a, s: a * s, scalar=-1.25)),
    # these pass &Sub<T> / &Div<T> as level-0 function pointers (uint8_t repeatTime)
    _case("foreach_sub_scalar", "foreach_sub_scalar", foreach(lambda a, s: a - s, scalar=0.75)),
    _case("foreach_div_scalar", "foreach_div_scalar", foreach(lambda a, s: a / s, scalar=-1.5)),
    _case("foreach_sub_scalar_list", "foreach_sub_scalar_list", foreach(lambda a, s: a - s, scalars=[0.5, -2.0, 1.25])),
    _case("foreach_div_scalar_list", "foreach_div_scalar_list", foreach(lambda a, s: a / s, scalars=[2.0, -0.5, 3.0])),
    _case("foreach_maximum_scalar", "foreach_maximum_scalar", foreach(np.maximum, scalar=0.25)),
    _case("foreach_minimum_scalar", "foreach_minimum_scalar", foreach(np.minimum, scalar=0.25)),
    _case("foreach_mul_scalar_list", "foreach_mul_scalar_list",
          foreach(lambda a, s: a * s, scalars=[2.0, -0.5, 4.0])),
    _case("foreach_maximum_scalar_list", "foreach_maximum_scalar_list",
          foreach(np.maximum, scalars=[0.5, -0.5, 1.0])),
    _case("foreach_minimum_scalar_list", "foreach_minimum_scalar_list",
          foreach(np.minimum, scalars=[0.5, -0.5, 1.0])),
    _case("foreach_lerp_scalar", "foreach_lerp_scalar", foreach(lambda a, b, w: a + w * (b - a), 2, scalar=0.3)),
    _case("foreach_addcdiv_scalar_list", "foreach_addcdiv_scalar_list",
          foreach(lambda a, b, c, s: a + b / c * s, 3, scalars=[0.5, -1.0, 2.0], lo=0.5, hi=2.0)),
    # the math family whose kernels include the older SDK's lib/math/kernel_operator_<fn>_intf.h
    _case("foreach_log", "foreach_log", foreach(np.log, lo=0.05, hi=4.0)),
    _case("foreach_log10", "foreach_log10", foreach(np.log10, lo=0.05, hi=4.0)),
    _case("foreach_cos", "foreach_cos", foreach(np.cos)),
    _case("foreach_sin", "foreach_sin", foreach(np.sin)),
    _case("foreach_atan", "foreach_atan", foreach(np.arctan)),
    _case("foreach_asin", "foreach_asin", foreach(np.arcsin, lo=-0.95, hi=0.95)),
    _case("foreach_tanh", "foreach_tanh", foreach(np.tanh)),
    _case("foreach_sinh", "foreach_sinh", foreach(np.sinh)),
    _case("foreach_cosh", "foreach_cosh", foreach(np.cosh)),
    _case("foreach_erf", "foreach_erf", foreach(np.vectorize(math.erf))),
    _case("foreach_erfc", "foreach_erfc", foreach(np.vectorize(math.erfc), lo=-1.0, hi=1.5)),
    _case("foreach_pow_scalar", "foreach_pow_scalar", foreach(lambda a, s: a ** s, scalar=2.5, lo=0.5, hi=1.5)),
    _case("foreach_pow_list", "foreach_pow_list", foreach(lambda a, b: a ** b, 2, lo=0.5, hi=2.0)),
    _case("foreach_pow_scalar_and_tensor", "foreach_pow_scalar_and_tensor",
          foreach(lambda x, s: s ** x, scalar=1.7, scalar_first=True)),
    _case("foreach_pow_scalar_list", "foreach_pow_scalar_list",
          foreach(lambda a, s: a ** s, scalars=[2.0, 0.5, 3.0], lo=0.5, hi=1.5)),
    _case("foreach_exp", "foreach_exp fp16", foreach(np.exp, dt=np.float16, tol=(2e-3, 2e-3))),
    _case("foreach_mul_list", "foreach_mul_list fp16", foreach(lambda a, b: a * b, 2, dt=np.float16,
                                                               tol=(2e-3, 2e-3))),
]
