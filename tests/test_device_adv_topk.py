"""Device API: TopK (lib/sort/topk.h) in TOPK_NORMAL and TOPK_NSMALL, largest
and smallest, generated and given indices, finished rows, the padded output
rows, NaN first and ties by position, and the TopKConfig forms (RADIX_SELECT
on integers, order overriding isLargest), against NumPy."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

ROWS, INNER = 3, 64


def topk_ref(x, n, k, largest):
    """Per row: the first n values ordered NaN first, then by value (largest
    or smallest first), ties by position; (values, positions) of the first k."""
    vals, poss = [], []
    for row in x:
        r = row[:n].astype(np.float64)
        key = -r if largest else r
        order = sorted(range(n), key=lambda i: (0 if np.isnan(r[i]) else 1, 0 if np.isnan(r[i]) else key[i], i))
        poss.append(order[:k])
        vals.append(row[order[:k]])
    return np.array(vals), np.array(poss)


def kernel(dt, k, n, largest, init=False, finish=False, small=False, cfg="", inner=INNER):
    c = dev.ctype(dt)
    kv = k if small else (k * np.dtype(dt).itemsize + 31) // 32 * 32 // np.dtype(dt).itemsize
    ki = k if small else (k + 7) // 8 * 8
    p = [("x", dt, ROWS * inner), ("si", np.int32, ROWS * inner), ("f", np.uint8, 32), ("dv", dt, ROWS * kv),
         ("di", np.int32, ROWS * ki), ("tmp", np.uint8, 256)]
    mode = "TopKMode::TOPK_NSMALL" if small else "TopKMode::TOPK_NORMAL"
    body = ("TopKInfo info; info.outter = %d; info.inner = %d; info.n = %d; TopkTiling tl{}; %s"
            "TopK<%s, %s, %s, false, %s%s>(dv, di, x, si, f.ReinterpretCast<bool>(), tmp, %d, tl, info, %s);"
            % (ROWS, inner, n, cfg, c, "true" if init else "false", "true" if finish else "false", mode,
               ", c" if cfg else "", k, "true" if largest else "false"))
    return p, dev.ub_kernel("k", p, body), kv, ki


def run(p, k, arch, x, si=None, fin=None):
    m = dev.program([k], ("--npu-arch=" + arch,))
    n_in = p[0][2]
    arrays = [x, si if si is not None else np.zeros(n_in, np.int32), fin if fin is not None else np.zeros(32, np.uint8),
              np.full(p[3][2], 7, p[3][1]), np.full(p[4][2], -5, np.int32), np.zeros(256, np.uint8)]
    return dev.run(m, "k", p, arrays)


@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("largest", [True, False], ids=["largest", "smallest"])
def test_topk_normal(dt, largest):
    k, n = 5, 50
    p, kern, kv, ki = kernel(dt, k, n, largest)
    rng = np.random.default_rng(1)
    x = rng.integers(-8, 9, (ROWS, INNER)).astype(dt)             # many ties
    x[0, 10], x[1, 3], x[2, 49] = np.nan, np.inf, -np.inf
    x[:, n:] = 100 if not largest else -100                       # padding: never chosen
    out = run(p, kern, "dav-2201", x.reshape(-1))
    vals, poss = topk_ref(x, n, k, largest)
    dv, di = out[3].reshape(ROWS, kv), out[4].reshape(ROWS, ki)
    np.testing.assert_array_equal(dv[:, :k], vals)
    np.testing.assert_array_equal(di[:, :k], poss)
    assert (dv[:, k:] == 7).all() and (di[:, k:] == -5).all()     # padding elements left alone
    assert np.isnan(dv[0, 0])                                      # NaN first either way


def test_topk_given_indices_and_finished_rows():
    k, n = 4, 64
    p, kern, kv, ki = kernel(np.float32, k, n, True, init=True, finish=True)
    x = np.random.default_rng(2).permutation(ROWS * INNER).astype(np.float32)
    si = np.zeros(ROWS * INNER, np.int32)
    si[:INNER] = np.arange(1000, 1000 + INNER)                    # NORMAL: one row shared by every row
    fin = np.zeros(32, np.uint8)
    fin[1] = 1
    out = run(p, kern, "dav-2201", x, si, fin)
    vals, poss = topk_ref(x.reshape(ROWS, INNER), n, k, True)
    di = out[4].reshape(ROWS, ki)[:, :k]
    np.testing.assert_array_equal(out[3].reshape(ROWS, kv)[:, :k], vals)
    np.testing.assert_array_equal(di[[0, 2]], 1000 + poss[[0, 2]])
    np.testing.assert_array_equal(di[1], n)                       # finished: the invalid index n


def test_topk_small_mode_per_row_indices():
    k, n = 3, 30
    p, kern, kv, ki = kernel(np.float16, k, n, False, init=True, small=True, inner=32)
    x = np.random.default_rng(3).uniform(-9, 9, ROWS * 32).astype(np.float16)
    si = (np.arange(ROWS * 32) * 3).astype(np.int32)              # SMALL: outter x inner indices
    out = run(p, kern, "dav-2201", x, si)
    vals, poss = topk_ref(x.reshape(ROWS, 32), n, k, False)
    np.testing.assert_array_equal(out[3][:ROWS * k].reshape(ROWS, k), vals)
    np.testing.assert_array_equal(out[4][:ROWS * k].reshape(ROWS, k), si.reshape(ROWS, 32)[np.arange(ROWS)[:, None], poss])


@pytest.mark.parametrize("order, largest", [("UNSET", True), ("SMALLEST", True), ("LARGEST", False)])
def test_radix_select_config(order, largest):
    k, n = 6, 64
    cfg = "static constexpr TopKConfig c{TopKAlgo::RADIX_SELECT, TopKOrder::%s, true}; " % order
    p, kern, kv, ki = kernel(np.int32, k, n, largest, cfg=cfg)
    x = np.random.default_rng(4).integers(-50, 50, ROWS * INNER).astype(np.int32)
    out = run(p, kern, "dav-3510", x)
    want_largest = largest if order == "UNSET" else order == "LARGEST"
    vals, poss = topk_ref(x.reshape(ROWS, INNER), n, k, want_largest)
    np.testing.assert_array_equal(out[3].reshape(ROWS, kv)[:, :k], vals)
    np.testing.assert_array_equal(out[4].reshape(ROWS, ki)[:, :k], poss)


def test_topk_checks():
    p, kern, _, _ = kernel(np.float32, 9, 8, True)
    with pytest.raises(arc.Error) as ei:
        run(p, kern, "dav-2201", np.zeros(ROWS * INNER, np.float32))
    assert "AscendC::TopK" in str(ei.value) and "k 9 and topKInfo.n 8: 1 <= k <= n <= inner 64" in str(ei.value)
    cfg = "static constexpr TopKConfig c{TopKAlgo::RADIX_SELECT, TopKOrder::UNSET, true}; "
    p, kern, _, _ = kernel(np.float32, 2, 8, True, cfg=cfg)
    with pytest.raises(arc.CompileError) as ei:
        dev.program([kern])
    assert "RADIX_SELECT is Ascend 950 (dav-3510) only" in ei.value.log
