"""Device API: the advanced Exp<T, taylorExpandLevel, isReuseSource>, the
advanced Axpy, Power's whole-tensor, config and integer forms, and CumSum
(both axes, LINEBYLINE and SKLANSKY, half and float, the last row)
(lib/math/exp.h, axpy.h, power.h, cumsum.h), against NumPy and the pages'
examples."""

import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

A35 = ("--npu-arch=dav-3510",)
N = 64


def exp_taylor(x, level):
    """The page's formula in float32: e^floor(x) * sum_{k<=level} xB^k / k!."""
    x = x.astype(np.float32)
    if level == 0:
        return np.exp(x.astype(np.float64)).astype(np.float32)
    xa = np.floor(x)
    xb = (x - xa).astype(np.float32)
    term, total = np.ones_like(x), np.ones_like(x)
    for k in range(1, level + 1):
        term = (term * xb / np.float32(k)).astype(np.float32)
        total = (total + term).astype(np.float32)
    return np.exp(xa.astype(np.float64)).astype(np.float32) * total


@pytest.mark.parametrize("level", [0, 1, 3, 15])
def test_exp_taylor_levels(level):
    p = [("x", np.float32, N), ("z", np.float32, N), ("tmp", np.uint8, 256)]
    m = dev.program([dev.ub_kernel("k", p, "Exp<float, %d, false>(z, x, tmp, %d);" % (level, N))])
    x = np.random.default_rng(level).uniform(-6, 6, N).astype(np.float32)
    z = dev.run(m, "k", p, [x, np.zeros(N, np.float32), np.zeros(256, np.uint8)])[1]
    np.testing.assert_allclose(z, exp_taylor(x, level), rtol=2e-7)
    if level == 1:  # a short series is visibly off e^x, as the page warns
        assert np.max(np.abs(z / np.exp(x) - 1)) > 0.05


def test_exp_reuse_source_matches_the_page():
    """The page's isReuseSource example: src [-7.5 .. 7.5] gives dst
    [0.000553084 .. 1808.04] and, with reuse, src becomes 0.5 everywhere."""
    p = [("x", np.float32, 16), ("z", np.float32, 16), ("y", np.float32, 16), ("w", np.float32, 16)]
    m = dev.program([dev.ub_kernel("k", p, "Exp<float, 15, false>(z, x, 16); Exp<float, 15, true>(w, y, 16);")])
    x = np.arange(-7.5, 8, 1, dtype=np.float32)
    out = dev.run(m, "k", p, [x, np.zeros(16, np.float32), x, np.zeros(16, np.float32)])
    page = [0.000553084, 0.00150344, 0.00408677, 0.011109, 0.0301974, 0.082085, 0.22313, 0.606531, 1.64872,
            4.48169, 12.1825, 33.1155, 90.0171, 244.692, 665.142, 1808.04]
    np.testing.assert_allclose(out[1], page, rtol=1e-5)
    np.testing.assert_array_equal(out[3], out[1])
    np.testing.assert_array_equal(out[0], x)          # not reused: src kept
    np.testing.assert_array_equal(out[2], 0.5)        # reused: the fractional parts


@pytest.mark.parametrize("dst_t", [np.float32, np.float16], ids=lambda d: np.dtype(d).name)
def test_advanced_axpy_half_source(dst_t):
    p = [("x", np.float16, N), ("z", dst_t, N), ("tmp", np.uint8, 256)]
    m = dev.program([dev.ub_kernel("k", p, "Axpy(z, x, (half)1.3f, tmp, %d);" % N)])
    rng = np.random.default_rng(9)
    x, z0 = rng.uniform(-4, 4, N).astype(np.float16), rng.uniform(-4, 4, N).astype(dst_t)
    z = dev.run(m, "k", p, [x, z0, np.zeros(256, np.uint8)])[1]
    prod = (x * np.float16(1.3)).astype(np.float16)   # Muls in the source's type
    np.testing.assert_array_equal(z, (prod.astype(np.float32) + z0.astype(np.float32)).astype(dst_t))


@pytest.mark.parametrize("body, ref", [
    ("Power(z, x, y);", lambda x, y: x ** y),
    ("Power<float, false>(z, x, y, tmp);", lambda x, y: x ** y),
    ("Power<float, false>(z, x, 2.0f, tmp);", lambda x, y: x ** 2),
    ("static constexpr PowerConfig c = {PowerAlgo::DOUBLE_FLOAT_TECH}; Power<float, false, c>(z, 3.0f, y, tmp);",
     lambda x, y: 3.0 ** y),
])
def test_power_whole_tensor_forms(body, ref):
    p = [("x", np.float32, N), ("y", np.float32, N), ("z", np.float32, N), ("tmp", np.uint8, 256)]
    m = dev.program([dev.ub_kernel("k", p, body)], A35)
    rng = np.random.default_rng(10)
    x, y = rng.uniform(0.5, 3, N).astype(np.float32), rng.uniform(-2, 2, N).astype(np.float32)
    z = dev.run(m, "k", p, [x, y, np.zeros(N, np.float32), np.zeros(256, np.uint8)])[2]
    np.testing.assert_allclose(z, ref(x.astype(np.float64), y.astype(np.float64)).astype(np.float32), rtol=4e-6)


@pytest.mark.parametrize("dt, arch", [(np.int32, "dav-2201"), (np.int8, "dav-3510"), (np.uint16, "dav-3510")],
                         ids=["int32", "int8", "uint16"])
