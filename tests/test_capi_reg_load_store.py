"""The Reg C API's asc_load and asc_store (dav-3510): a register's VL bytes
from, and to, a UB address with no 32-byte rule (their pages: element
aligned), asc_store with no predicate, all VL elements or its first count.
Against NumPy: y[off_out:] = x[off_in:] + 1 with offsets of a few floats;
the UB around the stored run keeps what it held.  asc_loadalign from the
same address, and a count over a register's elements, are refused."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r'''
#include "c_api/asc_simd.h"
__simd_vf__ inline void add1(__ubuf__ float *o, __ubuf__ float *x, uint32_t count, uint32_t mode)
{
    vector_float v, w;
    vector_bool all = asc_create_mask_b32(PAT_ALL);
    if (mode == 1) asc_loadalign(v, x);                 // not 32-byte aligned: refused
    else asc_load(v, x);
    asc_add_scalar(w, v, 1.0f, all);
    if (count == 64) asc_store(o, w);
    else asc_store(o, w, count);
}
// x (128 floats) to UB 0, out (128 floats, as given) to UB 512; the VF reads at float
// `in` and writes at float 128 + `at`; out back.
__vector__ __global__ void ldst(__gm__ float *x, __gm__ float *out, uint32_t in, uint32_t at, uint32_t count,
                                uint32_t mode)
{
    asc_init();
    __ubuf__ float *u = (__ubuf__ float *)asc_get_phy_buf_addr(0);
    asc_copy_gm2ub_align(u, x, 512);
    asc_copy_gm2ub_align(u + 128, out, 512);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_vf_call<add1>(u + 128 + at, u + in, count, mode);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_align(out, u + 128, 1, 512, asc_store_l2_cache_mode::NORMAL_FIRST_VICTIM, 0, 0);
    asc_sync();
}
template <class V, class T>
__simd_vf__ inline void unpack_vf(__ubuf__ T *o, __ubuf__ T *x)
{
    V a, b;
    asc_loadalign_unpack(a, x, 0);
    asc_loadalign_unpack_postupdate(b, x, 128 / sizeof(T));     // x moves on by VL/2 bytes
    asc_store(o, a);
    asc_loadalign_unpack(a, x);
    asc_store(o + 256 / sizeof(T), b);
    asc_store(o + 512 / sizeof(T), a);
}
// 384 bytes of x to UB 0; three registers (768 bytes) out from UB 512.
template <class V, class T>
__aicore__ inline void unpack(__gm__ T *x, __gm__ T *out)
{
    asc_init();
    __ubuf__ T *u = (__ubuf__ T *)asc_get_phy_buf_addr(0), *o = u + 512 / sizeof(T);
    asc_copy_gm2ub_align(u, x, 384);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_vf_call<unpack_vf<V, T>>(o, u);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_align(out, o, 1, 768, asc_store_l2_cache_mode::NORMAL_FIRST_VICTIM, 0, 0);
    asc_sync();
}
__vector__ __global__ void unpack_u8(__gm__ uint8_t *x, __gm__ uint8_t *o) { unpack<vector_uint8_t>(x, o); }
__vector__ __global__ void unpack_i16(__gm__ int16_t *x, __gm__ int16_t *o) { unpack<vector_int16_t>(x, o); }
__vector__ __global__ void unpack_f32(__gm__ float *x, __gm__ float *o) { unpack<vector_float>(x, o); }
'''


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "ldst.asc").compile(["--npu-arch=dav-3510"]).load()


@pytest.fixture(scope="module")
def kern(mod):
    return mod.get_kernel("ldst")


def run(kern, inp, at, count, mode=0):
    x = np.arange(128, dtype=np.float32) * 0.5 - 9
    out = np.full(128, -7.0, np.float32)
    kern[1](x, out, *(np.uint32(v) for v in (inp, at, count, mode)))
    arc.synchronize()
    return x, out


@pytest.mark.parametrize("inp,at,count", [(3, 5, 64), (1, 2, 10), (0, 0, 64), (7, 33, 0)])
def test_load_and_store_at_element_aligned_addresses(kern, inp, at, count):
    x, out = run(kern, inp, at, count)
    want = np.full(128, -7.0, np.float32)
    want[at:at + count] = x[inp:inp + count] + 1
    np.testing.assert_array_equal(out, want)


def test_loadalign_there_is_refused(kern):
    with pytest.raises(arc.LaunchError, match="asc_loadalign: src: UB address offset 12 is not 32-byte aligned"):
        run(kern, 3, 0, 64, mode=1)


def test_store_count_over_a_register_is_refused(kern):
    with pytest.raises(arc.LaunchError, match="asc_store: count 65 is over a register's 64 elements of float"):
        run(kern, 0, 0, 65)


@pytest.mark.parametrize("name,dt", [("unpack_u8", np.uint8), ("unpack_i16", np.int16), ("unpack_f32", np.float32)])
def test_loadalign_unpack(mod, name, dt):
    n = 384 // np.dtype(dt).itemsize
    x = (np.arange(n) % 97 + 1).astype(dt)
    out = np.zeros(768 // np.dtype(dt).itemsize, dt)
    mod.get_kernel(name)[1](x, out)
    arc.synchronize()
    half = 128 // np.dtype(dt).itemsize          # elements in VL/2 bytes
    want = np.zeros_like(out)
    for r, src in enumerate((0, 0, half)):   # a; b (post-update: loaded at x, then x moves on); a from x + VL/2
        want[r * 2 * half:(r + 1) * 2 * half:2] = x[src:src + half]
    np.testing.assert_array_equal(out, want)
