/* matmul_config.h - the Matmul API's configs (MatmulConfig, its sub-configs
 * MatmulShapeParams/QuantParams/BatchParams/FuncParams, the Get*Config
 * builders, CFG_NORM / CFG_MDL..., the constant tiling): global names, as
 * in CANN (kernels use CFG_MDL unqualified).
 *
 * MatmulConfig's members are in the order of the MatmulConfig page's
 * parameter table, which positional initialisers ({true, false, ...}) rely
 * on.  Which members change what is computed, and which are scheduling
 * only, is arc/matmul_policy.h's (cfg_check). */
#ifndef ARC_MATMUL_CONFIG_H_
#define ARC_MATMUL_CONFIG_H_

#include <stdint.h>

enum class MatmulConfigMode : int32_t { CONFIG_NORM = 0, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };
enum class IterateOrder : int32_t { ORDER_M = 0, ORDER_N, UNDEF };
/* N_BUFFER_33: the tiling's schedule for NBuffer33MatmulPolicy (SetMatmulConfigParams). */
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT, N_BUFFER_33 };
enum class BatchMode : int32_t { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum class BatchOutMode : int32_t { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
enum class IterateMode : uint8_t { ITERATE_MODE_NORMAL = 0, ITERATE_MODE_ALL, ITERATE_MODE_BATCH,
                                   ITERATE_MODE_N_BATCH, ITERATE_MODE_DEFAULT };

struct MatmulConfig {
    bool doNorm = true;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    uint32_t basicM = 0, basicN = 0, basicK = 0;
    bool intrinsicsCheck = false;
    bool isNBatch = false;
    bool enVecND2NZ = false;
    bool doSpecialBasicBlock = false;
    uint32_t doMTE2Preload = 0;
    uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
    uint32_t stepM = 0, stepN = 0;
    uint32_t baseMN = 0, singleCoreMN = 0;
    bool enUnitFlag = true;
    bool isPerTensor = false;
    bool hasAntiQuantOffset = false;
    bool doIBShareNorm = false;
    bool doSpecialMDL = false;
    bool enableInit = true;
    BatchMode batchMode = BatchMode::BATCH_LESS_THAN_L1;
    bool enableEnd = true;
    bool enableGetTensorC = true;
    bool enableSetOrgShape = true;
    bool enableSetBias = true;
    bool enableSetTail = true;
    bool enableQuantVector = true;
    bool enableSetDefineData = true;
    IterateMode iterateMode = IterateMode::ITERATE_MODE_DEFAULT;
    bool enableReuse = true;
    bool enableUBReuse = false;
    bool enableL1CacheUB = false;
    bool intraBlockPartSum = false;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enableDoubleCache = false;
    bool isBiasBatch = true;
    bool enableStaticPadZeros = false;
    bool isPartialOutput = false;
    bool enableMixDualMaster = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool isCO1Shared = false;
    uint32_t sharedCO1BufferSize = 64 * 1024;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
    bool enableL1BankConflictOptimise = false;
    bool enableRelu = false;
};

/* GetMMConfig's sub-configs, members in their pages' order. */
struct MatmulShapeParams {
    uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0, basicM = 0, basicN = 0, basicK = 0;
};
struct MatmulQuantParams {
    bool isPerTensor = false, hasAntiQuantOffset = false;
};
struct MatmulBatchParams {
    bool isNBatch = false;
    BatchMode batchMode = BatchMode::BATCH_LESS_THAN_L1;
    bool isBiasBatch = true;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};
struct MatmulFuncParams {
    bool intrinsicsLimit = false, enVecND2NZ = false, enableDoubleCache = false, enableL1CacheUB = false;
    uint32_t doMTE2Preload = 0;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enableReuse = true, enableUBReuse = false, isPartialOutput = false, isA2B2Shared = false,
         isEnableChannelSplit = false, enableKdimReorderLoad = false, enableL1BankConflictOptimise = false;
};

constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit = false, bool batchLoop = false, bool isVecND2NZ = false,
                                       BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1, bool isMsgReuse = true,
                                       IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       ScheduleType scheduleType = ScheduleType::INNER_PRODUCT, bool enUnitFlag = true,
                                       bool enableMixDualMaster = false,
                                       BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH)
{
    MatmulConfig c{};
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    c.batchMode = bmmMode;
    c.enableReuse = isMsgReuse;
    c.iterateOrder = iterateOrder;
    c.scheduleType = scheduleType;
    c.enUnitFlag = enUnitFlag;
    c.enableMixDualMaster = enableMixDualMaster;
    c.bmmOutMode = bmmOutMode;
    return c;
}
constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false, uint32_t doMTE2Preload = 0,
                                    bool isVecND2NZ = false, bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    bool enUnitFlag = false, bool isMsgReuse = true, bool enableUBReuse = true,
                                    bool enableL1CacheUB = false, bool enableMixDualMaster = false,
                                    bool enableKdimReorderLoad = false)
{
    MatmulConfig c{};
    c.doNorm = false;
    c.doMultiDataLoad = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.doMTE2Preload = doMTE2Preload;
    c.enVecND2NZ = isVecND2NZ;
    c.isPerTensor = isPerTensor;
    c.hasAntiQuantOffset = hasAntiQuantOffset;
    c.enUnitFlag = enUnitFlag;
    c.enableReuse = isMsgReuse;
    c.enableUBReuse = enableUBReuse;
    c.enableL1CacheUB = enableL1CacheUB;
    c.enableMixDualMaster = enableMixDualMaster;
    c.enableKdimReorderLoad = enableKdimReorderLoad;
    return c;
}
/* SpecialMDL: doMultiDataLoad must be false with it (the MatmulConfig page). */
constexpr MatmulConfig GetSpecialMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                           uint32_t doMTE2Preload = 0, bool isVecND2NZ = false,
                                           bool isPerTensor = false, bool hasAntiQuantOffset = false)
{
    MatmulConfig c = GetMDLConfig(intrinsicsLimit, batchLoop, doMTE2Preload, isVecND2NZ, isPerTensor,
                                  hasAntiQuantOffset);
    c.doMultiDataLoad = false;
    c.doSpecialMDL = true;
    return c;
}
constexpr MatmulConfig GetBasicConfig(uint32_t basicM, uint32_t basicN, uint32_t basicK, bool intrinsicsLimit = false,
                                      bool batchLoop = false, BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1)
{
    MatmulConfig c{};
    c.doNorm = false;
    c.doBasicBlock = true;
    c.basicM = basicM;
    c.basicN = basicN;
    c.basicK = basicK;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.batchMode = bmmMode;
    return c;
}
constexpr MatmulConfig GetIBShareNormConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                            bool isVecND2NZ = false, BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                            bool isDoubleCache = false, bool enUnitFlag = true)
{
    MatmulConfig c{};
    c.doNorm = false;
    c.doIBShareNorm = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    c.batchMode = bmmMode;
    c.enableDoubleCache = isDoubleCache;
    c.enUnitFlag = enUnitFlag;
    return c;
}

