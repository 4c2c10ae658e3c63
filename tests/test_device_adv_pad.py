"""Device API: Pad and UnPad (lib/pad/pad.h) with the PadTiling/UnPadTiling
that ascendrtc.adv_tiling builds, against NumPy slicing: the documented
cases (an aligned row with redundant columns refilled; an unaligned row
widened to 32 bytes), left and right padding, UnPad dropping columns on
either side, with and without the tmp buffer, in several element types;
and the checks (a tiling that does not fit, rows that cannot be aligned)."""
import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc import adv_tiling
from helpers import dev

T = ", GM_ADDR g_tiling"
TMP = ("tmp", np.uint8, 1024)
TYPES = [np.float16, np.int16, np.float32, np.int32, np.uint16]


def pad_kernel(name, dt, h, w_in, w_out, params, tmp=False, tiling="PadTiling", fn="Pad"):
    body = "%s tl = *(__gm__ %s *)g_tiling; %s pp%s; %s<%s>(z, x, pp, %stl);" % (
        tiling, tiling, "PadParams" if fn == "Pad" else "UnPadParams", params, fn, dev.ctype(dt),
        "tmp, " if tmp else "")
    return dev.ub_kernel(name, [("x", dt, h * w_in), ("z", dt, h * w_out), TMP], body, T)


CASES = {
    # name: {element bytes: (h, width, valid width, leftPad, rightPad, padValue, dst width)}
    "aligned_redundant": {2: (16, 16, 7, 0, 9, 5, 16), 4: (16, 8, 5, 0, 3, 5, 8)},
    "aligned_left": {2: (4, 32, 20, 3, 9, -2, 32), 4: (4, 16, 10, 2, 4, -2, 16)},
    "unaligned_widen": {2: (16, 15, 15, 0, 1, 7, 16), 4: (16, 7, 7, 0, 1, 7, 8)},
    "unaligned_both": {2: (8, 13, 13, 2, 1, 1, 16), 4: (8, 5, 5, 2, 1, 1, 8)},
}


@pytest.fixture(scope="module")
def mod():
    ks = []
    for dt in TYPES:
        c = dev.ctype(dt)
        for case, sizes in CASES.items():
            h, w, ow, l, r, v, wo = sizes[np.dtype(dt).itemsize]
            ks.append(pad_kernel("pad_%s_%s" % (case, c), dt, h, w, wo, "{%d, %d, %d}" % (l, r, v)))
            ks.append(pad_kernel("pad_tmp_%s_%s" % (case, c), dt, h, w, wo, "{%d, %d, %d}" % (l, r, v), True))
        for l, r in ((0, 2), (3, 1)):
            ks.append(pad_kernel("unpad_%d_%d_%s" % (l, r, c), dt, 16, 16, 16 - l - r,
                                 "; pp.leftPad = %d; pp.rightPad = %d" % (l, r), l == 3, "UnPadTiling", "UnPad"))
    return dev.program(ks)


def pad_ref(x, ow, l, wo, v):
    h = x.shape[0]
    out = np.full((h, wo), np.array(v, np.int64).astype(x.dtype), x.dtype)  # padValue converts like a C cast
    out[:, l:l + ow] = x[:, :ow]
    return out


@pytest.mark.parametrize("tmp", ["", "tmp_"], ids=["no_tmp", "tmp_buffer"])
@pytest.mark.parametrize("dt", TYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("case", list(CASES))
def test_pad(mod, case, dt, tmp):
    h, w, ow, l, r, v, wo = CASES[case][np.dtype(dt).itemsize]
    rng = np.random.default_rng(7)
    x = rng.integers(-100, 100, (h, w)).astype(dt)
    tl = adv_tiling.pad_tiling((h, w), (h, ow), np.dtype(dt).itemsize)
    z = dev.run(mod, "pad_%s%s_%s" % (tmp, case, dev.ctype(dt)),
                [("x", dt, h * w), ("z", dt, h * wo), TMP], [x.ravel(), np.zeros(h * wo, dt), np.zeros(1024, np.uint8)],
                extra=(tl,))[1]
    np.testing.assert_array_equal(z.reshape(h, wo), pad_ref(x, ow, l, wo, v))


@pytest.mark.parametrize("dt", TYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("l,r", [(0, 2), (3, 1)])
def test_unpad(mod, dt, l, r):
    h, w = 16, 16
    x = np.random.default_rng(8).integers(-100, 100, (h, w)).astype(dt)
    tl = adv_tiling.unpad_tiling((h, w), np.dtype(dt).itemsize)
    z = dev.run(mod, "unpad_%d_%d_%s" % (l, r, dev.ctype(dt)), [("x", dt, h * w), ("z", dt, h * (w - l - r)), TMP],
                [x.ravel(), np.zeros(h * (w - l - r), dt), np.zeros(1024, np.uint8)], extra=(tl,))[1]
    np.testing.assert_array_equal(z, x[:, l:w - r].ravel())


def test_pad_row_that_cannot_be_aligned_stops_the_kernel(mod):
    """15 halves + 0 + 2 padding = 17: not a 32-byte row."""
    m = dev.program([pad_kernel("pad_bad", np.float16, 2, 15, 32, "{0, 2, 0}")])
    tl = adv_tiling.pad_tiling((2, 15), (2, 15), 2)
    with pytest.raises(arc.LaunchError, match=r"AscendC::Pad: srcWidth 15 \+ leftPad 0 \+ rightPad 2 = 17 elements"):
        dev.run(m, "pad_bad", [("x", np.float16, 30), ("z", np.float16, 64), TMP],
                [np.zeros(30, np.float16), np.zeros(64, np.float16), np.zeros(1024, np.uint8)], extra=(tl,))


def test_pad_with_an_empty_tiling_names_the_tiling(mod):
    zero = np.zeros(64, np.uint8)
    with pytest.raises(arc.LaunchError, match=r"AscendC::Pad: tiling: srcWidth 0"):
        dev.run(mod, "pad_aligned_redundant_half", [("x", np.float16, 256), ("z", np.float16, 256), TMP],
                [np.zeros(256, np.float16), np.zeros(256, np.float16), np.zeros(1024, np.uint8)], extra=(zero,))
