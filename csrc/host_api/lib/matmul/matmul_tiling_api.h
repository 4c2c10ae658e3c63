/* matmul_tiling_api.h - the Matmul host tiling API under CANN's names for
 * op-project host code (C++17): matmul_tiling::MatmulApiTiling and
 * MultiCoreMatmulTiling (SetAType/SetBType/SetCType/SetBiasType, SetShape,
 * SetOrgShape, SetSingleShape, SetDim, SetBias/EnableBias, SetFixSplit,
 * SetTraverse, SetBufferSpace, GetTiling), over the one computation of
 * arc_matmul_tiling.h that Python uses too.
 *
 * The platform argument of the constructors is not read (the dav-2201 sizes
 * apply; SetBufferSpace narrows them).  GetTiling fills
 * optiling::TCubeTiling (when the tiling DSL is in) or
 * AscendC::tiling::TCubeTiling and returns 0, or -1 with the reason on
 * stderr, as CANN's does. */
#ifndef ARC_HOST_MATMUL_TILING_API_H_
#define ARC_HOST_MATMUL_TILING_API_H_

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arc_matmul_tiling.h"
#include "common/ge_dtypes.h"

namespace matmul_tiling {

enum class TPosition : int32_t { GM = 0, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM,
                                 SHM = SPM, TSCM, MAX };
enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, COLUMN_MAJOR };
/* ge::DataType's names and values (common/ge_dtypes.h). */
#define ARC_GE_DT_ENUM_(name, value, bytes, dtype, ctype) name = value,
enum class DataType : int32_t { ARC_GE_DTYPES(ARC_GE_DT_ENUM_) DT_BFLOAT16 = DT_BF16 };
#undef ARC_GE_DT_ENUM_
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT, N_BUFFER_33 };
/* SetDequantType: one (de)quantisation word for all of C, or one per column. */
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };
/* SetMadType's modes (its page): plain, HF32, MxMatmul. */
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1, MXMODE = 2 };

/* SetMatmulConfigParams' arguments (its page's struct). */
struct MatmulConfigParams {
    int32_t mmConfigType;
    bool enableL1CacheUB;
    ScheduleType scheduleType;
    MatrixTraverse traverse;
    bool enVecND2NZ;
    MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                       ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                       MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
        : mmConfigType(mmConfigTypeIn), enableL1CacheUB(enableL1CacheUBIn), scheduleType(scheduleTypeIn),
          traverse(traverseIn), enVecND2NZ(enVecND2NZIn)
    {
    }
};

struct PlatformInfo {
    int32_t socVersion = 0;
    uint64_t l1Size = 0, l0CSize = 0, ubSize = 0, l0ASize = 0, l0BSize = 0;
};

namespace arc_detail {
inline int32_t size_of(DataType t)
{
    switch (t) {
    case DataType::DT_INT8: case DataType::DT_UINT8: case DataType::DT_INT4: case DataType::DT_BOOL: return 1;
    /* fp8 and the MX types; fp4 (half a byte) counts a byte, as int4 does */
    case DataType::DT_HIFLOAT8: case DataType::DT_FLOAT8_E5M2: case DataType::DT_FLOAT8_E4M3FN:
    case DataType::DT_FLOAT8_E8M0: case DataType::DT_FLOAT4_E2M1: case DataType::DT_FLOAT4_E1M2: return 1;
    case DataType::DT_FLOAT16: case DataType::DT_BF16: case DataType::DT_INT16: case DataType::DT_UINT16: return 2;
    case DataType::DT_INT64: case DataType::DT_UINT64: case DataType::DT_DOUBLE: return 8;
    default: return 4;
    }
}
} // namespace arc_detail

/* One Matmul's tiling on `dim` cores (1 for MatmulApiTiling). */
class MatmulApiTiling {
public:
    MatmulApiTiling() = default;
    template <class Platform> explicit MatmulApiTiling(const Platform &) {}
    explicit MatmulApiTiling(const PlatformInfo &p)
    {
        in_.l1_size = (int64_t)p.l1Size;
        in_.l0c_size = (int64_t)p.l0CSize;
        in_.l0a_size = (int64_t)p.l0ASize;
        in_.l0b_size = (int64_t)p.l0BSize;
    }
    virtual ~MatmulApiTiling() = default;

