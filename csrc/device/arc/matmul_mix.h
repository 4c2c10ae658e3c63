/* matmul_mix.h - the Matmul API's place in a kernel's type: which core
 * computes (in a MIX kernel the AIVs are clients of their AIC, which only
 * serves; with ASCENDC_CUBE_ONLY the AIC computes), the check that the
 * launch has a computing core for every tile the tiling has, and
 * REGIST_MATMUL_OBJ.  The uses the rtc infers the kernel type from
 * (rtc/kernel_uses.cpp) are marked here. */
#ifndef ARC_MATMUL_MIX_H_
#define ARC_MATMUL_MIX_H_

#include "arc/cube_types.h"
#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {
namespace __mm {
/* In a MIX kernel the AIC's REGIST_MATMUL_OBJ serves its AIVs' requests
 * and the AIC runs nothing else; with ASCENDC_CUBE_ONLY the AIC computes. */
#ifdef ASCENDC_CUBE_ONLY
constexpr bool aic_serves = false;
#else
constexpr bool aic_serves = true;
#endif
/* What the kernel type (written or inferred) makes of the Matmul API: a
 * kernel that uses it is MIX unless cube-only (rtc/kernel_uses.cpp). */
constexpr unsigned uses = aic_serves ? ARC_USES_MATMUL : ARC_USES_CUBE;

/* The cores that compute this launch's tiles: usedCoreNum of them must
 * exist, or tiles of C are never computed.  An AIC that serves its AIVs
 * computes none itself; an AIV whose kernel type starts no AIC has nobody
 * to compute for it (the NPU's client would wait forever). */
inline void check_cores(const TCubeTiling &t, const char *api)
{
    const arc_core *c = __arc_core();
    bool mix = c->ktype == KERNEL_TYPE_MIX_AIC_1_1 || c->ktype == KERNEL_TYPE_MIX_AIC_1_2;
    if (aic_serves && c->core_type == 1 && mix) return;
    ARC_CHECK(!aic_serves || c->core_type == 1 || mix, api,
              "the Matmul API computes on the AIC, which a kernel of type %u (%s) does not start: write "
              "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2) (or none: a kernel using the Matmul API is MIX), "
              "or define ASCENDC_CUBE_ONLY and use KERNEL_TYPE_AIC_ONLY", c->ktype,
              c->ktype == KERNEL_TYPE_AIV_ONLY ? "KERNEL_TYPE_AIV_ONLY" : "not MIX");
    long long per = c->core_type == 0 ? c->sub_block_num : 1, have = c->block_num * per;
    if (t.usedCoreNum <= have) return;
    if (c->core_type == 0 && mix)
        __arc_trap(api, "TCubeTiling.usedCoreNum is %d but the launch has %lld blocks x %lld AIVs = %lld vector "
                   "cores, so tiles %lld..%d of C would never be computed; a MIX kernel's blockDim counts AI "
                   "cores (1 AIC + %lld AIVs each): launch (usedCoreNum + %lld) / %lld = %lld blocks",
                   t.usedCoreNum, c->block_num, per, have, have, t.usedCoreNum - 1, per, per - 1, per,
                   (t.usedCoreNum + per - 1) / per);
    __arc_trap(api, "TCubeTiling.usedCoreNum is %d but the launch has %lld blocks of %s cores, so tiles "
               "%lld..%d of C would never be computed: launch usedCoreNum blocks", t.usedCoreNum, have,
               c->core_type ? "cube" : "vector", have, t.usedCoreNum - 1);
}

inline void regist(TPipe *, uint8_t *)
{
    __arc_uses(uses);
    if (aic_serves && ASCEND_IS_AIC) __arc_cross_core(2, 0, 0);
}
/* A null tiling: a constant tiling's (Matmul::init_static), or Init later. */
template <typename MM, typename... R> inline void regist(TPipe *p, uint8_t *ws, MM &mm, const TCubeTiling *t, R &&...rest)
{
    if (t) mm.Init(t, p);
    else mm.init_static();
    regist(p, ws, rest...);
}
template <typename MM, typename... R> inline void regist(TPipe *p, uint8_t *ws, MM &mm, decltype(nullptr), R &&...rest)
{
    mm.init_static();
    regist(p, ws, rest...);
}
template <typename MM, typename... R>
inline void regist(TPipe *p, uint8_t *ws, MM &mm, TCubeTiling *t, R &&...rest)
{
    regist(p, ws, mm, (const TCubeTiling *)t, rest...);
}
} // namespace __mm
} // namespace AscendC

/* Registers up to 4 Matmul objects with their tilings (Init on each). */
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) ::AscendC::__mm::regist((tpipe), (uint8_t *)(workspace), __VA_ARGS__)
#define REGIST_MATMUL_OBJ_STATIC REGIST_MATMUL_OBJ

#endif /* ARC_MATMUL_MIX_H_ */
