"""Device API: Add/Sub/Mul/Div/Max/Min/And/Or in count form and level-0
form (mask, mask[2], repeat strides, counter mode), against NumPy."""
import numpy as np
import pytest

from helpers import dev

N = 300  # not a multiple of a repeat: count form handles any count
OPS = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Max": np.maximum, "Min": np.minimum}
DTYPES = [np.float32, np.float16, np.int32, np.int16]


def kname(op, dt):
    return "k_%s_%s" % (op, np.dtype(dt).name)


def count_kernels():
    ks = []
    for dt in DTYPES:
        t = [("x", dt, N), ("y", dt, N), ("z", dt, N)]
        for op in OPS:
            ks.append(dev.ub_kernel(kname(op, dt), t, "Add(z, x, y, %d);".replace("Add", op) % N))
        if dt in (np.float32, np.float16):
            ks.append(dev.ub_kernel(kname("Div", dt), t, "Div(z, x, y, %d);" % N))
    for dt in (np.int16, np.uint16):
        t = [("x", dt, 256), ("y", dt, 256), ("z", dt, 256)]
        ks.append(dev.ub_kernel(kname("And", dt), t, "And(z, x, y, 256);"))
        ks.append(dev.ub_kernel(kname("Or", dt), t, "Or(z, x, y, 256);"))
    return ks


# Level-0 kernels: float (64 lanes / repeat) and half (128 lanes).
L0 = {
    # 2 repeats, first 10 lanes of each, default strides
    "l0_mask_f32": (np.float32, 256, "Add(z, x, y, 10, 2, {1, 1, 1, 8, 8, 8});"),
    # bit mask form: lanes 0, 3 and 63 of 1 repeat
    "l0_bits_f32": (np.float32, 256,
                    "uint64_t m[2] = {(1ull << 0) | (1ull << 3) | (1ull << 63), 0}; Mul(z, x, y, m, 1, {1, 1, 1, 8, 8, 8});"),
    # half: mask[1] covers lanes 64..127
    "l0_bits_f16": (np.float16, 256,
                    "uint64_t m[2] = {0, ~0ull}; Sub(z, x, y, m, 1, {1, 1, 1, 8, 8, 8});"),
    # dst repeat stride 16 blocks, src0 repeat stride 0 (re-read), src1 block stride 2
    "l0_strides_f32": (np.float32, 512, "Add(z, x, y, 64, 2, {1, 1, 2, 16, 0, 16});"),
    # counter mode: SetMaskCount + SetVectorMask(len), isSetMask = false
    "l0_counter_f32": (np.float32, 256,
                       "SetMaskCount(); SetVectorMask<float, MaskMode::COUNTER>(150);"
                       " Max<float, false>(z, x, y, MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});"
                       " SetMaskNorm(); ResetMask();"),
    # normal mode, register mask set by SetVectorMask(hi, lo), isSetMask = false
    "l0_register_f16": (np.float16, 256,
                        "SetVectorMask<half>(0x1ull, 0xF0ull); Add<half, false>(z, x, y, MASK_PLACEHOLDER, 2, {1, 1, 1, 8, 8, 8}); ResetMask();"),
    # mask larger than the lanes of a repeat clamps to all lanes
    "l0_clamp_f32": (np.float32, 256, "Min(z, x, y, 1000, 4, BinaryRepeatParams());"),
}


