"""Cube unit: the high-level Matmul API (lib/matmul_intf.h) on several
blocks with tilings from ascendrtc.matmul_tiling: IterateAll, Iterate +
GetTensorC (GM and UB), bias, transposes (a half one without ISTRANS), tails, per dtype, A from the UB
(a VECOUT local: this block's rows, padded to 32 bytes), against NumPy."""
import numpy as np
import pytest

import ascendrtc as arc
import ascendrtc.matmul_tiling as mt
from helpers import dev

SRC = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace matmul;

// This block's offsets and tail in the singleCoreM x singleCoreN grid.
__aicore__ inline void Offsets(const TCubeTiling &t, bool ta, bool tb, int &oa, int &ob, int &oc, int &ob2,
                               int &tm, int &tn)
{
    int mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    int mi = GetBlockIdx() % mBlocks, ni = GetBlockIdx() / mBlocks;
    oa = ta ? mi * t.singleCoreM : mi * t.singleCoreM * t.Ka;
    ob = tb ? ni * t.singleCoreN * t.Kb : ni * t.singleCoreN;
    oc = mi * t.singleCoreM * t.N + ni * t.singleCoreN;
    ob2 = ni * t.singleCoreN;
    tm = t.M - mi * t.singleCoreM < t.singleCoreM ? t.M - mi * t.singleCoreM : t.singleCoreM;
    tn = t.N - ni * t.singleCoreN < t.singleCoreN ? t.N - ni * t.singleCoreN : t.singleCoreN;
}

