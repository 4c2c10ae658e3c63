"""The shared-UB race check of SIMT kernels (issue 25 item 4,
rt/analysis/race_simt.c): two threads of one block touching the same UB
bytes, one writing, with no asc_syncthreads() between them, are reported
as compute-sanitizer's racecheck reports them -- both threads, both source
lines -- and kernels that order their threads (a barrier, a warp function
between lanes of one warp, each thread its own bytes of a word) are not.
Values of the good launches against NumPy."""
import re

import numpy as np
import pytest

import ascendrtc as arc

OPTS = ["--npu-arch=dav-3510", "--enable-simt"]

SRC = r'''
#include "simt_api/asc_simt.h"
#include "simt_api/cooperative_groups.h"
namespace cg = cooperative_groups;

__global__ void swap(float* out, int sync)
{
    __ubuf__ float tile[256];
    uint32_t t = threadIdx.x;
    tile[t] = (float)t;
    if (sync) asc_syncthreads();
    out[blockIdx.x * blockDim.x + t] = tile[t ^ 1];
}

__global__ void same_word(int* out)
{
    __ubuf__ int tile[128];
    tile[threadIdx.x / 2] = (int)threadIdx.x;
    asc_syncthreads();
    out[threadIdx.x] = tile[threadIdx.x / 2];
}

__global__ void second_epoch(float* out, int sync)
{
    __ubuf__ float tile[64];
    uint32_t t = threadIdx.x;
    tile[t] = 1.0f;
    asc_syncthreads();
    float v = tile[63 - t];
    asc_syncthreads();
    tile[t] = v + (float)t;
    if (sync) asc_syncthreads();
    out[blockIdx.x * 64 + t] = tile[(t + 1) % 64];
}

__global__ void broadcast(float* out, const float* x)
{
    __ubuf__ float s[1];
    if (threadIdx.x == 0) s[0] = x[blockIdx.x];
    asc_syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[0] * (float)threadIdx.x;
}

__global__ void bytes(unsigned char* out, int sync, uint32_t other)
{
    __ubuf__ unsigned char b[256];
    uint32_t t = threadIdx.x;
    b[t] = (unsigned char)(t * 3);
    if (sync) asc_syncthreads();
    out[t] = b[t ^ other];
}

__global__ void warp_tile(int* out, uint32_t other)
{
    __ubuf__ int tile[64];
    auto w = cg::tiled_partition<32>(cg::this_thread_block());
    tile[threadIdx.x] = (int)threadIdx.x * 10;
    w.sync();
    out[threadIdx.x] = tile[threadIdx.x ^ other];
}

extern __ubuf__ double dyn[];
__global__ void dyn_doubles(double* out, int sync)
{
    uint32_t t = threadIdx.x;
    dyn[t] = (double)t / 4;
    if (sync) asc_syncthreads();
    out[t] = dyn[blockDim.x - 1 - t];
}
'''


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "ubrace.asc").compile(OPTS).load()


def race(fn):
    with pytest.raises(arc.LaunchError) as e:
        fn()
        arc.synchronize()
    arc.synchronize()
    return str(e.value)


def test_missing_barrier_between_write_and_neighbours_read(mod):
    """thread t writes tile[t] and reads tile[t ^ 1] with no barrier: thread 0
    reads word 1 before thread 1 writes it (the simulator's order): reported
    with both threads and both lines; with the barrier, the swapped values."""
    k = mod.get_kernel("swap")
    out = np.zeros(512, np.float32)
    msg = race(lambda: k[2, 256](out, 0))
    assert "data race on shared UB (write after read between threads of one block)" in msg
    # both blocks race; the two run at once on the simulated cores, and the
    # first to see its race reports it
    b = re.search(r"swap block ([01])/2", msg).group(1)
    assert "thread (0,0,0) of block (%s,0,0) read UB [4, 8) at ubrace.asc:12" % b in msg
    assert "thread (1,0,0) of block (%s,0,0) writes [4, 8) at ubrace.asc:10" % b in msg
    assert "asc_syncthreads()" in msg
    k[2, 256](out, 1)
    arc.synchronize()
    np.testing.assert_array_equal(out, np.tile((np.arange(256) ^ 1).astype(np.float32), 2))


