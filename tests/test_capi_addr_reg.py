"""The C API's address registers (dav-3510): asc_update_addr_reg_b16(s0[, s1])
is sum(index_i * s_i), index_0 the iteration of the innermost loop around
the update and index_1 the next one out (the asc_update_addr_reg page), as
the rtc's AddrRegPass counts them (rtc/addr_reg.cpp); asc_loadalign /
asc_storealign take it as an element offset.  One loop nest copies an R x J
grid of VL blocks with one register for the load (j * VL + i * J * VL) and
another for the store (j * R * VL + i * VL), transposing the grid; a
register in a single loop (the asc-devkit example's form) walks it; against
NumPy's reshapes."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r"""
#include "kernel_operator.h"
#include "c_api/asc_simd.h"
constexpr uint32_t VL = 128, R = 3, J = 2, N = R * J * VL;

__simd_vf__ inline void grid(__ubuf__ half *dst, __ubuf__ half *src, uint16_t rows, uint16_t cols)
{
    vector_half v;
    vector_bool all = asc_create_mask_b16(PAT_ALL);
    for (uint16_t i = 0; i < rows; ++i) {
        for (uint16_t j = 0; j < cols; ++j) {
            addr_reg a = asc_update_addr_reg_b16(VL, cols * VL);
            addr_reg b = asc_update_addr_reg_b16(rows * VL, VL);
            asc_loadalign(v, src, a);
            asc_storealign(dst, v, b, all);
        }
    }
}
__simd_vf__ inline void walk(__ubuf__ half *dst, __ubuf__ half *src, uint16_t n)
{
    vector_half v;
    vector_bool all = asc_create_mask_b16(PAT_ALL);
    for (uint16_t i = 0; i < n; ++i) {
        addr_reg o = asc_update_addr_reg_b16(VL);
        asc_loadalign(v, src, o);
        asc_add_scalar(v, v, (half)1, all);
        asc_storealign(dst, v, o, all);
    }
}
extern "C" __global__ __vector__ void k(__gm__ half *x, __gm__ half *y, __gm__ half *z)
{
    asc_init();
    __ubuf__ half s[N], d[N], e[N];
    asc_copy_gm2ub(s, x, N * sizeof(half));
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_vf_call<grid>(d, s, (uint16_t)R, (uint16_t)J);
    asc_vf_call<walk>(e, s, (uint16_t)(N / VL));
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm(y, d, N * sizeof(half));
    asc_copy_ub2gm(z, e, N * sizeof(half));
}
"""
VL, R, J = 128, 3, 2


def test_addr_reg_loop_counters():
    kern = arc.Program(SRC, "addr_reg.asc").compile(["--npu-arch=dav-3510"]).load().get_kernel("k")
    x = (np.arange(R * J * VL) % 251).astype(np.float16)
    y = np.zeros_like(x)
    z = np.zeros_like(x)
    kern[1](x, y, z)
    arc.synchronize()
    want = x.reshape(R, J, VL).transpose(1, 0, 2).reshape(-1)    # block (i, j) to (j, i)
    np.testing.assert_array_equal(y, want)
    np.testing.assert_array_equal(z, x + np.float16(1))
