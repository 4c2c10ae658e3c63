"""SIMT kernels (issue 25): bare __global__ kernels compiled with
--enable-simt run as grids of blocks of threads, launched k[grid, block,
shared, stream] as a CuPy RawKernel is.  References are NumPy and the
docs' stated semantics (SIMT-API: warp functions act on the active lanes,
asc_reduce_* in tree order, atomics return the old value)."""
import functools

import numpy as np
import pytest

import ascendrtc as arc
from helpers.simt_kernels import BLOCK_SUM

OPTS = ["--npu-arch=dav-3510", "--enable-simt"]

SRC = r'''
#include "simt_api/asc_simt.h"

__global__ void vadd(const float* a, const float* b, float* c, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void bounded(const int* a, int* c, int lo, int hi, int n)
{
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x), j = n - 1 - i;
    if (i >= lo && hi > i) c[i] = a[i] * 2;
    if (j >= 0 && j < lo) c[j] = -a[j];
}

#define TILE 32
__global__ void transpose(const float* in, float* out, uint32_t rows, uint32_t cols)
{
    __ubuf__ float tile[TILE][TILE + 1];
    uint32_t x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
    asc_syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < rows && y < cols) out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

extern __ubuf__ int dyn[];
__global__ void reverse_block(const int* in, int* out)
{
    uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
    dyn[threadIdx.x] = in[g];
    asc_syncthreads();
    out[g] = dyn[blockDim.x - 1 - threadIdx.x];
}

__global__ void votes(const int* in, uint32_t* out, int* counter)
{
    int v = in[threadIdx.x];
    uint32_t r = asc_ballot(v > 0) ^ (uint32_t)(asc_all(v > 0) << 1) ^ (uint32_t)(asc_any(v > 5) << 2);
    if (threadIdx.x % 2) r ^= asc_activemask();
    out[threadIdx.x] = r;
    out[64 + threadIdx.x] = (uint32_t)asc_atomic_add(counter, 1);
}

__global__ void ids(uint32_t* out)
{
    uint32_t t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    uint32_t b = blockIdx.x + gridDim.x * blockIdx.y;
    uint32_t* o = out + 4 * (b * blockDim.x * blockDim.y * blockDim.z + t);
    o[0] = t;
    o[1] = threadIdx.x + 10 * threadIdx.y + 100 * threadIdx.z;
    o[2] = blockIdx.x;
    o[3] = blockIdx.y + 10 * blockIdx.z + 100 * (gridDim.x != 3) + 1000 * (gridDim.y != 2);
}

__global__ void shuffles(const int* in, int* out)
{
    uint32_t t = threadIdx.x + blockDim.x * threadIdx.y;
    int v = in[t];
    out[t] = asc_shfl(v, 3);
    out[64 + t] = asc_shfl_up(v, 2u, 8);
    out[128 + t] = asc_shfl_xor(v, 5);
    out[192 + t] = asc_reduce_max(v) + (int)laneid() * 1000;
    out[256 + t] = (int)t;
}
''' + BLOCK_SUM


@functools.lru_cache(None)
def mod():
    return arc.Program(SRC, "simt_basic.asc").compile(OPTS).load()


