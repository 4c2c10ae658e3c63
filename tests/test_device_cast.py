"""Device API: Cast between the A2 type pairs with every RoundMode, the
level-0 form, SetDeqScale, and bf16 conversions, against NumPy."""
import numpy as np
import pytest

from helpers import dev

N = 256
MODES = ["CAST_NONE", "CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"]
PAIRS = [  # (dst, src, modes)
    (np.float16, np.float32, MODES),
    (np.int32, np.float32, MODES[:6]),
    (np.int16, np.float32, MODES[:6]),
    (np.float32, np.float32, MODES[1:6]),
    (np.int32, np.float16, MODES[:6]),
    (np.int8, np.float16, MODES[:6]),
    (np.float32, np.float16, ["CAST_NONE"]),
    (np.float32, np.int32, ["CAST_NONE", "CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_TRUNC"]),
    (np.float16, np.int16, ["CAST_NONE"]),
    (np.float32, np.int16, ["CAST_NONE"]),
    (np.float16, np.uint8, ["CAST_NONE"]),
    (np.int16, np.int32, ["CAST_NONE"]),
    (dev.BF16, np.float32, ["CAST_RINT", "CAST_NONE", "CAST_FLOOR", "CAST_CEIL", "CAST_TRUNC"]),
    (np.float32, dev.BF16, ["CAST_NONE"]),
    (np.int32, dev.BF16, ["CAST_RINT", "CAST_FLOOR"]),
]


def nm(dt):
    return "bf16" if dt == dev.BF16 else np.dtype(dt).name


def kn(d, s, m):
    return "c_%s_%s_%s" % (nm(d), nm(s), m)


@pytest.fixture(scope="module")
def mod():
    ks = []
    for d, s, modes in PAIRS:
        for m in modes:
            ks.append(dev.ub_kernel(kn(d, s, m), [("x", s, N), ("z", d, N)],
                                    "Cast(z, x, RoundMode::%s, %d);" % (m, N)))
    ks.append(dev.ub_kernel("c_l0_h2f", [("x", np.float16, 256), ("z", np.float32, 256)],
                            "Cast(z, x, RoundMode::CAST_NONE, 64, 2, {1, 1, 8, 4});"))
    ks.append(dev.ub_kernel("c_l0_f2h_mask", [("x", np.float32, 128), ("z", np.float16, 128)],
                            "Cast(z, x, RoundMode::CAST_FLOOR, 10, 2, {1, 1, 4, 8});"))
    ks.append(dev.ub_kernel("c_deq", [("x", np.int32, 64), ("z", np.float16, 64)],
                            "SetDeqScale((half)0.5); Cast(z, x, RoundMode::CAST_NONE, 64);"))
    return dev.program(ks)


def src_data(s, seed=0):
    rng = np.random.default_rng(seed)
    if s == dev.BF16:
        return dev.f32_to_bf16_bits(rng.standard_normal(N).astype(np.float32) * 100)
    if np.dtype(s).kind == "f":
        x = (rng.standard_normal(N) * 40).astype(s)
        x[:8] = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0, -0.0], s)  # ties
        return x
    info = np.iinfo(s)
    hi = min(info.max, 30000) if s != np.int32 else 2 ** 28
    x = rng.integers(max(info.min, -hi), hi, N).astype(s)
    if s == np.int32:
        x[:4] = [2 ** 24 + 1, 2 ** 24 + 3, -(2 ** 25) - 3, 16777219]  # inexact in float32
    return x


def round_int(x, m):
    x = np.asarray(x, np.float64)
    if m in ("CAST_NONE", "CAST_RINT"):
        return np.rint(x)
    if m == "CAST_FLOOR":
        return np.floor(x)
    if m == "CAST_CEIL":
        return np.ceil(x)
    if m == "CAST_TRUNC":
        return np.trunc(x)
    if m == "CAST_ROUND":
        return np.sign(x) * np.floor(np.abs(x) + 0.5)
    raise ValueError(m)