template <typename TA, typename TC, typename TBIAS, bool TA_, bool TB_, int MODE, bool DECL_TB = TB_>
__aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm)
{
    TCubeTiling t;
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, tl, tilingGm);
    t = tl;
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<TA> ga, gb; AscendC::GlobalTensor<TC> gc; AscendC::GlobalTensor<TBIAS> gbias;
    ga.SetGlobalBuffer((__gm__ TA *)a); gb.SetGlobalBuffer((__gm__ TA *)b); gc.SetGlobalBuffer((__gm__ TC *)c);
    gbias.SetGlobalBuffer((__gm__ TBIAS *)bias);
    Matmul<MatmulType<MODE == 4 ? AscendC::TPosition::VECOUT : AscendC::TPosition::GM, CubeFormat::ND, TA, TA_>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, TA, DECL_TB>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, TC>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, TBIAS>, MODE == 2 ? CFG_MDL : CFG_NORM> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if (GetBlockIdx() >= t.usedCoreNum) return;
    int oa, ob, oc, obias, tm, tn;
    Offsets(t, TA_, TB_, oa, ob, oc, obias, tm, tn);
    mm.SetOrgShape(t.M, t.N, t.Ka, t.Kb);
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> qa;
    if constexpr (MODE == 4) {
        // A from the UB: this block's tm x singleCoreK rows, padded to 32 bytes (DataCopyPad)
        int ka = (t.singleCoreK * (int)sizeof(TA) + 31) / 32 * 32;
        pipe.InitBuffer(qa, 1, t.singleCoreM * ka);
        auto la = qa.template AllocTensor<TA>();
        AscendC::DataCopyPad(la, ga[oa], AscendC::DataCopyExtParams((uint16_t)tm, t.singleCoreK * sizeof(TA),
                                                                    (t.Ka - t.singleCoreK) * sizeof(TA), 0, 0),
                             AscendC::DataCopyPadExtParams<TA>(false, 0, 0, (TA)0));
        qa.EnQue(la);
        la = qa.template DeQue<TA>();
        mm.SetTensorA(la, TA_);
    } else {
        mm.SetTensorA(ga[oa], TA_);
    }
    mm.SetTensorB(gb[ob], TB_);
    if (t.isBias) mm.SetBias(gbias[obias]);
    mm.SetTail(tm, tn);
    if (MODE == 1) {
        while (mm.template Iterate<true>()) mm.template GetTensorC<true>(gc[oc]);
    } else if (MODE == 3) {
        // each block through UB: packed baseM x baseN, then rows out with DataCopyPad
        AscendC::TQue<AscendC::TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 1, t.baseM * t.baseN * sizeof(TC));
        int mb = (tm + t.baseM - 1) / t.baseM, k = 0;
        while (mm.template Iterate<true>()) {
            auto l = q.template AllocTensor<TC>();
            mm.template GetTensorC<true>(l, 0, true);
            q.EnQue(l); l = q.template DeQue<TC>();
            int mi = k % mb, ni = k / mb;
            int rows = tm - mi * t.baseM < t.baseM ? tm - mi * t.baseM : t.baseM;
            int cols = tn - ni * t.baseN < t.baseN ? tn - ni * t.baseN : t.baseN;
            for (int r = 0; r < rows; r++)
                AscendC::DataCopyPad(gc[oc + (mi * t.baseM + r) * t.N + ni * t.baseN], l[r * t.baseN],
                                     AscendC::DataCopyExtParams(1, cols * sizeof(TC), 0, 0, 0));
            q.FreeTensor(l);
            k++;
        }
    } else {
        mm.IterateAll(gc[oc]);
    }
    mm.End();
}
extern "C" __global__ __aicore__ void mm_all(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws, GM_ADDR tiling)
{ Run<half, float, float, false, false, 0>(a, b, bias, c, tiling); }
extern "C" __global__ __aicore__ void mm_iter(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws, GM_ADDR tiling)
{ Run<half, float, float, false, false, 1>(a, b, bias, c, tiling); }
extern "C" __global__ __aicore__ void mm_mdl(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws, GM_ADDR tiling)
{ Run<half, float, float, false, false, 2>(a, b, bias, c, tiling); }
extern "C" __global__ __aicore__ void mm_ub(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws, GM_ADDR tiling)
{ Run<half, float, float, false, false, 3>(a, b, bias, c, tiling); }
extern "C" __global__ __aicore__ void mm_vecout(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws, GM_ADDR tiling)
{ Run<half, float, float, false, false, 4>(a, b, bias, c, tiling); }
extern "C" __global__ __aicore__ void mm_tt(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws, GM_ADDR tiling)
{ Run<half, float, float, true, true, 0>(a, b, bias, c, tiling); }
extern "C" __global__ __aicore__ void mm_f32(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws, GM_ADDR tiling)
{ Run<float, float, float, false, true, 0>(a, b, bias, c, tiling); }
extern "C" __global__ __aicore__ void mm_i8(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws, GM_ADDR tiling)
{ Run<int8_t, int32_t, int32_t, false, true, 0>(a, b, bias, c, tiling); }
extern "C" __global__ __aicore__ void mm_bf16(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws, GM_ADDR tiling)
{ Run<bfloat16_t, float, float, true, false, 1>(a, b, bias, c, tiling); }
// B transposed at run time with ISTRANS = false in its MatmulType
extern "C" __global__ __aicore__ void mm_tb_half(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws, GM_ADDR tiling)
{ Run<half, float, float, false, true, 0, false>(a, b, bias, c, tiling); }
extern "C" __global__ __aicore__ void mm_tb_f32(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws, GM_ADDR tiling)
{ Run<float, float, float, false, true, 0, false>(a, b, bias, c, tiling); }
'''


@pytest.fixture(scope="module")
def mod():
    return dev.load(SRC, "mm_api.cpp")


rng = np.random.default_rng(5)


def launch(mod, name, a, b, bias, c, t):
    mod.get_kernel(name)[t.usedCoreNum](a, b, bias, c, np.zeros(64, np.uint8), t.array())
    arc.synchronize()
    return c


@pytest.mark.parametrize("name", ["mm_all", "mm_iter", "mm_mdl", "mm_ub", "mm_vecout"])
@pytest.mark.parametrize("M,N,K,cores,bias", [(256, 192, 64, 8, True), (100, 70, 33, 4, False),
                                              (300, 520, 130, 6, True)])
def test_matmul_api_half(mod, name, M, N, K, cores, bias):
    a = rng.integers(-3, 4, (M, K)).astype(np.float16)
    b = rng.integers(-3, 4, (K, N)).astype(np.float16)
    bv = rng.integers(-10, 10, N).astype(np.float32)
    t = mt.tiling(M, N, K, "float16", "float32", bias=bias, cores=cores)
    assert 1 <= t.usedCoreNum <= cores
    c = launch(mod, name, a, b, bv, np.zeros((M, N), np.float32), t)
    want = a.astype(np.float32) @ b.astype(np.float32) + (bv if bias else 0)
    np.testing.assert_array_equal(c, want)


def test_matmul_api_transposed_and_dtypes(mod):
    M, N, K = 96, 80, 48
    a = rng.integers(-3, 4, (M, K)).astype(np.float16)
    b = rng.integers(-3, 4, (K, N)).astype(np.float16)
    t = mt.tiling(M, N, K, cores=4)
    c = launch(mod, "mm_tt", np.ascontiguousarray(a.T), np.ascontiguousarray(b.T), np.zeros(N, np.float32),
               np.zeros((M, N), np.float32), t)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))
    af, bf = rng.standard_normal((M, K)).astype(np.float32), rng.standard_normal((K, N)).astype(np.float32)
    t = mt.tiling(M, N, K, "float32", "float32", cores=3)
    c = launch(mod, "mm_f32", af, np.ascontiguousarray(bf.T), np.zeros(N, np.float32), np.zeros((M, N), np.float32), t)
    np.testing.assert_allclose(c, af.astype(np.float64) @ bf, rtol=1e-5, atol=1e-5)
    ai = rng.integers(-128, 128, (M, K)).astype(np.int8)
    bi = rng.integers(-128, 128, (K, N)).astype(np.int8)
    bias = rng.integers(-999, 999, N).astype(np.int32)
    t = mt.tiling(M, N, K, "int8", "int32", bias=True, bias_dtype="int32", cores=5)
    c = launch(mod, "mm_i8", ai, np.ascontiguousarray(bi.T), bias, np.zeros((M, N), np.int32), t)
    np.testing.assert_array_equal(c, ai.astype(np.int32) @ bi.astype(np.int32) + bias)
    ab, bb = rng.integers(-3, 4, (M, K)).astype(np.float32), rng.integers(-3, 4, (K, N)).astype(np.float32)
    t = mt.tiling(M, N, K, "bfloat16", "float32", cores=2)
    c = launch(mod, "mm_bf16", np.ascontiguousarray(dev.f32_to_bf16_bits(ab).T), dev.f32_to_bf16_bits(bb),
               np.zeros(N, np.float32), np.zeros((M, N), np.float32), t)
    np.testing.assert_array_equal(c, ab @ bb)


def test_transposed_b_without_istrans(mod):
    """SetTensorB(b, true) with ISTRANS = false: half B is transposed (the
    pages ask the two to agree for the other types only; CANN's
    matmul_high_performance does it), float B is refused."""
    M, N, K = 64, 48, 32
    a = rng.integers(-3, 4, (M, K)).astype(np.float16)
    b = rng.integers(-3, 4, (K, N)).astype(np.float16)
    t = mt.tiling(M, N, K, cores=2)
    c = launch(mod, "mm_tb_half", a, np.ascontiguousarray(b.T), np.zeros(N, np.float32), np.zeros((M, N), np.float32), t)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))
    t = mt.tiling(M, N, K, "float32", "float32", cores=2)
    with pytest.raises(arc.LaunchError, match=r"SetTensorB: transposing B needs ISTRANS = true"):
        launch(mod, "mm_tb_f32", a.astype(np.float32), np.ascontiguousarray(b.T.astype(np.float32)),
               np.zeros(N, np.float32), np.zeros((M, N), np.float32), t)


def test_tiling_limits():
    t = mt.tiling(1024, 1024, 1024, cores=24)
    assert t.usedCoreNum <= 24 and t.baseM % 16 == 0 and t.baseN % 16 == 0
    assert t.baseM * t.baseK * 2 * t.dbL0A <= 64 * 1024 and t.baseN * t.baseK * 2 * t.dbL0B <= 64 * 1024
    assert t.baseM * t.baseN * 4 * t.dbL0C <= 128 * 1024
    assert -(-1024 // t.singleCoreM) * -(-1024 // t.singleCoreN) == t.usedCoreNum
    assert len(t.tobytes()) == 4 * len(mt.FIELDS)
    t = mt.tiling(64, 512, 64, bias=True, cores=1)
    assert t.baseN * 4 <= 1024 and t.isBias == 1
    with pytest.raises(ValueError, match="every dimension must be positive"):
        mt.tiling(0, 16, 16)
    with pytest.raises(ValueError, match="unsupported dtype"):
        mt.tiling(16, 16, 16, dtype="float64")
