"""CrossCoreSetFlag mode 0 in a MIX kernel: a barrier across every core of
one side of the launch (all AICs, or all AIVs), as the CrossCoreSetFlag
docs define it: when the last core of the side has set the flag, each
one's counter for it rises and its CrossCoreWaitFlag goes on.  CATLASS's
padding, split-k and stream-k kernels meet their AIVs this way before the
AICs read what the AIVs wrote.  A round that cannot finish (a core
returned without setting the flag, more blocks than AI cores) fails
naming the kernel and the limit, and the next launch runs."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;

// Each core of a side writes its slot, meets the side's other cores, then
// reads its neighbour's slot; twice, with the same flag (two rounds).
extern "C" __global__ __aicore__ void exchange(GM_ADDR wsc, GM_ADDR outc, GM_ADDR wsv, GM_ADDR outv)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    const bool aic = ASCEND_IS_AIC;
    const int32_t me = GetBlockIdx(), n = aic ? GetBlockNum() : GetBlockNum() * GetSubBlockNum();
    GlobalTensor<int32_t> w, o;
    w.SetGlobalBuffer((__gm__ int32_t *)(aic ? wsc : wsv));
    o.SetGlobalBuffer((__gm__ int32_t *)(aic ? outc : outv));
    for (int32_t r = 0; r < 2; r++) {
        w.SetValue(r * n + me, 1000 * r + 10 * me + (aic ? 1 : 2));
        DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(w);
        CrossCoreSetFlag<0x0, PIPE_MTE3>(5);
        CrossCoreWaitFlag(5);
        o.SetValue(r * n + me, w.GetValue(r * n + (me + 1) % n));
    }
}
// AIV 1 of block 1 returns without meeting the others.
extern "C" __global__ __aicore__ void one_leaves(GM_ADDR ws, GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIV {
        if (GetBlockIdx() == 3) return;
        CrossCoreSetFlag<0x0, PIPE_MTE3>(2);
        CrossCoreWaitFlag(2);
    }
}
// Two sets before the round of the first has ended.
extern "C" __global__ __aicore__ void set_twice(GM_ADDR ws, GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIV {
        CrossCoreSetFlag<0x0, PIPE_MTE3>(2);
        CrossCoreSetFlag<0x0, PIPE_MTE3>(2);
        CrossCoreWaitFlag(2);
        CrossCoreWaitFlag(2);
    }
}
extern "C" __global__ __aicore__ void aic_barrier(GM_ADDR ws, GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIC { CrossCoreSetFlag<0x0, PIPE_FIX>(8); CrossCoreWaitFlag(8); }
}
'''


@pytest.fixture(scope="module")
def mod():
    return dev.load(SRC, "mode0.cpp")


def run(mod, name, blocks, *arrays):
    mod.get_kernel(name)[blocks](*arrays)
    arc.synchronize()


def exchange_ok(mod, n):
    wsc, outc = np.zeros(2 * n, np.int32), np.zeros(2 * n, np.int32)
    wsv, outv = np.zeros(4 * n, np.int32), np.zeros(4 * n, np.int32)
    run(mod, "exchange", n, wsc, outc, wsv, outv)
    for cores, out, side in ((n, outc, 1), (2 * n, outv, 2)):
        i = np.arange(cores)
        want = np.concatenate([1000 * r + 10 * ((i + 1) % cores) + side for r in range(2)])
        np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("n", [1, 3, 24])
def test_mode0_meets_every_core_of_a_side(mod, n):
    exchange_ok(mod, n)


def test_a_core_that_returns_fails_the_round(mod):
    with pytest.raises(arc.LaunchError, match=r"one_leaves.*CrossCoreWaitFlag: .*(every other block waits too or "
                                              r"has returned|returned without finishing)"):
        run(mod, "one_leaves", 3, np.zeros(8, np.int32), np.zeros(8, np.int32))
    exchange_ok(mod, 4)


def test_set_again_before_the_round_ends_is_refused(mod):
    with pytest.raises(arc.LaunchError, match=r"set_twice block 0/1 \(AIV 0: GetBlockIdx\(\) = 0\): CrossCoreSetFlag: mode 0 flag 2 set "
                                              r"again by this AIV before every AIV of the launch set it once"):
        run(mod, "set_twice", 1, np.zeros(8, np.int32), np.zeros(8, np.int32))
    exchange_ok(mod, 2)


def test_more_blocks_than_ai_cores_is_refused(mod):
    # a round needs every block live at once: the launch refuses more than the AI cores
    with pytest.raises(arc.LaunchError, match=r"'aic_barrier' is a MIX kernel .* launched on 25 blocks, but "
                                              r"Ascend910B1 has 24 AI cores"):
        run(mod, "aic_barrier", 25, np.zeros(8, np.int32), np.zeros(8, np.int32))
    exchange_ok(mod, 2)
