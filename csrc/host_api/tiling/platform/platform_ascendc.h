// tiling/platform/platform_ascendc.h - platform_ascendc::PlatformAscendC: the
// SoC facts a tiling function asks for (core counts, on-chip memory sizes,
// SoC version).  ascendrtc fills fe::PlatFormInfos from the simulated NPU the
// op will run on (csrc/rt/acl/soc.c), so tiling decisions match the launch.
#ifndef ARC_HOST_PLATFORM_ASCENDC_H
#define ARC_HOST_PLATFORM_ASCENDC_H

#include <cstdint>
#include <string>

#include "platform/platform_infos_def.h"
#include "platform/soc_spec.h"
#if __has_include("common/socs.h")
#include "common/socs.h"
/* the simulated SoC's name (libascendcl), weak: op host code may run without it */
extern "C" const char *aclrtGetSocName(void) __attribute__((weak));
#endif


namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

enum class SocVersion {
    ASCEND910 = 0,
    ASCEND910B,
    ASCEND910_93,
    ASCEND910_95,
    ASCEND310P,
    ASCEND310B,
    ASCEND310,
    ASCEND610,
    ASCEND610LITE,
    KIRINX90,
    ASCEND950,
    ASCEND910E,
    ASCEND910_55,
    ASCEND310C,
    ASCEND350,
    KIRIN9030,
    RESERVED_VERSION = 99999
};

class PlatformAscendC {
public:
    PlatformAscendC() = delete;
    ~PlatformAscendC() = default;
    explicit PlatformAscendC(fe::PlatFormInfos *platformInfo) : info_(platformInfo) {}

    // On a SoC with separate cube and vector cores: the vector core count.
    uint32_t GetCoreNum() const { return info_ ? (info_->split_arch ? info_->aiv_num : info_->aic_num) : 0; }
    uint32_t GetCoreNumAic() const { return info_ ? info_->aic_num : 0; }
    uint32_t GetCoreNumAiv() const { return info_ ? info_->aiv_num : 0; }
    uint32_t GetCoreNumVector() const { return 0; }  // no separate Vector Core beside the AI cores

    SocVersion GetSocVersion() const
    {
        if (!info_)
            return SocVersion::RESERVED_VERSION;
        const std::string &s = info_->short_soc_version;
        if (s == "Ascend910B")
            return SocVersion::ASCEND910B;
        if (s == "Ascend910_93")
            return SocVersion::ASCEND910_93;
        if (s == "Ascend950" || s == "Ascend910_95")
            return SocVersion::ASCEND950;
        if (s == "Ascend910")
            return SocVersion::ASCEND910;
        if (s == "Ascend310P")
            return SocVersion::ASCEND310P;
        if (s == "Ascend310B")
            return SocVersion::ASCEND310B;
        return SocVersion::RESERVED_VERSION;
    }

    // Groups of one AIC and aiv/aic AIVs needed for sliceNum slices of a
    // mixed cube/vector op; sliceNum when the op uses one kind of core.
    // The simulated NPU's architecture (dav-2201: NpuArch::DAV_2201).
    NpuArch GetCurNpuArch() const
    {
        switch (info_ ? info_->npu_arch : 0) {
        case 2201: return NpuArch::DAV_2201;
        case 3510: return NpuArch::DAV_3510;
        case 2002: return NpuArch::DAV_2002;
        case 3002: return NpuArch::DAV_3002;
        default: return NpuArch::DAV_RESV;
        }
    }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const
    {
        if (aicCoreNum == 0 || aivCoreNum == 0 || aivCoreNum <= aicCoreNum)
            return sliceNum;
        uint32_t ratio = aivCoreNum / aicCoreNum;
        return (sliceNum + ratio - 1) / ratio;
    }
    // CANN 2026's name for CalcTschBlockDim (used with SetSimdNumBlocks).
    uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const
    {
        return CalcTschBlockDim(sliceNum, aicCoreNum, aivCoreNum);
    }

