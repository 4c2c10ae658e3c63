"""Device API: the [A, R] normalisations (lib/normalization/layernorm.h's
rstd form with LayerNormPara/LayerNormConfig/LayerNormSeparateTiling,
lib/normalization/normalize.h) and AdjustSoftMaxRes
(lib/activation/softmax_adjust.h).  References: NumPy in float64 and the
docs' worked Normalize example.  Tolerances: float32 rtol 1e-5 / atol
1e-6; float16 rtol 4e-3 / atol 4e-3."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

A, R = 4, 20


def tol(dt):
    return dict(rtol=4e-3, atol=4e-3) if dt == np.float16 else dict(rtol=1e-5, atol=1e-6)


def ln_tensors(t, u, rp):
    return [("x", t, A * rp), ("g", u, rp), ("b", u, rp), ("y", t, A * rp), ("mean", np.float32, 8),
            ("rstd", np.float32, 8), ("tmp", np.uint8, 1024)]


def ln_body(t, u, rp, cfg, tiling_r=R, para_r=R, tmp=False):
    """The tiling as GetLayerNormNDTilingInfo's kernel reads it: [A, R]."""
    args = "y, mean, rstd, x, g, b, 1e-5f, %spara, tl" % ("tmp, " if tmp else "")
    return ("static constexpr LayerNormConfig cfg = %s;"
            "LayerNormSeparateTiling tl{}; tl.aLength = %d; tl.rLength = %d;"
            "LayerNormPara para = {%d, %d, %d};"
            "LayerNorm<%s, %s, false, cfg>(%s);" % (cfg, A, tiling_r, A, para_r, rp, dev.ctype(u), dev.ctype(t), args))


CASES = {  # name: (T, U, rLengthWithPadding, config, no_gamma, no_beta)
    "float": (np.float32, np.float32, 24, "LayerNormConfig{false, false, false, true}", False, False),
    "half_float_gamma_no_beta": (np.float16, np.float32, 32, "LayerNormConfig{true, false, false, true}", False, True),
    "half_no_gamma": (np.float16, np.float16, 32, "LayerNormConfig{false, true, false, true}", True, False),
}


@pytest.fixture(scope="module")
def mod():
    ks = [dev.ub_kernel("ln_" + n, ln_tensors(t, u, rp), ln_body(t, u, rp, cfg, tmp=n == "float"))
          for n, (t, u, rp, cfg, _, _) in CASES.items()]
    t = ln_tensors(np.float32, np.float32, 24)
    ks.append(dev.ub_kernel("ln_var", t, ln_body(np.float32, np.float32, 24, "LayerNormConfig{false, false, false, false}")))
    ks.append(dev.ub_kernel("ln_bad_r", t, ln_body(np.float32, np.float32, 24, "LNCFG_NORM", tiling_r=16)))
    ks.append(dev.ub_kernel("ln_bad_pad", t, ln_body(np.float32, np.float32, 20, "LNCFG_NORM")))
    nt = [("x", np.float32, 64), ("mean", np.float32, 8), ("var", np.float32, 8), ("g", np.float32, 8),
          ("b", np.float32, 8), ("y", np.float32, 64), ("rstd", np.float32, 8)]
    ks.append(dev.ub_kernel("norm_doc", nt, "NormalizePara para = {8, 8, 8};"
                            "Normalize<float, float>(y, rstd, mean, var, x, g, b, 0.001f, para);"))
    ks.append(dev.ub_kernel("norm_bad_cfg", nt, "static constexpr NormalizeConfig cfg = {ReducePattern::AR, 4, false, false, false};"
                            "NormalizePara para = {8, 8, 8}; Normalize<float, float, false, cfg>(y, rstd, mean, var, x, g, b, 0.001f, para);"))
    at = [("res", np.float32, 64), ("mx", np.float32, 64), ("hit", np.int32, 8)]
    ks.append(dev.ub_kernel("adjust_f32", at, "SoftMaxShapeInfo s = {8, 8, 8, 8};"
                            "hit.SetValue(0, AdjustSoftMaxRes<float, float>(res, mx, 0xFF7FFFFFu, 0.0f, s) ? 1 : 0);"))
    ht = [("res", np.float16, 64), ("mx", np.float16, 16), ("hit", np.int32, 8)]
    ks.append(dev.ub_kernel("adjust_f16_step1", ht, "SoftMaxShapeInfo s = {4, 16, 4, 16};"
                            "hit.SetValue(0, AdjustSoftMaxRes<half, half, false, 1>(res, mx, 0x3C00u, (half)2.0f, s) ? 1 : 0);"))
    return dev.program(ks)


