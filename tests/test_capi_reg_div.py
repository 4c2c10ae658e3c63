"""The Reg C API's asc_div on the integer vector types its page lists
(int16/uint16/int32/uint32 besides half and float).  A zero divisor lane
follows the simulator's integer-division rule (tests/test_int_div.py:
all ones, a warning naming the line); the docs' boundary table gives no
integer result.  Reference: C's truncating division in Python integers."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.int_div import c_divmod

SRC = r'''
#include "c_api/asc_simd.h"
template <class V, class T>
__simd_vf__ inline void div_vf(__ubuf__ T *o, __ubuf__ T *x, __ubuf__ T *y)
{
    V vx, vy, vz;
    vector_bool all = sizeof(T) == 4 ? asc_create_mask_b32(PAT_ALL) : asc_create_mask_b16(PAT_ALL);
    asc_loadalign(vx, x, 0);
    asc_loadalign(vy, y, 0);
    asc_div(vz, vx, vy, all);
    asc_storealign(o, vz, 0, all);
}
template <class V, class T>
__aicore__ inline void run(__gm__ T *x, __gm__ T *y, __gm__ T *o)
{
    asc_init();
    __ubuf__ T *lx = (__ubuf__ T *)asc_get_phy_buf_addr(0), *ly = lx + 256 / sizeof(T), *lo = ly + 256 / sizeof(T);
    asc_copy_gm2ub_align(lx, x, 256);
    asc_copy_gm2ub_align(ly, y, 256);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_vf_call<div_vf<V, T>>(lo, lx, ly);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_align(o, lo, 1, 256, asc_store_l2_cache_mode::NORMAL_FIRST_VICTIM, 0, 0);
    asc_sync();
}
__vector__ __global__ void div_i32(__gm__ int32_t *x, __gm__ int32_t *y, __gm__ int32_t *o) { run<vector_int32_t>(x, y, o); }
__vector__ __global__ void div_u16(__gm__ uint16_t *x, __gm__ uint16_t *y, __gm__ uint16_t *o) { run<vector_uint16_t>(x, y, o); }
'''


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "reg_div.asc").compile(["--npu-arch=dav-3510"]).load()


@pytest.mark.parametrize("name,dt", [("div_i32", np.int32), ("div_u16", np.uint16)])
def test_integer_asc_div_is_c_division_and_zero_lanes_follow_the_rule(mod, name, dt, capfd):
    n = 256 // np.dtype(dt).itemsize
    info = np.iinfo(dt)
    r = np.random.default_rng(n)
    x = r.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    y = r.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    y[::5] = 0
    y[1::7] = 3
    o = np.zeros(n, dt)
    mod.get_kernel(name)[1](x, y, o)
    arc.synchronize()
    np.testing.assert_array_equal(o, np.array([c_divmod(int(a), int(b), dt)[0] for a, b in zip(x, y)], dt))
    assert f"{name}: integer division by zero at " in capfd.readouterr().err
