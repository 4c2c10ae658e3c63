"""Device API: WelfordUpdate and WelfordFinalize (lib/normalization/welford.h).
WelfordUpdate against its page's formulas evaluated step by step in NumPy
float32 (bit for bit: each operation rounds once); a whole row split into
blocks, updated block by block and finalized, against NumPy's mean and
variance in float64 (the no-tail, head/tail, counts and corrected forms);
and the page's limits refused with the parameter named."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

AB = 64
TMP = ("tmp", np.uint8, 1024)
INPLACE = "static constexpr WelfordUpdateConfig CFG_IN = {true};\n"


def upd_tensors(dt):
    return [("x", dt, AB), ("m", np.float32, AB), ("v", np.float32, AB), ("om", np.float32, AB),
            ("ov", np.float32, AB), TMP]


def upd_kernel(name, dt, inplace, tmp, n, nrec, rn=1):
    cfg = ", CFG_IN" if inplace else ""
    args = "om, ov, m, v, x, tmp, p" if tmp else "om, ov, m, v, x, p"
    body = (INPLACE + "WelfordUpdateParam p = {%d, %d, %d, %.9gf};\n" % (rn, AB, n, nrec) +
            "WelfordUpdate<%s, float, false%s>(%s);" % (dev.ctype(dt), cfg, args))
    return dev.ub_kernel(name, upd_tensors(dt), body)


@pytest.fixture(scope="module")
def upd_mod():
    ks = []
    for dt in (np.float32, np.float16):
        c = dev.ctype(dt)
        ks.append(upd_kernel("upd_%s" % c, dt, False, False, 35, 1.0 / 3))
        ks.append(upd_kernel("upd_in_tmp_%s" % c, dt, True, True, 35, 1.0 / 3))
    ks.append(upd_kernel("upd_rn2", np.float32, False, False, 35, 0.5, rn=2))
    ks.append(upd_kernel("upd_n0", np.float32, False, False, 0, 0.5))
    return dev.program(ks)


def upd_inputs(dt):
    rng = np.random.default_rng(11)
    return (rng.uniform(-50, 50, AB).astype(dt), rng.uniform(-60000, 60000, AB).astype(np.float32),
            rng.uniform(0, 60000, AB).astype(np.float32))


@pytest.mark.parametrize("inplace", [False, True], ids=["not_inplace", "inplace_tmp"])
@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["float", "half"])
def test_welford_update_is_the_pages_formula_bit_for_bit(upd_mod, dt, inplace):
    x, m, v = upd_inputs(dt)
    junk = np.full(AB, 7.0, np.float32)
    name = ("upd_in_tmp_" if inplace else "upd_") + dev.ctype(dt)
    out = dev.run(upd_mod, name, upd_tensors(dt), [x, m, v, junk, junk, np.zeros(1024, np.uint8)])
    xf, n = x.astype(np.float32), np.float32(1.0 / 3)
    d = xf - m
    want_m = m + d * n
    want_v = v + d * (xf - want_m)
    np.testing.assert_array_equal(out[3][:35], want_m[:35])
    np.testing.assert_array_equal(out[4][:35], want_v[:35])
    # past abComputeLength: the inputs with isInplace, untouched without
    np.testing.assert_array_equal(out[3][35:], m[35:] if inplace else junk[35:])
    np.testing.assert_array_equal(out[4][35:], v[35:] if inplace else junk[35:])


@pytest.mark.parametrize("name,msg", [("upd_rn2", r"para.rnLength is 2; only 1 is supported"),
                                      ("upd_n0", r"para.abComputeLength 0 is not in 1..abLength \(64\)")])
def test_welford_update_limits(upd_mod, name, msg):
    z = np.zeros(AB, np.float32)
    with pytest.raises(arc.LaunchError, match=r"AscendC::WelfordUpdate: " + msg):
        dev.run(upd_mod, name, upd_tensors(np.float32), [z, z, z, z, z, np.zeros(1024, np.uint8)])


# A row split into RN blocks of AB: the last block holds `tail` values.
RN = 3


def chain_kernel(name, tail, fin, arch_cfg=""):
    """Update block by block (ping-pong between two mean/M pairs: the page
    forbids overlap), then finalize with the statement `fin`; the updated
    pair is m1/v1 after RN = 3 blocks (blocks 0 and 2 write it)."""
    t = [("x", np.float32, RN * AB), ("m0", np.float32, AB), ("v0", np.float32, AB), ("m1", np.float32, AB),
         ("v1", np.float32, AB), ("cnt", np.int32, AB), ("mean", np.float32, 8), ("var", np.float32, 8), TMP]
    body = (INPLACE + arch_cfg +
            "for (uint32_t i = 0; i < %d; i++) {\n" % RN +
            "  WelfordUpdateParam p = {1, %d, i + 1 < %d ? %du : %du, 1.0f / (float)(i + 1)};\n" % (AB, RN, AB, tail) +
            "  if (i %% 2 == 0) WelfordUpdate<float, float, false, CFG_IN>(m1, v1, m0, v0, x[i * %d], p);\n" % AB +
            "  else WelfordUpdate<float, float, false, CFG_IN>(m0, v0, m1, v1, x[i * %d], p);\n" % AB +
            "}\n" + fin)
    return t, dev.ub_kernel(name, t, body)


def para(tail):
    """WelfordFinalizePara for a last block of `tail` values (head/tail form;
    rRecWithCorrection = 1 / (R - 1))."""
    r = (RN - 1) * AB + tail
    return "WelfordFinalizePara q = {%d, %d, %d, %d, %d, %d, 1.0f / %d, 1.0f / %d, 1.0f / %d};\n" % (
        RN, AB, RN, tail, RN - 1, AB - tail, AB, r, r - 1)


TAIL = 44
CORR = "static constexpr WelfordFinalizeConfig CFG_C = {true};\n"
CASES = {  # finalize statement, config, the last block's length, ddof, arch
    "headtail": ("WelfordFinalize(mean, var, m1, v1, tmp, q);", "", TAIL, 0, "dav-2201"),
    "counts": ("WelfordFinalize(mean, var, m1, v1, cnt, q);", "", TAIL, 0, "dav-2201"),
    "counts_tmp": ("WelfordFinalize(mean, var, m1, v1, cnt, tmp, q);", "", TAIL, 0, "dav-2201"),
    "notail": ("WelfordFinalize(mean, var, m1, v1, q);", "", AB, 0, "dav-2201"),
    "corrected": ("WelfordFinalize<false, CFG_C>(mean, var, m1, v1, cnt, q);", CORR, TAIL, 1, "dav-3510"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_welford_update_then_finalize_is_the_rows_mean_and_variance(case):
    fin, cfg, tail, ddof, arch = CASES[case]
    t, k = chain_kernel("wf_" + case, tail, para(tail) + fin, cfg)
    mod = dev.program([k], options=("--npu-arch=" + arch,))
    row = np.random.default_rng(13).uniform(-5, 9, RN * AB).astype(np.float32)
    cnt = np.where(np.arange(AB) < tail, RN, RN - 1).astype(np.int32)
    z = np.zeros(AB, np.float32)
    out = dev.run(mod, "wf_" + case, t, [row, z, z, z, z, cnt, np.zeros(8, np.float32), np.zeros(8, np.float32),
                                         np.zeros(1024, np.uint8)])
    vals = row[:(RN - 1) * AB + tail].astype(np.float64)  # the full blocks, then the last block's first `tail`
    np.testing.assert_allclose(out[6][0], vals.mean(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out[7][0], vals.var(ddof=ddof), rtol=1e-5)


def test_welford_finalize_limits():
    """headCountLength + tailCountLength must be abLength; the corrected
    variance is Ascend 950's."""
    bad = para(TAIL).replace("{3, 64, 3, 44,", "{3, 64, 3, 40,")
    t, k1 = chain_kernel("wf_bad_len", TAIL, bad + "WelfordFinalize(mean, var, m1, v1, q);")
    _, k2 = chain_kernel("wf_corr_a2", TAIL, para(TAIL) + "WelfordFinalize<false, CFG_C>(mean, var, m1, v1, q);",
                         CORR)
    mod = dev.program([k1, k2])
    z = np.zeros(AB, np.float32)
    args = [np.zeros(RN * AB, np.float32), z, z, z, z, np.zeros(AB, np.int32), np.zeros(8, np.float32),
            np.zeros(8, np.float32), np.zeros(1024, np.uint8)]
    with pytest.raises(arc.LaunchError, match=r"AscendC::WelfordFinalize: para.headCountLength 40 \+ "
                                              r"tailCountLength 20 is not abLength 64"):
        dev.run(mod, "wf_bad_len", t, args)
    with pytest.raises(arc.LaunchError, match=r"AscendC::WelfordFinalize: config.isCorrection .* \(dav-3510\) only"):
        dev.run(mod, "wf_corr_a2", t, args)
