"""Cube unit, Matmul API: the MatmulConfig members and MatmulPolicy templates
that change what is computed, against NumPy (the MatmulConfig and
MatmulPolicy pages): enableSetBias = false (no bias), enableRelu,
isPartialOutput (one baseK chunk per Iterate), isEnableChannelSplit (NZ C
in 16 x 8 fractals), SetQuantScalar / SetQuantVector (int32 -> half C), C in NZ, OUTER_PRODUCT's iterateOrder, the triangle
policies, NBuffer33 (scheduling: same C), SplitM (each AIV half a block's rows), A in a TSCM queue's tensor, IterateBatch (NORMAL layout, bias per batch or shared; BSNGD), IterateNBatch, a constant tiling with a null
tiling pointer, C in CO1 moved out by the kernel's Fixpipe; the member
order of positional MatmulConfig initialisers; the refusals
(intraBlockPartSum, a kernel's own policy)."""
import numpy as np
import pytest

import ascendrtc as arc
import ascendrtc.matmul_tiling as mt
from helpers import dev

SRC = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace matmul;
using GmHalf = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using GmFloat = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
#define POLICY_PARAM template <const auto &, typename, typename, typename, typename, typename> class

// A positional initialiser follows the MatmulConfig page's member order (22 members here).
constexpr MatmulConfig POS = {true, false, false, 0, 0, 0, false, false, false, false, 0,
                              0, 0, 0, 0, 0, 0, 0, false, true, false, true};
static_assert(!POS.enUnitFlag && POS.isPerTensor && !POS.hasAntiQuantOffset && POS.doIBShareNorm, "order");
constexpr MatmulConfig FUNC = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(
    MatmulFuncParams{false, false, false, false, 0, IterateOrder::ORDER_N, ScheduleType::OUTER_PRODUCT, true, true});
static_assert(FUNC.doMultiDataLoad && FUNC.iterateOrder == IterateOrder::ORDER_N && FUNC.enableUBReuse, "func");

constexpr MatmulConfig NoBias() { auto c = CFG_NORM; c.enableSetBias = false; return c; }
constexpr MatmulConfig Relu() { auto c = CFG_NORM; c.enableRelu = true; return c; }
constexpr MatmulConfig Split() { auto c = CFG_NORM; c.isEnableChannelSplit = true; return c; }
constexpr MatmulConfig Partial() { auto c = CFG_MDL; c.isPartialOutput = true; return c; }
constexpr MatmulConfig OuterN()
{
    auto c = CFG_NORM; c.scheduleType = ScheduleType::OUTER_PRODUCT; c.iterateOrder = IterateOrder::ORDER_N; return c;
}
constexpr MatmulConfig NO_BIAS = NoBias(), RELU = Relu(), SPLIT = Split(), PARTIAL = Partial(), OUTER_N = OuterN();

// C (one block's whole single shape) = A @ B + bias through IterateAll.
template <const auto &CFG, CubeFormat CF = CubeFormat::ND, POLICY_PARAM P = AscendC::Impl::Detail::MatmulPolicy>
__aicore__ inline void All(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm)
{
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tilingGm);
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> ga, gb; AscendC::GlobalTensor<float> gc, gbias;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b);
    gc.SetGlobalBuffer((__gm__ float *)c); gbias.SetGlobalBuffer((__gm__ float *)bias);
    Matmul<GmHalf, GmHalf, MatmulType<AscendC::TPosition::GM, CF, float>, GmFloat, CFG, MatmulCallBackFunc<>, P> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if (GetBlockIdx() >= t.usedCoreNum) return;
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    if (t.isBias) mm.SetBias(gbias);
    mm.IterateAll(gc);
}
#define ARGS GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR t
extern "C" __global__ __aicore__ void mm_no_bias(ARGS) { All<NO_BIAS>(a, b, bias, c, t); }
extern "C" __global__ __aicore__ void mm_relu(ARGS) { All<RELU>(a, b, bias, c, t); }
extern "C" __global__ __aicore__ void mm_nz(ARGS) { All<CFG_NORM, CubeFormat::NZ>(a, b, bias, c, t); }
extern "C" __global__ __aicore__ void mm_split(ARGS) { All<SPLIT, CubeFormat::NZ>(a, b, bias, c, t); }
extern "C" __global__ __aicore__ void mm_upper(ARGS) { All<CFG_NORM, CubeFormat::ND, AscendC::Impl::Detail::TrianUpperMatmulPolicy>(a, b, bias, c, t); }
extern "C" __global__ __aicore__ void mm_lower(ARGS) { All<CFG_NORM, CubeFormat::ND, AscendC::Impl::Detail::TrianLowerMatmulPolicy>(a, b, bias, c, t); }
extern "C" __global__ __aicore__ void mm_nbuffer33(ARGS) { All<CFG_MDL, CubeFormat::ND, AscendC::Impl::Detail::NBuffer33MatmulPolicy>(a, b, bias, c, t); }