def test_power_integers_wrap(dt, arch):
    p = [("x", dt, N), ("y", dt, N), ("z", dt, N)]
    m = dev.program([dev.ub_kernel("k", p, "Power(z, x, y, %d);" % N)], ("--npu-arch=" + arch,))
    rng = np.random.default_rng(11)
    x, y = rng.integers(0, 9, N).astype(dt), rng.integers(0, 12, N).astype(dt)
    z = dev.run(m, "k", p, [x, y, np.zeros(N, dt)])[2]
    want = [pow(int(a), int(b), 1 << (8 * np.dtype(dt).itemsize)) for a, b in zip(x, y)]
    np.testing.assert_array_equal(z.astype(np.int64) & ((1 << (8 * np.dtype(dt).itemsize)) - 1), want)


def test_power_negative_integer_exponent_stops():
    p = [("x", np.int32, N), ("y", np.int32, N), ("z", np.int32, N)]
    m = dev.program([dev.ub_kernel("k", p, "Power(z, x, y, %d);" % N)])
    y = np.ones(N, np.int32)
    y[5] = -1
    with pytest.raises(arc.Error) as ei:
        dev.run(m, "k", p, [np.full(N, 2, np.int32), y, np.zeros(N, np.int32)])
    assert "AscendC::Power" in str(ei.value) and "exponent -1 of an integer type is negative" in str(ei.value)


def sklansky(a):
    """Sklansky's prefix over axis 0 in float32: round r adds the last
    element of each block's lower half to its upper half."""
    a = a.astype(np.float32).copy()
    n, h = a.shape[0], 1
    while h < n:
        for blk in range(0, n, 2 * h):
            if blk + h < n:
                a[blk + h:blk + 2 * h] = (a[blk + h:blk + 2 * h] + a[blk + h - 1]).astype(np.float32)
        h *= 2
    return a


def running(a):
    out, acc = np.empty_like(a, np.float32), np.zeros(a.shape[1:], np.float32)
    for i in range(a.shape[0]):
        acc = (acc + a[i].astype(np.float32)).astype(np.float32)
        out[i] = acc
    return out


@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("last_axis", [True, False], ids=["last", "first"])
@pytest.mark.parametrize("algo", ["LINEBYLINE", "SKLANSKY"])
def test_cumsum(dt, last_axis, algo):
    rows, cols = 13, 48
    c = dev.ctype(dt)
    p = [("x", dt, rows * cols), ("z", dt, rows * cols), ("l", dt, 64), ("tmp", np.uint8, 256)]
    body = ("static constexpr CumSumConfig cfg{%s, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_%s}; "
            "CumSum<%s, cfg>(z, l, x, tmp, CumSumInfo{%d, %d});" % ("true" if last_axis else "false", algo, c,
                                                                   rows, cols))
    m = dev.program([dev.ub_kernel("k", p, body)], A35)
    x = np.random.default_rng(12).uniform(-10, 10, rows * cols).astype(dt)
    out = dev.run(m, "k", p, [x, np.zeros(rows * cols, dt), np.full(64, 9, dt), np.zeros(256, np.uint8)])
    a = x.reshape(rows, cols)
    f = sklansky if algo == "SKLANSKY" else running
    want = (f(a.T).T if last_axis else f(a)).astype(dt)
    np.testing.assert_array_equal(out[1].reshape(rows, cols), want)
    last = want[:, -1] if last_axis else want[-1]
    np.testing.assert_array_equal(out[2][:last.size], last)
    np.testing.assert_array_equal(out[2][last.size:], 9)


def test_cumsum_matches_the_page_example():
    """The page: 4 x 8 ones; last axis gives rows 1..8 and lastRow [8 8 8 8],
    first axis rows of 1, 2, 3, 4 and lastRow eight 4s."""
    p = [("x", np.float32, 32), ("z", np.float32, 32), ("l", np.float32, 8), ("w", np.float32, 32),
         ("m", np.float32, 8)]
    body = ("static constexpr CumSumConfig a{true, false, true}; static constexpr CumSumConfig b{false, false, true};"
            "CumSum<float, a>(z, l, x, CumSumInfo{4, 8}); CumSum<float, b>(w, m, x, CumSumInfo{4, 8});")
    out = dev.run(dev.program([dev.ub_kernel("k", p, body)]), "k", p,
                  [np.ones(32, np.float32)] + [np.zeros(k, np.float32) for k in (32, 8, 32, 8)])
    np.testing.assert_array_equal(out[1], np.tile(np.arange(1, 9), 4))
    np.testing.assert_array_equal(out[2][:4], 8)
    np.testing.assert_array_equal(out[3], np.repeat(np.arange(1, 5), 8))
    np.testing.assert_array_equal(out[4], 4)


def test_cumsum_checks_inner_alignment():
    p = [("x", np.float32, 64), ("z", np.float32, 64), ("l", np.float32, 8)]
    m = dev.program([dev.ub_kernel("k", p, "CumSum<float>(z, l, x, CumSumInfo{6, 10});")])
    with pytest.raises(arc.Error) as ei:
        dev.run(m, "k", p, [np.zeros(64, np.float32)] * 2 + [np.zeros(8, np.float32)])
    assert "AscendC::CumSum" in str(ei.value) and "inner 10 * sizeof(float) is not a multiple of 32 bytes" in str(ei.value)


def test_sklansky_is_950_only():
    p = [("x", np.float32, 64), ("z", np.float32, 64), ("l", np.float32, 8)]
    body = ("static constexpr CumSumConfig c{true, false, false, CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY}; "
            "CumSum<float, c>(z, l, x, CumSumInfo{8, 8});")
    with pytest.raises(arc.CompileError) as ei:
        dev.program([dev.ub_kernel("k", p, body)])
    assert "CUMSUM_ALGORITHM_SKLANSKY is Ascend 950 (dav-3510) only" in ei.value.log
