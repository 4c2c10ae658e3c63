"""The SIMD C API's cube path on dav-3510 (arc/capi_cube.h), on the C API's
static `__cbuf__`/`__ca__`/`__cb__`/`__cc__` arrays (placed in L1/L0A/L0B/L0C
by the rtc): A (M x K, ND or DN) and B (K x N, ND) moved to L1 as NZ by
MTE2_NZ_PARA + asc_copy_gm2l1_nd2nz/_dn2nz, to L0A (asc_copy_l12l0a) and
L0B (asc_copy_l12l0b_transpose), multiplied (asc_mmad) and written to GM
as ND (asc_set_l0c2gm_nz2nd + asc_copy_l0c2gm), against NumPy's product of
the half inputs in float.  A ragged K (d_value not a multiple of C0) is
zero-padded by the NZ moves.  What the pages leave open is refused by name."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r"""
#include "kernel_operator.h"
#include "c_api/asc_simd.h"

constexpr uint32_t M = 32, K = KDIM, N = 48, KA = (K + 15) / 16 * 16;

__global__ __cube__ void mm(__gm__ half *a, __gm__ half *b, __gm__ float *c, uint32_t dn)
{
    asc_init();
    __cbuf__ half a1[M * KA], b1[KA * N];
    __ca__ half a0[M * KA];
    __cb__ half b0[KA * N];
    __cc__ float c0[M * N];
    // A: M rows (n) x K columns (d); C0 columns 32 bytes apart by M rows.
    asc_set_gm2l1_nz_para((uint64_t)M << 32 | 1u << 16 | 1u);
    if (dn)
        asc_copy_gm2l1_dn2nz(a1, a, M * sizeof(half), 0, M, K, 0, false);
    else
        asc_copy_gm2l1_nd2nz(a1, a, K * sizeof(half), 0, M, K, 0, false);
    asc_set_gm2l1_nz_para((uint64_t)KA << 32 | 1u << 16 | 1u);
    asc_copy_gm2l1_nd2nz(b1, b, N * sizeof(half), 0, K, N, 0, false);
    asc_sync_notify(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    asc_copy_l12l0a(a0, a1, 0, 0, M / 16, KA / 16, M / 16, M / 16);
    asc_copy_l12l0b_transpose(b0, b1, 0, 0, KA / 16, N / 16, KA / 16, N / 16);
    asc_sync_notify(PIPE_MTE1, PIPE_M, EVENT_ID0);
    asc_sync_wait(PIPE_MTE1, PIPE_M, EVENT_ID0);
    asc_mmad(c0, a0, b0, M, K, N, 0, false, false, true);
    asc_sync_notify(PIPE_M, PIPE_FIX, EVENT_ID0);
    asc_sync_wait(PIPE_M, PIPE_FIX, EVENT_ID0);
    asc_set_l0c2gm_nz2nd(1, 0, 0);
    asc_copy_l0c2gm(c, c0, N, M, N, M, 0, 0, 0, (uint64_t)QuantMode_t::NoQuant, 0, false, true,
                    (uint64_t)QuantMode_post::NoConv, 0, false, 0, false, false, false, false);
    asc_sync_pipe(PIPE_ALL);
}

__global__ __cube__ void padded(__gm__ half *a)
{
    asc_init();
    __cbuf__ half a1[256];
    asc_copy_gm2l1(a1, a, 1, 1, 1, 0, 0);
}

__global__ __cube__ void not_l1(__gm__ half *a)
{
    asc_init();
    __cc__ float c0[256];
    asc_copy_gm2l1((__cbuf__ void *)c0, a, 1, 1, 0, 0, 0);
}
"""


def _mod(k):
    return arc.Program(SRC.replace("KDIM", str(k)), "capi_cube.asc").compile(["--npu-arch=dav-3510"]).load()


@pytest.fixture(scope="module")
def mods():
    return {k: _mod(k) for k in (32, 40)}


@pytest.mark.parametrize("k", [32, 40])
@pytest.mark.parametrize("dn", [0, 1])
def test_capi_mmad_nd_dn(mods, k, dn):
    rng = np.random.default_rng(k + dn)
    a = rng.standard_normal((32, k)).astype(np.float16)
    b = rng.standard_normal((k, 48)).astype(np.float16)
    c = np.zeros((32, 48), np.float32)
    a_in = np.ascontiguousarray(a.T) if dn else a            # DN: A stored column-major
    mods[k].get_kernel("mm")[1](a_in, b, c, np.uint32(dn))
    arc.synchronize()
    want = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name, msg", [("padded", "pad_func_mode 1"), ("not_l1", "is not in the L1")])
def test_capi_cube_refusals(mods, name, msg):
    with pytest.raises(arc.Error, match=msg):
        mods[32].get_kernel(name)[1](np.zeros(256, np.float16))
        arc.synchronize()
