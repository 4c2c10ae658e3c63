"""Device API: level-2 ReduceSum/Max/Min (with index), WholeReduceSum/Max/
Min, BlockReduceSum/Max/Min and PairReduceSum, against NumPy."""
import numpy as np
import pytest

from helpers import dev

N = 1000


def nm(dt):
    return np.dtype(dt).name


@pytest.fixture(scope="module")
def mod():
    ks = []
    for dt in (np.float32, np.float16):
        c = dev.ctype(dt)
        t = [("x", dt, N), ("w", dt, 512), ("z", dt, 16)]
        ks.append(dev.ub_kernel("rs_%s" % nm(dt), t, "ReduceSum(z, x, w, %d);" % N))
        ks.append(dev.ub_kernel("rmax_%s" % nm(dt), t, "ReduceMax(z, x, w, %d, true);" % N))
        ks.append(dev.ub_kernel("rmin_%s" % nm(dt), t, "ReduceMin(z, x, w, %d, true);" % N))
        # level-0 form of the level-2 API: 3 repeats, first 20 lanes each
        ks.append(dev.ub_kernel("rs_l0_%s" % nm(dt), t, "ReduceSum(z, x, w, 20, 3, 8);"))
        L = 256 // np.dtype(dt).itemsize
        t2 = [("x", dt, 4 * L), ("z", dt, 64)]
        ks.append(dev.ub_kernel("wsum_%s" % nm(dt), t2, "WholeReduceSum(z, x, %d, 4, 1, 1, 8);" % L))
        ks.append(dev.ub_kernel("wmax_%s" % nm(dt), t2,
                                "WholeReduceMax(z, x, %d, 4, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);" % L))
        ks.append(dev.ub_kernel("wmin_vi_%s" % nm(dt), t2, "WholeReduceMin(z, x, 10, 4, 1, 1, 8);"))
        ks.append(dev.ub_kernel("bsum_%s" % nm(dt), t2, "BlockReduceSum(z, x, 4, %d, 1, 1, 8);" % L))
        ks.append(dev.ub_kernel("bmax_%s" % nm(dt), t2, "BlockReduceMax(z, x, 4, %d, 1, 1, 8);" % L))
        ks.append(dev.ub_kernel("bmin_%s" % nm(dt), t2, "BlockReduceMin(z, x, 4, %d, 1, 1, 8);" % L))
        ks.append(dev.ub_kernel("psum_%s" % nm(dt), [("x", dt, 2 * L), ("z", dt, L)],
                                "PairReduceSum(z, x, 2, %d, 1, 1, 8);" % L))
        del c
    ks.append(dev.ub_kernel("rs_counter", [("x", np.float32, 20000), ("w", np.float32, 64), ("z", np.float32, 8)],
                            "SetMaskCount(); SetVectorMask<float, MaskMode::COUNTER>(19999);"
                            " ReduceSum<float, false>(z, x, w, MASK_PLACEHOLDER, 1, 8);"
                            " ReduceMax<float, false>(z[2], x, w, MASK_PLACEHOLDER, 1, 8, true);"
                            " SetMaskNorm(); ResetMask();"))
    ks.append(dev.ub_kernel("accval", [("x", np.float32, 256), ("w", np.float32, 256), ("z", np.float32, 8)],
                            "ReduceMax(z, x, w, 256, true); float v, i; GetReduceMaxMinCount(v, i);"
                            " z.SetValue(2, v); z.SetValue(3, i);"
                            " ReduceSum(z[4], x, w, 256); z.SetValue(5, GetAccVal<float>());"))
    return dev.program(ks)


def data(dt, n, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) * 2).astype(dt)


def idx_of(v, dt):
    """The index bits kept in an element of dt."""
    return int(np.asarray([v], dt).view(np.uint16 if dt == np.float16 else np.uint32)[0])


