"""GM races between cores through a strided copy's rows (race_gm.c: reads
of one line, each as wide as the last and one stride further on, are one
record of pieces, as an ND2NZ tile's 128 rows are): block 0 reads 8 floats
of each of 64 rows of 32 floats, one DataCopy per row; block 1 then stores
8 floats at x[at..at+8) with no SyncAll.  A store on a row that was read is
a race naming that row's bytes; a store in the gap between rows, or after
SyncAll, is not."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.py_kernels import compiled

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void rows_then_store(GM_ADDR x, GM_ADDR out, uint32_t at, uint32_t sync)
{
    GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float *)x, 64 * 32);
    og.SetGlobalBuffer((__gm__ float *)out, 64 * 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * 8 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    if (GetBlockIdx() == 0) {
        for (uint32_t r = 0; r < 64; r++)
            DataCopy(t[r * 8], xg[r * 32], 8);
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        DataCopy(og, t, 64 * 8);
    }
    if (sync)
        SyncAll();
    if (GetBlockIdx() == 1) {
        Duplicate(t, 7.0f, 8);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(xg[at], t, 8);
    }
}
'''
LINES = SRC.split("\n")
READ = LINES.index("            DataCopy(t[r * 8], xg[r * 32], 8);") + 1
STORE = LINES.index("        DataCopy(xg[at], t, 8);") + 1


def kernel():
    return compiled("race-gm-strided-rows", lambda: arc.Program(SRC, "rows.asc").compile().load()
                    .get_kernel("rows_then_store"))


def launch(at, sync):
    x = np.arange(64 * 32, dtype=np.float32)
    out = np.zeros(64 * 8, np.float32)
    kernel()(x, out, at, sync, block_dim=2, race_check="error")
    arc.synchronize()
    return x, out


@pytest.mark.parametrize("row", [0, 1, 37, 63])
def test_a_store_on_a_read_row_races_naming_the_row(row):
    with pytest.raises(arc.LaunchError) as e:
        launch(row * 32, 0)
    msg = str(e.value)
    assert "data race (read/write between cores) on GM" in msg, msg
    assert f"PIPE_MTE2 at rows.asc:{READ}) in block 0 reads bytes [{row * 128}, {row * 128 + 32})" in msg, msg
    assert f"PIPE_MTE3 at rows.asc:{STORE}) in block 1 writes bytes [{row * 128}, {row * 128 + 32})" in msg, msg


@pytest.mark.parametrize("at, sync", [(8, 0), (37 * 32 + 16, 0), (63 * 32 + 24, 0), (37 * 32, 1)])
def test_a_store_between_rows_or_after_sync_all_is_not_a_race(at, sync):
    x, out = launch(at, sync)
    want = np.arange(64 * 32, dtype=np.float32)
    np.testing.assert_array_equal(out, want.reshape(64, 32)[:, :8].ravel())
    want[at:at + 8] = 7
    np.testing.assert_array_equal(x, want)
