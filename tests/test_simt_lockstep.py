"""Grid-stride loops run in lockstep over a block's threads
(rtc/simt_lockstep.h): each thread takes one iteration, then the next
thread does, until none is left in the loop.  The loops it picks compute
what the NPU computes whatever each thread's trip count, with barriers,
warp functions and shared UB after them, inside other loops and in 2-D
blocks; the references are NumPy."""
import numpy as np
import pytest

import ascendrtc as arc

OPTS = ["--npu-arch=dav-3510", "--enable-simt", "-O2"]

SRC = r'''
// per-block sums of a grid-stride loop over n elements (exact in int32)
__global__ void gsum(const int32_t* x, int32_t* out, int32_t* trips, uint32_t n)
{
    __ubuf__ int32_t part[1024];
    uint32_t t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    int32_t s = 0, k = 0;
    for (uint32_t i = g; i < n; i += gridDim.x * blockDim.x) {
        s += x[i];
        k++;
    }
    trips[g] = k;
    part[t] = s;
    asc_syncthreads();
    if (t == 0) {
        int32_t a = 0;
        for (uint32_t j = 0; j < blockDim.x; j++) a += part[j];
        out[blockIdx.x] = a;
    }
}

// stores in the loop, then a warp function over lanes whose trip counts differ
__global__ void gscale(const float* x, float* y, int32_t* lane_trips, uint32_t n)
{
    uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
    int32_t k = 0;
    for (uint32_t i = g; i < n; i += gridDim.x * blockDim.x) {
        y[i] = 2.0f * x[i] + (float)threadIdx.x;
        k++;
    }
    lane_trips[g] = asc_shfl(k, (threadIdx.x + 1) % 32);
}

// a block-stride loop inside a loop over rows, in a 2-D block
__global__ void rows(const float* x, float* out, uint32_t nrows, uint32_t cols)
{
    uint32_t r0 = blockIdx.x * blockDim.y + threadIdx.y;
    for (uint32_t r = r0; r < nrows; r += gridDim.x * blockDim.y) {
        float s = 0.0f;
        for (uint32_t i = threadIdx.x; i < cols; i += blockDim.x) s += x[r * cols + i];
        out[r * blockDim.x + threadIdx.x] = s;
    }
}
'''


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "lockstep.asc").compile(OPTS).load()


@pytest.mark.parametrize("n,grid,block", [(100003, 7, 256), (5000, 4, 1024), (37, 3, 64), (0, 2, 32)])
def test_grid_stride_sum_whatever_the_trip_counts(mod, n, grid, block):
    x = np.random.default_rng(n).integers(-1000, 1000, max(n, 1), dtype=np.int32)
    out, trips = arc.zeros(grid, np.int32), arc.zeros(grid * block, np.int32)
    mod.get_kernel("gsum")[grid, block](arc.to_device(x), out, trips, np.uint32(n))
    arc.synchronize()
    g = np.arange(grid * block)
    stride = grid * block
    want_trips = np.maximum(0, (n - g + stride - 1) // stride)
    np.testing.assert_array_equal(trips.get(), want_trips)
    want = np.zeros(grid, np.int64)
    for b in range(grid):
        gi = np.arange(b * block, (b + 1) * block)
        idx = np.concatenate([np.arange(i, n, stride) for i in gi]) if n else np.zeros(0, np.int64)
        want[b] = x[idx.astype(np.int64)].sum() if idx.size else 0
    np.testing.assert_array_equal(out.get(), want.astype(np.int32))


def test_stores_then_a_warp_function_sees_every_lane(mod):
    n, grid, block = 4100, 2, 128           # lanes of one warp run 16 or 17 iterations
    x = np.random.default_rng(1).random(n, dtype=np.float32)
    y, lt = arc.zeros(n, np.float32), arc.zeros(grid * block, np.int32)
    mod.get_kernel("gscale")[grid, block](arc.to_device(x), y, lt, np.uint32(n))
    arc.synchronize()
    i = np.arange(n)
    np.testing.assert_array_equal(y.get(), 2.0 * x + (i % (grid * block) % block).astype(np.float32))
    g = np.arange(grid * block)
    trips = (n - g + grid * block - 1) // (grid * block)
    src = (g // 32) * 32 + (g % 32 + 1) % 32
    np.testing.assert_array_equal(lt.get(), trips[src])


def test_block_stride_loop_inside_a_row_loop_in_a_2d_block(mod):
    nrows, cols, bx, by, grid = 45, 1000, 32, 4, 3
    x = np.random.default_rng(2).random((nrows, cols), dtype=np.float32)
    out = arc.zeros(nrows * bx, np.float32)
    mod.get_kernel("rows")[grid, (bx, by)](arc.to_device(x), out, np.uint32(nrows), np.uint32(cols))
    arc.synchronize()
    want = np.zeros((nrows, bx), np.float32)
    for t in range(bx):
        acc = np.zeros(nrows, np.float32)
        for i in range(t, cols, bx):        # each thread's own order of additions
            acc = acc + x[:, i]
        want[:, t] = acc
    np.testing.assert_array_equal(out.get().reshape(nrows, bx), want)
