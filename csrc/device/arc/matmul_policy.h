/* matmul_policy.h - what a Matmul's compile-time arguments make of it: the
 * MatmulType, the MatmulConfig (or a constant tiling, MatmulApiStaticTiling) read as one
 * config, the callbacks, the MatmulPolicy templates (Impl::Detail), GetMmDstType, and
 * which config members change what is computed (arc/matmul_api.h).
 *
 * A member that only changes how the NPU schedules the work (templates
 * Norm/MDL/IBShare/BasicBlock, unit flags, preload, double buffers,
 * A2/B2 sharing, MixDualMaster, K reorder, bank conflicts, CO1 sharing,
 * static zero padding of what the simulator reads exactly) gives the same
 * numbers and is accepted.  enableSetBias = false, isPartialOutput,
 * isEnableChannelSplit, enableRelu and an OUTER_PRODUCT iterateOrder
 * change the results and are computed as the MatmulConfig page defines;
 * intraBlockPartSum is refused. */
#ifndef ARC_MATMUL_POLICY_H_
#define ARC_MATMUL_POLICY_H_

#include "arc/cube_types.h"
#include "arc/matmul_config.h"

/* The Matmul API makes the formats global names (kernels write
 * MatmulType<TPosition::GM, CubeFormat::ND, half>); arc/cube_types.h. */
using AscendC::CubeFormat;
using AscendC::LayoutMode;

