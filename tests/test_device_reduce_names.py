"""Device API: the memory-vector reductions under CANN 9.1's names
(arc/reduce_names.h): ReduceRepeat<SUM/MAX/MIN>, ReduceDataBlock<...>,
ReducePairElem<SUM>, GetReduceRepeatSumSpr/MaxMinSpr, against NumPy (max,
min, pairs exactly; sums as the older names compute them, bit for bit)."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

L = 64  # float lanes per repeat
T2 = [("x", np.float32, 4 * L), ("z", np.float32, 64)]
BODIES = {
    "rr_sum": "ReduceRepeat<ReduceType::SUM, float>(z, x, %d, 4, 1, 1, 8);" % L,
    "old_sum": "WholeReduceSum(z, x, %d, 4, 1, 1, 8);" % L,
    "rr_max": "ReduceRepeat<ReduceType::MAX, float>(z, x, %d, 4, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);" % L,
    "rr_min_vi": "ReduceRepeat<ReduceType::MIN, float>(z, x, 10, 4, 1, 1, 8);",
    "db_sum": "ReduceDataBlock<ReduceType::SUM, float>(z, x, %d, 4, 1, 1, 8);" % L,
    "old_db_sum": "BlockReduceSum(z, x, 4, %d, 1, 1, 8);" % L,
    "db_max": "ReduceDataBlock<ReduceType::MAX, float>(z, x, %d, 4, 1, 1, 8);" % L,
    "pair": "ReducePairElem<ReduceType::SUM, float>(z, x, %d, 2, 1, 1, 8);" % L,
    "spr": "ReduceRepeat<ReduceType::MAX, float>(z, x, %d, 1, 1, 1, 8); float v = 0, i = 0;"
           " GetReduceRepeatMaxMinSpr(v, i); z.SetValue(8, v); z.SetValue(9, i);"
           " ReduceSum(z[16], x, x[2 * %d], %d); z.SetValue(10, GetReduceRepeatSumSpr<float>());" % (L, L, L),
}


@pytest.fixture(scope="module")
def mod():
    return dev.program([dev.ub_kernel(k, T2, b) for k, b in BODIES.items()])


def run(mod, name, x):
    return dev.run(mod, name, T2, [x, np.zeros(64, np.float32)])[1]


def test_new_names(mod):
    x = (np.random.default_rng(9).standard_normal(4 * L) * 3).astype(np.float32)
    rows, blocks = x.reshape(4, L), x.reshape(4, 8, 8)
    np.testing.assert_array_equal(run(mod, "rr_sum", x)[:4], run(mod, "old_sum", x)[:4])
    np.testing.assert_allclose(run(mod, "rr_sum", x)[:4], rows.astype(np.float64).sum(1), rtol=1e-5)
    np.testing.assert_array_equal(run(mod, "rr_max", x)[:4], rows.max(1))
    z = run(mod, "rr_min_vi", x)
    np.testing.assert_array_equal(z[0:8:2], rows[:, :10].min(1))
    assert list(z[1:8:2].view(np.uint32)) == list(rows[:, :10].argmin(1))
    np.testing.assert_array_equal(run(mod, "db_sum", x)[:32], run(mod, "old_db_sum", x)[:32])
    np.testing.assert_array_equal(run(mod, "db_max", x)[:32], blocks.max(2).reshape(-1))
    np.testing.assert_array_equal(run(mod, "pair", x)[:L], x[:2 * L][0::2] + x[:2 * L][1::2])
    z = run(mod, "spr", x)
    assert z[8] == x[:L].max() and z[9] == np.argmax(x[:L])
    assert z[10] == z[16]


def test_widening_forms_are_refused():
    k = dev.ub_kernel("widen", [("x", np.int16, 128), ("z", np.int32, 64)],
                      "ReduceRepeat<ReduceType::SUM, int32_t>(z, x, 128, 1, 1, 1, 8);")
    with pytest.raises(arc.CompileError) as ei:
        dev.program([k])
    assert "AscendC::ReduceRepeat: dst and src of different types" in ei.value.log
