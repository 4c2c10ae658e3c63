"""Kernels whose blocks wait for each other through global memory, without
SyncAll: they need every block running at once, as on the NPU (Ascend C
documents that such kernels need every block resident).  The simulator runs kernels without SyncAll on
fewer threads than blocks; when no block finishes for a while and blocks
wait to start, it adds threads until they all run.  Each case runs under a
launch timeout, so a regression fails instead of hanging."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.py_kernels import add_kernel

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;

// Every block but the last waits until the last one has set the flag.
extern "C" __global__ __aicore__ void wait_for_last(GM_ADDR flag, GM_ADDR out)
{
    volatile int32_t *f = (volatile int32_t *)flag;
    const int32_t b = GetBlockIdx(), n = GetBlockNum();
    if (b == n - 1) *f = 1;
    else while (*f == 0) {}
    ((__gm__ int32_t *)out)[b] = b + 1;
}

// A chain: block b waits for block b + 1, so the first block finishes last.
extern "C" __global__ __aicore__ void chain(GM_ADDR flags, GM_ADDR out)
{
    volatile int32_t *f = (volatile int32_t *)flags;
    const int32_t b = GetBlockIdx(), n = GetBlockNum();
    int32_t after = 0;
    if (b + 1 < n) {
        while (f[b + 1] == 0) {}
        after = ((__gm__ volatile int32_t *)out)[b + 1];
    }
    ((__gm__ int32_t *)out)[b] = after + 1;
    f[b] = 1;
}

// Chains of 8 blocks: block b waits for block b + 1 unless b % 8 == 7.
extern "C" __global__ __aicore__ void chains(GM_ADDR flags, GM_ADDR out)
{
    volatile int32_t *f = (volatile int32_t *)flags;
    const int32_t b = GetBlockIdx();
    int32_t after = 0;
    if (b % 8 != 7) {
        while (f[b + 1] == 0) {}
        after = ((__gm__ volatile int32_t *)out)[b + 1];
    }
    ((__gm__ int32_t *)out)[b] = after + 1;
    f[b] = 1;
}

// Each block adds its number + 1 to its own word: a block run twice or
// never shows.
extern "C" __global__ __aicore__ void once(GM_ADDR out)
{
    const int32_t b = GetBlockIdx();
    ((__gm__ int32_t *)out)[b] += b + 1;
}

// Block `bad` fails its assertion; the others write their word.
extern "C" __global__ __aicore__ void trap_at(GM_ADDR out, int32_t bad)
{
    const int32_t b = GetBlockIdx();
    ascendc_assert(b != bad);
    ((__gm__ int32_t *)out)[b] = 1;
}
'''


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "stall.asc").compile().load()


@pytest.fixture(autouse=True)
def bounded():
    arc.set_launch_timeout(60)
    yield
    arc.set_launch_timeout(None)


@pytest.mark.parametrize("blocks", [3, 8, 48])
def test_blocks_waiting_for_the_last_block_all_run(mod, blocks):
    flag, out = arc.zeros(8, np.int32), arc.zeros(blocks, np.int32)
    mod.get_kernel("wait_for_last")[blocks](flag, out)
    arc.synchronize()
    np.testing.assert_array_equal(out.get(), np.arange(1, blocks + 1))


def test_a_chain_of_waiting_blocks_completes_and_the_next_launch_is_normal(mod):
    flags, out = arc.zeros(40, np.int32), arc.zeros(40, np.int32)
    mod.get_kernel("chain")[40](flags, out)
    arc.synchronize()
    np.testing.assert_array_equal(out.get(), np.arange(40, 0, -1))
    x = np.arange(256, dtype=np.float32)
    z = np.zeros_like(x)
    add_kernel(np.float32)[8](x, x, z)
    np.testing.assert_array_equal(z, 2 * x)


def test_a_real_deadlock_still_times_out(mod):
    # 49 blocks waiting for a flag only block 48 sets, on a 48-core arch:
    # the last block cannot start while 48 spin, as on hardware.
    arc.set_launch_timeout(0.5)
    flag, out = arc.zeros(8, np.int32), arc.zeros(49, np.int32)
    with pytest.raises(arc.LaunchError) as ei:
        mod.get_kernel("wait_for_last")[49](flag, out)
        arc.synchronize()
    assert ei.value.code == 507014, str(ei.value)
    assert "did not finish within its launch timeout" in str(ei.value)


@pytest.mark.parametrize("blocks", [49, 1000, 20000])
def test_blocks_beyond_the_cores_run_once_each(mod, blocks):
    # more blocks than cores: threads claim neighbouring blocks in runs
    out = arc.zeros(blocks, np.int32)
    mod.get_kernel("once")[blocks](out)
    arc.synchronize()
    np.testing.assert_array_equal(out.get(), np.arange(1, blocks + 1))


def test_blocks_waiting_for_blocks_of_the_same_run_complete(mod):
    # 400 blocks on 48 cores: blocks claimed in a run wait for the run's
    # later blocks, which the stall watch lets other threads start
    flags, out = arc.zeros(400, np.int32), arc.zeros(400, np.int32)
    mod.get_kernel("chains")[400](flags, out)
    arc.synchronize()
    np.testing.assert_array_equal(out.get(), np.tile(np.arange(8, 0, -1), 50))


def test_a_block_failing_in_a_run_fails_the_launch_and_the_next_runs(mod):
    # 1000 blocks, claimed in runs: the failure names its block, the blocks
    # not started yet are skipped, and the next launch of the grid is whole
    with pytest.raises(arc.LaunchError, match=r"block 700/1000: ascendc_assert: Assertion `b != bad' failed"):
        mod.get_kernel("trap_at")[1000](arc.zeros(1000, np.int32), 700)
        arc.synchronize()
    out = arc.zeros(1000, np.int32)
    mod.get_kernel("once")[1000](out)
    arc.synchronize()
    np.testing.assert_array_equal(out.get(), np.arange(1, 1001))