// Every Iterate's block, packed one after another (enSequentialWrite), in the order they come.
template <const auto &CFG>
__aicore__ inline void Seq(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm)
{
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tilingGm);
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> ga, gb; AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b); gc.SetGlobalBuffer((__gm__ float *)c);
    Matmul<GmHalf, GmHalf, GmFloat, GmFloat, CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    int off = 0;
    while (mm.Iterate()) {
        mm.GetTensorC(gc[off], 0, true);
        off += t.baseM * t.baseN;
    }
}
extern "C" __global__ __aicore__ void mm_partial(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR t) { Seq<PARTIAL>(a, b, c, t); }
extern "C" __global__ __aicore__ void mm_outer_n(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR t) { Seq<OUTER_N>(a, b, c, t); }

// A constant tiling of every shape (at most 64 x 64 x 64, base 32 x 32 x 32): no tiling pointer.
constexpr MatmulConfig StaticCfg() { return GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulShapeParams{64, 64, 64, 32, 32, 32}); }
constexpr MatmulConfig STATIC_CFG = StaticCfg();
constexpr MatmulApiStaticTiling STATIC = GetMatmulApiTiling<GmHalf, GmHalf, GmFloat, GmFloat>(STATIC_CFG);
extern "C" __global__ __aicore__ void mm_static(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k)
{
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> ga, gb; AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b); gc.SetGlobalBuffer((__gm__ float *)c);
    Matmul<GmHalf, GmHalf, GmFloat, GmFloat, STATIC> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, (TCubeTiling *)nullptr);
    mm.SetOrgShape(m, n, k);
    mm.SetTail(m, n, k);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
}

// C in CO1: each Iterate's block into the kernel's L0C tensor (NZ), moved out by its Fixpipe (ND).
extern "C" __global__ __aicore__ void mm_co1(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm)
{
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tilingGm);
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> ga, gb; AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b); gc.SetGlobalBuffer((__gm__ float *)c);
    using L0cT = typename AscendC::GetMmDstType<half>::Type;
    Matmul<GmHalf, GmHalf, MatmulType<AscendC::TPosition::CO1, CubeFormat::NZ, L0cT>, GmFloat> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::TQue<AscendC::TPosition::CO1, AscendC::Impl::QUEUE_DEPTH> q;
    pipe.InitBuffer(q, 1, t.baseM * t.singleCoreN * sizeof(L0cT));
    AscendC::LocalTensor<L0cT> co1 = q.template AllocTensor<L0cT>();
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    int off = 0;
    while (mm.Iterate(false, co1[off])) off += t.baseM * t.baseN;   // one row of blocks: singleCoreM == baseM
    AscendC::FixpipeParamsV220 p;
    p.mSize = t.baseM;
    p.nSize = t.singleCoreN;
    p.srcStride = t.baseM;
    p.dstStride = t.N;
    q.EnQue(co1);
    q.template DeQue<L0cT>();
    AscendC::Fixpipe<float, L0cT, AscendC::CFG_ROW_MAJOR>(gc, co1, p);
    q.FreeTensor(co1);
}

// int8 x int8 -> half C, dequantised by one word (qv 0), a word per column (qv 1), or not at all (qv 2: refused).
extern "C" __global__ __aicore__ void mm_dequant(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR q, GM_ADDR tilingGm,
                                                 uint32_t qv)
{
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tilingGm);
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<int8_t> ga, gb; AscendC::GlobalTensor<half> gc; AscendC::GlobalTensor<uint64_t> gq;
    ga.SetGlobalBuffer((__gm__ int8_t *)a); gb.SetGlobalBuffer((__gm__ int8_t *)b);
    gc.SetGlobalBuffer((__gm__ half *)c); gq.SetGlobalBuffer((__gm__ uint64_t *)q);
    using I8 = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, int8_t>;
    Matmul<I8, I8, MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, int32_t>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if (qv == 1) mm.SetQuantVector(gq);
    else if (qv == 0) mm.SetQuantScalar(gq.GetValue(0));
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
}

