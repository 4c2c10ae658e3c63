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