def lane_ref(x, y, z, f, dt, repeat, lanes, strides=(1, 1, 1, 8, 8, 8)):
    """Reference of the level-0 addressing: lane l of repeat r of an operand
    is element (r*rep + (l//epb)*blk)*epb + l%epb."""
    epb = 32 // np.dtype(dt).itemsize
    db, ab, bb, dr, ar, br = strides
    z = z.copy()
    for r in range(repeat):
        for l in lanes:
            o = lambda rep, blk: (r * rep + (l // epb) * blk) * epb + l % epb
            z[o(dr, db)] = f(x[o(ar, ab)], y[o(br, bb)])
    return z


@pytest.fixture(scope="module")
def mod():
    ks = count_kernels()
    for name in ("MulAddDst", "FusedMulAdd"):
        ks.append(dev.ub_kernel("t_" + name, [("x", np.float32, N), ("y", np.float32, N), ("z", np.float32, N)],
                                "%s(z, x, y, %d);" % (name, N)))
    for name, (dt, n, body) in L0.items():
        ks.append(dev.ub_kernel(name, [("x", dt, n), ("y", dt, n), ("z", dt, n)], body))
    return dev.program(ks)


def data(dt, n, seed, blocks=1):
    rng = np.random.default_rng(seed)
    if np.dtype(dt).kind in "iu":
        info = np.iinfo(dt)
        lo, hi = max(info.min, -3000), min(info.max, 3000)
        return [rng.integers(lo, hi, n * blocks).astype(dt) for _ in range(2)]
    x = rng.standard_normal(n * blocks).astype(dt)
    y = rng.standard_normal(n * blocks).astype(dt)
    y[np.abs(y) < 0.1] = 0.5
    return [x, y]


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", list(OPS) + ["Div"])
def test_count_form(mod, op, dt):
    if op == "Div" and dt not in (np.float32, np.float16):
        pytest.skip("Div is half/float only on dav-2201")
    blocks = 4
    x, y = data(dt, N, 1, blocks)
    z = np.zeros(N * blocks, dt)
    _, _, got = dev.run(mod, kname(op, dt), [("x", dt, N), ("y", dt, N), ("z", dt, N)], [x, y, z], blocks)
    f = np.divide if op == "Div" else OPS[op]
    with np.errstate(over="ignore"):
        want = f(x, y).astype(dt)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dt", [np.int16, np.uint16], ids=lambda d: np.dtype(d).name)
def test_and_or(mod, dt):
    t = [("x", dt, 256), ("y", dt, 256), ("z", dt, 256)]
    x, y = data(dt, 256, 2)
    _, _, z = dev.run(mod, kname("And", dt), t, [x, y, np.zeros(256, dt)])
    np.testing.assert_array_equal(z, x & y)
    _, _, z = dev.run(mod, kname("Or", dt), t, [x, y, np.zeros(256, dt)])
    np.testing.assert_array_equal(z, x | y)


def test_level0_masks_and_strides(mod):
    add, sub, mul, mn = np.add, np.subtract, np.multiply, np.minimum
    cases = {
        "l0_mask_f32": (add, 2, range(10), (1, 1, 1, 8, 8, 8)),
        "l0_bits_f32": (mul, 1, [0, 3, 63], (1, 1, 1, 8, 8, 8)),
        "l0_bits_f16": (sub, 1, range(64, 128), (1, 1, 1, 8, 8, 8)),
        "l0_strides_f32": (add, 2, range(64), (1, 1, 2, 16, 0, 16)),
        "l0_register_f16": (add, 2, [4, 5, 6, 7, 64], (1, 1, 1, 8, 8, 8)),
        "l0_clamp_f32": (mn, 4, range(64), (1, 1, 1, 8, 8, 8)),
    }
    for name, (f, rep, lanes, st) in cases.items():
        dt, n, _ = L0[name]
        x, y = data(dt, n, 3)
        z0 = np.full(n, 7, dt)               # masked-off lanes keep dst
        _, _, got = dev.run(mod, name, [("x", dt, n), ("y", dt, n), ("z", dt, n)], [x, y, z0])
        want = lane_ref(x, y, z0, lambda a, b: f(a, b).astype(dt), dt, rep, list(lanes), st)
        np.testing.assert_array_equal(got, want, err_msg=name)


def test_counter_mode(mod):
    dt, n = np.float32, 256
    x, y = data(dt, n, 4)
    z0 = np.full(n, 7, dt)
    _, _, got = dev.run(mod, "l0_counter_f32", [("x", dt, n), ("y", dt, n), ("z", dt, n)], [x, y, z0])
    want = z0.copy()
    want[:150] = np.maximum(x[:150], y[:150])  # counter mode: 150 elements, repeat ignored
    np.testing.assert_array_equal(got, want)


def test_three_operand_forms(mod):
    x, y = data(np.float32, N, 5)
    z0 = data(np.float32, N, 6)[0]
    t = [("x", np.float32, N), ("y", np.float32, N), ("z", np.float32, N)]
    _, _, z = dev.run(mod, "t_MulAddDst", t, [x, y, z0])
    np.testing.assert_array_equal(z, x * y + z0)          # dst = src0 * src1 + dst
    _, _, z = dev.run(mod, "t_FusedMulAdd", t, [x, y, z0])
    np.testing.assert_array_equal(z, x * z0 + y)          # dst = src0 * dst + src1