@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["float32", "float16"])
def test_level2(mod, dt):
    x = data(dt, N, 1)
    t = [("x", dt, N), ("w", dt, 512), ("z", dt, 16)]
    tol = 1e-5 if dt == np.float32 else 2e-2
    _, _, z = dev.run(mod, "rs_%s" % nm(dt), t, [x, np.zeros(512, dt), np.zeros(16, dt)])
    np.testing.assert_allclose(float(z[0]), x.astype(np.float64).sum(), rtol=tol, atol=tol * 10)
    _, _, z = dev.run(mod, "rmax_%s" % nm(dt), t, [x, np.zeros(512, dt), np.zeros(16, dt)])
    assert z[0] == x.max() and idx_of(z[1], dt) == int(np.argmax(x))
    _, _, z = dev.run(mod, "rmin_%s" % nm(dt), t, [x, np.zeros(512, dt), np.zeros(16, dt)])
    assert z[0] == x.min() and idx_of(z[1], dt) == int(np.argmin(x))
    _, _, z = dev.run(mod, "rs_l0_%s" % nm(dt), t, [x, np.zeros(512, dt), np.zeros(16, dt)])
    L = 256 // np.dtype(dt).itemsize
    sel = np.concatenate([x[r * L:r * L + 20] for r in range(3)]).astype(np.float64)
    np.testing.assert_allclose(float(z[0]), sel.sum(), rtol=tol, atol=tol * 10)


@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["float32", "float16"])
def test_whole_block_pair(mod, dt):
    L = 256 // np.dtype(dt).itemsize
    epb = L // 8
    x = data(dt, 4 * L, 2)
    rows = x.reshape(4, L).astype(np.float64)
    t2 = [("x", dt, 4 * L), ("z", dt, 64)]
    tol = 1e-5 if dt == np.float32 else 5e-3
    _, z = dev.run(mod, "wsum_%s" % nm(dt), t2, [x, np.zeros(64, dt)])
    np.testing.assert_allclose(z[:4].astype(np.float64), rows.sum(1), rtol=tol, atol=tol)
    _, z = dev.run(mod, "wmax_%s" % nm(dt), t2, [x, np.zeros(64, dt)])
    np.testing.assert_array_equal(z[:4], x.reshape(4, L).max(1))
    _, z = dev.run(mod, "wmin_vi_%s" % nm(dt), t2, [x, np.zeros(64, dt)])
    first10 = x.reshape(4, L)[:, :10]
    np.testing.assert_array_equal(z[0:8:2], first10.min(1))          # value, index pairs
    assert [idx_of(v, dt) for v in z[1:8:2]] == list(first10.argmin(1))
    blocks = x.reshape(4, 8, epb)
    _, z = dev.run(mod, "bsum_%s" % nm(dt), t2, [x, np.zeros(64, dt)])
    np.testing.assert_allclose(z[:32].astype(np.float64), blocks.astype(np.float64).sum(2).reshape(-1), rtol=tol, atol=tol)
    _, z = dev.run(mod, "bmax_%s" % nm(dt), t2, [x, np.zeros(64, dt)])
    np.testing.assert_array_equal(z[:32], blocks.max(2).reshape(-1))
    _, z = dev.run(mod, "bmin_%s" % nm(dt), t2, [x, np.zeros(64, dt)])
    np.testing.assert_array_equal(z[:32], blocks.min(2).reshape(-1))
    xp = data(dt, 2 * L, 3)
    _, z = dev.run(mod, "psum_%s" % nm(dt), [("x", dt, 2 * L), ("z", dt, L)], [xp, np.zeros(L, dt)])
    np.testing.assert_array_equal(z, (xp[0::2] + xp[1::2]).astype(dt))


def test_acc_val(mod):
    x = data(np.float32, 256, 4)
    _, _, z = dev.run(mod, "accval", [("x", np.float32, 256), ("w", np.float32, 256), ("z", np.float32, 8)],
                      [x, np.zeros(256, np.float32), np.zeros(8, np.float32)])
    assert z[2] == x.max() and z[3] == np.argmax(x)
    assert z[5] == z[4]
    np.testing.assert_allclose(z[4], x.astype(np.float64).sum(), rtol=1e-5)


def test_counter_mode_many_repeats(mod):
    x = data(np.float32, 20000, 5)
    _, _, z = dev.run(mod, "rs_counter", [("x", np.float32, 20000), ("w", np.float32, 64), ("z", np.float32, 8)],
                      [x, np.zeros(64, np.float32), np.zeros(8, np.float32)])
    np.testing.assert_allclose(z[0], x[:19999].astype(np.float64).sum(), rtol=1e-4, atol=1e-3)
    assert z[2] == x[:19999].max() and idx_of(z[3], np.float32) == int(np.argmax(x[:19999]))
