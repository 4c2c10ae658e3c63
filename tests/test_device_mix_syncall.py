"""SyncAll in MIX kernels (the SyncAll page of the docs): SyncAll<true>()
(isAIVOnly, the default) is a barrier of every AIV of the launch,
SyncAll<false>() of every AIC and AIV.  Each core writes its mark, passes
the barrier and reads another core's: a missing barrier reads 0.  Misuse
the NPU would hang on is a launch error naming it, and the next launch
runs."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;

// Each AIV (or, with all_cores, each core) writes round r's mark at its
// slot, passes the barrier, and copies the next slot's mark; twice.
template <bool aivOnly>
__aicore__ inline void Rounds(GM_ADDR marks, GM_ADDR seen, int32_t slots, int32_t per_block)
{
    GlobalTensor<int32_t> m, s;
    m.SetGlobalBuffer((__gm__ int32_t *)marks);
    s.SetGlobalBuffer((__gm__ int32_t *)seen);
    int32_t slot = ASCEND_IS_AIC ? (int32_t)GetBlockIdx() * per_block
                                 : (aivOnly ? (int32_t)GetBlockIdx()
                                            : (int32_t)(GetBlockIdx() / GetTaskRatio()) * per_block + 1 +
                                              (int32_t)GetSubBlockIdx());
    for (int32_t r = 0; r < 2; r++) {
        m.SetValue(r * slots + slot, 100 * (r + 1) + slot);
        DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(m);
        SyncAll<aivOnly>();
        s.SetValue(r * slots + slot, m.GetValue(r * slots + (slot + 1) % slots));
    }
}

extern "C" __global__ __aicore__ void aivs12(GM_ADDR marks, GM_ADDR seen)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIV { Rounds<true>(marks, seen, (int32_t)GetBlockNum() * 2, 2); }
}
extern "C" __global__ __aicore__ void all12(GM_ADDR marks, GM_ADDR seen)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    Rounds<false>(marks, seen, (int32_t)GetBlockNum() * 3, 3);
}
extern "C" __global__ __aicore__ void all11(GM_ADDR marks, GM_ADDR seen)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    Rounds<false>(marks, seen, (int32_t)GetBlockNum() * 2, 2);
}
// The AIC also waits for its AIVs' flag after the barrier: the AIC runs on
// while they sleep in SyncAll, then waits for them.
extern "C" __global__ __aicore__ void aivs_then_flag(GM_ADDR marks, GM_ADDR seen)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIV {
        Rounds<true>(marks, seen, (int32_t)GetBlockNum() * 2, 2);
        CrossCoreSetFlag<2, PIPE_MTE3>(3);
    } else {
        CrossCoreWaitFlag(3);
        GlobalTensor<int32_t> s; s.SetGlobalBuffer((__gm__ int32_t *)seen);
        s.SetValue(4 * GetBlockNum() + GetBlockIdx(), 7);
    }
}
extern "C" __global__ __aicore__ void aic_aiv_only(GM_ADDR marks, GM_ADDR seen)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    SyncAll();
}
extern "C" __global__ __aicore__ void mixed_kinds(GM_ADDR marks, GM_ADDR seen)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIV { if (GetBlockIdx() == 0) SyncAll<false>(); else SyncAll<true>(); }
    else SyncAll<false>();
}
// GetBlockIdx() of an AIV is 2 * block + sub-block: one AIV skips the barrier.
extern "C" __global__ __aicore__ void one_returns(GM_ADDR marks, GM_ADDR seen)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIV { if (GetBlockIdx() != 3) SyncAll(); }
}
'''


@pytest.fixture(scope="module")
def mod():
    return dev.load(SRC, "mix_syncall.cpp")


def run(mod, name, blocks, *arrays):
    mod.get_kernel(name)[blocks](*arrays)
    arc.synchronize()


def expected(slots):
    idx = np.arange(slots)
    return np.stack([100 * (r + 1) + (idx + 1) % slots for r in range(2)])


@pytest.mark.parametrize("name,blocks,per_block", [("aivs12", 4, 2), ("all12", 3, 3), ("all11", 5, 2),
                                                    ("aivs12", 24, 2)])
def test_every_core_sees_the_others_marks_after_the_barrier(mod, name, blocks, per_block):
    slots = blocks * per_block
    marks, seen = np.zeros((2, slots), np.int32), np.zeros((2, slots), np.int32)
    run(mod, name, blocks, marks, seen)
    np.testing.assert_array_equal(seen, expected(slots))


def test_an_aic_flag_wait_beside_the_aivs_barrier(mod):
    blocks = 4
    marks, seen = np.zeros((2, 2 * blocks), np.int32), np.zeros(5 * blocks, np.int32)
    run(mod, "aivs_then_flag", blocks, marks, seen)
    np.testing.assert_array_equal(seen[:4 * blocks].reshape(2, -1), expected(2 * blocks))
    np.testing.assert_array_equal(seen[4 * blocks:], 7)


@pytest.mark.parametrize("name,blocks,pattern", [
    ("aic_aiv_only", 2, r"aic_aiv_only block [01]/2 \(AIC\): SyncAll: the AIC of a MIX kernel called SyncAll<true>\(\) "
                        r"\(isAIVOnly, the default\), which synchronises the AIVs only"),
    ("mixed_kinds", 2, r"SyncAll: SyncAll<(true|false)>\(\) here, SyncAll<(false|true)>\(\) elsewhere in the launch"),
    # GetBlockIdx() 3 is block 1's AIV 1
    ("one_returns", 4, r"SyncAll: 7 of the 8 AIVs (wait in SyncAll but the others returned|reached SyncAll but 1 "
                       r"returned) without reaching it \(the kernel would hang on the NPU\)"),
    ("aivs12", 25, r"'aivs12' is a MIX kernel .* launched on 25 blocks, but Ascend910B\w* has 24 AI cores"),
])
def test_barriers_the_npu_would_hang_on_are_errors(mod, name, blocks, pattern):
    z = np.zeros(2 * 2 * 25, np.int32)
    with pytest.raises(arc.LaunchError, match=pattern):
        run(mod, name, blocks, z, z.copy())
    test_every_core_sees_the_others_marks_after_the_barrier(mod, "all12", 3, 3)