/* GetMMConfig<MODE>(sub-configs in any order): the mode's config with each
 * sub-config's members written over it. */
namespace __arc_mmcfg {
constexpr void apply(MatmulConfig &c, const MatmulShapeParams &p)
{
    c.singleCoreM = p.singleCoreM;
    c.singleCoreN = p.singleCoreN;
    c.singleCoreK = p.singleCoreK;
    c.basicM = p.basicM;
    c.basicN = p.basicN;
    c.basicK = p.basicK;
}
constexpr void apply(MatmulConfig &c, const MatmulQuantParams &p)
{
    c.isPerTensor = p.isPerTensor;
    c.hasAntiQuantOffset = p.hasAntiQuantOffset;
}
constexpr void apply(MatmulConfig &c, const MatmulBatchParams &p)
{
    c.isNBatch = p.isNBatch;
    c.batchMode = p.batchMode;
    c.isBiasBatch = p.isBiasBatch;
    c.bmmOutMode = p.bmmOutMode;
}
constexpr void apply(MatmulConfig &c, const MatmulFuncParams &p)
{
    c.intrinsicsCheck = p.intrinsicsLimit;
    c.enVecND2NZ = p.enVecND2NZ;
    c.enableDoubleCache = p.enableDoubleCache;
    c.enableL1CacheUB = p.enableL1CacheUB;
    c.doMTE2Preload = p.doMTE2Preload;
    c.iterateOrder = p.iterateOrder;
    c.scheduleType = p.scheduleType;
    c.enableReuse = p.enableReuse;
    c.enableUBReuse = p.enableUBReuse;
    c.isPartialOutput = p.isPartialOutput;
    c.isA2B2Shared = p.isA2B2Shared;
    c.isEnableChannelSplit = p.isEnableChannelSplit;
    c.enableKdimReorderLoad = p.enableKdimReorderLoad;
    c.enableL1BankConflictOptimise = p.enableL1BankConflictOptimise;
}
} // namespace __arc_mmcfg

