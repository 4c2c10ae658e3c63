// platform/soc_spec.h - NpuArch, the NPU architecture a SoC implements
// (dav-<number>), as host code compares it: PlatformAscendC::GetCurNpuArch()
// answers the simulated NPU's.  Enumerators carry the architecture number.
#ifndef ARC_HOST_PLATFORM_SOC_SPEC_H
#define ARC_HOST_PLATFORM_SOC_SPEC_H

#include <cstdint>

enum class NpuArch : uint32_t {
    DAV_1001 = 1001,
    DAV_2002 = 2002,
    DAV_2201 = 2201,
    DAV_3002 = 3002,
    DAV_3003 = 3003,
    DAV_3102 = 3102,
    DAV_3113 = 3113,
    DAV_3510 = 3510,
    DAV_5102 = 5102,
    DAV_RESV = 0xFFFFFFFFU,  // none of the above
};

#endif
