"""Grid-stride loops in lockstep (rtc/simt_lockstep.h), in the shapes a
faster schedule of them must keep: float sums that equal each thread's
own sequential sum bit for bit (threads unordered, a thread's additions in
its order), several accumulators of different types, n odd, n smaller than
the block, threads that reach a second loop at different iterations of the
first (their trip counts differ), a signed index, and a GM read past the
end inside the loop, reported for the thread and element the first
out-of-bounds iteration reads.  The references are NumPy."""
import functools

import numpy as np
import pytest

import ascendrtc as arc

OPTS = ["--npu-arch=dav-3510", "--enable-simt", "-O2"]

SRC = r'''
// three accumulators: a float sum, a float maximum, an int count
__global__ void acc3(const float* x, float* s_out, float* m_out, int32_t* c_out, uint32_t n)
{
    uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f, m = -1.0f;
    int32_t c = 0;
    for (uint32_t i = g; i < n; i += gridDim.x * blockDim.x) {
        s += x[i];
        m = x[i] > m ? x[i] : m;
        c += x[i] > 0.5f;
    }
    s_out[g] = s;
    m_out[g] = m;
    c_out[g] = c;
}

// two loops in a row: a thread leaves the first after its own number of
// iterations, so threads enter the second at different rounds
__global__ void two_loops(const int32_t* a, const int32_t* b, int32_t* out, uint32_t na, uint32_t nb)
{
    uint32_t g = blockIdx.x * blockDim.x + threadIdx.x, st = gridDim.x * blockDim.x;
    int32_t s = 0, t = 0;
    for (uint32_t i = g; i < na; i += st) s += a[i];
    for (uint32_t j = g; j < nb; j += st) t += 3 * b[j];
    out[g] = 7 * s + t;
}

// a signed index and a store in the loop
__global__ void signed_store(const int32_t* x, int32_t* y, int32_t n)
{
    for (int32_t i = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += (int32_t)(gridDim.x * blockDim.x))
        y[i] = x[i] * 2 + i;
}
'''


@functools.lru_cache(None)
def mod():
    return arc.Program(SRC, "lockstep_shapes.asc").compile(OPTS).load()


def per_thread(x, n, threads, step, start):
    """Each thread's sequential fold of x[g], x[g + threads], ... (g < threads) with step(acc, v)."""
    acc = np.full(threads, start, dtype=np.asarray(start).dtype)
    g = np.arange(threads)
    for r in range(0, n, threads):
        live = g + r < n
        acc[live] = step(acc[live], x[(g + r)[live]])
    return acc


@pytest.mark.parametrize("n,grid,block", [(100003, 5, 256), (65537, 2, 1024), (777, 3, 512), (41, 1, 64)])
def test_three_accumulators_each_thread_in_its_own_order(n, grid, block):
    x = np.random.default_rng(n).random(n, dtype=np.float32)
    t = grid * block
    s, m, c = arc.zeros(t, np.float32), arc.zeros(t, np.float32), arc.zeros(t, np.int32)
    mod().get_kernel("acc3")[grid, block](arc.to_device(x), s, m, c, np.uint32(n))
    arc.synchronize()
    np.testing.assert_array_equal(s.get(), per_thread(x, n, t, lambda a, v: (a + v).astype(np.float32), np.float32(0)))
    np.testing.assert_array_equal(m.get(), per_thread(x, n, t, np.maximum, np.float32(-1)))
    np.testing.assert_array_equal(c.get(), per_thread(x, n, t, lambda a, v: a + (v > 0.5), np.int32(0)))


@pytest.mark.parametrize("na,nb", [(1000, 3001), (3001, 1000), (0, 513), (257, 0)])
def test_threads_reach_a_second_loop_at_different_rounds(na, nb):
    grid, block = 2, 128
    rng = np.random.default_rng(na + nb)
    a = rng.integers(-100, 100, max(na, 1), dtype=np.int32)
    b = rng.integers(-100, 100, max(nb, 1), dtype=np.int32)
    out = arc.zeros(grid * block, np.int32)
    mod().get_kernel("two_loops")[grid, block](arc.to_device(a), arc.to_device(b), out, np.uint32(na), np.uint32(nb))
    arc.synchronize()
    t = grid * block
    want = 7 * per_thread(a, na, t, np.add, np.int32(0)) + per_thread(3 * b, nb, t, np.add, np.int32(0))
    np.testing.assert_array_equal(out.get(), want)


def test_signed_index_with_a_store_in_the_loop():
    n, grid, block = 5003, 3, 96
    x = np.random.default_rng(3).integers(-1000, 1000, n, dtype=np.int32)
    y = arc.zeros(n, np.int32)
    mod().get_kernel("signed_store")[grid, block](arc.to_device(x), y, np.int32(n))
    arc.synchronize()
    np.testing.assert_array_equal(y.get(), x * 2 + np.arange(n, dtype=np.int32))


def test_read_past_the_end_in_the_loop_names_the_first_round_that_does():
    # 1000 elements, n = 1100, one block of 128: round 7 reads x[896 + t],
    # past the end from thread 104 on -- the first out-of-bounds read
    x = np.ones(1000, np.float32)
    s, m, c = arc.zeros(128, np.float32), arc.zeros(128, np.float32), arc.zeros(128, np.int32)
    with pytest.raises(arc.LaunchError, match=r"thread \(104,0,0\) of block \(0,0,0\) reads 4 bytes at byte offset "
                       r"4000 \(element 1000 of 4 bytes\) of kernel parameter 0 'x' \(4000 bytes\) at "
                       r"lockstep_shapes.asc:\d+: past its end"):
        mod().get_kernel("acc3")[1, 128](arc.to_device(x), s, m, c, np.uint32(1100))
        arc.synchronize()