template <MatmulConfigMode MODE, typename... ArgTypes> constexpr MatmulConfig GetMMConfig(ArgTypes &&...args)
{
    MatmulConfig c = MODE == MatmulConfigMode::CONFIG_MDL          ? GetMDLConfig()
                     : MODE == MatmulConfigMode::CONFIG_SPECIALMDL ? GetSpecialMDLConfig()
                     : MODE == MatmulConfigMode::CONFIG_IBSHARE    ? GetIBShareNormConfig()
                                                                   : GetNormalConfig();
    (__arc_mmcfg::apply(c, args), ...);
    return c;
}

/* Constant tiling (GetMatmulApiTiling): TCubeTiling's fields fixed at
 * compile time (-1: given at run time) and the config.  A Matmul takes it
 * as its MM_CFG; with singleCore and base shapes all constant, its tiling
 * pointer may be null (arc/matmul_policy.h static_tiling). */
struct MatmulApiStaticTiling {
    int32_t usedCoreNum = -1, M = -1, N = -1, Ka = -1, Kb = -1;
    int32_t singleCoreM = -1, singleCoreN = -1, singleCoreK = -1, baseM = -1, baseN = -1, baseK = -1;
    int32_t depthA1 = -1, depthB1 = -1, stepM = -1, stepN = -1, isBias = -1, transLength = -1, iterateOrder = -1;
    int32_t shareMode = -1, shareL1Size = -1, shareL0CSize = -1, shareUbSize = -1;
    int32_t stepKa = -1, stepKb = -1, depthAL1CacheUB = -1, depthBL1CacheUB = -1, dbL0A = -1, dbL0B = -1, dbL0C = -1;
    int32_t batchM = -1, batchN = -1, singleBatchM = -1, singleBatchN = -1, mxTypePara = -1;
    MatmulConfig cfg{};
};
/* The base shape from the config; the singleCore shape when it is given
 * (0 leaves it to the run-time tiling).  The L1 depths and steps are
 * scheduling and do not change the results. */
template <class A, class B, class C, class BIAS>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig &cfg, int32_t l1Size = 512 * 1024)
{
    (void)l1Size;
    MatmulApiStaticTiling t{};
    t.cfg = cfg;
    if (cfg.singleCoreM && cfg.singleCoreN && cfg.singleCoreK) {
        t.singleCoreM = (int32_t)cfg.singleCoreM;
        t.singleCoreN = (int32_t)cfg.singleCoreN;
        t.singleCoreK = (int32_t)cfg.singleCoreK;
    }
    if (cfg.basicM && cfg.basicN && cfg.basicK) {
        t.baseM = (int32_t)cfg.basicM;
        t.baseN = (int32_t)cfg.basicN;
        t.baseK = (int32_t)cfg.basicK;
    }
    return t;
}
constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 64);

#endif /* ARC_MATMUL_CONFIG_H_ */