    void GetCoreMemSize(const CoreMemType &memType, uint64_t &size) const
    {
        size = 0;
        if (!info_)
            return;
        switch (memType) {
        case CoreMemType::UB: size = info_->ub_size; break;
        case CoreMemType::L1: size = info_->l1_size; break;
        case CoreMemType::L0_A: size = info_->l0a_size; break;
        case CoreMemType::L0_B: size = info_->l0b_size; break;
        case CoreMemType::L0_C: size = info_->l0c_size; break;
        case CoreMemType::L2: size = info_->l2_size; break;
        case CoreMemType::HBM: size = info_->hbm_size; break;
        default: break;
        }
    }

    // Bandwidths are not simulated: 0 bytes/cycle.
    void GetCoreMemBw(const CoreMemType &, uint64_t &bwSize) const { bwSize = 0; }

    // The simulated NPU keeps its system workspace apart from the op's, so
    // this is what the runtime reports (0 unless it says otherwise).
    uint32_t GetLibApiWorkSpaceSize() const { return info_ ? info_->lib_api_workspace : 0; }
    uint32_t GetResGroupBarrierWorkSpaceSize() const { return 0; }
    uint32_t GetResCubeGroupWorkSpaceSize() const { return 0; }

private:
    fe::PlatFormInfos *info_;
};

// The platform of the op being tiled (set by ascendrtc around each call).
class PlatformAscendCManager {
public:
    static PlatformAscendC *GetInstance()
    {
        static PlatformAscendC inst(Current());
        inst = PlatformAscendC(Current() ? Current() : Simulated());
        return &inst;
    }
    // The platform of a named SoC.  ascendrtc simulates one SoC per process
    // (ASCENDRTC_SIM_SOC), so this is the simulated NPU's platform; the name
    // is not read.
    static PlatformAscendC *GetInstance(const char *customSocVersion)
    {
        (void)customSocVersion;
        return GetInstance();
    }
    static fe::PlatFormInfos *&Current()
    {
        static fe::PlatFormInfos *p = nullptr;
        return p;
    }

private:
    // Outside an op's tiling (a program's host code, ascendrtc cc): the
    // simulated NPU's SoC (aclrtGetSocName) from the one table, common/socs.h.
    static fe::PlatFormInfos *Simulated()
    {
        static fe::PlatFormInfos p;
#if __has_include("common/socs.h")
        const char *soc = aclrtGetSocName ? aclrtGetSocName() : nullptr;
        if (soc && p.soc_version != soc) {
            p = fe::PlatFormInfos();
#define ARC_PLATFORM_SOC(name, arch, shortv, aic, aiv, aicpu, mhz, l2_mib, hbm_gib, gm, l2bw)            \
    if (std::string(soc) == name) {                                                                      \
        p.soc_version = name, p.short_soc_version = shortv, p.aic_num = aic, p.aiv_num = aiv;              \
        p.npu_arch = arch, p.l2_size = (uint64_t)l2_mib << 20, p.hbm_size = (uint64_t)hbm_gib << 30;        \
    }
            ARC_SOCS(ARC_PLATFORM_SOC)
#undef ARC_PLATFORM_SOC
#define ARC_PLATFORM_ARCH(a, arch, ub, l1, l0a, l0b, l0c, ...)                                           \
    if (p.npu_arch == arch)                                                                              \
        p.ub_size = ub * 1024ull, p.l1_size = l1 * 1024ull, p.l0a_size = l0a * 1024ull,                    \
        p.l0b_size = l0b * 1024ull, p.l0c_size = l0c * 1024ull;
            ARC_ARCHS(ARC_PLATFORM_ARCH)
#undef ARC_PLATFORM_ARCH
            p.lib_api_workspace = ARC_LIB_API_WORKSPACE;
        }
#endif
        return &p;
    }
};

} // namespace platform_ascendc

#endif