// A copied from GM into a TSCM queue's tensor (L1), the Matmul reading it there.
extern "C" __global__ __aicore__ void mm_tscm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm)
{
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tilingGm);
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> ga, gb; AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b); gc.SetGlobalBuffer((__gm__ float *)c);
    Matmul<MatmulType<AscendC::TPosition::TSCM, CubeFormat::ND, half>, GmHalf, GmFloat> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::TSCM<AscendC::TPosition::GM, 1> scm;
    pipe.InitBuffer(scm, 1, t.M * t.Ka * sizeof(half));
    auto la = scm.AllocTensor<half>();
    AscendC::DataCopy(la, ga, t.M * t.Ka);
    scm.EnQue(la);
    la = scm.DeQue<half>();
    mm.SetTensorA(la);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
    scm.FreeTensor(la);
}

// IterateBatch over `batch` NORMAL-layout matrices: A [batch, M, K], B [batch, K, N], C [batch, M, N];
// the bias [batch, N] (isBiasBatch, the default) or one [N] for all (BATCH_SHARED_BIAS).
constexpr MatmulConfig SharedBias() { return GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulBatchParams{false, BatchMode::BATCH_LESS_THAN_L1, false}); }
constexpr MatmulConfig BATCH_SHARED_BIAS = SharedBias();
template <const auto &CFG>
__aicore__ inline void Batch(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm, uint32_t batch)
{
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tilingGm);
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> ga, gb; AscendC::GlobalTensor<float> gc, gbias;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b);
    gc.SetGlobalBuffer((__gm__ float *)c); gbias.SetGlobalBuffer((__gm__ float *)bias);
    using H = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
    Matmul<H, H, MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>, GmFloat, CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.SetBias(gbias);
    mm.IterateBatch(gc, batch, batch, false);
}
extern "C" __global__ __aicore__ void mm_batch(ARGS, uint32_t n) { Batch<CFG_NORM>(a, b, bias, c, t, n); }
extern "C" __global__ __aicore__ void mm_batch_shared(ARGS, uint32_t n) { Batch<BATCH_SHARED_BIAS>(a, b, bias, c, t, n); }

// IterateBatch over BSNGD layouts: A [1, M, 1, G, K], B (transposed) [1, N, 1, G, K], C [1, M, 1, G, N]: batch g.
extern "C" __global__ __aicore__ void mm_bsngd(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm, uint32_t g)
{
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tilingGm);
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> ga, gb; AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b); gc.SetGlobalBuffer((__gm__ float *)c);
    using L = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD>;
    using LT = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, true, LayoutMode::BSNGD>;
    Matmul<L, LT, MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, false, LayoutMode::BSNGD>, GmFloat> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb, true);
    mm.IterateBatch(gc, g, g, false);
}