    int32_t SetAType(TPosition pos, CubeFormat, DataType t, bool isTrans = false)
    {
        aTscm_ = pos == TPosition::TSCM;
        aSize_ = arc_detail::size_of(t);
        transA_ = isTrans;
        return 0;
    }
    int32_t SetBType(TPosition pos, CubeFormat, DataType t, bool isTrans = false)
    {
        bTscm_ = pos == TPosition::TSCM;
        bSize_ = arc_detail::size_of(t);
        transB_ = isTrans;
        return 0;
    }
    /* MxMatmul's scale matrices (fp8_e8m0_t): their position, format and
     * transpose change no tiling number here (the simulated Matmul reads
     * them from where SetTensorScaleA/B put them). */
    int32_t SetScaleAType(TPosition, CubeFormat, bool isScaleTrans = false)
    {
        (void)isScaleTrans;
        return 0;
    }
    int32_t SetScaleBType(TPosition, CubeFormat, bool isScaleTrans = true)
    {
        (void)isScaleTrans;
        return 0;
    }
    /* The tiling numbers are the same in every mode here; the kernel's
     * MatmulConfig / policy choose HF32 or MX. */
    int32_t SetMadType(MatrixMadType madType)
    {
        return madType == MatrixMadType::NORMAL || madType == MatrixMadType::HF32 || madType == MatrixMadType::MXMODE
                   ? 0 : -1;
    }
    int32_t SetCType(TPosition, CubeFormat, DataType t)
    {
        cSize_ = arc_detail::size_of(t);
        return 0;
    }
    int32_t SetBiasType(TPosition, CubeFormat, DataType t)
    {
        biasSize_ = arc_detail::size_of(t) == 2 ? 4 : arc_detail::size_of(t); /* half widens in the BiasTable */
        return 0;
    }
    /* -1 keeps the original (SetOrgShape) value. */
    int32_t SetShape(int32_t m, int32_t n, int32_t k)
    {
        m_ = m;
        n_ = n;
        k_ = k;
        return 0;
    }
    int32_t SetOrgShape(int32_t M, int32_t N, int32_t K) { return SetOrgShape(M, N, K, K); }
    int32_t SetOrgShape(int32_t M, int32_t N, int32_t Ka, int32_t Kb)
    {
        M_ = M;
        N_ = N;
        Ka_ = Ka;
        Kb_ = Kb;
        return 0;
    }
    int32_t SetBias(bool isBias = false)
    {
        bias_ = isBias;
        return 0;
    }
    int32_t EnableBias(bool isBias = false) { return SetBias(isBias); }
    int32_t SetFixSplit(int32_t baseM = -1, int32_t baseN = -1, int32_t baseK = -1)
    {
        in_.baseM = baseM;
        in_.baseN = baseN;
        in_.baseK = baseK;
        return 0;
    }
    int32_t SetTraverse(MatrixTraverse t)
    {
        order_ = t == MatrixTraverse::FIRSTN ? 1 : 0;
        return 0;
    }
    /* -1 takes the whole buffer. */
    int32_t SetBufferSpace(int32_t l1 = -1, int32_t l0c = -1, int32_t ub = -1, int32_t bt = -1)
    {
        (void)ub;
        if (l1 >= 0) in_.l1_size = l1;
        if (l0c >= 0) in_.l0c_size = l0c;
        if (bt >= 0) in_.bt_size = bt;
        return 0;
    }
    /* The template (Norm/MDL), L1 caching, the schedule (N_BUFFER_33 among
     * them) and ND2NZ are scheduling: the base blocks and results stay;
     * traverse sets iterateOrder as SetTraverse does. */
    int32_t SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                                  ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                                  MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
    {
        (void)mmConfigTypeIn; (void)enableL1CacheUBIn; (void)scheduleTypeIn; (void)enVecND2NZIn;
        if (traverseIn != MatrixTraverse::NOSET) SetTraverse(traverseIn);
        return 0;
    }
    int32_t SetMatmulConfigParams(const MatmulConfigParams &p)
    {
        return SetMatmulConfigParams(p.mmConfigType, p.enableL1CacheUB, p.scheduleType, p.traverse, p.enVecND2NZ);
    }
    template <class... A> int32_t SetSparse(A...) { return 0; }
    /* The kernel's SetQuantScalar / SetQuantVector chooses the form; the
     * tiling's blocks do not depend on it. */
    /* Batched matmuls (IterateBatch): the number per call; NORMAL layout's
     * batch sizes and one matrix's shape (SetShape's when given). */
    /* BSNGD axes of A, B (b, s, n, g, d) and C (b, s1, n, g, s2): TCubeTiling's *LayoutInfo* fields. */
    int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) { return layout(0, b, s, n, g, d); }
    int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) { return layout(5, b, s, n, g, d); }
    int32_t SetCLayout(int32_t b, int32_t s1, int32_t n, int32_t g, int32_t s2) { return layout(10, b, s1, n, g, s2); }
    int32_t SetBatchNum(int32_t batchNum)
    {
        batchNum_ = batchNum;
        return 0;
    }
    int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k)
    {
        (void)batchA; (void)batchB;
        if (m_ < 0 && M_ < 0) SetOrgShape(m, n, k);
        return 0;
    }
    int32_t EnableMultiCoreSplitK(bool flag)
    {
        splitK_ = flag;
        return 0;
    }
    int32_t SetDequantType(DequantType t)
    {
        dequant_ = t;
        return 0;
    }
    int32_t SetDoubleBuffer(bool, bool, bool, bool, bool = true, bool = true) { return 0; }

    template <class T> int64_t GetTiling(T &tiling)
    {
        int32_t f[ARC_TCUBE_NFIELDS];
        if (compute(f))
            return -1;
        store(tiling, f);
        return 0;
    }
    int32_t GetBaseM() const { return base_[0]; }
    int32_t GetBaseN() const { return base_[1]; }
    int32_t GetBaseK() const { return base_[2]; }

