"""Spin loops in SIMT code (issue 25): a thread that waits on a volatile or
atomic read for another thread of its block, or a hybrid kernel's VF that
waits for its own SIMD side (VFs run asynchronously to the scalar on the
NPU: the hybrid guide; asc-devkit's hash_table_mte_queue relies on it),
finishes instead of hanging.  References are NumPy."""
import numpy as np
import pytest

import ascendrtc as arc

SIMT = r'''
#include "simt_api/asc_simt.h"

// Threads take turns in reverse order through a block-shared counter:
// thread t waits until blockDim.x - 1 - t threads went before it.
__global__ void reverse_turns(uint32_t* order)
{
    __ubuf__ uint32_t turn[1];
    if (threadIdx.x == 0) turn[0] = 0;
    asc_syncthreads();
    volatile __ubuf__ uint32_t* v = turn;
    while (*v != blockDim.x - 1 - threadIdx.x) {}
    order[blockIdx.x * blockDim.x + threadIdx.x] = *v;
    *v = *v + 1;
}

// A lock in shared UB taken with asc_atomic_cas: each thread adds its index
// to a plain (non-atomic) sum inside the critical section.
__global__ void cas_lock(uint32_t* out)
{
    __ubuf__ int lock[1];
    __ubuf__ uint32_t sum[1];
    if (threadIdx.x == 0) { lock[0] = 0; sum[0] = 0; }
    asc_syncthreads();
    // lane 0 of each warp takes the lock while its warp waits at a shuffle
    uint32_t got = 0;
    if (threadIdx.x % 32 == 0) {
        while (asc_atomic_cas(&lock[0], 0, 1) != 0) {}
        sum[0] = sum[0] + threadIdx.x;
        asc_threadfence_block();
        asc_atomic_exch(&lock[0], 0);
        got = 1;
    }
    got = asc_shfl(got, 0);
    asc_syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = sum[0];
    out[gridDim.x + blockIdx.x * blockDim.x + threadIdx.x] = got;
}
'''

HYBRID = r'''
#include "kernel_operator.h"
#include "simt_api/asc_simt.h"
using namespace AscendC;

#define RING 64
// SIMT producer: item i goes into ring slot i % RING once the SIMD side has
// consumed item i - RING; items are published in order through ctl[0].
__simt_vf__ inline void produce(__gm__ float* x, __ubuf__ float* ring, __ubuf__ uint32_t* ctl, uint32_t n)
{
    volatile __ubuf__ uint32_t* c = ctl;
    for (uint32_t i = blockIdx.x * n + threadIdx.x; i < (blockIdx.x + 1) * n; i += blockDim.x) {
        uint32_t k = i - blockIdx.x * n;
        while (c[0] != k) {}
        while (k - c[1] >= RING) {}
        ((volatile __ubuf__ float*)ring)[k % RING] = x[i] * 2.0f;
        asc_threadfence_block();
        c[0] = k + 1;
    }
}

// SIMD side: consumes the ring after asc_vf_call returned, which the
// producer needs before it can go past RING items.
__global__ __vector__ void pipeline(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, RING * sizeof(float) + 64);
    LocalTensor<float> ring = buf.GetWithOffset<float>(RING, 0);
    LocalTensor<uint32_t> ctl = buf.GetWithOffset<uint32_t>(16, RING * sizeof(float));
    volatile __ubuf__ uint32_t* c = (__ubuf__ uint32_t*)ctl.GetPhyAddr();
    volatile __ubuf__ float* r = (__ubuf__ float*)ring.GetPhyAddr();
    c[0] = 0;
    c[1] = 0;
    asc_vf_call<produce>(dim3(32), (__gm__ float*)x, (__ubuf__ float*)ring.GetPhyAddr(),
                         (__ubuf__ uint32_t*)ctl.GetPhyAddr(), n);
    __gm__ float* out = (__gm__ float*)y + GetBlockIdx() * n;
    for (uint32_t i = 0; i < n; i++) {
        while (c[0] <= i) {}
        out[i] = r[i % RING] + 1.0f;
        c[1] = i + 1;
    }
}

// The VF still waits when the SIMD side waits for PIPE_V: it finishes there
// (here it cannot: it waits for a flag the SIMD side sets only after).
__simt_vf__ inline void wait_set(__ubuf__ uint32_t* ctl, __gm__ uint32_t* y)
{
    volatile __ubuf__ uint32_t* c = ctl;
    while (c[0] == 0) {}
    y[blockIdx.x * blockDim.x + threadIdx.x] = c[0] + threadIdx.x;
}

__global__ __vector__ void flag_after_vf(GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    volatile __ubuf__ uint32_t* c = (__ubuf__ uint32_t*)buf.Get<uint32_t>().GetPhyAddr();
    c[0] = 0;
    asc_vf_call<wait_set>(dim3(64), (__ubuf__ uint32_t*)c, (__gm__ uint32_t*)y);
    c[0] = 7;   // the VF goes on at the kernel's end
}
'''


@pytest.fixture(scope="module")
def simt():
    return arc.Program(SIMT, "spin.asc").compile(["--npu-arch=dav-3510", "--enable-simt"]).load()


