/* tiling/platform/platform_ascendc.h, kernel side - included by some
 * op_host tiling headers; the platform queries are host API, so a kernel
 * compile needs only the class name (headers declare host functions taking
 * a PlatformAscendC reference). */
#ifndef ARC_TILING_PLATFORM_ASCENDC_H_
#define ARC_TILING_PLATFORM_ASCENDC_H_

#include <cstdint>

namespace platform_ascendc {
class PlatformAscendC;
} // namespace platform_ascendc

#endif
