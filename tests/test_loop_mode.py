"""dav-3510's data-copy loop mode (SetLoopModePara / ResetLoopModePara)
and DataCopyPad's Compact mode, against NumPy and the pages: two loops
around each copy on the path (strides in bytes; the UB side 32-byte
aligned), Normal padding each block to 32 bytes, Compact packing the
blocks and padding once; the UB -> GM path; a reset runs the next copy
once; a loop size of 0 and an unaligned UB stride refused, naming them."""
import numpy as np
import pytest

import ascendrtc as arc

# x: float [2][3][2][10] in GM (a row of 10 floats = 40 bytes); the copies
# take x[i2][i1][0:2] for i2 < 2, i1 < 2.
SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

#define SETUP                                                                                  \
    TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 4096);                                            \
    GlobalTensor<float> gx, gy; gx.SetGlobalBuffer((__gm__ float *)x); gy.SetGlobalBuffer((__gm__ float *)y); \
    LocalTensor<float> u = b.Get<float>();                                                     \
    Duplicate(u, 7.0f, 1024);                                                                   \
    PipeBarrier<PIPE_ALL>();                                                                   \
    DataCopyExtParams rows{2, 40, 0, 0, 0};                                                    \
    DataCopyPadExtParams<float> pad{true, 0, 0, -1.0f};

// Normal: each 40-byte row lands in a 64-byte UB slot padded with -1
extern "C" __global__ __aicore__ void normal(GM_ADDR x, GM_ADDR y, int32_t ubStride)
{
    SETUP
    LoopModeParams lp{2, 2, 80, (uint64_t)ubStride, 240, 256};
    SetLoopModePara(lp, DataCopyMVType::OUT_TO_UB);
    DataCopyPad(u, gx, rows, pad);
    ResetLoopModePara(DataCopyMVType::OUT_TO_UB);
    DataCopyPad(u[128], gx[50], DataCopyExtParams{1, 40, 0, 0, 0}, pad);   // after the reset: once
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, u, 256);
}

// Compact: a loop's 2 rows back to back (80 bytes), padded once to 96;
// then UB -> GM in Compact mode with a loop, back to x's layout in y
extern "C" __global__ __aicore__ void compact(GM_ADDR x, GM_ADDR y, int32_t size0)
{
    SETUP
    LoopModeParams in{(uint32_t)size0, 2, 80, 96, 240, 192};
    SetLoopModePara(in, DataCopyMVType::OUT_TO_UB);
    DataCopyPad<float, PaddingMode::Compact>(u, gx, rows, pad);
    ResetLoopModePara(DataCopyMVType::OUT_TO_UB);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, u, 128);
    PipeBarrier<PIPE_ALL>();
    LoopModeParams out{2, 2, 96, 80, 192, 240};
    SetLoopModePara(out, DataCopyMVType::UB_TO_OUT);
    DataCopyPad<float, PaddingMode::Compact>(gy[128], u, rows);
    ResetLoopModePara(DataCopyMVType::UB_TO_OUT);
}
"""


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "loop_mode.asc").compile(["--npu-arch=dav-3510"]).load()


def _x():
    return np.arange(120, dtype=np.float32).reshape(2, 3, 2, 10) + 0.5


def _run(mod, name, arg):
    x, y = _x(), np.zeros(256, np.float32)
    mod.get_kernel(name)[1](x, y, np.int32(arg))
    arc.synchronize()
    return x, y


def test_normal_mode_loops_and_reset(mod):
    x, y = _run(mod, "normal", 128)
    want = np.full(256, 7.0, np.float32)
    for i2 in range(2):
        for i1 in range(2):
            for r in range(2):
                at = (i2 * 256 + i1 * 128 + r * 64) // 4
                want[at:at + 10], want[at + 10:at + 16] = x[i2, i1, r], -1
    want[128:138], want[138:144] = x.reshape(-1)[50:60], -1   # the copy after the reset, once
    np.testing.assert_array_equal(y, want)


def test_compact_mode_both_paths(mod):
    x, y = _run(mod, "compact", 2)
    ub = np.full(128, 7.0, np.float32)
    for i2 in range(2):
        for i1 in range(2):
            at = (i2 * 192 + i1 * 96) // 4
            ub[at:at + 20], ub[at + 20:at + 24] = x[i2, i1].reshape(-1), -1
    np.testing.assert_array_equal(y[:128], ub)
    back = np.zeros((2, 3, 2, 10), np.float32)
    back[:, :2] = x[:, :2]
    np.testing.assert_array_equal(y[128:248], back.reshape(-1))
    assert not y[248:].any()


def test_bad_loops_are_named(mod):
    with pytest.raises(arc.LaunchError, match=r"AscendC::DataCopyPad.*loop1Size 0 / loop2Size 2: a size of 0 is not "
                                              r"simulated"):
        _run(mod, "compact", 0)
    with pytest.raises(arc.LaunchError, match=r"AscendC::SetLoopModePara.*loop1's UB stride 100 bytes is not a "
                                              r"multiple of 32"):
        _run(mod, "normal", 100)
    _run(mod, "compact", 2)   # a good launch after