// IterateNBatch (isNBatch): `loops` IterateBatch calls of `batch` NORMAL matrices each, C into the workspace ws.
constexpr MatmulConfig NBatch() { return GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulBatchParams{true}); }
constexpr MatmulConfig N_BATCH = NBatch();
extern "C" __global__ __aicore__ void mm_n_batch(GM_ADDR a, GM_ADDR b, GM_ADDR ws, GM_ADDR tilingGm, uint32_t loops,
                                                 uint32_t batch)
{
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tilingGm);
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> ga, gb; AscendC::GlobalTensor<float> gw;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b); gw.SetGlobalBuffer((__gm__ float *)ws);
    using H = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
    Matmul<H, H, MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>, GmFloat, N_BATCH> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.SetWorkspace(gw);
    mm.IterateNBatch(loops, batch, batch, false);
}
'''


def inputs(m, n, k, seed=1):
    rng = np.random.default_rng(seed)
    a = rng.integers(-4, 5, (m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    bias = rng.integers(-50, 50, n).astype(np.float32)
    return a, b, bias, a.astype(np.float32) @ b.astype(np.float32)


@pytest.fixture(scope="module")
def mod():
    return dev.load(SRC, "mm_config.asc")


def run_all(mod, name, m, n, k, c, bias=True, base=None):
    a, b, bv, ab = inputs(m, n, k)
    t = mt.tiling(m, n, k, bias=bias, cores=1, base_shape=base)
    mod.get_kernel(name)[1](a, b, bv, c, t.array())
    arc.synchronize()
    return ab, bv


def test_enable_set_bias_false_computes_no_bias(mod):
    c = np.zeros((32, 48), np.float32)
    ab, _ = run_all(mod, "mm_no_bias", 32, 48, 64, c)
    np.testing.assert_array_equal(c, ab)


def test_enable_relu_zeroes_negative_results(mod):
    c = np.zeros((32, 48), np.float32)
    ab, bv = run_all(mod, "mm_relu", 32, 48, 64, c)
    np.testing.assert_array_equal(c, np.maximum(ab + bv, 0))
    assert (ab + bv < 0).any()


def nz(x, c0, rows):
    """x (m x n) as NZ: [n / c0][rows][c0], rows = m rounded up to 16 (pad rows as given in `fill`)."""
    m, n = x.shape
    out = np.full((n // c0, rows, c0), 7.0, np.float32)
    out[:, :m, :] = x.reshape(m, n // c0, c0).transpose(1, 0, 2)
    return out


def test_c_nz_is_16_row_fractals_of_16_floats(mod):
    m, n = 40, 48
    c = np.full((n // 16, 48, 16), 7.0, np.float32)
    ab, bv = run_all(mod, "mm_nz", m, n, 32, c)
    np.testing.assert_array_equal(c, nz(ab + bv, 16, 48))


def test_channel_split_is_16_row_fractals_of_8_floats(mod):
    m, n = 40, 48
    c = np.full((n // 8, 48, 8), 7.0, np.float32)
    ab, bv = run_all(mod, "mm_split", m, n, 32, c)
    np.testing.assert_array_equal(c, nz(ab + bv, 8, 48))


@pytest.mark.parametrize("name", ["mm_upper", "mm_lower"])
def test_triangle_policies_skip_blocks_off_their_triangle(mod, name):
    m, n, k = 48, 64, 32                      # 3 x 4 blocks of 16 x 16
    c = np.full((m, n), 7.0, np.float32)
    ab, bv = run_all(mod, name, m, n, k, c, base=(16, 16, 32))
    mi, ni = np.arange(m)[:, None] // 16, np.arange(n)[None, :] // 16
    keep = mi <= ni if name == "mm_upper" else mi >= ni
    np.testing.assert_array_equal(c, np.where(keep, ab + bv, 7.0))


def test_nbuffer33_policy_computes_the_same(mod):
    c = np.zeros((48, 96), np.float32)
    ab, bv = run_all(mod, "mm_nbuffer33", 48, 96, 96, c, base=(16, 32, 32))
    np.testing.assert_array_equal(c, ab + bv)


def test_partial_output_yields_each_base_k_chunk(mod):
    m, n, k = 32, 32, 96
    a, b, _, _ = inputs(m, n, k)
    c = np.zeros((3, m, n), np.float32)
    mod.get_kernel("mm_partial")[1](a, b, c, mt.tiling(m, n, k, cores=1, base_shape=(32, 32, 32)).array())
    arc.synchronize()
    for j in range(3):
        want = a[:, 32 * j:32 * j + 32].astype(np.float32) @ b[32 * j:32 * j + 32].astype(np.float32)
        np.testing.assert_array_equal(c[j], want)


def test_outer_product_takes_the_configs_iterate_order(mod):
    m, n, k = 32, 32, 32
    a, b, _, ab = inputs(m, n, k)
    c = np.zeros((4, 16, 16), np.float32)
    mod.get_kernel("mm_outer_n")[1](a, b, c, mt.tiling(m, n, k, cores=1, base_shape=(16, 16, 32)).array())
    arc.synchronize()
    for i, (mi, ni) in enumerate([(0, 0), (0, 1), (1, 0), (1, 1)]):   # ORDER_N: along N first
        np.testing.assert_array_equal(c[i], ab[16 * mi:16 * mi + 16, 16 * ni:16 * ni + 16])


def test_constant_tiling_needs_no_tiling_pointer(mod):
    m, n, k = 40, 56, 48                      # within the constant 64 x 64 x 64
    a, b, _, ab = inputs(m, n, k)
    c = np.zeros((m, n), np.float32)
    mod.get_kernel("mm_static")[1](a, b, c, np.uint32(m), np.uint32(n), np.uint32(k))
    arc.synchronize()
    np.testing.assert_array_equal(c, ab)


def test_c_in_co1_goes_out_through_the_kernels_fixpipe(mod):
    m, n, k = 32, 64, 32
    a, b, _, ab = inputs(m, n, k)
    c = np.zeros((m, n), np.float32)
    mod.get_kernel("mm_co1")[1](a, b, c, mt.tiling(m, n, k, cores=1, base_shape=(32, 32, 32)).array())
    arc.synchronize()
    np.testing.assert_array_equal(c, ab)


def quant_words(scales):
    """Dequantisation words: the scale's float bits (its top 19 bits count) in the low word."""
    return np.asarray(scales, np.float32).view(np.uint32).astype(np.uint64)


@pytest.mark.parametrize("qv", [0, 1])
def test_dequantised_int8_matmul_to_half(mod, qv):
    m, n, k = 32, 48, 64
    rng = np.random.default_rng(4)
    a = rng.integers(-10, 10, (m, k)).astype(np.int8)
    b = rng.integers(-10, 10, (k, n)).astype(np.int8)
    scales = rng.choice([0.25, 0.5, 1.5, 3.0], n) if qv else np.array([0.25])
    q = quant_words(scales if qv else np.resize(scales, n))
    c = np.zeros((m, n), np.float16)
    t = mt.tiling(m, n, k, dtype="int8", out_dtype="float16", cores=1)
    mod.get_kernel("mm_dequant")[1](a, b, c, q, t.array(), np.uint32(qv))
    arc.synchronize()
    want = ((a.astype(np.int32) @ b.astype(np.int32)).astype(np.float32) * scales.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(c, want)


def test_int32_to_half_without_quantisation_is_refused(mod):
    a, b = np.ones((32, 32), np.int8), np.ones((32, 32), np.int8)
    c, q = np.zeros((32, 32), np.float16), np.zeros(32, np.uint64)
    with pytest.raises(arc.LaunchError, match="int32_t accumulator stored as half C needs its .de.quantisation"):
        mod.get_kernel("mm_dequant")[1](a, b, c, q, mt.tiling(32, 32, 32, dtype="int8", out_dtype="float16",
                                                               cores=1).array(), np.uint32(2))
        arc.synchronize()


def test_a_in_tscm_queue(mod):
    m, n, k = 32, 48, 64                      # rows of 128 bytes: no pad in L1
    a, b, _, ab = inputs(m, n, k)
    c = np.zeros((m, n), np.float32)
    mod.get_kernel("mm_tscm")[1](a, b, c, mt.tiling(m, n, k, cores=1).array())
    arc.synchronize()
    np.testing.assert_array_equal(c, ab)


@pytest.mark.parametrize("name", ["mm_batch", "mm_batch_shared"])
def test_iterate_batch_normal_layout(mod, name):
    nb, m, n, k = 3, 32, 48, 64
    rng = np.random.default_rng(8)
    a = rng.integers(-4, 5, (nb, m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (nb, k, n)).astype(np.float16)
    bias = rng.integers(-50, 50, (nb, n)).astype(np.float32)
    c = np.zeros((nb, m, n), np.float32)
    t = mt.tiling(m, n, k, bias=True, cores=1)
    mod.get_kernel(name)[1](a, b, bias, c, t.array(), np.uint32(nb))
    arc.synchronize()
    want = a.astype(np.float32) @ b.astype(np.float32) + (bias[:, None, :] if name == "mm_batch" else bias[0])
    np.testing.assert_array_equal(c, want)


SPLIT_M = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace matmul;
using H = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using F = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
// SplitM: each of the block's two AIVs gets its half of every block's rows in its UB, and stores it.
extern "C" __global__ __aicore__ void mm_split_m(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm)
{
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tilingGm);
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> ga, gb; AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b); gc.SetGlobalBuffer((__gm__ float *)c);
    Matmul<H, H, MatmulType<AscendC::TPosition::VECIN, CubeFormat::ND, float>, F, CFG_NORM, MatmulCallBackFunc<>,
           AscendC::Impl::Detail::SplitMMatmulPolicy> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::TQue<AscendC::TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, t.baseM / 2 * t.baseN * sizeof(float));
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    int sub = AscendC::GetSubBlockIdx(), h = t.baseM / 2;
    for (int i = 0; mm.Iterate(); i++) {
        auto l = q.AllocTensor<float>();
        mm.GetTensorC(l, 0, true);
        q.EnQue(l);
        l = q.DeQue<float>();
        AscendC::DataCopy(gc[(i * t.baseM + sub * h) * t.N], l, h * t.baseN);   // one column block: baseN == N
        q.FreeTensor(l);
    }
}
'''


