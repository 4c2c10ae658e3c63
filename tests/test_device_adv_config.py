"""Device API on dav-3510: the math APIs' algorithm configs (SinConfig ...
DivConfig, SqrtConfig, PowerConfig), Fmod, Truncate's round modes and
Ands/Ors (arc/adv_config.h), against NumPy, as opbase's atvoss calls them."""
import math

import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

N = 128
A35 = ("--npu-arch=dav-3510",)
P = [("x", np.float32, N), ("y", np.float32, N), ("z", np.float32, N)]
CONFIGS = {   # kernel body -> NumPy reference of z from x, y
    "sin_cfg": ("static constexpr SinConfig c = {SinAlgo::RADIAN_REDUCTION}; Sin<float, false, c>(z, x, %d);",
                lambda x, y: np.sin(x)),
    "cos_cfg": ("static constexpr CosConfig c = {CosAlgo::RADIAN_REDUCTION}; Cos<float, false, c>(z, x, %d);",
                lambda x, y: np.cos(x)),
    "atan_cfg": ("static constexpr AtanConfig c = {AtanAlgo::POLYNOMIAL_APPROXIMATION}; Atan<float, false, c>(z, x, %d);",
                 lambda x, y: np.arctan(x)),
    "erf_cfg": ("static constexpr ErfConfig c = {ErfAlgo::SUBSECTION_POLYNOMIAL_APPROXIMATION}; "
                "Erf<float, false, c>(z, x, %d);", lambda x, y: np.vectorize(math.erf)(x)),
    "div_cfg": ("static constexpr DivConfig c = {DivAlgo::DIFF_COMPENSATION}; Div<float, c>(z, x, y, %d);",
                lambda x, y: x / y),
    "sqrt_cfg": ("static constexpr SqrtConfig c = {SqrtAlgo::PRECISION_0ULP_FTZ_FALSE}; "
                 "Abs(y, y, %d); Sqrt<float, c>(z, y, %d);", lambda x, y: np.sqrt(np.abs(y))),
    "pow_cfg": ("static constexpr PowerConfig c = {PowerAlgo::DOUBLE_FLOAT_TECH}; Abs(x, x, %d); "
                "Power<float, false, c>(z, x, y, %d);", lambda x, y: np.abs(x) ** y),
    "fmod": ("Fmod(z, x, y, %d);", lambda x, y: np.fmod(x, y)),
    "fmod_cfg": ("static constexpr FmodConfig c = {FmodAlgo::ITERATION_COMPENSATION, 11}; "
                 "Fmod<float, false, c>(z, x, y, %d);", lambda x, y: np.fmod(x, y)),
}
ROUND = {"CAST_RINT": np.rint, "CAST_ROUND": lambda a: np.sign(a) * np.floor(np.abs(a) + 0.5),
         "CAST_FLOOR": np.floor, "CAST_CEIL": np.ceil, "CAST_TRUNC": np.trunc}


def body(text):
    return text.replace("%d", str(N))


@pytest.fixture(scope="module")
def mod():
    ks = [dev.ub_kernel("k_" + k, P, body(b)) for k, (b, _) in CONFIGS.items()]
    ks += [dev.ub_kernel("trunc_" + m, P, "Truncate<float, RoundMode::%s>(z, x, %d);" % (m, N)) for m in ROUND]
    ks += [dev.ub_kernel("trunc_half", [("x", np.float16, N), ("z", np.float16, N)],
                         "Truncate<half, RoundMode::CAST_RINT>(z, x, %d);" % N)]
    ip = [("x", np.int32, N), ("z", np.int32, N), ("w", np.int32, N)]
    ks += [dev.ub_kernel("bits", ip, "Ands(z, x, (int32_t)0x0f0f, %d); Ors(w, (int32_t)0x100, x, %d);" % (N, N))]
    return dev.program(ks, A35)


def inputs():
    rng = np.random.default_rng(3)
    x = rng.uniform(-6, 6, N).astype(np.float32)
    x[:6] = [2.5, -2.5, 3.5, 0.5, -0.5, 2.0]         # ties for the round modes
    y = rng.uniform(0.5, 3, N).astype(np.float32) * np.where(rng.random(N) < 0.5, -1, 1).astype(np.float32)
    y[:2] = [1.5, 1.1]
    return x, y


@pytest.mark.parametrize("name", list(CONFIGS))
def test_config_forms(mod, name):
    x, y = inputs()
    z = dev.run(mod, "k_" + name, P, [x, y, np.zeros(N, np.float32)])[2]
    want = CONFIGS[name][1](x.astype(np.float64), y.astype(np.float64))
    np.testing.assert_allclose(z, want.astype(np.float32), rtol=4e-6, atol=2e-6)


def test_fmod_matches_the_documented_examples(mod):
    """Fmod(2.0, 1.5) = 0.5 and Fmod(-3.0, 1.1) = -0.8 (the page's examples)."""
    x = np.zeros(N, np.float32)
    y = np.ones(N, np.float32)
    x[:2], y[:2] = [2.0, -3.0], [1.5, 1.1]
    z = dev.run(mod, "k_fmod", P, [x, y, np.zeros(N, np.float32)])[2]
    np.testing.assert_allclose(z[:2], [0.5, -0.8], rtol=1e-6)


@pytest.mark.parametrize("mode", list(ROUND))
def test_truncate_round_modes(mod, mode):
    x, y = inputs()
    z = dev.run(mod, "trunc_" + mode, P, [x, y, np.zeros(N, np.float32)])[2]
    np.testing.assert_array_equal(z, ROUND[mode](x.astype(np.float64)).astype(np.float32))


def test_truncate_half(mod):
    x = np.linspace(-40, 40, N).astype(np.float16)
    z = dev.run(mod, "trunc_half", [("x", np.float16, N), ("z", np.float16, N)], [x, np.zeros(N, np.float16)])[1]
    np.testing.assert_array_equal(z, np.rint(x))


def test_ands_ors(mod):
    x = np.arange(N, dtype=np.int32) * 977 - 5000
    ip = [("x", np.int32, N), ("z", np.int32, N), ("w", np.int32, N)]
    _, z, w = dev.run(mod, "bits", ip, [x, np.zeros(N, np.int32), np.zeros(N, np.int32)])
    np.testing.assert_array_equal(z, x & 0x0f0f)
    np.testing.assert_array_equal(w, x | 0x100)


@pytest.mark.parametrize("body, message", [
    ("Truncate<float, RoundMode::CAST_ODD>(z, x, 8);", "roundMode must be CAST_RINT"),
    ("Ands(z, x, 1.0f, 8);", "AscendC::Ands: supports integer types only"),
])
def test_bad_forms_are_compile_errors(body, message):
    with pytest.raises(arc.CompileError) as ei:
        dev.program([dev.ub_kernel("bad", P, body)], A35)
    assert message in ei.value.log
    dev.program([dev.ub_kernel("good", P, "Truncate<float, RoundMode::CAST_FLOOR>(z, x, 8);")], A35)


def test_ands_is_ascend950_only():
    with pytest.raises(arc.CompileError) as ei:
        dev.program([dev.ub_kernel("bad", [("x", np.int32, 8), ("z", np.int32, 8)], "Ands(z, x, 1, 8);")])
    assert "AscendC::Ands: Ascend 950 (dav-3510) only" in ei.value.log