def test_two_threads_writing_one_word(mod):
    out = np.zeros(128, np.int32)
    msg = race(lambda: mod.get_kernel("same_word")[1, 128](out))
    assert "(write after write between threads of one block)" in msg and "ubrace.asc:18" in msg
    assert "thread (0,0,0) of block (0,0,0) wrote UB [0, 4)" in msg and "thread (1,0,0)" in msg


def test_a_race_after_barriers_is_found_and_barriers_order(mod):
    """The epochs: the two barriers order the first accesses; the third
    part's write of tile[t] and read of tile[t + 1] race."""
    k = mod.get_kernel("second_epoch")
    out = np.zeros(3 * 64, np.float32)
    msg = race(lambda: k[3, 64](out, 0))
    assert "write after read" in msg and "ubrace.asc:31" in msg and "ubrace.asc:33" in msg
    k[3, 64](out, 1)
    arc.synchronize()
    t = np.arange(64)
    np.testing.assert_array_equal(out, np.tile(1 + (t + 1) % 64, 3).astype(np.float32))


def test_broadcast_and_each_threads_own_bytes_are_not_races(mod):
    """Many readers of one word after a barrier, and 256 threads each writing
    and reading its own byte of shared words (4 threads a word) are
    race-free; reading the neighbour's byte without the barrier is not."""
    x = np.arange(1, 5, dtype=np.float32)
    out = np.zeros(4 * 64, np.float32)
    mod.get_kernel("broadcast")[4, 64](out, x, race_check="error")
    arc.synchronize()
    np.testing.assert_array_equal(out, (x[:, None] * np.arange(64, dtype=np.float32)).ravel())
    k = mod.get_kernel("bytes")
    b = np.zeros(256, np.uint8)
    k[1, 256](b, 0, 0, race_check="error")
    arc.synchronize()
    t = np.arange(256)
    np.testing.assert_array_equal(b, (t * 3).astype(np.uint8))
    msg = race(lambda: k[1, 256](b, 0, 1))
    assert "thread (0,0,0) of block (0,0,0) read UB [0, 4) at ubrace.asc:50" in msg
    assert "thread (1,0,0) of block (0,0,0) writes [1, 2) at ubrace.asc:48" in msg
    k[1, 256](b, 1, 1, race_check="error")
    arc.synchronize()
    np.testing.assert_array_equal(b, ((t ^ 1) * 3).astype(np.uint8))


def test_warp_sync_orders_its_lanes_only(mod):
    """tile.sync() of a 32-thread tile orders the lanes of the warp (t ^ 1),
    not threads of another warp (t ^ 32)."""
    k = mod.get_kernel("warp_tile")
    out = np.zeros(64, np.int32)
    k[1, 64](out, 1, race_check="error")
    arc.synchronize()
    np.testing.assert_array_equal(out, (np.arange(64) ^ 1) * 10)
    msg = race(lambda: k[1, 64](out, 32))
    assert "data race on shared UB" in msg and "ubrace.asc:57" in msg and "ubrace.asc:59" in msg
    assert "thread (32,0,0)" in msg


def test_dynamic_ub_of_doubles(mod):
    """8-byte accesses (the runtime's path) in the dynamic UB."""
    k = mod.get_kernel("dyn_doubles")
    out = np.zeros(64, np.float64)
    msg = race(lambda: k[1, 64, 64 * 8](out, 0))
    assert "data race on shared UB" in msg and "ubrace.asc:66" in msg and "ubrace.asc:68" in msg
    k[1, 64, 64 * 8](out, 1)
    arc.synchronize()
    np.testing.assert_array_equal(out, np.arange(63, -1, -1) / 4)


def test_warn_reports_and_computes_off_is_silent(mod, capfd):
    k = mod.get_kernel("swap")
    out = np.zeros(256, np.float32)
    k[1, 256](out, 0, race_check="warn")
    arc.synchronize()
    err = capfd.readouterr().err
    assert err.count("data race on shared UB") == 2  # at most two a block
    # the simulator runs the threads in order: an odd thread reads what the one before it wrote
    np.testing.assert_array_equal(out[1::2], np.arange(0, 256, 2, dtype=np.float32))
    k[1, 256](out, 0, race_check="off")
    arc.synchronize()
    assert "data race" not in capfd.readouterr().err
