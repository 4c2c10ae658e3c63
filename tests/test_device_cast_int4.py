"""Device API: Cast between half and the packed int4b_t (two elements a
byte, the first in the low nibble), the count form and the level-0 (mask,
repeat, strides) forms, against NumPy.  half -> int4b_t rounds in the
RoundMode and saturates to [-8, 7]; int4b_t -> half is exact.  In a
level-0 call the mask picks lanes as for half (the wider type, Cast's
page); a 32-byte block of the int4b_t operand holds 64 elements, and its
block/repeat strides count such blocks (the SIMD high-dimension split).
asc-devkit's memory-vector `cast` example uses the level-0 form."""
import numpy as np
import pytest

from helpers import dev

N = 256
MODES = ["CAST_NONE", "CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC"]
ROUND = {
    "CAST_NONE": np.rint, "CAST_RINT": np.rint, "CAST_FLOOR": np.floor, "CAST_CEIL": np.ceil,
    "CAST_ROUND": lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5), "CAST_TRUNC": np.trunc,
}
# level-0 cases: (name, mask, repeat, dstBlk, srcBlk, dstRep, srcRep, dst bytes or halves, src halves or bytes)
TO4 = [("l0_to4_flat", "128", 4, 1, 1, 2, 8, 256, 512),        # the devkit example's call
       ("l0_to4_strided", "100", 3, 2, 1, 5, 9, 512, 512),     # every dst block one apart, mask of 100 lanes
       ("l0_to4_maskarr", "m", 2, 1, 2, 3, 16, 256, 1024)]     # lanes 0,1 on, 2,3 off, ... (whole bytes)
FROM4 = [("l0_from4_flat", "128", 2, 1, 1, 8, 2, 256, 128),
         ("l0_from4_strided", "64", 3, 2, 1, 7, 3, 512, 512)]
MASK_ARR = (0x3333333333333333, 0x3333333333333333)


def packed_kernels():
    ks = [dev.ub_kernel("to4_" + m, [("x", np.float16, N), ("z", np.uint8, N // 2)],
                        "Cast(z.ReinterpretCast<int4b_t>(), x, RoundMode::%s, %d);" % (m, N)) for m in MODES]
    ks.append(dev.ub_kernel("from4", [("x", np.uint8, N // 2), ("z", np.float16, N)],
                            "Cast(z, x.ReinterpretCast<int4b_t>(), RoundMode::CAST_NONE, %d);" % N))
    arr = "uint64_t m[2] = {%#xull, %#xull};" % MASK_ARR
    for name, mask, rep, db, sb, dr, sr, nd, ns in TO4:
        ks.append(dev.ub_kernel(name, [("x", np.float16, ns), ("z", np.uint8, nd)],
                                "%s Cast(z.ReinterpretCast<int4b_t>(), x, RoundMode::CAST_ROUND, %s, %d, {%d, %d, %d, %d});"
                                % (arr, mask, rep, db, sb, dr, sr)))
    for name, mask, rep, db, sb, dr, sr, nd, ns in FROM4:
        ks.append(dev.ub_kernel(name, [("x", np.uint8, ns), ("z", np.float16, nd)],
                                "Cast(z, x.ReinterpretCast<int4b_t>(), RoundMode::CAST_NONE, %s, %d, {%d, %d, %d, %d});"
                                % (mask, rep, db, sb, dr, sr)))
    return ks


@pytest.fixture(scope="module")
def mod():
    return dev.program(packed_kernels())


def halves(n, seed):
    x = np.random.default_rng(seed).uniform(-10, 9, n).astype(np.float16)
    x[:12] = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 7.5, -8.5, 6.5, -7.5, 0, -0.0]   # ties and the saturation edges
    return x


def to4(x, m):
    return np.clip(ROUND[m](x.astype(np.float64)), -8, 7).astype(np.int64)


def pack(v):
    u = (np.asarray(v, np.int64) & 0xF).astype(np.uint8)
    return u[0::2] | u[1::2] << 4


def unpack(b):
    b = np.asarray(b, np.uint8).astype(np.int64)
    v = np.stack([b & 0xF, b >> 4], axis=1).reshape(-1)
    return np.where(v >= 8, v - 16, v)


def lanes(mask, rep):
    """(repeat, lane) pairs a level-0 call with 128 lanes computes."""
    if mask == "m":
        on = [l for l in range(128) if (MASK_ARR[l // 64] >> (l % 64)) & 1]
    else:
        on = list(range(int(mask)))
    return [(r, l) for r in range(rep) for l in on]


def off(epb, blk, rstride, r, l):
    """Element offset of lane l of repeat r: blocks of epb elements."""
    return (r * rstride + (l // epb) * blk) * epb + l % epb


@pytest.mark.parametrize("m", MODES)
def test_count_half_to_int4(mod, m):
    x = halves(N, 1)
    _, z = dev.run(mod, "to4_" + m, [("x", np.float16, N), ("z", np.uint8, N // 2)], [x, np.zeros(N // 2, np.uint8)])
    np.testing.assert_array_equal(z, pack(to4(x, m)))


def test_count_int4_to_half(mod):
    v = np.random.default_rng(2).integers(-8, 8, N)
    _, z = dev.run(mod, "from4", [("x", np.uint8, N // 2), ("z", np.float16, N)], [pack(v), np.zeros(N, np.float16)])
    np.testing.assert_array_equal(z, v.astype(np.float16))


@pytest.mark.parametrize("case", TO4, ids=[c[0] for c in TO4])
def test_level0_half_to_int4(mod, case):
    name, mask, rep, db, sb, dr, sr, nd, ns = case
    x = halves(ns, 3)
    fill = np.full(nd, 0xA5, np.uint8)          # bytes no lane writes keep it
    _, z = dev.run(mod, name, [("x", np.float16, ns), ("z", np.uint8, nd)], [x, fill])
    want = unpack(fill)
    for r, l in lanes(mask, rep):
        want[off(64, db, dr, r, l)] = to4(x[off(16, sb, sr, r, l)], "CAST_ROUND")
    np.testing.assert_array_equal(z, pack(want))


@pytest.mark.parametrize("case", FROM4, ids=[c[0] for c in FROM4])
def test_level0_int4_to_half(mod, case):
    name, mask, rep, db, sb, dr, sr, nd, ns = case
    v = np.random.default_rng(4).integers(-8, 8, ns * 2)
    fill = np.full(nd, 3.25, np.float16)
    _, z = dev.run(mod, name, [("x", np.uint8, ns), ("z", np.float16, nd)], [pack(v), fill])
    want = fill.copy()
    for r, l in lanes(mask, rep):
        want[off(16, db, dr, r, l)] = v[off(64, sb, sr, r, l)]
    np.testing.assert_array_equal(z, want)
