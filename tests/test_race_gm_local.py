"""GM hazards within one core (csrc/rt/analysis/race.c, space GM): an MTE3
store read back by the same core's MTE2 with no MTE3_MTE2 flag between them,
and two overlapping MTE3 stores of different data with no
PipeBarrier<PIPE_MTE3>, are races on the NPU (its pipes and the copies of
one pipe run concurrently); both lines are reported.  Stores that leave GM
as it is (the same bytes again) are not races."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.py_kernels import compiled

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
// x -> UB -> z[0..128), then by mode: 0 read z[64..128) back, 1 the same
// after an MTE3_MTE2 flag; 2 store other data over z[64..128), 3 the same
// data, 4 other data after PipeBarrier<PIPE_MTE3>.
extern "C" __global__ __aicore__ void gm_hazard(GM_ADDR x, GM_ADDR z, GM_ADDR w, uint32_t mode)
{
    GlobalTensor<float> xg, zg, wg;
    xg.SetGlobalBuffer((__gm__ float *)x, 256);
    zg.SetGlobalBuffer((__gm__ float *)z, 256);
    wg.SetGlobalBuffer((__gm__ float *)w, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b1, b2;
    pipe.InitBuffer(b1, 256 * sizeof(float));
    pipe.InitBuffer(b2, 256 * sizeof(float));
    LocalTensor<float> t = b1.Get<float>(), u = b2.Get<float>();
    DataCopy(t, xg, 128);
    SetFlag<HardEvent::MTE2_MTE3>(0);
    WaitFlag<HardEvent::MTE2_MTE3>(0);
    DataCopy(zg, t, 128);
    if (mode <= 1) {
        if (mode == 1) {
            SetFlag<HardEvent::MTE3_MTE2>(0);
            WaitFlag<HardEvent::MTE3_MTE2>(0);
        }
        DataCopy(u, zg[64], 64);
        SetFlag<HardEvent::MTE2_MTE3>(1);
        WaitFlag<HardEvent::MTE2_MTE3>(1);
        DataCopy(wg, u, 64);
    } else {
        if (mode == 4) PipeBarrier<PIPE_MTE3>();
        DataCopy(zg[64], mode == 3 ? t[64] : t, 64);
    }
}
'''
LINES = SRC.split("\n")
STORE = LINES.index("    DataCopy(zg, t, 128);") + 1
READ_BACK = LINES.index("        DataCopy(u, zg[64], 64);") + 1
OVERWRITE = LINES.index("        DataCopy(zg[64], mode == 3 ? t[64] : t, 64);") + 1


def kernel():
    return compiled("race-gm-local", lambda: arc.Program(SRC, "gm_hazard.asc").compile().load()
                    .get_kernel("gm_hazard"))


def launch(mode, blocks=1):
    x = np.arange(256, dtype=np.float32)
    z = np.zeros(256, np.float32)
    w = np.zeros(64, np.float32)
    kernel()(x, z, w, mode, block_dim=blocks, race_check="error")
    arc.synchronize()
    return x, z, w


def clean(mode):
    x, z, w = launch(mode)
    want = x[:128].copy()
    if mode in (2, 4):
        want[64:] = x[:64]
    np.testing.assert_array_equal(z[:128], want)
    if mode <= 1:
        np.testing.assert_array_equal(w, x[64:128])


def test_store_read_back_by_mte2_without_a_flag():
    with pytest.raises(arc.LaunchError) as e:
        launch(0)
    msg = str(e.value)
    assert "data race (read after write) on GM" in msg, msg
    assert f"PIPE_MTE3 at gm_hazard.asc:{STORE}) wrote [0, 512)" in msg, msg
    assert f"PIPE_MTE2 at gm_hazard.asc:{READ_BACK}) reads [256, 512)" in msg, msg
    assert "SetFlag/WaitFlag<HardEvent::MTE3_MTE2>" in msg, msg
    clean(1)  # the flag orders them; a good launch after


def test_overlapping_stores_of_different_data_on_one_pipe():
    with pytest.raises(arc.LaunchError) as e:
        launch(2)
    msg = str(e.value)
    assert "data race (write after write within PIPE_MTE3) on GM" in msg, msg
    assert f"gm_hazard.asc:{STORE}) wrote" in msg and f"gm_hazard.asc:{OVERWRITE}) writes [256, 512)" in msg, msg
    assert "PipeBarrier<PIPE_MTE3>" in msg, msg
    clean(4)  # a barrier orders them


def test_stores_of_the_same_bytes_are_not_a_race():
    clean(3)


def test_warn_mode_reports_and_computes(capfd):
    x = np.arange(256, dtype=np.float32)
    z = np.zeros(256, np.float32)
    w = np.zeros(64, np.float32)
    kernel()(x, z, w, 0, block_dim=1, race_check="warn")
    arc.synchronize()
    np.testing.assert_array_equal(w, x[64:128])
    assert "read after write) on GM" in capfd.readouterr().err
