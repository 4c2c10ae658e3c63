"""Matmul API: A, B and C in CubeFormat::COLUMN_MAJOR (Ascend 950; the
MatmulType page: columns contiguous, GM only), on several blocks with the
offsets CANN's matmul_format_column_major example computes, with and without
the transpose flags, against NumPy; refused on dav-2201."""
import numpy as np
import pytest

import ascendrtc as arc
import ascendrtc.matmul_tiling as mt
from helpers import dev

SRC = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

template <bool TA, bool TB>
__aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm)
{
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tilingGm);
    AscendC::TPipe pipe;
    AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::COLUMN_MAJOR, half, TA>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::COLUMN_MAJOR, half, TB>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::COLUMN_MAJOR, float>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if (AscendC::GetBlockIdx() >= t.usedCoreNum) return;
    int mb = (t.M + t.singleCoreM - 1) / t.singleCoreM, mi = AscendC::GetBlockIdx() % mb, ni = AscendC::GetBlockIdx() / mb;
    // A (M x K) column-major: (m, k) at k * M + m; transposed, A^T (K x M) column-major: (m, k) at m * K + k
    int oa = TA ? mi * t.Ka * t.singleCoreM : mi * t.singleCoreM;
    int ob = TB ? ni * t.singleCoreN : ni * t.Kb * t.singleCoreN;
    int oc = ni * t.M * t.singleCoreN + mi * t.singleCoreM;
    AscendC::GlobalTensor<half> ga, gb; AscendC::GlobalTensor<float> gc, gbias;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b);
    gc.SetGlobalBuffer((__gm__ float *)c); gbias.SetGlobalBuffer((__gm__ float *)bias);
    int tm = t.M - mi * t.singleCoreM, tn = t.N - ni * t.singleCoreN;
    mm.SetTail(tm < t.singleCoreM ? tm : t.singleCoreM, tn < t.singleCoreN ? tn : t.singleCoreN);
    mm.SetTensorA(ga[oa], TA);
    mm.SetTensorB(gb[ob], TB);
    mm.SetBias(gbias[ni * t.singleCoreN]);
    mm.IterateAll(gc[oc]);
    mm.End();
}
extern "C" __global__ __aicore__ void cm(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws, GM_ADDR t)
{ Run<false, false>(a, b, bias, c, t); }
extern "C" __global__ __aicore__ void cm_tt(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws, GM_ADDR t)
{ Run<true, true>(a, b, bias, c, t); }
'''

M, N, K = 100, 70, 48


def run(mod, name, a_mem, b_mem, bias, cores):
    t = mt.tiling(M, N, K, bias=True, cores=cores)
    c = np.zeros(M * N, np.float32)
    mod.get_kernel(name)[t.usedCoreNum](a_mem, b_mem, bias, c, np.zeros(64, np.uint8), t.array())
    arc.synchronize()
    return c.reshape(N, M).T  # C column-major


@pytest.mark.parametrize("name", ["cm", "cm_tt"])
def test_column_major_matmul(name):
    mod = dev.load(SRC, "cm.asc", arch="dav-3510")
    rng = np.random.default_rng(4)
    a = rng.integers(-3, 4, (M, K)).astype(np.float16)
    b = rng.integers(-3, 4, (K, N)).astype(np.float16)
    bias = rng.integers(-9, 9, N).astype(np.float32)
    if name == "cm":  # column-major A and B: their transposes in row-major order
        a_mem, b_mem = np.ascontiguousarray(a.T), np.ascontiguousarray(b.T)
    else:  # column-major A^T (K x M) and B^T (N x K): A and B in row-major order
        a_mem, b_mem = a, b
    c = run(mod, name, a_mem.ravel(), b_mem.ravel(), bias, cores=4)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32) + bias)


def test_column_major_is_ascend_950_only():
    mod = dev.load(SRC, "cm.asc", arch="dav-2201")
    z = np.zeros(M * K, np.float16)
    with pytest.raises(arc.LaunchError, match=r"SetTensorA: CubeFormat::COLUMN_MAJOR is Ascend 950 \(dav-3510\) only"):
        run(mod, "cm", z, np.zeros(K * N, np.float16), np.zeros(N, np.float32), cores=1)
