"""Device API: the advanced API's activations (lib/activation: Gelu,
FasterGelu, FasterGeluV2, Swish, SwiGLU, GeGLU, ReGlu) against NumPy
(float64 from the same inputs, rounded to the operand type), with and
without the shared tmp buffer, in float32 and float16.  Tolerances: float32
rtol 2e-6 / atol 1e-6; float16 rtol 2e-3 / atol 2e-3 (one half ulp of
rounding plus the float compute)."""
import numpy as np
import pytest

from helpers import dev

N = 200
DTYPES = [np.float32, np.float16]


def gelu(x):
    return x / (1 + np.exp(-np.sqrt(8 / np.pi) * (x + 0.044715 * x ** 3)))


def faster_gelu(x):
    return x / (1 + np.exp(-1.702 * x))


def faster_gelu_v2(x):
    sgn = np.sign(x + 1e-12)
    c = np.minimum(np.abs(0.7071 * x), 1.769)
    return x * (sgn * (-0.1444 * (c - 1.769) ** 2 + 0.5) + 0.5)


def swish(x, beta):
    return x / (1 + np.exp(-beta * x))


UNARY = {"Gelu": gelu, "FasterGelu": faster_gelu, "FasterGeluV2": faster_gelu_v2,
         "Swish": lambda x: swish(x, 1.5)}
BINARY = {"SwiGLU": lambda a, b: a * swish(b, 0.75), "GeGLU": lambda a, b: a * gelu(b),
          "ReGlu": lambda a, b: a * np.maximum(b, 0)}


def call(op, c, tmp, count=True):
    n = ", %d" % N if count else ""
    t = ", tmp" if tmp else ""
    if op == "Swish":
        return "Swish<%s>(z, x%s, %d, (%s)1.5f);" % (c, t, N, c)
    if op in UNARY:
        return "%s<%s>(z, x%s%s);" % (op, c, t, n)
    beta = ", 0.75f" if op == "SwiGLU" else ""
    return "%s<%s, false>(z, x, y%s%s%s);" % (op, c, beta, t, n)


def name(op, dt, tmp, count=True):
    return "act_%s_%s%s%s" % (op, np.dtype(dt).name, "_tmp" if tmp else "", "" if count else "_all")


def tensors(dt, tmp):
    return [("x", dt, N), ("y", dt, N), ("z", dt, N)] + ([("tmp", np.uint8, 2048)] if tmp else [])


@pytest.fixture(scope="module")
def mod():
    ks = []
    for dt in DTYPES:
        c = dev.ctype(dt)
        for tmp in (False, True):
            for op in list(UNARY) + list(BINARY):
                ks.append(dev.ub_kernel(name(op, dt, tmp), tensors(dt, tmp), call(op, c, tmp)))
        for op in BINARY:  # the whole-tensor forms (no calCount)
            ks.append(dev.ub_kernel(name(op, dt, True, False), tensors(dt, True), call(op, c, True, False)))
    return dev.program(ks)


def check(got, want, dt):
    if dt == np.float16:
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float16).astype(np.float32),
                                   rtol=2e-3, atol=2e-3)
    else:
        np.testing.assert_allclose(got, want.astype(np.float32), rtol=2e-6, atol=1e-6)


def launch(mod, op, dt, tmp, count=True):
    rng = np.random.default_rng(len(op))
    x = rng.uniform(-5, 5, N).astype(dt)
    y = rng.uniform(-5, 5, N).astype(dt)
    x[:4] = [0, -0.0, 3.0, -3.0]
    arrays = [x, y, np.zeros(N, dt)] + ([np.zeros(2048, np.uint8)] if tmp else [])
    z = dev.run(mod, name(op, dt, tmp, count), tensors(dt, tmp), arrays)[2]
    return x.astype(np.float64), y.astype(np.float64), z


@pytest.mark.parametrize("tmp", [False, True], ids=["count", "tmp_buffer"])
@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", list(UNARY))
def test_unary(mod, op, dt, tmp):
    x, _, z = launch(mod, op, dt, tmp)
    check(z, UNARY[op](x), dt)


@pytest.mark.parametrize("tmp", [False, True], ids=["count", "tmp_buffer"])
@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", list(BINARY))
def test_gated(mod, op, dt, tmp):
    x, y, z = launch(mod, op, dt, tmp)
    check(z, BINARY[op](x, y), dt)


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", list(BINARY))
def test_gated_whole_tensor(mod, op, dt):
    x, y, z = launch(mod, op, dt, True, count=False)
    check(z, BINARY[op](x, y), dt)


def test_swiglu_gates_src0_with_swish_of_src1():
    """Three pairs from the public SwiGLU example (half, beta 1): the output
    is src0 * swish(src1), not swish(src0) * src1."""
    src0 = np.array([0.4065, -0.2167, -0.963], np.float16)
    src1 = np.array([-2.285, -1.502, 2.783], np.float16)
    want = np.array([-0.0858, 0.05927, -2.523], np.float16)
    t = [("x", np.float16, 3), ("y", np.float16, 3), ("z", np.float16, 3)]
    m = dev.program([dev.ub_kernel("swiglu_doc", t, "SwiGLU<half, false>(z, x, y, 1.0f, 3);")])
    z = dev.run(m, "swiglu_doc", t, [src0, src1, np.zeros(3, np.float16)])[2]
    np.testing.assert_allclose(z.astype(np.float32), want.astype(np.float32), rtol=4e-3)


def test_integer_operands_are_refused_at_compile_time():
    import ascendrtc as arc
    k = dev.ub_kernel("gelu_int", [("x", np.int32, 64), ("z", np.int32, 64)], "Gelu(z, x, 64);")
    with pytest.raises(arc.CompileError) as ei:
        dev.program([k])
    assert "AscendC::Gelu: supports half and float only" in ei.value.log


def test_count_past_the_tensor_stops_the_kernel():
    import ascendrtc as arc
    t = [("x", np.float32, 64), ("z", np.float32, 64)]
    m = dev.program([dev.ub_kernel("gelu_big", t, "LocalTensor<float> s = x[32]; Gelu(z, s, 64);")])
    with pytest.raises(arc.LaunchError, match=r"AscendC::Gelu: src: count 64 exceeds"):
        dev.run(m, "gelu_big", t, [np.zeros(64, np.float32), np.zeros(64, np.float32)])
