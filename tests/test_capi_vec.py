"""The SIMD C API's memory-vector compute on dav-2201 (asc_add, asc_exp,
asc_add_scalar, ... on `__ubuf__` arrays a SIMD kernel declares), against
NumPy: the count form, the repeat form (block and repeat strides, the mask
register), the `_sync` forms; the arrays live in the UB (they are
bounds-checked, race-checked and share bytes with asc_get_phy_buf_addr's
offsets); each check fails naming the API, with a good launch after."""
import numpy as np
import pytest

import ascendrtc as arc

OPTS = ["--npu-arch=dav-2201"]

SRC = r"""
#include "c_api/asc_simd.h"

constexpr uint32_t N = 1024;

// out = x + y, x * 2.5 (add_scalar/mul_scalar), max(x, y), exp(x): count forms
__vector__ __global__ void count_forms(__gm__ float *x, __gm__ float *y, __gm__ float *out)
{
    asc_init();
    __ubuf__ float lx[N];
    __ubuf__ float ly[N];
    __ubuf__ float lz[4 * N];
    __gm__ float *bx = x + block_idx * N, *by = y + block_idx * N, *bo = out + block_idx * 4 * N;
    asc_copy_gm2ub(lx, bx, N * sizeof(float));
    asc_copy_gm2ub(ly, by, N * sizeof(float));
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_add(lz, lx, ly, N);
    asc_mul_scalar(lz + N, lx, 2.5f, N);
    asc_max(lz + 2 * N, lx, ly, N);
    asc_exp(lz + 3 * N, lx, N);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm(bo, lz, 4 * N * sizeof(float));
}

// The _sync forms need no flags: z = (x - y) then relu, int32 and half.
__vector__ __global__ void sync_forms(__gm__ int32_t *x, __gm__ int32_t *y, __gm__ int32_t *z, __gm__ half *h)
{
    asc_init();
    __ubuf__ int32_t a[256];
    __ubuf__ int32_t b[256];
    __ubuf__ half c[256];
    asc_copy_gm2ub_sync(a, x, sizeof a);
    asc_copy_gm2ub_sync(b, y, sizeof b);
    asc_copy_gm2ub_sync(c, h, sizeof c);
    asc_sub_sync(a, a, b, 256);
    asc_relu_sync(a, a, 256);
    asc_add_scalar_sync(c, c, (half)1.5f, 256);
    asc_copy_ub2gm_sync(z, a, sizeof a);
    asc_copy_ub2gm_sync(h, c, sizeof c);
}

// Repeat form: 2 repeats of 64 floats; src0 reads every other block
// (block stride 2, repeat stride 16), dst is dense; the mask register
// selects the first 40 lanes of each repeat, the rest keep dst.
__vector__ __global__ void repeat_form(__gm__ float *x, __gm__ float *out)
{
    asc_init();
    __ubuf__ float a[256];
    __ubuf__ float d[128];
    asc_copy_gm2ub_sync(a, x, sizeof a);
    for (int i = 0; i < 128; i++) d[i] = -1.0f;
    asc_sync();
    asc_set_vector_mask(0, (1ull << 40) - 1);
    asc_add(d, a, a, 2, 1, 2, 2, 8, 16, 16);
    asc_set_vector_mask(~0ull, ~0ull);
    asc_sync();
    asc_copy_ub2gm_sync(out, d, sizeof d);
}

// Static arrays start at UB offset 0: the array and asc_get_phy_buf_addr(0) alias.
__vector__ __global__ void at_offset_0(__gm__ float *x, __gm__ float *out)
{
    asc_init();
    __ubuf__ float a[64];
    __ubuf__ float b[64];
    __ubuf__ float *p = (__ubuf__ float *)asc_get_phy_buf_addr(0);
    asc_copy_gm2ub_sync(a, x, sizeof a);
    asc_copy_gm2ub_sync(b, x, sizeof b);
    asc_mul_sync(b, p, a, 64);   /* x * x */
    asc_copy_ub2gm_sync(out, b, sizeof b);
    out[64] = (float)((__ubuf__ char *)b - (__ubuf__ char *)p);
}

// A count past the UB's end (the array is in the UB: its bytes are checked).
__vector__ __global__ void past_ub(__gm__ float *x)
{
    asc_init();
    __ubuf__ float a[64];
    asc_add_sync(a, a, a, 64 * 1024);
}

// An operand outside the UB (an ordinary local array is not UB).
__vector__ __global__ void not_ub(__gm__ float *x)
{
    asc_init();
    float a[64];
    asc_add_sync(a, a, a, 64);
}

// Without the MTE2 -> V flag the vector add reads what the copy writes.
__vector__ __global__ void racy(__gm__ float *x, __gm__ float *out)
{
    asc_init();
    __ubuf__ float a[64];
    asc_copy_gm2ub(a, x, sizeof a);
    asc_add(a, a, a, 64);
    asc_sync();
    asc_copy_ub2gm_sync(out, a, sizeof a);
}

// More static UB than the UB holds (dav-2201: 192 KiB).
__vector__ __global__ void too_big(__gm__ float *x)
{
    asc_init();
    __ubuf__ float a[40 * 1024];
    __ubuf__ float b[40 * 1024];
    asc_add_sync(a, b, b, 64);
}
"""


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "capi_vec.asc").compile(OPTS).load()


