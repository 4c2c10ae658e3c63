"""SIMT kernels' checks (issue 25 items 1 and 4, bad input): each negative
launch fails with an error naming the kernel, the limit or the kernel line,
nothing is cached, and a good launch after it works."""
import functools

import numpy as np
import pytest

import ascendrtc as arc

OPTS = ["--npu-arch=dav-3510", "--enable-simt"]

SRC = r'''
#include "simt_api/asc_simt.h"

__global__ __launch_bounds__(256) void fill(int* out, int v)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void big_tile(int* out)
{
    __ubuf__ int tile[16384];      /* 64 KiB of static UB */
    tile[threadIdx.x] = (int)threadIdx.x;
    asc_syncthreads();
    out[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

__global__ void divergent_barrier(int* out)
{
    if (threadIdx.x < 16)
        return;
    asc_syncthreads();
    out[threadIdx.x] = 1;
}

__global__ void two_barriers(int* out)
{
    if (threadIdx.x % 2)
        asc_syncthreads();
    else
        asc_syncthreads();
    out[threadIdx.x] = 1;
}

__global__ void inactive_lane(int* out)
{
    int v = (int)threadIdx.x;
    if (threadIdx.x < 8)
        v = asc_shfl(v, 20);
    out[threadIdx.x] = v;
}

__global__ void ub_off_end(int* out, uint32_t k)
{
    __ubuf__ int tile[64];
    tile[threadIdx.x * k] = (int)threadIdx.x;
    asc_syncthreads();
    out[threadIdx.x] = tile[threadIdx.x];
}
'''

SIMD_SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void simd_k(GM_ADDR x) {}
'''


@functools.lru_cache(None)
def mod():
    return arc.Program(SRC, "simt_checks.asc").compile(OPTS).load()


def good_launch():
    out = np.zeros(512, np.int32)
    mod().get_kernel("fill")[2, 256](out, 7)
    assert (out == 7).all()


def launch_fails(match, k, key, *args):
    with pytest.raises((arc.Error, ValueError, TypeError), match=match):
        k[key](*args)
    good_launch()


def test_block_over_launch_bounds_names_the_limit():
    k = mod().get_kernel("fill")
    launch_fails(r"fill.*512 threads, over the kernel's limit of 256 threads per block", k, (1, 512),
                 np.zeros(512, np.int32), 1)


def test_block_over_the_default_1024():
    k = mod().get_kernel("big_tile")
    launch_fails(r"big_tile.*2048 threads, over the kernel's limit of 1024", k, (1, (1024, 2)),
                 np.zeros(2048, np.int32))


def test_block_of_zero_threads_and_grid_over_the_limit():
    k = mod().get_kernel("fill")
    launch_fails(r"block y is 0; each dimension must be in \[1, 65535\]", k, (1, (4, 0)), np.zeros(4, np.int32), 1)
    launch_fails(r"grid \(65535, 2, 1\) has 131070 blocks; a SIMT grid has at most 65535", k, ((65535, 2), 1),
                 np.zeros(4, np.int32), 1)


def test_dynamic_ub_over_what_the_ub_leaves():
    k = mod().get_kernel("big_tile")
    launch_fails(r"big_tile.*dynamic UB of 200000 bytes does not fit: static __ubuf__ 65536", k, (1, 32, 200000),
                 np.zeros(32, np.int32))
    out = np.zeros(32, np.int32)
    k[1, 32, 1024](out)                            # fits: static 64 KiB + 1 KiB
    np.testing.assert_array_equal(out, np.arange(32)[::-1])


def test_simt_kernel_launched_with_the_simd_form_and_the_reverse():
    k = mod().get_kernel("fill")
    launch_fails(r"fill.* is a SIMT kernel: launch it as kernel\[grid, block\]", k, 4, np.zeros(4, np.int32), 1)
    simd = arc.Program(SIMD_SRC).compile(["--npu-arch=dav-3510"]).load().get_kernel("simd_k")
    launch_fails(r"simd_k.* is a SIMD kernel: launch it as kernel\[block_dim\]", simd, (1, 32),
                 np.zeros(4, np.float32))


def test_barrier_not_reached_by_every_thread():
    k = mod().get_kernel("divergent_barrier")
    launch_fails(r"asc_syncthreads: thread \(16,0,0\) of block \(0,0,0\) waits at the barrier but thread "
                 r"\(0,0,0\) of block \(0,0,0\) returned without reaching it(.|\n)*at simt_checks.asc:21", k, (1, 32),
                 np.zeros(32, np.int32))


def test_threads_at_different_barriers():
    k = mod().get_kernel("two_barriers")
    launch_fails(r"waits at the barrier at simt_checks.asc:\d+ but thread \(1,0,0\).* at the one at "
                 r"simt_checks.asc:\d+", k, (1, 32), np.zeros(32, np.int32))


def test_ub_access_off_the_end_names_the_thread_and_line():
    """With the race check on (the default), an access through a __ubuf__
    pointer outside the UB fails before it is made, naming the thread, the
    bytes and the line; the kernel works with an index in bounds."""
    k = mod().get_kernel("ub_off_end")
    out = np.zeros(64, np.int32)
    launch_fails(r"SIMT: thread \(1,0,0\) of block \(0,0,0\) writes UB bytes \[400000, 400004\) at "
                 r"simt_checks.asc:45, outside the block's shared UB \[0, 262144\)", k, (2, 64), out, 100000)
    k[1, 64](out, 1)
    arc.synchronize()
    np.testing.assert_array_equal(out, np.arange(64))


def test_shuffle_from_an_inactive_lane():
    k = mod().get_kernel("inactive_lane")
    launch_fails(r"asc_shfl: thread \(0,0,0\) of block \(0,0,0\) reads lane 20, which is not active \(active "
                 r"lanes 0x000000ff(.|\n)*at simt_checks.asc:38", k, (1, 32), np.zeros(32, np.int32))


def test_enable_simt_needs_dav_3510():
    with pytest.raises(arc.CompileError, match="--enable-simt: SIMT kernels run on dav-3510 only"):
        arc.Program(SRC).compile(["--npu-arch=dav-2201", "--enable-simt"])
    good_launch()


def test_recursion_in_simt_code_is_a_compile_error():
    src = r'''