namespace AscendC {
/* A matrix's type: where it is, its format, element type, transpose... */
template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>
struct MatmulType {
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
    constexpr static TPosition srcPos = SRCPOS;
};

using ::MatmulConfigMode;
using ::IterateOrder;
using ::ScheduleType;
using ::MatmulConfig;
using ::MatmulShapeParams;
using ::MatmulQuantParams;
using ::MatmulBatchParams;
using ::MatmulFuncParams;
using ::BatchMode;
using ::BatchOutMode;
using ::IterateMode;
using ::GetNormalConfig;
using ::GetMDLConfig;
using ::GetSpecialMDLConfig;
using ::GetBasicConfig;
using ::GetIBShareNormConfig;
using ::GetMMConfig;
using ::MatmulApiStaticTiling;
using ::GetMatmulApiTiling;
using ::CFG_NORM;
using ::CFG_MDL;
using ::CFG_IBSHARE_NORM;
using ::MM_CFG_BB;

/* User callbacks (data copy hooks) are function pointers; the simulator
 * reads GM itself and does not call them. */
template <auto A = nullptr, auto B = nullptr, auto C = nullptr> struct MatmulCallBackFunc {};

namespace Impl {
/* The depth kernels give a TQue of their own CO1 (matmul_co1_output):
 * one tensor at a time. */
constexpr int32_t QUEUE_DEPTH = 1;
namespace Detail {
/* The MatmulPolicy page's policies, with the parameters kernels derive
 * their own from; a policy is only a name here (__mm::policy_kind). */
#define ARC_MM_POLICY_(name)                                                                           \
    template <const auto &MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, \
              typename BIAS_TYPE>                                                                     \
    struct name {};
ARC_MM_POLICY_(MatmulPolicy)
ARC_MM_POLICY_(TrianUpperMatmulPolicy)
ARC_MM_POLICY_(TrianLowerMatmulPolicy)
ARC_MM_POLICY_(NBuffer33MatmulPolicy)
ARC_MM_POLICY_(SplitMMatmulPolicy)
ARC_MM_POLICY_(SplitNMatmulPolicy)
ARC_MM_POLICY_(MatmulWithScalePolicy)
#undef ARC_MM_POLICY_
} // namespace Detail
} // namespace Impl

/* The L0C type of a matmul of A's type: int32 for the integer types, else float. */
template <typename T> struct GetMmDstType { using Type = float; };
template <> struct GetMmDstType<int8_t> { using Type = int32_t; };
template <> struct GetMmDstType<int4b_t> { using Type = int32_t; };

namespace __mm {
/* What a policy does: NORMAL, the triangles (blocks below / above the
 * diagonal are neither computed nor written), NBUFFER33 (L1 scheduling:
 * the same results), SPLIT_M (GetTensorC to the UB: each AIV its half of
 * the block's rows); anything else -- a kernel's own policy, which may
 * replace any module -- is refused. */
enum PolicyKind { POLICY_OTHER = -1, POLICY_NORMAL, POLICY_UPPER, POLICY_LOWER, POLICY_NBUFFER33, POLICY_SPLIT_M,
                  POLICY_SPLIT_N, POLICY_MX };
template <template <const auto &, typename, typename, typename, typename, typename> class P> struct policy_kind {
    static constexpr int value = POLICY_OTHER;
};
#define ARC_MM_KIND_(name, kind)                                                            \
    template <> struct policy_kind<Impl::Detail::name> { static constexpr int value = kind; };
ARC_MM_KIND_(MatmulPolicy, POLICY_NORMAL)
ARC_MM_KIND_(TrianUpperMatmulPolicy, POLICY_UPPER)
ARC_MM_KIND_(TrianLowerMatmulPolicy, POLICY_LOWER)
ARC_MM_KIND_(NBuffer33MatmulPolicy, POLICY_NBUFFER33)
ARC_MM_KIND_(SplitMMatmulPolicy, POLICY_SPLIT_M)
ARC_MM_KIND_(SplitNMatmulPolicy, POLICY_SPLIT_N)
ARC_MM_KIND_(MatmulWithScalePolicy, POLICY_MX)
#undef ARC_MM_KIND_

/* MM_CFG as a MatmulConfig, and its constant tiling (none for a plain config). */
constexpr const MatmulConfig &cfg_of(const MatmulConfig &c) { return c; }
constexpr const MatmulConfig &cfg_of(const MatmulApiStaticTiling &t) { return t.cfg; }
constexpr MatmulApiStaticTiling static_of(const MatmulConfig &) { return MatmulApiStaticTiling{}; }
constexpr MatmulApiStaticTiling static_of(const MatmulApiStaticTiling &t) { return t; }

/* A constant tiling of every singleCore and base shape as a TCubeTiling
 * (the original shape the single one until SetOrgShape); false if it
 * leaves any to the run-time tiling. */
inline bool static_tiling(const MatmulApiStaticTiling &st, TCubeTiling &t)
{
    if (st.singleCoreM <= 0 || st.singleCoreN <= 0 || st.singleCoreK <= 0 || st.baseM <= 0 || st.baseN <= 0 ||
        st.baseK <= 0)
        return false;
    t = TCubeTiling{};
    t.usedCoreNum = 1;
    t.M = t.singleCoreM = st.singleCoreM;
    t.N = t.singleCoreN = st.singleCoreN;
    t.Ka = t.Kb = t.singleCoreK = st.singleCoreK;
    t.baseM = st.baseM;
    t.baseN = st.baseN;
    t.baseK = st.baseK;
    t.iterateOrder = st.iterateOrder > 0 ? st.iterateOrder : 0;
    t.isBias = st.isBias > 0;
    return true;
}

/* The config's checks, at compile time (instantiated with the config's members). */
template <int POLICY, bool intraBlockPartSum, bool partialNotMDL> struct cfg_check {
    static_assert(POLICY != POLICY_OTHER,
                  "Matmul: this MatmulPolicy is not one of the MatmulPolicy page's (MatmulPolicy, "
                  "TrianUpper/TrianLowerMatmulPolicy, NBuffer33MatmulPolicy); a kernel's own policy replaces "
                  "modules ascendrtc does not model");
    static_assert(POLICY != POLICY_SPLIT_N,
                  "Matmul: SplitNMatmulPolicy (a block's columns split between two AIVs) is not simulated yet by "
                  "ascendrtc");
    static_assert(!intraBlockPartSum,
                  "MatmulConfig.intraBlockPartSum (two AIVs' blocks summed in L0C) is not simulated by ascendrtc "
                  "(and the MatmulConfig page lists it for no Ascend 910B/950 product)");
    static_assert(!partialNotMDL,
                  "MatmulConfig.isPartialOutput needs the MDL template (CFG_MDL), as its page says");
    static constexpr bool ok = true;
};
} // namespace __mm
} // namespace AscendC

#endif /* ARC_MATMUL_POLICY_H_ */
