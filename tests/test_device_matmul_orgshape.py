"""Cube unit, Matmul API: SetOrgShape's orgKc (the row pitch of C when it
differs from B's N, public docs) and differing orgKa/orgKb (the GM row
lengths of A and of a transposed B): C blocks land in a wider output.
C in CubeFormat::ND_ALIGN: rows padded to 32 bytes (the docs' N-direction
alignment), the pad untouched (C in NZ: test_device_matmul_config.py).
The host tiling (MatmulApiTiling, one core's block inside a bigger original
shape, Ka != Kb) is tested in test_host_matmul_tiling.py."""
import numpy as np
import pytest

import ascendrtc as arc
import ascendrtc.matmul_tiling as mt
from helpers import dev

SRC = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace matmul;
// C[:, 0:n] = A[:, 0:k] @ B^T where A rows are ka long, B (transposed, [n, kb]) rows kb long,
// C rows kc long: the product goes to the left part of a wider C.
extern "C" __global__ __aicore__ void mm_pitch(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm, uint32_t m,
                                               uint32_t n, uint32_t k, uint32_t ka, uint32_t kb, uint32_t kc)
{
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tilingGm);
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> ga, gb; AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b); gc.SetGlobalBuffer((__gm__ float *)c);
    Matmul<MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, true>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if (GetBlockIdx() >= t.usedCoreNum) return;   // MIX: the block's second AIV has no tile
    mm.SetOrgShape(m, n, ka, kb, kc);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb, true);
    mm.SetTail(m, n, k);
    mm.IterateAll(gc);
}
// C (m x n, n not a multiple of 8) with rows of n rounded up to 8 floats (ND_ALIGN).
template <CubeFormat CF>
__aicore__ inline void MmAlign(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm)
{
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tilingGm);
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> ga, gb; AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b); gc.SetGlobalBuffer((__gm__ float *)c);
    Matmul<MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
           MatmulType<AscendC::TPosition::GM, CF, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if (GetBlockIdx() >= t.usedCoreNum) return;
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
}
extern "C" __global__ __aicore__ void mm_nd_align(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR t)
{ MmAlign<CubeFormat::ND_ALIGN>(a, b, c, t); }
'''


def test_org_shape_kc_and_differing_ka_kb():
    mod = dev.load(SRC, "mm_pitch.asc")
    m, n, k, ka, kb, kc = 32, 48, 64, 96, 80, 112
    rng = np.random.default_rng(9)
    a = rng.uniform(-1, 1, (m, ka)).astype(np.float16)
    b = rng.uniform(-1, 1, (n, kb)).astype(np.float16)
    c = np.full((m, kc), 7.0, np.float32)
    t = mt.tiling(m, n, k, cores=1)
    mod.get_kernel("mm_pitch")[1](a, b, c, t.array(), np.uint32(m), np.uint32(n), np.uint32(k), np.uint32(ka),
                                  np.uint32(kb), np.uint32(kc))
    arc.synchronize()
    want = a[:, :k].astype(np.float64) @ b[:, :k].astype(np.float64).T
    np.testing.assert_allclose(c[:, :n], want, rtol=1e-5, atol=1e-5)
    assert (c[:, n:] == 7.0).all()   # the rest of each C row is untouched


def test_c_nd_align_pads_rows_to_32_bytes():
    mod = dev.load(SRC, "mm_pitch.asc")
    m, n, k = 40, 45, 32
    rng = np.random.default_rng(3)
    a = rng.integers(-4, 5, (m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    c = np.full((m, 48), 7.0, np.float32)                 # 45 floats rounded up to 32 bytes
    mod.get_kernel("mm_nd_align")[1](a, b, c, mt.tiling(m, n, k, cores=1).array())
    arc.synchronize()
    np.testing.assert_array_equal(c[:, :n], a.astype(np.float32) @ b.astype(np.float32))
    assert (c[:, n:] == 7.0).all()