def test_split_m_policy_gives_each_aiv_half_the_rows():
    m, n, k = 64, 32, 32
    a, b, _, ab = inputs(m, n, k)
    c = np.zeros((m, n), np.float32)
    mod = arc.Program(SPLIT_M, "split_m.asc").compile(["--npu-arch=dav-3510"]).load()
    mod.get_kernel("mm_split_m")[1](a, b, c, mt.tiling(m, n, k, cores=1, base_shape=(32, 32, 32)).array())
    arc.synchronize()
    np.testing.assert_array_equal(c, ab)


def test_iterate_batch_bsngd_layout(mod):
    g, m, n, k = 3, 32, 48, 64
    rng = np.random.default_rng(12)
    a = rng.integers(-4, 5, (m, g, k)).astype(np.float16)       # [B=1, S=M, N=1, G, D=K]
    b = rng.integers(-4, 5, (n, g, k)).astype(np.float16)       # [B=1, S=N, N=1, G, D=K], B transposed
    c = np.zeros((m, g, n), np.float32)                         # [B=1, S1=M, N=1, G, S2=N]
    t = mt.tiling(m, n, k, cores=1).array()
    t[33:48] = [1, m, 1, g, k, 1, n, 1, g, k, 1, m, 1, g, n]    # A/B/C LayoutInfo B, S, N, G, D (S2)
    mod.get_kernel("mm_bsngd")[1](a, b, c, t, np.uint32(g))
    arc.synchronize()
    want = np.einsum("mgk,ngk->mgn", a.astype(np.float32), b.astype(np.float32))
    np.testing.assert_array_equal(c, want)


