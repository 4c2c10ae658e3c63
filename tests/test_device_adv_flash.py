"""Device API: SoftmaxFlashV2 (lib/activation/softmaxflashv2.h) with its
kernel-side tiling function, and SelectWithBytesMask
(lib/select/selectwithbytesmask.h), the advanced APIs FlashAttention
kernels call.  References: NumPy in float64 written from the public docs'
formulas (SoftmaxFlashV2: dst = exp(x - max), sum and max per row, with
isUpdate the running max/sum of the previous column block rescaled by
expMax = exp(inMax - max); SelectWithBytesMask: mask byte 0 -> src0, else
src1).  Tolerances: float32 rtol 1e-5; float16 rtol/atol 4e-3."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

M, K = 8, 64
TMP = ("tmp", np.uint8, 1024)


def tol(dt):
    return dict(rtol=1e-5, atol=1e-6) if dt == np.float32 else dict(rtol=4e-3, atol=4e-3)


def flash_tensors(dt, st):
    sb, eb = 32 // np.dtype(st).itemsize, 32 // np.dtype(dt).itemsize
    return [("x", dt, M * K), ("z", dt, M * K), ("s", st, M * sb), ("m", st, M * sb), ("e", dt, M * eb), TMP]


def flash_body(c, update, tmp, ks="%d" % K):
    # the kernel-side tiling, as FlashAttention kernels build it on the device
    t = "SoftMaxTiling tl = SoftMaxFlashV2TilingFuncImpl(%d, %s, sizeof(%s), sizeof(decltype(s)::PrimType), " \
        "tmp.GetSize(), %s, false);" % (M, ks, c, "true" if update else "false")
    # sum and max update in place (inExpSum == expSum, inMax == max), as the samples call it
    call = "SoftmaxFlashV2<%s, %s>(z, s, m, x, e, s, m, %stl);" % (c, "true" if update else "false",
                                                                    "tmp, " if tmp else "")
    return t + call


@pytest.fixture(scope="module")
def mod():
    ks = []
    for dt, st in [(np.float32, np.float32), (np.float16, np.float16), (np.float16, np.float32)]:
        c, tag = dev.ctype(dt), dev.ctype(dt) + "_" + dev.ctype(st)
        for upd in (False, True):
            ks.append(dev.ub_kernel("flash_%s_%d" % (tag, upd), flash_tensors(dt, st), flash_body(c, upd, True)))
        ks.append(dev.ub_kernel("flash_notmp_" + tag, flash_tensors(dt, st), flash_body(c, True, False)))
    # a narrower valid width through SoftMaxShapeInfo: columns 40..63 take no part
    ks.append(dev.ub_kernel("flash_narrow", flash_tensors(np.float32, np.float32),
                            "SoftMaxTiling tl = SoftMaxFlashV2TilingFuncImpl(%d, %d, 4, 4, 0, true);"
                            "SoftmaxFlashV2<float, true>(z, s, m, x, e, s, m, tmp, tl, "
                            "SoftMaxShapeInfo{%d, %d, %d, 40});" % (M, K, M, K, M)))
    for dt, mt in [(np.float32, np.uint8), (np.float16, np.uint8), (np.float32, np.int8), (np.float16, np.float16)]:
        c, mc = dev.ctype(dt), dev.ctype(mt)
        t = [("a", dt, 4 * 32), ("mk", mt, 4 * 64), ("z", dt, 4 * 32), TMP]
        info = "SelectWithBytesMaskShapeInfo info; info.firstAxis = 4; info.srcLastAxis = 32; info.maskLastAxis = 64;"
        ks.append(dev.ub_kernel("sel_ts_%s_%s" % (c, mc), t,
                                info + "SelectWithBytesMask(z, a, (%s)-7.5f, mk, tmp, info);" % c))
        ks.append(dev.ub_kernel("sel_st_%s_%s" % (c, mc), t,
                                info + "SelectWithBytesMask(z, (%s)-7.5f, a, mk, tmp, info);" % c))
    ks.append(dev.ub_kernel("sel_badmask", [("a", np.float32, 4 * 32), ("mk", np.uint8, 4 * 32),
                                            ("z", np.float32, 4 * 32), TMP],
                            "SelectWithBytesMaskShapeInfo info{4, 32, 24};"
                            "SelectWithBytesMask(z, a, 0.0f, mk, tmp, info);"))
    return dev.program(ks)


def flash_ref(x, in_m=None, in_s=None, k=None):
    k = x.shape[1] if k is None else k
    v = x[:, :k]
    m = v.max(axis=1)
    if in_m is not None:
        m = np.maximum(m, in_m)
    e = np.exp(v - m[:, None])
    s = e.sum(axis=1)
    em = None
    if in_m is not None:
        em = np.exp(in_m - m)
        s = s + em * in_s
    out = np.zeros_like(x)
    out[:, :k] = e
    return out, m, s, em


def flash_run(mod, name, dt, st, x, in_m=None, in_s=None):
    sb, eb = 32 // np.dtype(st).itemsize, 32 // np.dtype(dt).itemsize
    s = np.zeros(M * sb, st) if in_s is None else np.repeat(in_s, sb).astype(st)
    m = np.zeros(M * sb, st) if in_m is None else np.repeat(in_m, sb).astype(st)
    out = dev.run(mod, name, flash_tensors(dt, st), [x.ravel(), np.zeros(M * K, dt), s, m, np.zeros(M * eb, dt),
                                                      np.zeros(1024, np.uint8)])
    return (out[1].reshape(M, K).astype(np.float64), out[2].reshape(M, sb).astype(np.float64),
            out[3].reshape(M, sb).astype(np.float64), out[4].reshape(M, eb).astype(np.float64))


TYPES = [(np.float32, np.float32), (np.float16, np.float16), (np.float16, np.float32)]
IDS = ["float", "half", "half_float_stats"]


def tag(dt, st):
    return dev.ctype(dt) + "_" + dev.ctype(st)


@pytest.mark.parametrize("dt,st", TYPES, ids=IDS)
def test_flash_v2_first_block(mod, dt, st):
    x = np.random.default_rng(1).uniform(-4, 4, (M, K)).astype(dt)
    z, s, m, _ = flash_run(mod, "flash_%s_0" % tag(dt, st), dt, st, x)
    want, wm, ws, _ = flash_ref(x.astype(np.float64))
    np.testing.assert_allclose(z, want, **tol(dt))
    for col in range(s.shape[1]):  # a row's block holds its value in every element
        np.testing.assert_allclose(m[:, col], wm, **tol(st))
        np.testing.assert_allclose(s[:, col], ws, rtol=tol(st)["rtol"] * 4)


@pytest.mark.parametrize("dt,st", TYPES, ids=IDS)
@pytest.mark.parametrize("kind", ["tmp", "notmp"])
def test_flash_v2_update_in_place(mod, dt, st, kind):
    rng = np.random.default_rng(2)
    x = rng.uniform(-4, 4, (M, K)).astype(dt)
    # rows whose running max is above, below and equal to this block's
    in_m = np.array([5.0, -1.0, 0.5, 3.9, 2.0, 4.5, -3.0, 1.0]).astype(st)
    in_s = rng.uniform(1, 30, M).astype(st)
    name = "flash_%s_1" % tag(dt, st) if kind == "tmp" else "flash_notmp_" + tag(dt, st)
    z, s, m, e = flash_run(mod, name, dt, st, x, in_m, in_s)
    want, wm, ws, wem = flash_ref(x.astype(np.float64), in_m.astype(np.float64), in_s.astype(np.float64))
    np.testing.assert_allclose(z, want, **tol(dt))
    np.testing.assert_allclose(m[:, 0], wm, **tol(st))
    np.testing.assert_allclose(s[:, -1], ws, rtol=tol(st)["rtol"] * 4)
    for col in range(e.shape[1]):
        np.testing.assert_allclose(e[:, col], wem, **tol(dt))


def test_flash_v2_streams_a_row_softmax(mod):
    """Two column blocks through SoftmaxFlashV2 (first without, then with
    update) and the FlashAttention-2 rescale give the softmax of the whole
    row."""
    x = np.random.default_rng(3).uniform(-6, 6, (M, 2 * K)).astype(np.float32)
    z1, s1, m1, _ = flash_run(mod, "flash_float_float_0", np.float32, np.float32, np.ascontiguousarray(x[:, :K]))
    z2, s2, m2, e2 = flash_run(mod, "flash_float_float_1", np.float32, np.float32, np.ascontiguousarray(x[:, K:]),
                               m1[:, 0].astype(np.float32), s1[:, 0].astype(np.float32))
    got = np.concatenate([z1 * e2[:, :1], z2], axis=1) / s2[:, :1]
    xd = x.astype(np.float64)
    want = np.exp(xd - xd.max(axis=1, keepdims=True))
    want /= want.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def test_flash_v2_narrower_valid_width(mod):
    x = np.random.default_rng(4).uniform(-4, 4, (M, K)).astype(np.float32)
    in_m = np.full(M, 1.0, np.float32)
    in_s = np.full(M, 2.0, np.float32)
    z, s, m, e = flash_run(mod, "flash_narrow", np.float32, np.float32, x, in_m, in_s)
    want, wm, ws, wem = flash_ref(x.astype(np.float64), 1.0, 2.0, k=40)
    np.testing.assert_allclose(z, want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(s[:, 0], ws, rtol=2e-5)
    np.testing.assert_allclose(e[:, 0], wem, rtol=1e-5)


SEL = [(np.float32, np.uint8), (np.float16, np.uint8), (np.float32, np.int8), (np.float16, np.float16)]


@pytest.mark.parametrize("dt,mt", SEL, ids=["float_u8", "half_u8", "float_i8", "half_halfmask"])
@pytest.mark.parametrize("form", ["ts", "st"])
def test_select_with_bytes_mask(mod, dt, mt, form):
    rng = np.random.default_rng(5)
    a = rng.uniform(-4, 4, (4, 32)).astype(dt)
    mk = (rng.integers(0, 3, (4, 64)) * (rng.integers(0, 2, (4, 64)) * 2 - 1)).astype(mt)  # 0, +-1, +-2
    mk[:, 32:] = 1  # the extra mask columns must not matter
    t = [("a", dt, 4 * 32), ("mk", mt, 4 * 64), ("z", dt, 4 * 32), TMP]
    out = dev.run(mod, "sel_%s_%s_%s" % (form, dev.ctype(dt), dev.ctype(mt)), t,
                  [a.ravel(), mk.ravel(), np.zeros(4 * 32, dt), np.zeros(1024, np.uint8)])
    sel = mk[:, :32] != 0
    if form == "ts":   # src0 tensor, src1 scalar
        want = np.where(sel, dt(-7.5), a)
    else:              # src0 scalar, src1 tensor
        want = np.where(sel, a, dt(-7.5))
    np.testing.assert_array_equal(out[2].reshape(4, 32), want)
    np.testing.assert_array_equal(out[1].reshape(4, 64), mk)  # the mask is left as it was


def test_select_with_bytes_mask_short_mask_is_caught(mod):
    t = [("a", np.float32, 4 * 32), ("mk", np.uint8, 4 * 32), ("z", np.float32, 4 * 32), TMP]
    with pytest.raises(arc.LaunchError, match=r"AscendC::SelectWithBytesMask: maskLastAxis 24 is less than "
                                              r"srcLastAxis 32"):
        dev.run(mod, "sel_badmask", t, [np.zeros(128, np.float32), np.zeros(128, np.uint8),
                                        np.zeros(128, np.float32), np.zeros(1024, np.uint8)])
    # the device stays usable
    x = np.random.default_rng(6).uniform(-1, 1, (M, K)).astype(np.float32)
    z, _, _, _ = flash_run(mod, "flash_float_float_0", np.float32, np.float32, x)
    np.testing.assert_allclose(z, flash_ref(x.astype(np.float64))[0], rtol=1e-5)
