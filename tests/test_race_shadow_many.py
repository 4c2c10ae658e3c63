"""The race check's shadow with thousands of segments (race_shadow.h: the
segments in a pool, their order an index list searched outwards from the
last answer): 1536 separate 32-byte GM reads, every other 64 bytes, the even
rows in address order and the odd ones backwards, leave 1536 segments with
gaps between them.  An MTE3 store with no MTE2_MTE3 flag is a race exactly
when it lands on a row that was read -- found among them all, named by its
row's bytes and line -- and no race in a gap or after the flag.  With 2048
rows the first reads' records have left the report's ring of recent
accesses: the report still says the earlier access was a read."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.py_kernels import compiled

ROWS = 1536
SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
// Reads 8 floats of each 16-float row of x (n rows, n even, at most 2048)
// into its own UB slot (even rows forwards, odd rows backwards), then
// stores 8 floats of 7 at x[at..at+8), after an MTE2_MTE3 flag when mode is 1.
extern "C" __global__ __aicore__ void many_reads(GM_ADDR x, uint32_t at, uint32_t mode, uint32_t n)
{
    constexpr uint32_t ROWS = 2048;
    GlobalTensor<float> xg;
    xg.SetGlobalBuffer((__gm__ float *)x, ROWS * 16);
    TPipe pipe;
    TBuf<TPosition::VECCALC> rows, out;
    pipe.InitBuffer(rows, ROWS * 8 * sizeof(float));
    pipe.InitBuffer(out, 8 * sizeof(float));
    LocalTensor<float> r = rows.Get<float>(), u = out.Get<float>();
    for (uint32_t i = 0; i < n; i += 2)
        DataCopy(r[i * 8], xg[i * 16], 8);
    for (uint32_t i = n - 1; i < n; i -= 2)
        DataCopy(r[i * 8], xg[i * 16], 8);
    Duplicate(u, 7.0f, 8);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    if (mode == 1) {
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
    }
    DataCopy(xg[at], u, 8);
}
'''
LINES = SRC.split("\n")
EVEN = LINES.index("        DataCopy(r[i * 8], xg[i * 16], 8);") + 1
ODD = EVEN + 2
STORE = LINES.index("    DataCopy(xg[at], u, 8);") + 1


def kernel():
    return compiled("race-shadow-many", lambda: arc.Program(SRC, "many_reads.asc").compile().load()
                    .get_kernel("many_reads"))


def launch(at, mode, rows=ROWS):
    x = np.arange(2048 * 16, dtype=np.float32)
    kernel()(x, at, mode, rows, block_dim=1, race_check="error")
    arc.synchronize()
    want = np.arange(2048 * 16, dtype=np.float32)
    want[at:at + 8] = 7
    np.testing.assert_array_equal(x, want)


@pytest.mark.parametrize("row", [0, 1, 2, 767, 1000, 1534, 1535])
def test_a_store_on_a_read_row_is_found_among_thousands(row):
    with pytest.raises(arc.LaunchError) as e:
        launch(row * 16, 0)
    msg = str(e.value)
    line = EVEN if row % 2 == 0 else ODD
    assert "data race (write after read) on GM" in msg, msg
    assert f"PIPE_MTE2 at many_reads.asc:{line}) read [{row * 64}, {row * 64 + 32})" in msg, msg
    assert f"PIPE_MTE3 at many_reads.asc:{STORE}) writes [{row * 64}, {row * 64 + 32})" in msg, msg


@pytest.mark.parametrize("row", [0, 777, 1535])
def test_a_store_in_a_gap_or_after_the_flag_is_not_a_race(row):
    launch(row * 16 + 8, 0)   # the unread half of the row
    launch(row * 16, 1)       # MTE2_MTE3 orders the reads before it


def test_a_read_whose_record_is_gone_is_still_called_a_read():
    with pytest.raises(arc.LaunchError) as e:
        launch(0, 0, rows=2048)
    msg = str(e.value)
    assert "data race (write after read) on GM" in msg and "an earlier PIPE_MTE2 operation read it" in msg, msg
    assert f"PIPE_MTE3 at many_reads.asc:{STORE}) writes [0, 32)" in msg, msg