def test_iterate_n_batch_loops_into_the_workspace(mod):
    loops, nb, m, n, k = 2, 2, 32, 48, 64
    rng = np.random.default_rng(13)
    a = rng.integers(-4, 5, (loops * nb, m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (loops * nb, k, n)).astype(np.float16)
    ws = np.zeros((loops * nb, m, n), np.float32)
    mod.get_kernel("mm_n_batch")[1](a, b, ws, mt.tiling(m, n, k, cores=1).array(), np.uint32(loops), np.uint32(nb))
    arc.synchronize()
    np.testing.assert_array_equal(ws, a.astype(np.float32) @ b.astype(np.float32))


REFUSED = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace matmul;
using T = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using C = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
%s
extern "C" __global__ __aicore__ void k(GM_ADDR a) { X mm; (void)mm; }
'''


@pytest.mark.parametrize("decl, message", [
    ("constexpr MatmulConfig F() { auto c = CFG_NORM; c.intraBlockPartSum = true; return c; }\n"
     "constexpr MatmulConfig CF = F(); using X = Matmul<T, T, C, C, CF>;", "intraBlockPartSum"),
    ("template <const auto &CFG, typename I, typename A, typename B, typename CT, typename BI>\n"
     "struct Mine : AscendC::Impl::Detail::MatmulPolicy<CFG, I, A, B, CT, BI> {};\n"
     "using X = Matmul<T, T, C, C, CFG_NORM, MatmulCallBackFunc<>, Mine>;", "a kernel's own policy"),
])
def test_configs_that_change_results_unmodelled_are_refused(decl, message):
    with pytest.raises(arc.CompileError, match=message):
        dev.load(REFUSED % decl, "mm_refused.asc")
