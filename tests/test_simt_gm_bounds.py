"""GM bounds of SIMT threads' own accesses (issue 25 item 4): an access
through a pointer derived from a kernel parameter is checked against the
allocation that parameter points into, whatever the index -- far past the
end, where it would land in mapped host memory unseen, or far before the
start -- and the launch fails naming the thread, the block, the line, the
offset and the parameter; the process goes on and a good launch runs
after it.  In-bounds kernels (a partial last block behind `if (i < n)`,
accesses after a barrier, atomics) compute what NumPy computes."""
import functools

import numpy as np
import pytest

import ascendrtc as arc

OPTS = ["--npu-arch=dav-3510", "--enable-simt"]

SRC = r'''
#include "simt_api/asc_simt.h"

__global__ void scaled(int* out, long long k)
{
    out[(blockIdx.x * blockDim.x + threadIdx.x) * k] = 5;
}

__global__ void gather(const float* in, const int* idx, float* out)
{
    out[threadIdx.x] = in[idx[threadIdx.x]];
}

__global__ void staged(float* out, const float* in, int k)
{
    __ubuf__ float t[64];
    t[threadIdx.x] = in[threadIdx.x];
    asc_syncthreads();
    out[threadIdx.x + (threadIdx.x == 5 ? k : 0)] = t[63 - threadIdx.x];
}

__global__ void counts(int* hist, const int* v)
{
    asc_atomic_add(&hist[v[blockIdx.x * blockDim.x + threadIdx.x]], 1);
}

__global__ void vadd(const float* a, const float* b, float* c, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
'''


@functools.lru_cache(None)
def mod():
    return arc.Program(SRC, "gm_bounds.asc").compile(OPTS).load()


def good_launch():
    n = 1000                                     # a partial last block: its threads past n do nothing
    a = np.arange(n, dtype=np.float32)
    b = np.full(n, 0.5, np.float32)
    c = np.zeros(n, np.float32)
    mod().get_kernel("vadd")[(n + 255) // 256, 256](a, b, c, n)
    arc.synchronize()
    np.testing.assert_array_equal(c, a + b)


def launch_fails(match, name, key, *args):
    with pytest.raises(arc.LaunchError, match=match):
        mod().get_kernel(name)[key](*args)
        arc.synchronize()
    good_launch()


@pytest.mark.parametrize("k, off, where", [
    (100000, 400000, "past its end"),                    # mapped host memory before the check
    (-100000, -400000, "before its start"),
    (1 << 40, 4 << 40, "past its end"),
    (-1, -4, "before its start"),                        # just before: within the guard page's reach
])
def test_scaled_index_names_thread_line_and_parameter(k, off, where):
    launch_fails(rf"SIMT: thread \(1,0,0\) of block \(0,0,0\) writes 4 bytes at byte offset {off} \(element "
                 rf"{off // 4} of 4 bytes\) of kernel parameter 0 'out' \(256 bytes\) at gm_bounds.asc:6: {where}",
                 "scaled", (1, 64), np.zeros(64, np.int32), k)


def test_scaled_in_bounds():
    out = np.zeros(256, np.int32)
    mod().get_kernel("scaled")[2, 64](out, 2)
    arc.synchronize()
    want = np.zeros(256, np.int32)
    want[::2] = 5
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("bad", [1 << 28, -(1 << 20)])
def test_gathered_read_out_of_bounds(bad):
    idx = np.arange(64, dtype=np.int32)[::-1].copy()
    idx[3] = bad
    launch_fails(rf"thread \(3,0,0\) of block \(0,0,0\) reads 4 bytes at byte offset {4 * bad} \(element {bad} of 4 "
                 rf"bytes\) of kernel parameter 0 'in' \(256 bytes\) at gm_bounds.asc:11", "gather", (1, 64),
                 np.zeros(64, np.float32), idx, np.zeros(64, np.float32))
    idx[3] = 3
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    mod().get_kernel("gather")[1, 64](x, idx, out)
    arc.synchronize()
    np.testing.assert_array_equal(out, x[idx])


def test_store_after_a_barrier():
    x = np.arange(64, dtype=np.float32)
    launch_fails(r"thread \(5,0,0\) of block \(0,0,0\) writes 4 bytes at byte offset 4000020 \(element 1000005 "
                 r"of 4 bytes\) of kernel parameter 0 'out' \(256 bytes\) at gm_bounds.asc:19: past its end", "staged",
                 (1, 64), np.zeros(64, np.float32), x, 1000000)
    out = np.zeros(64, np.float32)
    mod().get_kernel("staged")[1, 64](out, x, 0)
    arc.synchronize()
    np.testing.assert_array_equal(out, x[::-1])


def test_atomic_out_of_bounds():
    v = np.arange(128, dtype=np.int32) % 16
    v[70] = 50000
    launch_fails(r"thread \(6,0,0\) of block \(1,0,0\) writes 4 bytes at byte offset 200000 \(element 50000 of 4 "
                 r"bytes\) of kernel parameter 0 'hist' \(64 bytes\) at gm_bounds.asc:24: past its end", "counts",
                 (2, 64), np.zeros(16, np.int32), v)
    v[70] = 6
    hist = np.zeros(16, np.int32)
    mod().get_kernel("counts")[2, 64](hist, v)
    arc.synchronize()
    np.testing.assert_array_equal(hist, np.bincount(v, minlength=16))