def test_vector_add_1d_grid():
    k = mod().get_kernel("vadd")
    n = 1000
    a = np.arange(n, dtype=np.float32)
    b = np.full(n, 0.5, np.float32)
    c = np.zeros(n, np.float32)
    k[(n + 255) // 256, 256](a, b, c, n)
    np.testing.assert_array_equal(c, a + b)


def test_bounds_checks_in_the_thread_loop():
    """Compares of an affine thread index against launch constants (signed,
    either side, rising and falling): blocks wholly inside run a copy of the
    thread loop without the branch (rtc/simt_guard.cpp), the others keep it;
    the bytes outside the ranges stay as they were."""
    k = mod().get_kernel("bounded")
    n = 1000
    a = np.arange(n, dtype=np.int32) + 7
    for lo, hi in ((0, n), (100, 700), (256, 512), (0, 0), (300, 1)):
        c = np.full(n, -1, np.int32)
        k[(n + 127) // 128, 128](a, c, lo, hi, n)
        arc.synchronize()
        want = np.full(n, -1, np.int32)
        want[lo:hi] = a[lo:hi] * 2
        want[:lo] = -a[:lo]
        np.testing.assert_array_equal(c, want)


def test_block_reduction_with_shuffles_and_shared_ub():
    k = mod().get_kernel("block_sum")
    n = 100_003
    x = np.random.default_rng(1).random(n, dtype=np.float32)
    out = np.zeros(8, np.float32)
    k[8, 1024](x, out, n)
    assert abs(out.astype(np.float64).sum() - x.astype(np.float64).sum()) < 1e-3 * n


def test_transpose_2d_grid_and_block_through_static_ub():
    k = mod().get_kernel("transpose")
    a = np.random.default_rng(2).random((100, 70), dtype=np.float32)
    o = np.zeros((70, 100), np.float32)
    k[(3, 4), (32, 32)](a, o, 100, 70)
    np.testing.assert_array_equal(o, a.T)


def test_dynamic_ub_sized_by_the_launch():
    k = mod().get_kernel("reverse_block")
    i = np.arange(512, dtype=np.int32)
    o = np.zeros(512, np.int32)
    k[2, 256, 256 * 4](i, o)
    np.testing.assert_array_equal(o, np.concatenate([i[:256][::-1], i[256:][::-1]]))


def test_votes_activemask_and_atomics_return_old_values():
    k = mod().get_kernel("votes")
    v = np.arange(-10, 54, dtype=np.int32)
    out = np.zeros(128, np.uint32)
    cnt = np.zeros(1, np.int32)
    k[1, 64](v, out, cnt)
    for w in range(2):
        lanes = v[32 * w:32 * w + 32]
        ballot = sum(1 << l for l in range(32) if lanes[l] > 0)
        base = ballot ^ (int(all(lanes > 0)) << 1) ^ (int(any(lanes > 5)) << 2)
        want = [base ^ (0xAAAAAAAA if l % 2 else 0) for l in range(32)]
        assert list(out[32 * w:32 * w + 32]) == want
    assert cnt[0] == 64 and sorted(out[64:]) == list(range(64))


def test_shuffles_reduce_max_lane_ids_2d_block():
    k = mod().get_kernel("shuffles")
    v = np.random.default_rng(3).integers(-1000, 1000, 64).astype(np.int32)
    out = np.zeros(320, np.int32)
    k[1, (16, 4)](v, out)
    lane = np.arange(64) % 32
    warp = np.arange(64) // 32 * 32
    np.testing.assert_array_equal(out[:64], v[warp + 3])
    up = np.where(lane % 8 >= 2, np.arange(64) - 2, np.arange(64))
    np.testing.assert_array_equal(out[64:128], v[up])
    np.testing.assert_array_equal(out[128:192], v[warp + (lane ^ 5)])
    mx = np.repeat([v[:32].max(), v[32:].max()], 32)
    np.testing.assert_array_equal(out[192:256], mx + lane * 1000)
    np.testing.assert_array_equal(out[256:], np.arange(64))


def test_stream_and_3d_grid_and_block():
    k = mod().get_kernel("ids")
    s = arc.Stream()
    out = np.zeros(6 * 60 * 4, np.uint32)          # grid (3, 2) x block (5, 4, 3), 4 words a thread
    k[(3, 2), (5, 4, 3), 0, s](out)
    s.synchronize()
    t = out.reshape(-1, 4)
    z, y, x = np.meshgrid(np.arange(3), np.arange(4), np.arange(5), indexing="ij")
    for b in range(6):
        blk = t[b * 60:(b + 1) * 60]
        np.testing.assert_array_equal(blk[:, 0], (x + 5 * y + 20 * z).ravel())
        np.testing.assert_array_equal(blk[:, 1], (x + 10 * y + 100 * z).ravel())
        assert (blk[:, 2] == b % 3).all() and (blk[:, 3] == b // 3).all()


def test_reduce_add_float_tree_order():
    src = r'''
#include "simt_api/asc_simt.h"
__global__ void red(const float* in, float* out)
{
    float v = in[threadIdx.x];
    if (threadIdx.x < 20) out[threadIdx.x] = asc_reduce_add(v);
}
'''
    k = arc.Program(src).compile(OPTS).load().get_kernel("red")
    v = (np.random.default_rng(4).random(32) * 1e4).astype(np.float32)
    v[::3] *= 1e-6
    out = np.zeros(32, np.float32)
    k[1, 32](v, out)
    # lanes 0..19 are active: tree i + 16, + 8, + 4, + 2, + 1 over them
    r = v.copy()
    has = np.arange(32) < 20
    for off in (16, 8, 4, 2, 1):
        for i in range(off):
            if has[i + off]:
                r[i] = np.float32(r[i] + r[i + off]) if has[i] else r[i + off]
                has[i] = True
    assert (out[:20] == r[0]).all() and (out[20:] == 0).all()


def test_simt_launches_are_in_the_profile_marked_not_priced():
    k = mod().get_kernel("vadd")
    a = np.ones(256, np.float32)
    c = np.zeros(256, np.float32)
    with arc.profile() as prof:
        k[2, 128](a, a, c, 256)
    assert [r.kernel for r in prof] == ["vadd"] and (c == 2).all()
    r = prof[0]
    assert r.simt_unpriced and r.time_us == 0 and r.blocks == 2 and r.ops == 0
    assert "vadd is a SIMT kernel: SIMT is not priced" in str(prof)


def test_ub_pointer_local_live_across_barriers_histogram():
    # `__ubuf__ T *p` is a pointer into UB (an ordinary local), here live
    # across both barriers; the compiler crashed on it (asc-devkit's
    # histogram example).  Per-warp sub-histograms, atomics on UB.
    src = r'''
#include "simt_api/asc_simt.h"
__global__ void hist(unsigned int* out, const unsigned int* in, unsigned int n)
{
    __ubuf__ unsigned int bins[8 * 256];
    __ubuf__ unsigned int* mine;
    mine = bins + (threadIdx.x >> 5) * 256;
    for (unsigned int i = threadIdx.x; i < 8 * 256; i += blockDim.x) bins[i] = 0;
    asc_syncthreads();
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        unsigned int w = in[i];
        asc_atomic_add(mine + (w & 0xFFU), 1U);
        asc_atomic_add(mine + (w >> 24), 1U);
    }
    asc_syncthreads();
    for (unsigned int b = threadIdx.x; b < 256; b += blockDim.x) {
        unsigned int s = 0;
        __ubuf__ unsigned int* all = mine - (threadIdx.x >> 5) * 256;
        for (unsigned int k = 0; k < 8; k++) s += all[k * 256 + b];
        out[blockIdx.x * 256 + b] = s;
    }
}
'''
    k = arc.Program(src).compile(OPTS).load().get_kernel("hist")
    w = np.random.default_rng(5).integers(0, 2**32, 5000, dtype=np.uint32)
    out = np.zeros((3, 256), np.uint32)
    k[3, 256](out, w, len(w))
    ref = np.bincount(w & 0xFF, minlength=256) + np.bincount(w >> 24, minlength=256)
    np.testing.assert_array_equal(out.sum(axis=0), ref)