protected:
    int compute(int32_t *f)
    {
        arc_mm_tiling_in in = in_;
        in.M = M_ > 0 ? M_ : m_;
        in.N = N_ > 0 ? N_ : n_;
        in.Ka = Ka_ > 0 ? Ka_ : k_;
        in.Kb = Kb_ > 0 ? Kb_ : in.Ka;
        in.singleM = single_[0] > 0 ? single_[0] : (m_ > 0 ? m_ : (dim_ <= 1 ? in.M : -1));
        in.singleN = single_[1] > 0 ? single_[1] : (n_ > 0 ? n_ : (dim_ <= 1 ? in.N : -1));
        /* A (B) in TSCM is the kernel's whole matrix in L1: one block of M (N) */
        if (in.singleM < 0 && aTscm_) in.singleM = in.M;
        if (in.singleN < 0 && bTscm_) in.singleN = in.N;
        in.singleK = single_[2] > 0 ? single_[2] : (k_ > 0 ? k_ : -1);
        in.in_size = aSize_ ? aSize_ : 2;
        in.out_size = cSize_ ? cSize_ : 4;
        in.bias_size = bias_ ? (biasSize_ ? biasSize_ : 4) : 0;
        in.cores = multi_ ? (dim_ > 0 ? dim_ : 1) : 0; /* 0: no core limit (see arc_mm_tiling_in) */
        char err[256];
        if (aSize_ && bSize_ && aSize_ != bSize_) {
            fprintf(stderr, "ascendrtc: matmul_tiling::GetTiling: A (%d bytes) and B (%d bytes) types differ\n",
                    aSize_, bSize_);
            return -1;
        }
        if (arc_matmul_tiling(&in, f, err, sizeof err)) {
            fprintf(stderr, "ascendrtc: matmul_tiling::GetTiling: %s\n", err);
            return -1;
        }
        if (splitK_ && split_k(in, f)) return -1;
        f[ARC_TC_BatchNum] = batchNum_;
        for (int i = 0; i < 15; i++) f[ARC_TC_ALayoutInfoB + i] = layout_[i];
        f[ARC_TC_iterateOrder] = order_;
        base_[0] = f[ARC_TC_baseM];
        base_[1] = f[ARC_TC_baseN];
        base_[2] = f[ARC_TC_baseK];
        return 0;
    }
    /* EnableMultiCoreSplitK: the M x N grid's cores times K blocks, as many
     * as the cores left allow with singleCoreK dividing K into whole
     * 16-element parts (kernels offset whole K blocks, atomically adding
     * into a C they zeroed first); no bias (its page). */
    int split_k(arc_mm_tiling_in in, int32_t *f)
    {
        if (bias_) {
            fprintf(stderr, "ascendrtc: matmul_tiling::GetTiling: EnableMultiCoreSplitK with a bias (its page: no bias)\n");
            return -1;
        }
        int64_t used = f[ARC_TC_usedCoreNum], avail = (dim_ > 0 ? dim_ : 1) / (used > 0 ? used : 1), kb = 1;
        for (int64_t b = avail; b > 1 && kb == 1; b--)
            if (in.Ka % b == 0 && (in.Ka / b) % 16 == 0) kb = b;
        if (kb == 1) return 0;
        in.singleM = f[ARC_TC_singleCoreM];
        in.singleN = f[ARC_TC_singleCoreN];
        in.singleK = in.Ka / kb;
        char err[256];
        if (arc_matmul_tiling(&in, f, err, sizeof err)) {
            fprintf(stderr, "ascendrtc: matmul_tiling::GetTiling: %s\n", err);
            return -1;
        }
        f[ARC_TC_usedCoreNum] = (int32_t)(used * kb);
        return 0;
    }
    /* Any struct laid out as TCubeTiling's int32 fields (both TCubeTilings). */
    template <class T> static void store(T &t, const int32_t *f)
    {
        static_assert(sizeof(T) >= sizeof(int32_t) * ARC_TCUBE_NFIELDS, "GetTiling needs a TCubeTiling");
        memcpy((void *)&t, f, sizeof(int32_t) * ARC_TCUBE_NFIELDS);
    }

    arc_mm_tiling_in in_ = {0, 0, 0, 0, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    int32_t M_ = -1, N_ = -1, Ka_ = -1, Kb_ = -1, m_ = -1, n_ = -1, k_ = -1;
    int32_t single_[3] = {-1, -1, -1};
    int32_t dim_ = 1;
    bool multi_ = false; /* MultiCoreMatmulTiling: singleCore blocks must fit dim_ cores */
    int32_t aSize_ = 0, bSize_ = 0, cSize_ = 0, biasSize_ = 0, order_ = 0;
    int32_t base_[3] = {0, 0, 0};
    bool bias_ = false, transA_ = false, transB_ = false;
    DequantType dequant_ = DequantType::SCALAR;
    bool splitK_ = false, aTscm_ = false, bTscm_ = false;
    int32_t batchNum_ = 0, layout_[15] = {};
    int32_t layout(int at, int32_t b, int32_t s, int32_t n, int32_t g, int32_t d)
    {
        int32_t v[5] = {b, s, n, g, d};
        for (int i = 0; i < 5; i++) layout_[at + i] = v[i];
        return 0;
    }
};