@pytest.fixture(scope="module")
def hybrid():
    return arc.Program(HYBRID, "spin_hybrid.asc").compile(["--npu-arch=dav-3510"]).load()


@pytest.mark.parametrize("threads", [1, 33, 256])
def test_threads_wait_for_each_other(simt, threads):
    order = np.full(2 * threads, 12345, np.uint32)
    simt.get_kernel("reverse_turns")[2, threads](order)
    arc.synchronize()
    want = np.tile(np.arange(threads, dtype=np.uint32)[::-1], 2)
    np.testing.assert_array_equal(order, want)


def test_lock_taken_while_the_warp_waits_at_a_shuffle(simt):
    blocks, threads = 3, 256
    out = np.zeros(blocks + blocks * threads, np.uint32)
    simt.get_kernel("cas_lock")[blocks, threads](out)
    arc.synchronize()
    lanes0 = np.arange(0, threads, 32, dtype=np.uint32)
    np.testing.assert_array_equal(out[:blocks], np.full(blocks, lanes0.sum(), np.uint32))
    np.testing.assert_array_equal(out[blocks:], np.ones(blocks * threads, np.uint32))


@pytest.mark.parametrize("blocks", [1, 3])
def test_vf_waits_for_its_simd_side(hybrid, blocks):
    n = 1000  # > the 64-slot ring: the producer needs the consumer to run
    x = np.random.default_rng(blocks).standard_normal(blocks * n).astype(np.float32)
    y = np.zeros(blocks * n, np.float32)
    hybrid.get_kernel("pipeline")[blocks](x, y, n)
    arc.synchronize()
    np.testing.assert_array_equal(y, x * np.float32(2) + np.float32(1))


def test_vf_in_flight_finishes_at_the_kernel_end(hybrid):
    y = np.zeros(128, np.uint32)
    hybrid.get_kernel("flag_after_vf")[2](y)
    arc.synchronize()
    np.testing.assert_array_equal(y, np.tile(7 + np.arange(64, dtype=np.uint32), 2))


WARP_SYNC = r'''
#include "simt_api/asc_simt.h"

// Every lane of a warp reads a shared counter, lane 0 then advances it with
// a compare-and-swap: lanes executing together all read before lane 0's
// swap, so each lane sees what lane 0 saw (asc-devkit's hash_table_mte_queue
// publishes its ring this way).
__global__ void claim(uint32_t* mismatches, uint32_t* rounds, uint32_t limit)
{
    __ubuf__ uint32_t ctr[32];
    if (threadIdx.x % 32 == 0) ctr[threadIdx.x / 32] = 0;
    asc_syncthreads();
    __ubuf__ uint32_t* mine = &ctr[threadIdx.x / 32];
    uint32_t bad = 0, n = 0;
    while (true) {
        uint32_t v = *(volatile __ubuf__ uint32_t*)mine;
        if (v >= limit) break;
        if (laneid() == 0) asc_atomic_cas(mine, v, v + 1);
        uint32_t w = asc_shfl(v, 0);
        bad += w != v;
        n++;
    }
    mismatches[blockIdx.x * blockDim.x + threadIdx.x] = bad;
    rounds[blockIdx.x * blockDim.x + threadIdx.x] = n;
}
'''


WARP_TOGETHER = r'''
#include "simt_api/asc_simt.h"

// Two warps take turns through a shared counter (turn v is warp v % 2's).
// In its turn, a warp's lane 0 waits until the other warp has seen the
// turn (an inner spin), then advances the counter; the other lanes of the
// warp go round meanwhile only on their own in the simulator: on the NPU
// the warp's lanes meet again after lane 0's branch and read the counter
// together, so each warp has limit / 2 turns and its lanes agree on each.
__global__ void turns(uint32_t* out, uint32_t limit)
{
    __ubuf__ uint32_t ctr[2];
    if (threadIdx.x == 0) { ctr[0] = 0; ctr[1] = 0xffffffffu; }
    asc_syncthreads();
    volatile __ubuf__ uint32_t* c = ctr;
    uint32_t warp = threadIdx.x / 32, n = 0, bad = 0;
    while (true) {
        uint32_t v = c[0];
        if (v >= limit) break;
        if (v % 2 != warp) {
            if (laneid() == 0) c[1] = v;   // seen
            continue;
        }
        bad += asc_shfl(v, 0) != v;
        n++;
        if (laneid() == 0) {
            while (c[1] != v) {}
            c[0] = v + 1;
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = n * 1000 + bad;
}

// Warp 0 waits for a flag warp 1 raises; once its lanes saw it, lane 0
// takes it (sets 2).  The warp's lanes read the flag with one load: every
// lane leaves the loop with 1, none reads lane 0's 2.
__global__ void take_flag(uint32_t* out)
{
    __ubuf__ uint32_t flag[1];
    if (threadIdx.x == 0) flag[0] = 0;
    asc_syncthreads();
    volatile __ubuf__ uint32_t* f = flag;
    if (threadIdx.x / 32 == 1) {
        if (laneid() == 0) f[0] = 1;
        return;
    }
    uint32_t v;
    while ((v = f[0]) == 0) {}
    if (laneid() == 0) f[0] = 2;
    out[blockIdx.x * 32 + threadIdx.x] = v;
}

// Lane 0 waits in the loop for what lane 1 adds after it in the same
// iteration: the warp runs lane 0's branch to its end before the others
// go on, so this waits forever, on the NPU too.
__global__ void wait_for_ahead(uint32_t* out)
{
    __ubuf__ uint32_t flag[1];
    if (threadIdx.x == 0) flag[0] = 0;
    asc_syncthreads();
    volatile __ubuf__ uint32_t* f = flag;
    uint32_t n = 0;
    while (f[0] < 2) {
        if (laneid() == 0) { while (f[0] == 0) {} }
        asc_atomic_add(&flag[0], laneid() == 1 ? 1u : 0u);
        n++;
    }
    out[threadIdx.x] = n;
}
'''


