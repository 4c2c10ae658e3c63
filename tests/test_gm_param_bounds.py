"""GM bounds of a SIMD kernel's own accesses through its pointer parameters
(`((__gm__ T *)x)[i]`): checked against the allocation the parameter points
into, at any distance (far past the end the store landed in mapped host
memory unseen; guard pages catch only the next page), naming the block, the
line, the offset and the parameter; the process goes on and a good launch
runs after it.  In-bounds raw loops (vectorised by the optimiser) compute
what NumPy computes.  SIMT threads: tests/test_simt_gm_bounds.py."""
import functools

import numpy as np
import pytest

import ascendrtc as arc

SRC = r'''
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void poke(GM_ADDR out, int64_t k)
{
    __gm__ int32_t* p = (__gm__ int32_t*)out;
    p[AscendC::GetBlockIdx() * k + 1] = 7;
}

extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, int32_t n, int32_t extra)
{
    __gm__ float* a = (__gm__ float*)x + AscendC::GetBlockIdx() * n;
    __gm__ float* b = (__gm__ float*)y + AscendC::GetBlockIdx() * n;
    for (int32_t i = 0; i < n + extra; i++)
        b[i] = a[i] * 2.0f;
}

extern "C" __global__ __aicore__ void poke_at(GM_ADDR out, int64_t off)
{
    *(__gm__ int32_t*)((__gm__ uint8_t*)out + off) = 7;
}
'''


@functools.lru_cache(None)
def mod():
    return arc.Program(SRC, "gm_param.cpp").compile(["--npu-arch=dav-2201"]).load()


def good_launch():
    x = np.arange(256, dtype=np.float32)
    y = np.zeros(256, np.float32)
    mod().get_kernel("scale")[4](x, y, 64, 0)
    arc.synchronize()
    np.testing.assert_array_equal(y, 2 * x)


@pytest.mark.parametrize("k, off, where", [
    (100000, 400004, "past its end"),
    (-100000, -399996, "before its start"),
    (1 << 40, (4 << 40) + 4, "past its end"),
])
def test_raw_store_far_off_names_block_line_and_parameter(k, off, where):
    with pytest.raises(arc.LaunchError, match=rf"poke block 1/2: kernel code: the block writes 4 bytes at byte "
                       rf"offset {off} \(element {off // 4} of 4 bytes\) of kernel parameter 0 'out' \(256 bytes\) "
                       rf"at gm_param.cpp:7: {where}"):
        mod().get_kernel("poke")[2](np.zeros(64, np.int32), k)
        arc.synchronize()
    good_launch()


def test_raw_store_in_bounds():
    out = np.zeros(64, np.int32)
    mod().get_kernel("poke")[4](out, 16)
    arc.synchronize()
    want = np.zeros(64, np.int32)
    want[[1, 17, 33, 49]] = 7
    np.testing.assert_array_equal(out, want)


def test_raw_loop_reads_past_its_input():
    # the last block's loop runs 8 elements past both arrays: the first
    # access out of bounds is the read of x (the store of y comes after it)
    with pytest.raises(arc.LaunchError, match=r"kernel code: the block reads \d+ bytes at byte offset \d+ .*of "
                       r"kernel parameter 0 'x' \(1024 bytes\) at gm_param.cpp:15: past its end"):
        mod().get_kernel("scale")[4](np.zeros(256, np.float32), np.zeros(256, np.float32), 64, 8)
        arc.synchronize()
    good_launch()


@pytest.mark.parametrize("off", [253, 254, 255, 256])
def test_an_access_that_straddles_the_end_is_out_of_bounds(off):
    # starts inside the 256 bytes, ends past them: the whole access counts
    with pytest.raises(arc.LaunchError, match=rf"poke_at block 0/1: kernel code: the block writes 4 bytes at byte "
                       rf"offset {off} .*of kernel parameter 0 'out' \(256 bytes\) at gm_param.cpp:\d+: past its end"):
        mod().get_kernel("poke_at")[1](np.zeros(64, np.int32), off)
        arc.synchronize()
    out = np.zeros(64, np.int32)
    mod().get_kernel("poke_at")[1](out, 252)   # the last 4 bytes: inside
    arc.synchronize()
    assert out[63] == 7 and not out[:63].any()