/* Split over SetDim(n) cores: n is what GetBlockIdx() spans (in a MIX
 * kernel the AIVs: launch n / 2 blocks). */
class MultiCoreMatmulTiling : public MatmulApiTiling {
public:
    MultiCoreMatmulTiling() { multi_ = true; }
    template <class Platform> explicit MultiCoreMatmulTiling(const Platform &p) : MatmulApiTiling(p) { multi_ = true; }
    int32_t SetDim(int32_t dim)
    {
        dim_ = dim;
        return 0;
    }
    int32_t SetSingleShape(int32_t singleM = -1, int32_t singleN = -1, int32_t singleK = -1)
    {
        single_[0] = singleM;
        single_[1] = singleN;
        single_[2] = singleK;
        return 0;
    }
    int32_t SetShape(int32_t m, int32_t n, int32_t k)
    {
        /* On the multi-core class SetShape gives the whole problem. */
        if (M_ < 0) M_ = m;
        if (N_ < 0) N_ = n;
        if (Ka_ < 0) Ka_ = Kb_ = k;
        return 0;
    }
    int32_t GetSingleShape(int32_t &m, int32_t &n, int32_t &k)
    {
        int32_t f[ARC_TCUBE_NFIELDS];
        if (compute(f))
            return -1;
        m = f[ARC_TC_singleCoreM];
        n = f[ARC_TC_singleCoreN];
        k = f[ARC_TC_singleCoreK];
        return 0;
    }
    int32_t GetCoreNum(int32_t &dim, int32_t &mDim, int32_t &nDim)
    {
        int32_t f[ARC_TCUBE_NFIELDS];
        if (compute(f))
            return -1;
        dim = f[ARC_TC_usedCoreNum];
        mDim = (f[ARC_TC_M] + f[ARC_TC_singleCoreM] - 1) / f[ARC_TC_singleCoreM];
        nDim = (f[ARC_TC_N] + f[ARC_TC_singleCoreN] - 1) / f[ARC_TC_singleCoreN];
        return 0;
    }
};
using MultiCoreMatmulTilingBase = MultiCoreMatmulTiling;
/* One core's batched matmul tiling (IterateBatch). */
class BatchMatmulTiling : public MatmulApiTiling {
public:
    BatchMatmulTiling() = default;
    template <class Platform> explicit BatchMatmulTiling(const Platform &p) : MatmulApiTiling(p) {}
};

} // namespace matmul_tiling

#endif /* ARC_HOST_MATMUL_TILING_API_H_ */