@pytest.fixture(scope="module")
def together():
    return arc.Program(WARP_TOGETHER, "together.asc").compile(["--npu-arch=dav-3510", "--enable-simt"]).load()


@pytest.mark.parametrize("blocks", [1, 3])
def test_a_warps_lanes_go_round_a_spin_loop_together(together, blocks):
    limit = 40
    out = np.full(blocks * 64, 99, np.uint32)
    together.get_kernel("turns")[blocks, 64](out, limit)
    arc.synchronize()
    np.testing.assert_array_equal(out, np.full(blocks * 64, limit // 2 * 1000, np.uint32))


def test_a_warps_lanes_read_a_flag_with_one_load(together):
    out = np.zeros(2 * 32, np.uint32)
    together.get_kernel("take_flag")[2, 64](out)
    arc.synchronize()
    np.testing.assert_array_equal(out, np.ones(2 * 32, np.uint32))


def test_lane_waiting_for_lanes_of_its_warp_ahead_fails_after_10_s(together):
    out = np.zeros(32, np.uint32)
    with pytest.raises(arc.LaunchError, match=r"spin loop: thread \(1,0,0\) of block \(0,0,0\) waits here "
                       r"\(together\.asc:\d+\) for thread \(0,0,0\) of block \(0,0,0\), which has spun at "
                       r"together\.asc:\d+ for 10 s: .* waits forever, on the NPU too"):
        together.get_kernel("wait_for_ahead")[1, 32](out)
        arc.synchronize()
    out = np.zeros(64, np.uint32)
    together.get_kernel("turns")[1, 64](out, 4)  # a good launch after
    arc.synchronize()
    np.testing.assert_array_equal(out, np.full(64, 2000, np.uint32))


def test_lanes_read_a_counter_together_before_one_advances_it():
    m = arc.Program(WARP_SYNC, "claim.asc").compile(["--npu-arch=dav-3510", "--enable-simt"]).load()
    blocks, threads, limit = 2, 96, 10
    bad = np.full(blocks * threads, 99, np.uint32)
    rounds = np.zeros(blocks * threads, np.uint32)
    m.get_kernel("claim")[blocks, threads](bad, rounds, limit)
    arc.synchronize()
    np.testing.assert_array_equal(bad, 0)
    np.testing.assert_array_equal(rounds, limit)


def test_lane_waiting_for_its_own_warp_at_a_shuffle_fails_after_10_s(simt):
    # lane 1 spins until lane 0 sets a flag after the shuffle, where lane 0
    # waits for lane 1: the simulator runs a warp function once every lane
    # still running reaches it, so this wait never ends; it fails, naming
    # both lanes and lines, instead of hanging (about 10 s)
    src = r'''
#include "simt_api/asc_simt.h"
__global__ void self_wait(uint32_t* out)
{
    __ubuf__ uint32_t flag[1];
    if (threadIdx.x == 0) flag[0] = 0;
    asc_syncthreads();
    if (laneid() == 1) { while (*(volatile __ubuf__ uint32_t*)flag == 0) {} }
    uint32_t v = asc_shfl((uint32_t)threadIdx.x, 0);
    if (laneid() == 0) *(volatile __ubuf__ uint32_t*)flag = 1;
    out[threadIdx.x] = v;
}
'''
    m = arc.Program(src, "self_wait.asc").compile(["--npu-arch=dav-3510", "--enable-simt"]).load()
    out = np.zeros(32, np.uint32)
    with pytest.raises(arc.LaunchError, match=r"asc_shfl: thread \(0,0,0\) of block \(0,0,0\) waits here "
                       r"\(self_wait\.asc:9\) for thread \(1,0,0\) of block \(0,0,0\), which has spun at "
                       r"self_wait\.asc:8 for 10 s"):
        m.get_kernel("self_wait")[1, 32](out)
        arc.synchronize()
    order = np.zeros(64, np.uint32)
    simt.get_kernel("reverse_turns")[1, 64](order)  # a good launch after
    arc.synchronize()
    np.testing.assert_array_equal(order, np.arange(64, dtype=np.uint32)[::-1])