def narrow_ref(x64, m, nearest, up, down, to64, odd):
    """Directed rounding of exact values x64 into a narrower float format
    given its nearest-even conversion and next-up / next-down steps."""
    h = nearest(x64)
    hv = to64(h)
    exact = hv == x64
    lo = np.where(hv < x64, h, down(h))
    hi = np.where(hv < x64, up(h), h)
    if m in ("CAST_NONE", "CAST_RINT"):
        r = h
    elif m == "CAST_FLOOR":
        r = lo
    elif m == "CAST_CEIL":
        r = hi
    elif m == "CAST_TRUNC":
        r = np.where(x64 > 0, lo, hi)
    elif m == "CAST_ODD":
        r = np.where(odd(lo), lo, hi)
    elif m == "CAST_ROUND":
        dl, dh = x64 - to64(lo), to64(hi) - x64
        r = np.where(dl < dh, lo, np.where(dh < dl, hi, np.where(x64 > 0, hi, lo)))
    return np.where(exact, h, r)


def ref(d, s, m, x):
    xs = dev.bf16_bits_to_f32(x).astype(np.float64) if s == dev.BF16 else np.asarray(x).astype(np.float64)
    if d == dev.BF16:
        f32 = xs.astype(np.float32)
        return narrow_ref(f32.astype(np.float64), m, dev.f32_to_bf16_bits,
                          lambda b: np.where(b & 0x8000, b - 1, b + 1).astype(np.uint16),
                          lambda b: np.where(b & 0x8000, b + 1, np.where(b == 0, 0x8001, b - 1)).astype(np.uint16),
                          lambda b: dev.bf16_bits_to_f32(b).astype(np.float64), lambda b: (b & 1) == 1)
    if np.dtype(d).kind in "iu":
        info = np.iinfo(d)
        return np.clip(round_int(xs, m), info.min, info.max).astype(d)
    if d == np.float32 and s == np.float32:
        return round_int(xs, m).astype(np.float32)
    if d == np.float16 and np.dtype(s).kind == "f":
        return narrow_ref(xs, m, lambda v: v.astype(np.float16),
                          lambda h: np.nextafter(h, np.float16(np.inf)),
                          lambda h: np.nextafter(h, np.float16(-np.inf)),
                          lambda h: h.astype(np.float64), lambda h: (h.view(np.uint16) & 1) == 1)
    if d == np.float32 and s == np.int32:
        return narrow_ref(xs, m, lambda v: v.astype(np.float32),
                          lambda h: np.nextafter(h, np.float32(np.inf)),
                          lambda h: np.nextafter(h, np.float32(-np.inf)),
                          lambda h: h.astype(np.float64), lambda h: (h.view(np.uint32) & 1) == 1)
    return xs.astype(d)


CASES = [(d, s, m) for d, s, modes in PAIRS for m in modes]


@pytest.mark.parametrize("d,s,m", CASES, ids=[kn(*c) for c in CASES])
def test_cast(mod, d, s, m):
    x = src_data(s)
    if d in (np.int8,):
        x = np.clip(x, -120, 120).astype(s)      # in range: saturation is not specified
    if d == np.int16 and s == np.float32:
        x = np.clip(x, -30000, 30000).astype(s)
    _, z = dev.run(mod, kn(d, s, m), [("x", s, N), ("z", d, N)], [x, np.zeros(N, dev.host_dtype(d))])
    np.testing.assert_array_equal(z, ref(d, s, m, x))


def test_level0_cast(mod):
    x = src_data(np.float16, 1)
    x = np.concatenate([x, x])[:256]
    _, z = dev.run(mod, "c_l0_h2f", [("x", np.float16, 256), ("z", np.float32, 256)], [x, np.zeros(256, np.float32)])
    want = np.zeros(256, np.float32)
    want[:128] = x[:128].astype(np.float32)     # 2 repeats of 64, src repeat 4 blocks, dst 8
    np.testing.assert_array_equal(z, want)
    xf = (np.arange(128, dtype=np.float32) - 64) / 3
    _, z = dev.run(mod, "c_l0_f2h_mask", [("x", np.float32, 128), ("z", np.float16, 128)],
                   [xf, np.full(128, 7, np.float16)])
    want = np.full(128, 7, np.float16)
    for r in range(2):                           # dst repeat stride 4 blocks of half = 64 elements
        want[r * 64:r * 64 + 10] = ref(np.float16, np.float32, "CAST_FLOOR", xf[r * 64:r * 64 + 10])
    np.testing.assert_array_equal(z, want)


def test_deq_scale(mod):
    x = np.arange(64, dtype=np.int32) * 7 - 200
    _, z = dev.run(mod, "c_deq", [("x", np.int32, 64), ("z", np.float16, 64)], [x, np.zeros(64, np.float16)])
    np.testing.assert_array_equal(z, (x * 0.5).astype(np.float16))
