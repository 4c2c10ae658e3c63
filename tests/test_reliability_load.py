"""Reliability under load: 8 Python threads share 4 streams and launch
10,000 interleaved kernels, with events ordering work across streams.
Every launch must run exactly once (per-slot counters) and every
cross-stream read must see the write its event ordered before it."""
import numpy as np

import ascendrtc as arc
from helpers.py_kernels import compiled
from helpers.threads import run_in_threads

SRC = r'''
#include "kernel_operator.h"
// counts[slot] += 1 (block 0; the other blocks check they see the same slot).
extern "C" __global__ __aicore__ void bump(GM_ADDR counts, int32_t slot)
{
    if (AscendC::GetBlockIdx() == 0) ((__gm__ int32_t *)counts)[slot] += 1;
}
extern "C" __global__ __aicore__ void put(GM_ADDR buf, int32_t slot, int32_t value)
{
    ((__gm__ int32_t *)buf)[slot] = value;
}
extern "C" __global__ __aicore__ void copy(GM_ADDR src, GM_ADDR dst, int32_t slot)
{
    ((__gm__ int32_t *)dst)[slot] = ((__gm__ int32_t *)src)[slot];
}
'''

THREADS, STREAMS, TOTAL, SLOTS, ROUND = 8, 4, 10_000, 16, 50


def test_threads_and_streams_launch_10000_kernels_exactly_once():
    mod = compiled("reliability_load", lambda: arc.Program(SRC, "load.asc").compile().load())
    bump, put, copy = mod.get_kernel("bump"), mod.get_kernel("put"), mod.get_kernel("copy")
    streams = [arc.Stream() for _ in range(STREAMS)]
    per_thread = TOTAL // THREADS
    rounds = per_thread // ROUND
    counts = [arc.zeros(SLOTS, np.int32) for _ in range(THREADS)]
    src = [arc.zeros(rounds, np.int32) for _ in range(THREADS)]
    dst = [arc.zeros(rounds, np.int32) for _ in range(THREADS)]
    launched = [0] * THREADS

    def work(t):
        mine, other = streams[t % STREAMS], streams[(t + 1) % STREAMS]
        n = 0
        for r in range(rounds):
            # ROUND launches per round: ROUND - 2 bumps, then put -> event -> copy on another stream.
            for i in range(ROUND - 2):
                bump[1 + (i % 3), mine](counts[t], (r * ROUND + i) % SLOTS)
                n += 1
            put[1, mine](src[t], r, 1000 * t + r + 1)
            ev = arc.Event()
            ev.record(mine)
            other.wait_event(ev)
            copy[1, other](src[t], dst[t], r)
            n += 2
        launched[t] = n

    run_in_threads(work, THREADS)
    for s in streams:
        s.synchronize()
    assert sum(launched) == TOTAL
    for t in range(THREADS):
        want = np.zeros(SLOTS, np.int64)
        for r in range(rounds):
            for i in range(ROUND - 2):
                want[(r * ROUND + i) % SLOTS] += 1
        np.testing.assert_array_equal(counts[t].get(), want)          # none lost, none twice
        expect = 1000 * t + np.arange(rounds) + 1
        np.testing.assert_array_equal(src[t].get(), expect)
        np.testing.assert_array_equal(dst[t].get(), expect)           # each copy saw its put