def test_count_forms_are_numpy(mod):
    r = np.random.default_rng(1)
    x = r.uniform(-2, 2, 2 * 1024).astype(np.float32)
    y = r.uniform(-2, 2, 2 * 1024).astype(np.float32)
    out = np.zeros(2 * 4 * 1024, np.float32)
    mod.get_kernel("count_forms")[2](x, y, out)
    arc.synchronize()
    for b in range(2):
        o = out[b * 4096:(b + 1) * 4096].reshape(4, 1024)
        xb, yb = x[b * 1024:(b + 1) * 1024], y[b * 1024:(b + 1) * 1024]
        np.testing.assert_array_equal(o[0], xb + yb)
        np.testing.assert_array_equal(o[1], xb * np.float32(2.5))
        np.testing.assert_array_equal(o[2], np.maximum(xb, yb))
        np.testing.assert_allclose(o[3], np.exp(xb), rtol=2e-6)


def test_sync_forms_need_no_flags(mod):
    r = np.random.default_rng(2)
    x = r.integers(-1000, 1000, 256).astype(np.int32)
    y = r.integers(-1000, 1000, 256).astype(np.int32)
    z = np.zeros(256, np.int32)
    h = r.uniform(-4, 4, 256).astype(np.float16)
    want_h = (h + np.float16(1.5)).astype(np.float16)
    mod.get_kernel("sync_forms")[1](x, y, z, h)
    arc.synchronize()
    np.testing.assert_array_equal(z, np.maximum(x - y, 0))
    np.testing.assert_array_equal(h, want_h)


def test_repeat_form_strides_and_mask_register(mod):
    x = np.arange(256, dtype=np.float32)
    out = np.zeros(128, np.float32)
    mod.get_kernel("repeat_form")[1](x, out)
    arc.synchronize()
    want = np.full(128, -1.0, np.float32)
    for r in range(2):
        for lane in range(40):
            src = (r * 16 + (lane // 8) * 2) * 8 + lane % 8
            want[r * 64 + lane] = 2 * x[src]
    np.testing.assert_array_equal(out, want)


def test_static_arrays_start_at_ub_offset_0(mod):
    x = np.linspace(-3, 3, 64).astype(np.float32)
    out = np.zeros(65, np.float32)
    mod.get_kernel("at_offset_0")[1](x, out)
    arc.synchronize()
    np.testing.assert_array_equal(out[:64], x * x)
    assert out[64] == 256  # b follows a, 32-byte aligned


def test_checks_name_the_api(mod):
    x = np.zeros(64, np.float32)
    with pytest.raises(arc.LaunchError, match=r"asc_add.*count 65536 exceeds"):
        mod.get_kernel("past_ub")[1](x)
        arc.synchronize()
    with pytest.raises(arc.LaunchError, match=r"asc_add.*dst is not in this core's UB"):
        mod.get_kernel("not_ub")[1](x)
        arc.synchronize()
    with pytest.raises(arc.LaunchError, match=r"asc_copy_gm2ub.*asc_add|asc_add.*asc_copy_gm2ub"):
        mod.get_kernel("racy")[1](x, np.zeros(64, np.float32))
        arc.synchronize()
    with pytest.raises(arc.LaunchError, match=r"static __ubuf__ arrays of too_big.*327680 bytes.*196608"):
        mod.get_kernel("too_big")[1](x)
        arc.synchronize()
    test_count_forms_are_numpy(mod)  # a good launch after


def test_memory_forms_are_dav_2201_only():
    src = '#include "c_api/asc_simd.h"\n__vector__ __global__ void k(__gm__ float *x) ' \
          '{ __ubuf__ float a[64]; asc_add(a, a, a, 64); }\n'
    with pytest.raises(arc.CompileError, match="memory-vector C API.*dav-2201"):
        arc.Program(src, "capi3510.asc").compile(["--npu-arch=dav-3510"])
    with pytest.raises(arc.CompileError, match=r"asc_div: supports \(half, float\)"):
        arc.Program(src.replace("float", "int32_t").replace("asc_add", "asc_div"), "div.asc").compile(OPTS)