#include "simt_api/asc_simt.h"
__aicore__ int depth(int n) { return n <= 1 ? (int)threadIdx.x : depth(n - 1) * depth(n - 2); }
__global__ void rec(int* out) { out[threadIdx.x] = depth(out[0]); }
'''
    with pytest.raises(arc.CompileError, match="could not be inlined into its kernel"):
        arc.Program(src).compile(OPTS)
    good_launch()


def test_printf_and_assert_from_simt_code(capfd):
    # utils/debug/asc_printf.h and asc_assert.h, included as the asc-devkit's
    # SIMT printf/assert examples do: a printf from one thread reaches stdout;
    # a failed assert fails the launch naming the condition and the line, and
    # a good launch runs after it
    src = r'''
#include "simt_api/asc_simt.h"
#include "utils/debug/asc_printf.h"
#include "utils/debug/asc_assert.h"
__global__ void pr(int* out, int lim)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 35) printf("thread %u of block %u: %d %.2f\n", threadIdx.x, blockIdx.x, out[i], 2.5);
    assert(threadIdx.x < lim);
    out[i] = (int)i;
}
'''
    k = arc.Program(src, "pa.asc").compile(OPTS).load().get_kernel("pr")
    o = np.full(64, 7, np.int32)
    k[2, 32](o, 32)
    arc.synchronize()
    np.testing.assert_array_equal(o, np.arange(64))
    assert "thread 3 of block 1: 7 2.50\n" in capfd.readouterr().out
    with pytest.raises(arc.LaunchError, match=r"assert: threadIdx.x < lim[\s\S]*pa.asc:9"):
        k[2, 32](o, 16)
    arc.synchronize()
    o[:] = 0
    k[1, 32](o, 32)
    arc.synchronize()
    np.testing.assert_array_equal(o[:32], np.arange(32))
