// platform/platform_info.h - fe::PlatformInfoManager, the process-wide
// SoC description some host code asks directly: the simulated NPU's, as
// the op's TilingContext gives it (ascendrtc sets it around each call).
#ifndef ARC_HOST_PLATFORM_PLATFORM_INFO_H
#define ARC_HOST_PLATFORM_PLATFORM_INFO_H

#include <string>

#include "graph/types.h"
#include "platform/platform_infos_def.h"
#include "tiling/platform/platform_ascendc.h"

namespace fe {

struct SoCInfo {
    uint32_t ai_core_cnt = 0, vector_core_cnt = 0;
    uint64_t l2_size = 0;
};
struct AiCoreSpec {
    uint64_t ub_size = 0, l1_size = 0, l0_a_size = 0, l0_b_size = 0, l0_c_size = 0, ubblock_size = 32;
};
struct StrInfo {
    std::string short_soc_version;  // "Ascend910B", "Ascend950": what the libraries branch on
};
struct PlatformInfo {
    SoCInfo soc_info;
    AiCoreSpec ai_core_spec;
    StrInfo str_info;
};
using OptionalInfo = OptionalInfos;

class PlatformInfoManager {
public:
    static PlatformInfoManager &Instance()
    {
        static PlatformInfoManager m;
        return m;
    }
    static PlatformInfoManager &GeInstance() { return Instance(); }
    uint32_t InitializePlatformInfo() { return 0; }
    uint32_t GetPlatformInfoWithOutSocVersion(PlatformInfo &pi, OptionalInfo &)
    {
        const PlatFormInfos *p = platform_ascendc::PlatformAscendCManager::Current();
        if (!p)
            return ge::GRAPH_FAILED;
        pi.soc_info.ai_core_cnt = p->aic_num;
        pi.soc_info.vector_core_cnt = p->aiv_num;
        pi.ai_core_spec.ub_size = p->ub_size;
        pi.ai_core_spec.l1_size = p->l1_size;
        pi.ai_core_spec.l0_a_size = p->l0a_size;
        pi.ai_core_spec.l0_b_size = p->l0b_size;
        pi.ai_core_spec.l0_c_size = p->l0c_size;
        pi.soc_info.l2_size = p->l2_size;
        pi.str_info.short_soc_version = p->short_soc_version;
        return 0;
    }
    uint32_t GetPlatformInfos(const std::string &, PlatFormInfos &out, OptionalInfos &)
    {
        const PlatFormInfos *p = platform_ascendc::PlatformAscendCManager::Current();
        if (!p)
            return ge::GRAPH_FAILED;
        out = *p;
        return 0;
    }
    uint32_t GetPlatformInfoWithOutSocVersion(PlatFormInfos &out, OptionalInfos &o)
    {
        return GetPlatformInfos("", out, o);
    }
    void SetOptionalCompilationInfo(OptionalInfos &) {}
};

} // namespace fe

#endif