def ln_ref(x, g, b, r, no_gamma, no_beta, eps=1e-5):
    v = x[:, :r].astype(np.float64)
    mean = v.mean(axis=1)
    var = ((v - mean[:, None]) ** 2).mean(axis=1)
    rstd = 1 / np.sqrt(var + eps)
    y = np.zeros(x.shape)
    y[:, :r] = (v - mean[:, None]) * rstd[:, None]
    if not no_gamma:
        y[:, :r] *= g[:r]
    if not no_beta:
        y[:, :r] += b[:r]
    return y, mean, rstd, var


def ln_run(mod, name, t, u, rp):
    rng = np.random.default_rng(5)
    x = rng.uniform(-3, 3, (A, rp)).astype(t)
    x[:, R:] = 7  # padding columns: must not take part
    g, b = rng.uniform(0.5, 2, rp).astype(u), rng.uniform(-1, 1, rp).astype(u)
    out = dev.run(mod, name, ln_tensors(t, u, rp), [x.ravel(), g, b, np.zeros(A * rp, t), np.zeros(8, np.float32),
                                                   np.zeros(8, np.float32), np.zeros(1024, np.uint8)])
    return x, g.astype(np.float64), b.astype(np.float64), out


@pytest.mark.parametrize("name", list(CASES))
def test_layernorm_rstd_form(mod, name):
    t, u, rp, _, no_gamma, no_beta = CASES[name]
    x, g, b, out = ln_run(mod, "ln_" + name, t, u, rp)
    y, mean, rstd, _ = ln_ref(x, g, b, R, no_gamma, no_beta)
    np.testing.assert_allclose(out[3].reshape(A, rp).astype(np.float64), y, **tol(t))
    np.testing.assert_allclose(out[4][:A], mean, **tol(t))
    np.testing.assert_allclose(out[5][:A], rstd, **tol(t))


def test_layernorm_variance_output_is_ascend950_only(mod):
    with pytest.raises(arc.LaunchError, match=r"isOutputRstd = false \(the variance output\) is Ascend 950 only"):
        ln_run(mod, "ln_var", np.float32, np.float32, 24)


def test_layernorm_variance_output_on_dav3510():
    t = ln_tensors(np.float32, np.float32, 24)
    m = dev.program([dev.ub_kernel("ln_var", t, ln_body(np.float32, np.float32, 24,
                                                        "LayerNormConfig{false, false, false, false}"))],
                    options=("--npu-arch=dav-3510",))
    x, g, b, out = ln_run(m, "ln_var", np.float32, np.float32, 24)
    y, mean, _, var = ln_ref(x, g, b, R, False, False)
    np.testing.assert_allclose(out[3].reshape(A, 24), y, **tol(np.float32))
    np.testing.assert_allclose(out[5][:A], var, **tol(np.float32))


@pytest.mark.parametrize("kernel,msg", [
    ("ln_bad_r", r"para \[A 4, R 20\] against the tiling's \[A 4, R 16\]"),
    ("ln_bad_pad", r"rLengthWithPadding 20 \(must be >= rLength and 32-byte aligned\)"),
])
def test_layernorm_para_checks(mod, kernel, msg):
    zeros = [np.zeros(n, d) for _, d, n in ln_tensors(np.float32, np.float32, 24)]
    with pytest.raises(arc.LaunchError, match=msg):
        dev.run(mod, kernel, ln_tensors(np.float32, np.float32, 24), zeros)


NORM_DOC_Y = np.array([
    [1.0, 32.622772, 64.245544, 95.868324, 127.4911, 159.11388, 190.73665, 222.35942],
    [7.996503, 8.996003, 9.995503, 10.995004, 11.994504, 12.994005, 13.9935055, 14.993006],
    [10.897021, 11.603951, 12.310882, 13.017812, 13.724742, 14.431672, 15.138602, 15.845532],
    [13.122336, 13.699591, 14.276845, 14.854099, 15.431353, 16.008606, 16.585861, 17.163115],
    [14.998251, 15.498188, 15.998126, 16.498064, 16.998001, 17.497938, 17.997875, 18.497814],
    [16.65091, 17.09808, 17.545248, 17.992416, 18.439585, 18.886755, 19.333923, 19.781092],
    [18.144999, 18.553213, 18.961428, 19.369642, 19.777857, 20.186071, 20.594284, 21.002499],
    [19.518936, 19.896873, 20.27481, 20.652748, 21.030685, 21.408623, 21.78656, 22.164497]])
