"""Device API: the advanced data filters (lib/filter/dropout.h, Select in
lib/select/selectwithbytesmask.h): DropOut's byte and bit modes (inferred
and explicit) against NumPy and the page's examples, and Select (CANN 9.1's
name of SelectWithBytesMask) in both operand orders."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

ROWS, COLS = 4, 64


def dropout_kernel(mode, mk, dt=np.float32, mask_n=None):
    p = [("x", dt, ROWS * COLS), ("m", np.uint8, mask_n or ROWS * mk), ("z", dt, ROWS * COLS), ("tmp", np.uint8, 256)]
    c = dev.ctype(dt)
    body = ("DropOutShapeInfo info; info.firstAxis = %d; info.srcLastAxis = %d; info.maskLastAxis = %d; "
            "DropOut<%s, false, %d>(z, x, m, tmp, 0.75f, info);" % (ROWS, COLS, mk, c, mode))
    return p, dev.ub_kernel("k", p, body)


def bits_lsb_first(m, rows, width, n):
    """Row r's first n mask bits, bit c of each byte being element c (least significant first)."""
    return np.unpackbits(m.reshape(rows, width), axis=1, bitorder="little")[:, :n]


@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("mode, mk", [(0, COLS), (0, COLS + 32), (2, COLS), (1, COLS + 32)],
                         ids=["inferred", "inferred_dirty", "mode2", "mode1_dirty"])
def test_dropout_byte_mode(dt, mode, mk):
    p, k = dropout_kernel(mode, mk, dt)
    rng = np.random.default_rng(1)
    x = rng.uniform(-10, 10, ROWS * COLS).astype(dt)
    m = rng.integers(0, 3, ROWS * mk).astype(np.uint8)         # a byte 2 keeps too
    z = dev.run(dev.program([k]), "k", p, [x, m, np.full(ROWS * COLS, 9, dt), np.zeros(256, np.uint8)])[2]
    keep = m.reshape(ROWS, mk)[:, :COLS].reshape(-1) != 0
    scale = dt(np.float32(1) / np.float32(0.75))                # the Muls scalar, in T
    want = np.where(keep, (x.astype(np.float32) * np.float32(scale)).astype(dt), 0)
    np.testing.assert_array_equal(z, want)


@pytest.mark.parametrize("mode, mk", [(0, COLS // 8), (0, 32), (3, COLS // 8), (4, 32)],
                         ids=["inferred", "inferred_dirty", "mode3", "mode4_dirty"])
def test_dropout_bit_mode(mode, mk):
    p, k = dropout_kernel(mode, mk)
    rng = np.random.default_rng(2)
    x = rng.uniform(-10, 10, ROWS * COLS).astype(np.float32)
    m = rng.integers(0, 256, ROWS * mk).astype(np.uint8)
    z = dev.run(dev.program([k]), "k", p, [x, m, np.zeros(ROWS * COLS, np.float32), np.zeros(256, np.uint8)])[2]
    keep = bits_lsb_first(m, ROWS, mk, COLS).reshape(-1) != 0
    want = np.where(keep, x * np.float32(np.float32(1) / np.float32(0.75)), 0).astype(np.float32)
    np.testing.assert_array_equal(z, want)


def test_dropout_page_byte_example():
    """The page: x = 0..31, mask [0 1 0 0 ...], keepProb 0.5 gives [0 2 0 0 0 0 0 0 16 0 20 22 24 0 28 30 ...]."""
    p = [("x", np.float32, 32), ("m", np.uint8, 32), ("z", np.float32, 32)]
    body = ("DropOutShapeInfo info; info.firstAxis = 1; info.srcLastAxis = 32; info.maskLastAxis = 32; "
            "DropOut(z, x, m, 0.5f, info);")
    m = np.array([0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 0],
                 np.uint8)
    z = dev.run(dev.program([dev.ub_kernel("k", p, body)]), "k", p,
                [np.arange(32, dtype=np.float32), m, np.zeros(32, np.float32)])[2]
    np.testing.assert_array_equal(z[:16], [0, 2, 0, 0, 0, 0, 0, 0, 16, 0, 20, 22, 24, 0, 28, 30])


@pytest.mark.parametrize("prob", ["0.0f", "1.5f"])
def test_dropout_keep_prob_range(prob):
    p = [("x", np.float32, 64), ("m", np.uint8, 64), ("z", np.float32, 64)]
    body = ("DropOutShapeInfo info; info.firstAxis = 1; info.srcLastAxis = 64; info.maskLastAxis = 64; "
            "DropOut(z, x, m, %s, info);" % prob)
    m = dev.program([dev.ub_kernel("k", p, body)])
    with pytest.raises(arc.Error) as ei:
        dev.run(m, "k", p, [np.zeros(64, np.float32), np.zeros(64, np.uint8), np.zeros(64, np.float32)])
    assert "AscendC::DropOut" in str(ei.value) and "is not in (0, 1]" in str(ei.value)


@pytest.mark.parametrize("order", ["tensor_scalar", "scalar_tensor"])
def test_select_is_select_with_bytes_mask(order):
    rows, sk, mk = 2, 16, 32
    p = [("x", np.float16, rows * sk), ("m", np.uint8, rows * mk), ("z", np.float16, rows * sk), ("tmp", np.uint8, 256)]
    args = "x, (half)7.0f" if order == "tensor_scalar" else "(half)7.0f, x"
    body = ("SelectWithBytesMaskShapeInfo info; info.firstAxis = %d; info.srcLastAxis = %d; info.maskLastAxis = %d; "
            "Select(z, %s, m, tmp, info);" % (rows, sk, mk, args))
    rng = np.random.default_rng(3)
    x = rng.uniform(-5, 5, rows * sk).astype(np.float16)
    m = rng.integers(0, 2, rows * mk).astype(np.uint8)
    z = dev.run(dev.program([dev.ub_kernel("k", p, body)]), "k", p, [x, m, np.zeros(rows * sk, np.float16),
                                                                       np.zeros(256, np.uint8)])[2]
    zero = m.reshape(rows, mk)[:, :sk].reshape(-1) == 0         # mask 0 takes src0, else src1
    want = np.where(zero, x, np.float16(7)) if order == "tensor_scalar" else np.where(zero, np.float16(7), x)
    np.testing.assert_array_equal(z, want)
