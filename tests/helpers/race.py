"""Kernels and helpers of the pipe race check's tests (test_race_check.py,
test_race_cube.py): UB kernels whose syncs a test leaves out (SYNC_IN ...
placeholders), building them, running them, and the clean launch after
every case (the autouse ``error_mode`` fixture)."""
import numpy as np
import pytest

import ascendrtc as arc
from . import dev

N = 256   # floats per block

HEAD = r'''
#include "kernel_operator.h"
using namespace AscendC;
'''

# Each block's 256 floats of x copied into a (the first half of one TBuf; c
# is the second half), as the UB kernels below begin.
TILE_IN = r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z)
{
    GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * 256, 256);
    zg.SetGlobalBuffer((__gm__ float *)z + GetBlockIdx() * 256, 256);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * 256 * sizeof(float));
    LocalTensor<float> a = buf.Get<float>(), c = a[256];
    DataCopy(a, xg, 256);
'''

# x -> UB, z = x + x, z -> GM through one TBuf; SYNC_IN / SYNC_OUT are the
# syncs between the copy in and the add, and the add and the copy out.
TBUF = HEAD + TILE_IN + r'''
    SYNC_IN
    Add(c, a, a, 256);
    SYNC_OUT
    DataCopy(zg, c, 256);
}
'''

# Tiles of x through one UB buffer, reused each iteration: the next copy in
# must wait for the previous copy out (MTE3 -> MTE2), REUSE says how.
REUSE = HEAD + r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z)
{
    GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * 256, 256);
    zg.SetGlobalBuffer((__gm__ float *)z + GetBlockIdx() * 256, 256);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    LocalTensor<float> a = buf.Get<float>();
    for (int t = 0; t < 4; t++) {
        REUSE
        DataCopy(a, xg[t * 64], 64);
        SetFlag<HardEvent::MTE2_V>(0); WaitFlag<HardEvent::MTE2_V>(0);
        Adds(a, a, 1.0f, 64);
        SetFlag<HardEvent::V_MTE3>(0); WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(zg[t * 64], a, 64);
    }
}
'''
REUSE_SYNC = "if (t) { SetFlag<HardEvent::MTE3_MTE2>(0); WaitFlag<HardEvent::MTE3_MTE2>(0); }"

# The queue pipeline, with the output tensor freed FREE_AT: after its copy
# out (right) or before it (the store is still pending when the next
# iteration's Add writes the buffer).
QUEUES = HEAD + r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z)
{
    GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * 256, 256);
    zg.SetGlobalBuffer((__gm__ float *)z + GetBlockIdx() * 256, 256);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, 64 * sizeof(float));
    pipe.InitBuffer(outQ, 1, 64 * sizeof(float));
    for (int t = 0; t < 4; t++) {
        LocalTensor<float> a = inQ.AllocTensor<float>();
        DataCopy(a, xg[t * 64], 64);
        inQ.EnQue(a);
        LocalTensor<float> b = inQ.DeQue<float>();
        LocalTensor<float> c = outQ.AllocTensor<float>();
        Add(c, b, b, 64);
        outQ.EnQue(c);
        inQ.FreeTensor(b);
        LocalTensor<float> d = outQ.DeQue<float>();
        FREE_EARLY
        DataCopy(zg[t * 64], d, 64);
        FREE_LATE
    }
}
'''


# Cross-core GM: each block stores its tile of x to z, then reads its
# neighbour's tile of z back; XSYNC orders the stores before the loads
# (SyncAll) or not.  OUT is how the tile reaches y: a plain store (each
# block its own range), or every block onto the same range (ACC: with or
# without SetAtomicAdd).
XCORE = HEAD + r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z, GM_ADDR y)
{
    const int b = GetBlockIdx(), n = GetBlockNum();
    GlobalTensor<float> xg, zg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 256 * n);
    zg.SetGlobalBuffer((__gm__ float *)z, 256 * n);
    yg.SetGlobalBuffer((__gm__ float *)y, 256 * n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    LocalTensor<float> a = buf.Get<float>();
    DataCopy(a, xg[b * 256], 256);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zg[b * 256], a, 256);
    PipeBarrier<PIPE_ALL>();   /* orders this core's pipes, not the cores */
    XSYNC
    DataCopy(a, zg[((b + 1) % n) * 256], 256);
    PipeBarrier<PIPE_ALL>();
    ACC
    DataCopy(yg[OUT], a, 256);
    SetAtomicNone();
}
'''
XCORE_OK = dict(XSYNC="SyncAll();", ACC="", OUT="b * 256")



def render(src, **subs):
    for k, v in subs.items():
        src = src.replace(k, v)
    return src


def build(src, **subs):
    return dev.load(render(src, **subs), "race.asc").get_kernel("k")


def at(src, needle, **subs):
    """'race.asc:N', N the line of the kernel source that holds needle."""
    lines = render(src, **subs).splitlines()
    return "race.asc:%d" % next(i for i, ln in enumerate(lines, 1) if needle in ln)


def data(blocks=2):
    x = np.arange(blocks * N, dtype=np.float32)
    return x, np.zeros_like(x)


def run(kern, blocks=2, **kw):
    x, z = data(blocks)
    kern(x, z, block_dim=blocks, **kw)
    arc.synchronize()
    return x, z


def expect_race(kern, *words, runner=None):
    with pytest.raises(arc.LaunchError) as e:
        (runner or run)(kern)
    msg = str(e.value)
    assert "data race" in msg, msg
    for w in words:
        assert w in msg, (w, msg)
    return msg


def good_launch():
    k = build(TBUF, SYNC_IN="PipeBarrier<PIPE_ALL>();", SYNC_OUT="PipeBarrier<PIPE_ALL>();")
    x, z = run(k)
    assert np.array_equal(z, x + x)


@pytest.fixture(autouse=True)
def error_mode(monkeypatch):
    monkeypatch.setenv("ASCENDRTC_RACE_CHECK", "error")
    yield
    monkeypatch.setenv("ASCENDRTC_RACE_CHECK", "error")
    good_launch()   # every case is followed by a clean launch in the same process