NORM_DOC_RSTD = [31.622774, 0.9995004, 0.7069301, 0.5772541, 0.49993753, 0.44716886, 0.40821427, 0.37793747]


def norm_inputs():
    x = np.arange(64, dtype=np.float32)
    mv = np.arange(8, dtype=np.float32)
    return [x, mv, mv, np.ones(8, np.float32), np.ones(8, np.float32), np.zeros(64, np.float32),
            np.zeros(8, np.float32)]


def test_normalize_matches_the_docs_example(mod):
    """Normalize's page: x = arange(64) as [8, 8], mean = variance = arange(8),
    gamma = beta = 1; epsilon 0.001 is what its rstd[0] = 31.622774 implies."""
    nt = [("x", np.float32, 64), ("mean", np.float32, 8), ("var", np.float32, 8), ("g", np.float32, 8),
          ("b", np.float32, 8), ("y", np.float32, 64), ("rstd", np.float32, 8)]
    out = dev.run(mod, "norm_doc", nt, norm_inputs())
    np.testing.assert_allclose(out[5].reshape(8, 8), NORM_DOC_Y, rtol=1e-6)
    np.testing.assert_allclose(out[6], NORM_DOC_RSTD, rtol=1e-6)
    x = np.arange(64, dtype=np.float64).reshape(8, 8)
    mv = np.arange(8, dtype=np.float64)[:, None]
    np.testing.assert_allclose(out[5].reshape(8, 8), (x - mv) / np.sqrt(mv + 0.001) + 1, rtol=1e-5)


def test_normalize_config_alength_must_match(mod):
    nt = [("x", np.float32, 64), ("mean", np.float32, 8), ("var", np.float32, 8), ("g", np.float32, 8),
          ("b", np.float32, 8), ("y", np.float32, 64), ("rstd", np.float32, 8)]
    with pytest.raises(arc.LaunchError, match=r"config.aLength 4 differs from para.aLength 8"):
        dev.run(mod, "norm_bad_cfg", nt, norm_inputs())


def test_adjust_softmax_res_rows_whose_max_matches(mod):
    """float max blocks (stepSizeMode 0: the first element of each row's
    block): rows 1 and 6 hold -FLT_MAX (0xFF7FFFFF) and become 0."""
    res = np.random.default_rng(1).uniform(0, 1, (8, 8)).astype(np.float32)
    mx = np.zeros((8, 8), np.float32)
    mx[1, 0] = mx[6, 0] = np.finfo(np.float32).min
    mx[3, 1:] = np.finfo(np.float32).min  # not the first element: ignored
    out = dev.run(mod, "adjust_f32", [("res", np.float32, 64), ("mx", np.float32, 64), ("hit", np.int32, 8)],
                  [res.ravel(), mx.ravel(), np.zeros(8, np.int32)])
    want = res.copy()
    want[[1, 6]] = 0
    np.testing.assert_array_equal(out[0].reshape(8, 8), want)
    assert out[2][0] == 1


def test_adjust_softmax_res_half_one_element_per_row(mod):
    """stepSizeMode 1: max[i] is element i; from is half 1.0's bits 0x3C00."""
    res = np.full((4, 16), 0.25, np.float16)
    mx = np.array([0.5, 1.0, 1.0, 3.0] + [1.0] * 12, np.float16)  # elements 4.. are not rows
    out = dev.run(mod, "adjust_f16_step1", [("res", np.float16, 64), ("mx", np.float16, 16), ("hit", np.int32, 8)],
                  [res.ravel(), mx, np.zeros(8, np.int32)])
    want = res.copy()
    want[[1, 2]] = 2.0
    np.testing.assert_array_equal(out[0].reshape(4, 16), want)
    assert out[2][0] == 1


def test_adjust_softmax_res_nz_is_refused_at_compile_time():
    k = dev.ub_kernel("adjust_nz", [("res", np.float32, 64), ("mx", np.float32, 64)],
                      "AdjustSoftMaxRes<float, float, true>(res, mx, 0u, 0.0f, SoftMaxShapeInfo{8, 8, 8, 8});")
    with pytest.raises(arc.CompileError) as ei:
        dev.program([k])
    assert "AscendC::AdjustSoftMaxRes: only the ND format is implemented" in ei.value.log
