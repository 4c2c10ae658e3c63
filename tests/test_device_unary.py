"""Device API: unary and scalar element-wise ops (Abs, Exp, Ln, Sqrt,
Rsqrt, Reciprocal, Relu, LeakyRelu, Not, Adds, Muls, Maxs, Mins,
ShiftLeft/Right, Axpy in count and level-0 forms, Floor, Ceil), Duplicate (Ascend 950's tensor-source form too), CreateVecIndex and
ArithProgression, count and level-0 forms, against NumPy."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

N = 200
FLOAT_OPS = {
    "Abs": ("Abs(z, x, %d);", np.abs, 0),
    "Exp": ("Exp(z, x, %d);", np.exp, 2e-6),
    "Ln": ("Ln(z, x, %d);", np.log, 2e-6),
    "Sqrt": ("Sqrt(z, x, %d);", np.sqrt, 0),
    "Rsqrt": ("Rsqrt(z, x, %d);", lambda a: 1 / np.sqrt(a), 2e-6),
    "Reciprocal": ("Reciprocal(z, x, %d);", lambda a: 1 / a, 0),
    "Relu": ("Relu(z, x, %d);", lambda a: np.maximum(a, 0), 0),
    "LeakyRelu": ("LeakyRelu(z, x, (T)0.25, %d);", lambda a: np.where(a >= 0, a, a * 0.25), 0),
    "Adds": ("Adds(z, x, (T)1.5, %d);", lambda a: a + 1.5, 0),
    "Muls": ("Muls(z, x, (T)-3, %d);", lambda a: a * -3, 0),
    "Maxs": ("Maxs(z, x, (T)0.5, %d);", lambda a: np.maximum(a, 0.5), 0),
    "Mins": ("Mins(z, x, (T)0.5, %d);", lambda a: np.minimum(a, 0.5), 0),
    "Floor": ("Floor(z, x, %d);", np.floor, 0),
    "Ceil": ("Ceil(z, x, %d);", np.ceil, 0),
}
POSITIVE = {"Ln", "Sqrt", "Rsqrt", "Reciprocal"}
INT_OPS = {
    "Adds": ("Adds(z, x, (T)7, %d);", lambda a: a + 7),
    "Muls": ("Muls(z, x, (T)3, %d);", lambda a: a * 3),
    "Maxs": ("Maxs(z, x, (T)5, %d);", lambda a: np.maximum(a, 5)),
    "Mins": ("Mins(z, x, (T)5, %d);", lambda a: np.minimum(a, 5)),
    "ShiftLeft": ("ShiftLeft(z, x, (T)3, %d);", lambda a: a << 3),
    "ShiftRight": ("ShiftRight(z, x, (T)2, %d);", lambda a: a >> 2),
}


def kn(op, dt):
    return "u_%s_%s" % (op, np.dtype(dt).name)


@pytest.fixture(scope="module")
def mod():
    ks = []
    for dt in (np.float32, np.float16):
        t = [("x", dt, N), ("z", dt, N)]
        for op, (body, _, _) in FLOAT_OPS.items():
            ks.append(dev.ub_kernel(kn(op, dt), t, "using T = %s; " % dev.ctype(dt) + body % N))
    for dt in (np.int32, np.int16, np.uint16, np.uint32):
        t = [("x", dt, N), ("z", dt, N)]
        for op, (body, _) in INT_OPS.items():
            if op in ("Adds", "Muls", "Maxs", "Mins") and dt in (np.uint16, np.uint32):
                continue
            ks.append(dev.ub_kernel(kn(op, dt), t, "using T = %s; " % dev.ctype(dt) + body % N))
    ks.append(dev.ub_kernel("u_not", [("x", np.uint16, 256), ("z", np.uint16, 256)], "Not(z, x, 256);"))
    ks.append(dev.ub_kernel("u_relu_i32", [("x", np.int32, N), ("z", np.int32, N)], "Relu(z, x, %d);" % N))
    # Axpy: dst = s * src + dst, same type and half -> float
    ks.append(dev.ub_kernel("u_axpy_f32", [("x", np.float32, N), ("z", np.float32, N)], "Axpy(z, x, 2.5f, %d);" % N))
    ks.append(dev.ub_kernel("u_axpy_h2f", [("x", np.float16, N), ("z", np.float32, N)], "Axpy(z, x, (half)2.5, %d);" % N))
    # Duplicate, count and level-0 (block stride 2, repeat stride 16 blocks, 5 lanes)
    ks.append(dev.ub_kernel("u_dup", [("z", np.float32, N)], "Duplicate(z, 3.25f, %d);" % N))
    ks.append(dev.ub_kernel("u_dup_l0", [("z", np.float16, 512)], "Duplicate(z, (half)-2, 20, 2, 2, 16);"))
    ks.append(dev.ub_kernel("u_dup_bf16", [("z", dev.BF16, 64)], "Duplicate(z, bfloat16_t(1.5f), 64);"))
    ks.append(dev.ub_kernel("u_vecidx", [("z", np.int32, 64)], "CreateVecIndex(z, (int32_t)5, 64);"))
    ks.append(dev.ub_kernel("u_arith", [("z", np.float32, 64)], "ArithProgression(z, 1.0f, 0.5f, 64);"))
    # level-0 unary: Exp on the first 16 lanes of 2 repeats, dst repeat stride 16
    ks.append(dev.ub_kernel("u_exp_l0", [("x", np.float32, 256), ("z", np.float32, 256)],
                            "Exp(z, x, 16, 2, {1, 1, 16, 8});"))
    ks.append(dev.ub_kernel("u_adds_l0", [("x", np.float16, 256), ("z", np.float16, 256)],
                            "uint64_t m[2] = {0xFFull, 0}; Adds(z, x, (half)1, m, 2, {1, 1, 8, 8});"))
    # level-0 Axpy, both mask forms: 16 lanes of 2 repeats; lanes 0-7 of 2 repeats (half -> float)
    ks.append(dev.ub_kernel("u_axpy_l0", [("x", np.float32, 256), ("z", np.float32, 256)],
                            "Axpy(z, x, 2.0f, 16, 2, {1, 1, 16, 8});"))
    ks.append(dev.ub_kernel("u_axpy_l0_h2f", [("x", np.float16, 256), ("z", np.float32, 256)],
                            "uint64_t m[2] = {0xFFull, 0}; Axpy(z, x, (half)0.5, m, 2, {1, 1, 8, 4});"))
    ks.append(dev.ub_kernel("u_bcast0", [("x", np.float32, 8), ("z", np.float32, 32)],
                            "uint32_t d[2] = {4, 8}, s[2] = {1, 8}; BroadCast<float, 2, 0>(z, x, d, s);"))
    ks.append(dev.ub_kernel("u_bcast1", [("x", np.float32, 8), ("z", np.float32, 32)],
                            "uint32_t d[2] = {4, 8}, s[2] = {4, 1}; BroadCast<float, 2, 1>(z, x, d, s);"))
    return dev.program(ks)


def fdata(dt, positive, seed=0, n=N):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(n) * 3).astype(dt)
    if positive:
        x = np.abs(x) + dt(0.1)
    return x


@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["float32", "float16"])
@pytest.mark.parametrize("op", list(FLOAT_OPS))
def test_float_ops(mod, op, dt):
    x = fdata(dt, op in POSITIVE)
    _, z = dev.run(mod, kn(op, dt), [("x", dt, N), ("z", dt, N)], [x, np.zeros(N, dt)])
    _, f, rtol = FLOAT_OPS[op]
    want = f(x.astype(np.float32)).astype(dt)
    if dt == np.float16:
        rtol = max(rtol, 1e-3)
    np.testing.assert_allclose(z.astype(np.float32), want.astype(np.float32), rtol=rtol, atol=0)


@pytest.mark.parametrize("dt", [np.int32, np.int16, np.uint16, np.uint32], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", list(INT_OPS))
def test_int_ops(mod, op, dt):
    if op in ("Adds", "Muls", "Maxs", "Mins") and dt in (np.uint16, np.uint32):
        pytest.skip("A2 has no unsigned scalar arithmetic")
    rng = np.random.default_rng(1)
    lo = 0 if np.dtype(dt).kind == "u" else -1000
    x = rng.integers(lo, 1000, N).astype(dt)
    _, z = dev.run(mod, kn(op, dt), [("x", dt, N), ("z", dt, N)], [x, np.zeros(N, dt)])
    np.testing.assert_array_equal(z, INT_OPS[op][1](x).astype(dt))


def test_not_relu_int(mod):
    x = np.arange(256, dtype=np.uint16) * 251
    _, z = dev.run(mod, "u_not", [("x", np.uint16, 256), ("z", np.uint16, 256)], [x, np.zeros(256, np.uint16)])
    np.testing.assert_array_equal(z, ~x)
    xi = np.arange(N, dtype=np.int32) - 100
    _, z = dev.run(mod, "u_relu_i32", [("x", np.int32, N), ("z", np.int32, N)], [xi, np.zeros(N, np.int32)])
    np.testing.assert_array_equal(z, np.maximum(xi, 0))


def test_axpy(mod):
    x = fdata(np.float32, False, 2)
    z0 = fdata(np.float32, False, 3)
    _, z = dev.run(mod, "u_axpy_f32", [("x", np.float32, N), ("z", np.float32, N)], [x, z0])
    np.testing.assert_allclose(z, (np.float32(2.5) * x) + z0, rtol=1e-6)
    xh = fdata(np.float16, False, 4)
    _, z = dev.run(mod, "u_axpy_h2f", [("x", np.float16, N), ("z", np.float32, N)], [xh, z0])
    np.testing.assert_allclose(z, 2.5 * xh.astype(np.float32) + z0, rtol=1e-3)


def test_duplicate_and_indices(mod):
    (z,) = dev.run(mod, "u_dup", [("z", np.float32, N)], [np.zeros(N, np.float32)])
    np.testing.assert_array_equal(z, np.full(N, 3.25, np.float32))
    z0 = np.full(512, 9, np.float16)
    (z,) = dev.run(mod, "u_dup_l0", [("z", np.float16, 512)], [z0])
    want = z0.copy()
    for r in range(2):
        for l in range(20):   # 16 lanes per block, block stride 2, repeat stride 16
            want[(r * 16 + (l // 16) * 2) * 16 + l % 16] = -2
    np.testing.assert_array_equal(z, want)
    (z,) = dev.run(mod, "u_dup_bf16", [("z", dev.BF16, 64)], [np.zeros(64, np.uint16)])
    np.testing.assert_array_equal(dev.bf16_bits_to_f32(z), np.full(64, 1.5, np.float32))
    (z,) = dev.run(mod, "u_vecidx", [("z", np.int32, 64)], [np.zeros(64, np.int32)])
    np.testing.assert_array_equal(z, np.arange(64) + 5)
    (z,) = dev.run(mod, "u_arith", [("z", np.float32, 64)], [np.zeros(64, np.float32)])
    np.testing.assert_array_equal(z, 1 + 0.5 * np.arange(64, dtype=np.float32))


def test_level0_unary(mod):
    x = fdata(np.float32, False, 5, 256)
    z0 = np.full(256, -1, np.float32)
    _, z = dev.run(mod, "u_exp_l0", [("x", np.float32, 256), ("z", np.float32, 256)], [x, z0])
    want = z0.copy()
    for r in range(2):
        want[r * 128:r * 128 + 16] = np.exp(x[r * 64:r * 64 + 16])
    np.testing.assert_allclose(z, want, rtol=2e-6)
    xh = fdata(np.float16, False, 6, 256)
    zh0 = np.zeros(256, np.float16)
    _, z = dev.run(mod, "u_adds_l0", [("x", np.float16, 256), ("z", np.float16, 256)], [xh, zh0])
    want = zh0.copy()
    for r in range(2):
        want[r * 128:r * 128 + 8] = xh[r * 128:r * 128 + 8] + np.float16(1)
    np.testing.assert_array_equal(z, want)


def test_level0_axpy(mod):
    x = fdata(np.float32, False, 7, 256)
    z0 = fdata(np.float32, False, 8, 256)
    _, z = dev.run(mod, "u_axpy_l0", [("x", np.float32, 256), ("z", np.float32, 256)], [x, z0])
    want = z0.copy()
    for r in range(2):   # dst repeats 16 blocks (128 floats) apart, src repeats 8 blocks (64)
        want[r * 128:r * 128 + 16] = 2 * x[r * 64:r * 64 + 16] + z0[r * 128:r * 128 + 16]
    np.testing.assert_array_equal(z, want)
    xh = fdata(np.float16, False, 9, 256)
    _, z = dev.run(mod, "u_axpy_l0_h2f", [("x", np.float16, 256), ("z", np.float32, 256)], [xh, z0])
    want = z0.copy()
    for r in range(2):   # lanes of a float dst: 64 per repeat; dst 8 blocks, src 4 blocks (64 halfs) apart
        want[r * 64:r * 64 + 8] = (xh[r * 64:r * 64 + 8] * np.float16(0.5)).astype(np.float32) + z0[r * 64:r * 64 + 8]
    np.testing.assert_array_equal(z, want)


def test_broadcast(mod):
    x = np.arange(8, dtype=np.float32) + 1
    t = [("x", np.float32, 8), ("z", np.float32, 32)]
    _, z = dev.run(mod, "u_bcast0", t, [x, np.zeros(32, np.float32)])
    np.testing.assert_array_equal(z.reshape(4, 8), np.broadcast_to(x, (4, 8)))
    _, z = dev.run(mod, "u_bcast1", t, [x, np.zeros(32, np.float32)])
    np.testing.assert_array_equal(z.reshape(4, 8), np.broadcast_to(x[:4, None], (4, 8)))


def test_duplicate_from_a_local_tensor_on_ascend_950():
    """Ascend 950's Duplicate(dst, src, count) fills dst with src[0] (in
    place too, as CANN's softmax_high_performance calls it); refused on
    dav-2201."""
    t = [("x", np.float32, 64), ("z", np.float32, 64)]
    ks = [dev.ub_kernel("dup_t", t, "Duplicate(z, x[8], 40);"),
          dev.ub_kernel("dup_self", t, "Duplicate(x, x, 64);")]
    m = dev.program(ks, options=("--npu-arch=dav-3510",))
    x = np.arange(64, dtype=np.float32) + 0.5
    _, z = dev.run(m, "dup_t", t, [x, np.full(64, -1, np.float32)])
    np.testing.assert_array_equal(z, np.r_[np.full(40, 8.5, np.float32), np.full(24, -1, np.float32)])
    xs, _ = dev.run(m, "dup_self", t, [x, np.zeros(64, np.float32)])
    np.testing.assert_array_equal(xs, np.full(64, 0.5, np.float32))
    m2 = dev.program(ks[:1])
    with pytest.raises(arc.LaunchError, match=r"AscendC::Duplicate: the LocalTensor source form is Ascend 950"):
        dev.run(m2, "dup_t", t, [x, np.zeros(64, np.float32)])
