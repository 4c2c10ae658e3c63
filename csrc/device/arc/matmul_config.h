/* matmul_config.h - the Matmul API's configs (MatmulConfig, the Get*Config
 * builders, CFG_NORM / CFG_MDL..., the constant tiling): global names, as
 * in CANN (kernels use CFG_MDL unqualified).  None changes the results
 * (arc/matmul_api.h). */
#ifndef ARC_MATMUL_CONFIG_H_
#define ARC_MATMUL_CONFIG_H_

#include <stdint.h>

/* Configs are global names in CANN (kernels use CFG_MDL unqualified). */
enum class MatmulConfigMode : int32_t { CONFIG_NORM = 0, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };
enum class IterateOrder : int32_t { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT };

/* The scheduling choices of a Matmul; none changes the results here. */
struct MatmulConfig {
    bool doNorm = true;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    bool doIBShareNorm = false;
    bool doSpecialMDL = false;
    bool enUnitFlag = true;
    bool intrinsicsCheck = false;
    bool enVecND2NZ = false;
    uint32_t basicM = 0, basicN = 0, basicK = 0;
    uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
};
struct MatmulShapeParams {
    uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0, basicM = 0, basicN = 0, basicK = 0;
};
template <typename... A> constexpr MatmulConfig GetNormalConfig(A...) { return MatmulConfig{}; }
template <typename... A> constexpr MatmulConfig GetMDLConfig(A...)
{
    MatmulConfig c{};
    c.doNorm = false;
    c.doMultiDataLoad = true;
    c.enUnitFlag = false;
    return c;
}
template <typename... A> constexpr MatmulConfig GetSpecialMDLConfig(A...)
{
    MatmulConfig c = GetMDLConfig();
    c.doSpecialMDL = true;
    return c;
}
template <typename... A> constexpr MatmulConfig GetBasicConfig(uint32_t m = 0, uint32_t n = 0, uint32_t k = 0, A...)
{
    MatmulConfig c{};
    c.doBasicBlock = true;
    c.basicM = m;
    c.basicN = n;
    c.basicK = k;
    return c;
}
template <typename... A> constexpr MatmulConfig GetIBShareNormConfig(A...)
{
    MatmulConfig c{};
    c.doIBShareNorm = true;
    return c;
}
template <MatmulConfigMode MODE, typename... A> constexpr MatmulConfig GetMMConfig(A...)
{
    return MODE == MatmulConfigMode::CONFIG_MDL ? GetMDLConfig()
           : MODE == MatmulConfigMode::CONFIG_SPECIALMDL ? GetSpecialMDLConfig()
           : MODE == MatmulConfigMode::CONFIG_IBSHARE ? GetIBShareNormConfig()
                                                      : GetNormalConfig();
}
template <MatmulConfigMode MODE, typename... A> constexpr MatmulConfig GetMMConfig(const MatmulShapeParams &p, A...)
{
    MatmulConfig c = GetMMConfig<MODE>();
    c.singleCoreM = p.singleCoreM;
    c.singleCoreN = p.singleCoreN;
    c.singleCoreK = p.singleCoreK;
    c.basicM = p.basicM;
    c.basicN = p.basicN;
    c.basicK = p.basicK;
    return c;
}
/* Constant tiling (GetMatmulApiTiling): the config and shapes fixed at
 * compile time; the Matmul takes it as its MM_CFG and computes the same. */
struct MatmulApiStaticTiling {
    MatmulConfig cfg{};
    int32_t usedCoreNum = -1, M = -1, N = -1, Ka = -1, Kb = -1;
    int32_t singleCoreM = -1, singleCoreN = -1, singleCoreK = -1, baseM = -1, baseN = -1, baseK = -1;
};
template <class A, class B, class C, class BIAS>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig &cfg, int32_t = 0)
{
    MatmulApiStaticTiling t{};
    t.cfg = cfg;
    t.singleCoreM = (int32_t)cfg.singleCoreM;
    t.singleCoreN = (int32_t)cfg.singleCoreN;
    t.singleCoreK = (int32_t)cfg.singleCoreK;
    t.baseM = (int32_t)cfg.basicM;
    t.baseN = (int32_t)cfg.basicN;
    t.baseK = (int32_t)cfg.basicK;
    return t;
}
constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 64);

#endif /* ARC_MATMUL_CONFIG_H_ */
