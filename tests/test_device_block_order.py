"""Device API: InitDetermineComputeWorkspace / WaitPreBlock /
NotifyNextBlock (arc/block_order.h) pass the blocks through the region
between them in ascending blockIdx order: a non-commutative update of one
GM word made there comes out in that order, and without the wait the GM
race check reports the unordered blocks.  A block that fails while others
wait fails the launch (they do not hang); the workspace sizes, the AIV-only
rule and SyncAll's every-block-live rule are checked."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR ws, GM_ADDR o)
{
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, UB_BYTES);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t *)ws);
    GlobalTensor<int64_t> out;
    out.SetGlobalBuffer((__gm__ int64_t *)o, 4);
    LocalTensor<int32_t> u = buf.Get<int32_t>();
    InitDetermineComputeWorkspace(g, u);
    BEFORE
    WAIT
    int64_t v = out.GetValue(0);
    out.SetValue(0, v * 10 + GetBlockIdx() + 1);   /* digits in the order the blocks came */
    DataCacheCleanAndInvalid<int64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(out);
    NotifyNextBlock(g, u);
}
'''


def launch(blocks, wait="WaitPreBlock(g, u);", before="", ub_bytes=None, ws_words=None):
    src = (SRC.replace("WAIT", wait).replace("BEFORE", before)
           .replace("UB_BYTES", str(ub_bytes or blocks * 32 + 32)))
    m = arc.Program(src, "order.asc").compile(["--npu-arch=dav-2201"]).load()
    ws = np.full(ws_words or blocks * 8, -5, np.int32)  # need not be zeroed (the docs)
    o = np.zeros(4, np.int64)
    m.get_kernel("k")[blocks](ws, o)
    arc.synchronize()
    return o


@pytest.mark.parametrize("blocks", [1, 3, 8])
def test_blocks_pass_in_ascending_order(blocks):
    assert launch(blocks)[0] == int("".join(str(b + 1) for b in range(blocks)))


def test_without_the_wait_the_race_check_reports_the_blocks():
    with pytest.raises(arc.LaunchError, match=r"data race .* between cores"):
        launch(4, wait="")


def test_a_block_that_fails_while_others_wait_fails_the_launch():
    with pytest.raises(arc.LaunchError, match=r"block 0/4: ascendc_assert: Assertion `GetBlockIdx\(\) != 0' failed"):
        launch(4, before="ascendc_assert(GetBlockIdx() != 0);")


@pytest.mark.parametrize("kw,msg", [
    (dict(ub_bytes=4 * 32), r"InitDetermineComputeWorkspace: ubWorkspace holds 128 bytes; "
                            r"GetBlockNum\(\) \* 32 \+ 32 = 160 are needed"),
    (dict(ws_words=3 * 8), r"InitDetermineComputeWorkspace"),
])
def test_workspace_sizes_are_checked(kw, msg):
    with pytest.raises(arc.LaunchError, match=msg):
        launch(4, **kw)


def test_more_blocks_than_live_cores_is_refused():
    with pytest.raises(arc.LaunchError, match=r"SyncAll: the launch has 49 blocks but only 48 vector cores"):
        launch(49)
