"""The GM race check between cores and fills: every block zero-filling the
same output before a SyncAll (InitOutput, as CANN's sample
2_features/16_group_barrier does) is not a race -- the bytes end the same
whichever core lands last -- while fills of different values are."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.py_kernels import compiled

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
// Every block fills y[0..8) with `v` (0: the same zeros; 1: its block index),
// then SyncAll, then block 0 adds 12 to y[0] with an atomic copy.
extern "C" __global__ __aicore__ void fill_then_add(GM_ADDR y, uint32_t v)
{
    GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    InitOutput<int32_t>(yg, 8, v ? (int32_t)GetBlockIdx() : 0);
    SyncAll();
    if (GetBlockIdx() == 0) {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 32);
        LocalTensor<int32_t> t = b.Get<int32_t>();
        Duplicate(t, 0, 8);
        PipeBarrier<PIPE_ALL>();
        t.SetValue(0, 12);
        SetAtomicAdd<int32_t>();
        DataCopy(yg, t, 8);
        SetAtomicNone();
    }
}
'''


def kernel():
    return compiled("race-fill", lambda: arc.Program(SRC, "fill.asc").compile().load().get_kernel("fill_then_add"))


def test_same_value_fills_from_every_core_are_not_a_race():
    y = np.full(8, 7, np.int32)
    kernel()(y, 0, block_dim=8, race_check="error")
    arc.synchronize()
    assert y.tolist() == [12] + [0] * 7


def test_fills_of_different_values_are_a_race():
    y = np.zeros(8, np.int32)
    with pytest.raises(arc.LaunchError) as e:
        kernel()(y, 1, block_dim=4, race_check="error")
        arc.synchronize()
    msg = str(e.value)
    assert "data race" in msg and "write/write" in msg and "InitGlobalMemory" in msg, msg
    y = np.zeros(8, np.int32)
    kernel()(y, 0, block_dim=4, race_check="error")   # a good launch after
    arc.synchronize()
    assert y[0] == 12
