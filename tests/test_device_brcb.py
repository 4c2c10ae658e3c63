"""Device API: Brcb (each of 8 source elements per repeat fills one 32-byte
block of dst, at block r * dstRepStride + j * dstBlkStride) on 32- and
16-bit types with strided dst blocks, against a NumPy model; a dst too small
for the repeats stops the kernel naming the API, the operand and the kernel
line (the runtime's copy, csrc/rt/services/brcb.c, reports like the inline one)."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev


def model(src, repeat, blk, rep, n_dst):
    epb = 32 // src.itemsize
    out = np.zeros(n_dst, src.dtype)
    for r in range(repeat):
        for j in range(8):
            b = r * rep + j * blk
            out[b * epb:(b + 1) * epb] = src[r * 8 + j]
    return out


CASES = {
    # name: dtype, repeats, dstBlkStride, dstRepStride, dst elements
    "brcb_f32": (np.float32, 2, 1, 8, 128),
    "brcb_f32_gaps": (np.float32, 2, 2, 16, 256),
    "brcb_i16_gaps": (np.int16, 3, 1, 10, 16 * 28),
    "brcb_f32_short": (np.float32, 2, 1, 8, 120),  # needs 128: stops
}


@pytest.fixture(scope="module")
def mod():
    ks = []
    for name, (dt, rep_n, blk, rep, nd) in CASES.items():
        body = "Brcb(z, x, %d, BrcbRepeatParams{%d, %d});" % (rep_n, blk, rep)
        ks.append(dev.ub_kernel(name, [("x", dt, 32), ("z", dt, nd)], body))
    return dev.program(ks)


@pytest.mark.parametrize("name", ["brcb_f32", "brcb_f32_gaps", "brcb_i16_gaps"])
def test_brcb_matches_model(mod, name):
    dt, rep_n, blk, rep, nd = CASES[name]
    x = (np.random.default_rng(5).standard_normal(32) * 100).astype(dt)
    fill = np.full(nd, 7, dt)
    _, z = dev.run(mod, name, [("x", dt, 32), ("z", dt, nd)], [x, fill])
    want = model(x, rep_n, blk, rep, nd)
    touched = want != 0
    for r in range(rep_n):  # blocks Brcb writes; the others keep the 7s
        for j in range(8):
            b = r * rep + j * blk
            touched[b * (32 // x.itemsize):(b + 1) * (32 // x.itemsize)] = True
    np.testing.assert_array_equal(z[:nd][touched], want[touched])
    np.testing.assert_array_equal(z[:nd][~touched], fill[~touched])


def test_brcb_dst_too_small_is_caught(mod):
    dt = np.float32
    with pytest.raises(arc.LaunchError, match=r"(?s)AscendC::Brcb: dst: 2 repeats reach element 128, the tensor has 120.*"
                                              r"device_test\.asc:\d+"):
        dev.run(mod, "brcb_f32_short", [("x", dt, 32), ("z", dt, 120)], [np.zeros(32, dt), np.zeros(120, dt)])
