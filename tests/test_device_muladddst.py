"""MulAddDst, dst = src0 * src1 + dst (asc-devkit docs, Memory vector
compute, MulAddDst): the count form and the level-0 forms (uint64_t mask,
mask[2], counter mode with isSetMask = false as CATLASS's gemv does), for
half, float and half sources into a float dst (64 lanes a repeat, each
operand laid out by its own type), against NumPy.  Values are small
integers or half products (exact in float), so every result is exact."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

R = 4    # rows (repeats) of the level-0 cases, 64 lanes each


def k(name, tensors, body):
    return dev.ub_kernel(name, tensors, body)


HF = [("x", np.float16, R * 64), ("y", np.float16, R * 64), ("z", np.float32, R * 64)]
KERNELS = [
    k("cnt_f32_f16", HF, "MulAddDst(z, x, y, %d);" % (R * 64)),
    k("cnt_f16", [("x", np.float16, 256), ("y", np.float16, 256), ("z", np.float16, 256)], "MulAddDst(z, x, y, 256);"),
    k("cnt_f32", [("x", np.float32, 256), ("y", np.float32, 256), ("z", np.float32, 256)], "MulAddDst(z, x, y, 256);"),
    # the docs' example: 64 lanes, dst repeats 8 blocks apart, the half sources 4
    k("l0_mask", HF, "MulAddDst(z, x, y, (uint64_t)64, %d, {1, 1, 1, 8, 4, 4});" % R),
    # mask[2]: even lanes only; the odd ones keep dst
    k("l0_bits", HF, "uint64_t m[2] = {0x5555555555555555ull, 0}; MulAddDst(z, x, y, m, %d, {1, 1, 1, 8, 4, 4});" % R),
    # CATLASS's gemv: counter mode set outside, src1 one row for every repeat (repeat stride 0)
    k("l0_counter", HF, """
        BinaryRepeatParams p; p.dstRepStride = 8; p.src0RepStride = 4; p.src1RepStride = 0;
        SetMaskCount();
        SetVectorMask<float, MaskMode::COUNTER>(%d);
        MulAddDst<float, half, false>(z, x, y, MASK_PLACEHOLDER, 1, p);
        SetMaskNorm();
        ResetMask();""" % (R * 64)),
    # half sources into a float dst that overlaps them: the docs forbid it
    k("overlap", [("x", np.float16, 256), ("y", np.float16, 256), ("z", np.float32, 256)],
      "MulAddDst(z, x, y, 64);\n    MulAddDst(y.ReinterpretCast<float>(), x, y, 64);"),
    k("bad_types", [("x", np.float32, 64), ("y", np.float32, 64), ("z", np.float16, 64)], "MulAddDst(z, x, y, 64);"),
]


@pytest.fixture(scope="module")
def mod():
    return dev.program(KERNELS)


rng = np.random.default_rng(27)


def ints(n, dt, lo=-8, hi=9):
    return rng.integers(lo, hi, n).astype(dt)


def f32(a):
    return a.astype(np.float32)


def test_count_forms(mod):
    x, y, z0 = ints(R * 64, np.float16), ints(R * 64, np.float16), ints(R * 64, np.float32, -100, 100)
    _, _, z = dev.run(mod, "cnt_f32_f16", HF, [x, y, z0])
    np.testing.assert_array_equal(z, f32(x) * f32(y) + z0)
    t16 = [("x", np.float16, 256), ("y", np.float16, 256), ("z", np.float16, 256)]
    x, y, z0 = ints(256, np.float16), ints(256, np.float16), ints(256, np.float16, -100, 100)
    _, _, z = dev.run(mod, "cnt_f16", t16, [x, y, z0])
    np.testing.assert_array_equal(z, (x * y + z0).astype(np.float16))
    t32 = [("x", np.float32, 256), ("y", np.float32, 256), ("z", np.float32, 256)]
    x, y, z0 = (rng.standard_normal(256).astype(np.float32) for _ in range(3))
    _, _, z = dev.run(mod, "cnt_f32", t32, [x, y, z0])
    np.testing.assert_array_equal(z, x * y + z0)        # float32 product rounded, then the sum


def test_level0_mask_and_bits(mod):
    x, y = rng.standard_normal(R * 64).astype(np.float16), rng.standard_normal(R * 64).astype(np.float16)
    z0 = rng.standard_normal(R * 64).astype(np.float32)
    _, _, z = dev.run(mod, "l0_mask", HF, [x, y, z0])
    np.testing.assert_array_equal(z, f32(x) * f32(y) + z0)
    _, _, z = dev.run(mod, "l0_bits", HF, [x, y, z0])
    want = z0.copy()
    want[::2] = f32(x[::2]) * f32(y[::2]) + z0[::2]
    np.testing.assert_array_equal(z, want)


def test_level0_counter_mode_row_broadcast(mod):
    x, y = rng.standard_normal(R * 64).astype(np.float16), rng.standard_normal(R * 64).astype(np.float16)
    z0 = rng.standard_normal(R * 64).astype(np.float32)
    _, _, z = dev.run(mod, "l0_counter", HF, [x, y, z0])
    want = f32(x).reshape(R, 64) * f32(y[:64]) + z0.reshape(R, 64)    # every row times y's first row
    np.testing.assert_array_equal(z, want.reshape(-1))


def test_float_dst_over_half_sources_refused(mod):
    t = [("x", np.float16, 256), ("y", np.float16, 256), ("z", np.float32, 256)]
    with pytest.raises(arc.LaunchError, match=r"AscendC::MulAddDst.*src1"):
        dev.run(mod, "overlap", t, [ints(256, np.float16), ints(256, np.float16), ints(256, np.float32)])
    x, y, z0 = ints(R * 64, np.float16), ints(R * 64, np.float16), ints(R * 64, np.float32)
    _, _, z = dev.run(mod, "cnt_f32_f16", HF, [x, y, z0])   # a good launch after
    np.testing.assert_array_equal(z, f32(x) * f32(y) + z0)


def test_unsupported_type_pair_is_refused_when_run(mod):
    # it compiles (as with CANN, whose headers hold every arch's types); running it on dav-2201 is the error
    t = [("x", np.float32, 64), ("y", np.float32, 64), ("z", np.float16, 64)]
    with pytest.raises(arc.LaunchError, match="MulAddDst: dst/src types are half/half, float/float or float/half"):
        dev.run(mod, "bad_types", t, [np.ones(64, np.float32), np.ones(64, np.float32), np.ones(64, np.float16)])
    x, y, z0 = ints(R * 64, np.float16), ints(R * 64, np.float16), ints(R * 64, np.float32)
    _, _, z = dev.run(mod, "cnt_f32_f16", HF, [x, y, z0])   # a good launch after
    np.testing.assert_array_equal(z, f32(x) * f32(y) + z0)
