"""Public samples that call the advanced API, run unchanged from a local
samples mirror ($ASCEND_SAMPLES_SRC; skipped without it) with the tiling
ascendrtc.adv_tiling builds in place of the sample's host GenerateTiling,
against NumPy references written here: abs_pad (Pad, with Fill and an
atomic-add copy-out) and abs_unpad (UnPad)."""
import numpy as np

import ascendrtc as arc
from ascendrtc import adv_tiling
from helpers.samples import sample_path
from helpers import dev

D = "operator/ascendc/0_introduction/16_unaligned_abs_kernellaunch/"


def load(rel):
    path = sample_path(D + rel)
    with open(path) as f:
        src = f.read()
    return dev.load(src, rel.split("/")[-1])


def test_abs_pad_sample():
    """8 cores x 16 tiles of 16 rows of 7 valid halves: each row is read
    32-byte wide, Pad refills columns 7..15 with 0, Abs, and the rows go back
    7 elements apart under SetAtomicAdd onto a Fill-zeroed output.  A core's
    last 32-byte row write adds its zero padding into the next core's range
    (the GM race check knows an atomic add of zeros races with nothing)."""
    mod = load("AbsPadKernelInvocation/abs_pad.cpp")
    ori_len = 14336
    pad_len = ori_len + 16 - 7  # main.cpp: room for the last row's 32-byte read and write
    x = np.random.default_rng(0).uniform(-100, 100, pad_len).astype(np.float16)
    z = np.zeros(pad_len, np.float16)
    tiling = adv_tiling.pad_tiling((16, 16), (16, 7), 2)
    mod.get_kernel("abs_pad_custom")[8](x, z, tiling)
    arc.synchronize()
    np.testing.assert_array_equal(z[:ori_len], np.abs(x[:ori_len]))


def test_abs_unpad_sample():
    """8 cores x 16 tiles of 16 rows: each 14-element row is read 16 wide,
    Abs, UnPad drops the 2 extra columns, and the packed rows go back."""
    mod = load("AbsUnPadKernelInvocation/abs_unpad.cpp")
    ori_len = 28672
    x = np.random.default_rng(1).uniform(-100, 100, ori_len + 2).astype(np.float16)
    z = np.zeros(ori_len, np.float16)
    tiling = adv_tiling.unpad_tiling((16, 16), 2)
    mod.get_kernel("abs_unpad_custom")[8](x, z, tiling)
    arc.synchronize()
    np.testing.assert_array_equal(z, np.abs(x[:ori_len]))
