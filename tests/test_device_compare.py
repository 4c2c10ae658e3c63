"""Device API: Compare / CompareScalar (bit masks), Select (tensor-tensor,
tensor-scalar, level-0), GatherMask (fixed and tensor patterns) and Gather
(byte offsets), against NumPy."""
import numpy as np
import pytest

import ascendrtc as arc

from helpers import dev

MODES = {"LT": np.less, "GT": np.greater, "EQ": np.equal, "LE": np.less_equal, "GE": np.greater_equal,
         "NE": np.not_equal}


def nm(dt):
    return np.dtype(dt).name


def n_for(dt):
    return 256 // np.dtype(dt).itemsize * 2    # count * sizeof(T) must be a multiple of 256 B


@pytest.fixture(scope="module")
def mod():
    ks = []
    for dt in (np.float32, np.float16):
        n = n_for(dt)
        for m in MODES:
            ks.append(dev.ub_kernel("cmp_%s_%s" % (m, nm(dt)), [("x", dt, n), ("y", dt, n), ("b", np.uint8, n // 8)],
                                    "Compare(b, x, y, CMPMODE::%s, %d);" % (m, n)))
            ks.append(dev.ub_kernel("cmps_%s_%s" % (m, nm(dt)), [("x", dt, n), ("b", np.uint8, n // 8)],
                                    "CompareScalar(b, x, (%s)0.25, CMPMODE::%s, %d);" % (dev.ctype(dt), m, n)))
        ks.append(dev.ub_kernel("sel_tt_%s" % nm(dt), [("b", np.uint8, n // 8), ("x", dt, n), ("y", dt, n), ("z", dt, n)],
                                "Select(z, b, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, %d);" % n))
        ks.append(dev.ub_kernel("sel_ts_%s" % nm(dt), [("b", np.uint8, n // 8), ("x", dt, n), ("z", dt, n)],
                                "Select(z, b, x, (%s)-1, SELMODE::VSEL_TENSOR_SCALAR_MODE, %d);" % (dev.ctype(dt), n)))
    ks.append(dev.ub_kernel("sel_mode0", [("b", np.uint8, 32), ("x", np.float32, 192), ("y", np.float32, 192),
                                          ("z", np.float32, 192)],
                            "Select(z, b, x, y, SELMODE::VSEL_CMPMASK_SPR, 192);"))
    ks.append(dev.ub_kernel("cmp_eq_i32", [("x", np.int32, 64), ("y", np.int32, 64), ("b", np.uint8, 8)],
                            "Compare(b, x, y, CMPMODE::EQ, 64);"))
    ks.append(dev.ub_kernel("cmp_l0", [("x", np.float32, 128), ("y", np.float32, 128), ("b", np.uint8, 16)],
                            "Compare(b, x, y, CMPMODE::GT, 64, 2, BinaryRepeatParams());"))
    ks.append(dev.ub_kernel("sel_l0", [("b", np.uint8, 32), ("x", np.float32, 128), ("y", np.float32, 128),
                                       ("z", np.float32, 128)],
                            "Select(z, b, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, 32, 2, BinaryRepeatParams());"))
    ks.append(dev.ub_kernel("cmp_sel_chain", [("x", np.float32, 64), ("z", np.float32, 64)],
                            "LocalTensor<uint8_t> m = z.ReinterpretCast<uint8_t>()[0];"
                            "TBuf<TPosition::VECCALC> t; pipe.InitBuffer(t, 64); LocalTensor<uint8_t> bits = t.Get<uint8_t>();"
                            "CompareScalar(bits, x, 0.0f, CMPMODE::GE, 64);"
                            "Select(z, bits, x, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64); (void)m;"))
    for p in range(1, 8):
        ks.append(dev.ub_kernel("gm_%d" % p, [("x", np.float32, 128), ("z", np.float32, 128), ("c", np.int64, 4)],
                                "uint64_t cnt = 0; GatherMask(z, x, (uint8_t)%d, false, 0, {1, 2, 8, 0}, cnt);"
                                " c.SetValue(0, (int64_t)cnt);" % p))
    ks.append(dev.ub_kernel("gm_tensor", [("x", np.float16, 256), ("p", np.uint16, 16), ("z", np.float16, 256),
                                          ("c", np.int64, 4)],
                            "uint64_t cnt = 0; GatherMask(z, x, p, true, 200, {1, 1, 8, 0}, cnt);"
                            " c.SetValue(0, (int64_t)cnt);"))
    ks.append(dev.ub_kernel("gather", [("x", np.float32, 64), ("o", np.uint32, 64), ("z", np.float32, 64)],
                            "Gather(z, x, o, 0, 64);"))
    # Gatherb: 2 repeats of 8 blocks of 16 uint16_t, dst blocks 2 apart, repeats 16 blocks apart
    ks.append(dev.ub_kernel("gatherb", [("x", np.uint16, 512), ("o", np.uint32, 16), ("z", np.uint16, 1024)],
                            "GatherRepeatParams rp{2, 16}; Gatherb(z, x, o, 2, rp);"))
    return dev.program(ks)


def test_gatherb_moves_blocks_by_byte_offsets(mod):
    # the Gatherb page's pseudo-code, in NumPy: block j of repeat i from byte
    # offset o[8i + j] of x to dst block i * dstRepStride + j * dstBlkStride
    x = np.arange(512, dtype=np.uint16)
    o = (np.random.default_rng(3).permutation(32)[:16] * 32).astype(np.uint32)
    z0 = np.full(1024, 0xBEEF, np.uint16)
    _, _, z = dev.run(mod, "gatherb", [("x", np.uint16, 512), ("o", np.uint32, 16), ("z", np.uint16, 1024)],
                      [x, o, z0])
    want = z0.copy()
    for i in range(2):
        for j in range(8):
            d = (i * 16 + j * 2) * 16
            want[d:d + 16] = x[o[i * 8 + j] // 2:o[i * 8 + j] // 2 + 16]
    np.testing.assert_array_equal(z, want)
    o[5] = 48  # not a whole block
    with pytest.raises(arc.LaunchError, match=r"Gatherb: offset 48 bytes \(block 5 of repeat 0\) is not 32-byte "
                                              r"aligned"):
        dev.run(mod, "gatherb", [("x", np.uint16, 512), ("o", np.uint32, 16), ("z", np.uint16, 1024)], [x, o, z0])
        arc.synchronize()


def fdata(dt, n, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(-4, 5, n).astype(dt) / dt(4)   # many ties for EQ/LE/GE
    return x.astype(dt)


def bits(mask_bytes, n):
    return np.unpackbits(np.asarray(mask_bytes, np.uint8), bitorder="little")[:n].astype(bool)


@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["float32", "float16"])
@pytest.mark.parametrize("m", list(MODES))
def test_compare(mod, m, dt):
    n = n_for(dt)
    x, y = fdata(dt, n, 1), fdata(dt, n, 2)
    _, _, b = dev.run(mod, "cmp_%s_%s" % (m, nm(dt)), [("x", dt, n), ("y", dt, n), ("b", np.uint8, n // 8)],
                      [x, y, np.zeros(n // 8, np.uint8)])
    np.testing.assert_array_equal(bits(b, n), MODES[m](x, y))
    _, b = dev.run(mod, "cmps_%s_%s" % (m, nm(dt)), [("x", dt, n), ("b", np.uint8, n // 8)],
                   [x, np.zeros(n // 8, np.uint8)])
    np.testing.assert_array_equal(bits(b, n), MODES[m](x, dt(0.25)))


def test_compare_int32_eq_and_level0(mod):
    x = np.arange(64, dtype=np.int32) % 5
    y = np.arange(64, dtype=np.int32) % 3
    _, _, b = dev.run(mod, "cmp_eq_i32", [("x", np.int32, 64), ("y", np.int32, 64), ("b", np.uint8, 8)],
                      [x, y, np.zeros(8, np.uint8)])
    np.testing.assert_array_equal(bits(b, 64), x == y)
    x, y = fdata(np.float32, 128, 3), fdata(np.float32, 128, 4)
    _, _, b = dev.run(mod, "cmp_l0", [("x", np.float32, 128), ("y", np.float32, 128), ("b", np.uint8, 16)],
                      [x, y, np.zeros(16, np.uint8)])
    np.testing.assert_array_equal(bits(b, 128), x > y)


@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["float32", "float16"])
def test_select(mod, dt):
    n = n_for(dt)
    rng = np.random.default_rng(5)
    m = rng.integers(0, 256, n // 8).astype(np.uint8)
    x, y = fdata(dt, n, 6), fdata(dt, n, 7)
    sel = bits(m, n)
    _, _, _, z = dev.run(mod, "sel_tt_%s" % nm(dt), [("b", np.uint8, n // 8), ("x", dt, n), ("y", dt, n), ("z", dt, n)],
                         [m, x, y, np.zeros(n, dt)])
    np.testing.assert_array_equal(z, np.where(sel, x, y))
    _, _, z = dev.run(mod, "sel_ts_%s" % nm(dt), [("b", np.uint8, n // 8), ("x", dt, n), ("z", dt, n)],
                      [m, x, np.zeros(n, dt)])
    np.testing.assert_array_equal(z, np.where(sel, x, dt(-1)))


def test_select_level0_and_chain(mod):
    rng = np.random.default_rng(8)
    m = rng.integers(0, 256, 32).astype(np.uint8)
    x, y = fdata(np.float32, 128, 9), fdata(np.float32, 128, 10)
    z0 = np.full(128, 5, np.float32)
    _, _, _, z = dev.run(mod, "sel_l0", [("b", np.uint8, 32), ("x", np.float32, 128), ("y", np.float32, 128),
                                         ("z", np.float32, 128)], [m, x, y, z0])
    sel = bits(m, 128)
    want = z0.copy()
    for r in range(2):                      # 32 lanes of each repeat, mask bits consumed per repeat
        lanes = np.arange(32) + r * 64
        want[lanes] = np.where(sel[lanes], x[lanes], y[lanes])
    np.testing.assert_array_equal(z, want)
    x = fdata(np.float32, 64, 11)
    _, z = dev.run(mod, "cmp_sel_chain", [("x", np.float32, 64), ("z", np.float32, 64)], [x, np.zeros(64, np.float32)])
    np.testing.assert_array_equal(z, np.maximum(x, 0))


PATTERNS = {1: lambda i: i % 2 == 0, 2: lambda i: i % 2 == 1, 3: lambda i: i % 4 == 0, 4: lambda i: i % 4 == 1,
            5: lambda i: i % 4 == 2, 6: lambda i: i % 4 == 3, 7: lambda i: i >= 0}


@pytest.mark.parametrize("p", range(1, 8))
def test_gather_mask_fixed(mod, p):
    x = np.arange(128, dtype=np.float32) + 0.5
    _, z, c = dev.run(mod, "gm_%d" % p, [("x", np.float32, 128), ("z", np.float32, 128), ("c", np.int64, 4)],
                      [x, np.zeros(128, np.float32), np.zeros(4, np.int64)])
    keep = x[PATTERNS[p](np.arange(128))]
    assert c[0] == len(keep)
    np.testing.assert_array_equal(z[:len(keep)], keep)


def test_gather_mask_tensor_and_gather(mod):
    x = np.arange(256, dtype=np.float16)
    rng = np.random.default_rng(12)
    pat = rng.integers(0, 65536, 16).astype(np.uint16)
    _, _, z, c = dev.run(mod, "gm_tensor", [("x", np.float16, 256), ("p", np.uint16, 16), ("z", np.float16, 256),
                                            ("c", np.int64, 4)],
                         [x, pat, np.zeros(256, np.float16), np.zeros(4, np.int64)])
    keep = x[:200][bits(pat.view(np.uint8), 200)]    # counter mode: 200 elements, one bit each
    assert c[0] == len(keep)
    np.testing.assert_array_equal(z[:len(keep)], keep)
    xs = np.arange(64, dtype=np.float32) * 3
    idx = rng.integers(0, 64, 64)
    _, _, z = dev.run(mod, "gather", [("x", np.float32, 64), ("o", np.uint32, 64), ("z", np.float32, 64)],
                      [xs, (idx * 4).astype(np.uint32), np.zeros(64, np.float32)])
    np.testing.assert_array_equal(z, xs[idx])                 # offsets are bytes


def test_select_mode0_reuses_mask_per_repeat(mod):
    rng = np.random.default_rng(13)
    m = rng.integers(0, 256, 32).astype(np.uint8)
    x, y = fdata(np.float32, 192, 14), fdata(np.float32, 192, 15)
    _, _, _, z = dev.run(mod, "sel_mode0", [("b", np.uint8, 32), ("x", np.float32, 192), ("y", np.float32, 192),
                                            ("z", np.float32, 192)], [m, x, y, np.zeros(192, np.float32)])
    sel = np.tile(bits(m, 64), 3)           # 64 lanes per float repeat, the same bits each repeat
    np.testing.assert_array_equal(z, np.where(sel, x, y))
