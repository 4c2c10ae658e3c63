/* welford_tiling_api.h - the scratch sizes of WelfordUpdate and
 * WelfordFinalize, for op-project host code and single-source programs:
 * AscendC::GetWelfordUpdateMaxMinTmpSize, GetWelfordFinalizeMaxMinTmpSize
 * (with or without the platform argument, which is not used).
 *
 * The sizes are ascendrtc's, as for the element-wise APIs
 * (adv_elem_tiling_api.h: one 256-byte repeat at least, a float per element
 * at most); the simulated kernels need none, and the NPU's figures are not
 * public.  A bad shape or type size leaves both zero and says why on
 * stderr. */
#ifndef ARC_HOST_WELFORD_TILING_API_H_
#define ARC_HOST_WELFORD_TILING_API_H_

#include <stdint.h>
#include <stdio.h>

#include "adv_elem_tiling_api.h"

namespace AscendC {
/* srcShape {rnLength, abLength}; inputX of typeSizeT bytes (half or
 * float), the means and variances of typeSizeU (float). */
template <class Shape>
inline void GetWelfordUpdateMaxMinTmpSize(const Shape &srcShape, const uint32_t typeSizeT, const uint32_t typeSizeU,
                                          const bool isReuseSource, const bool isInplace, uint32_t &maxValue,
                                          uint32_t &minValue)
{
    (void)isReuseSource;
    (void)isInplace;
    const char *api = "GetWelfordUpdateMaxMinTmpSize";
    maxValue = minValue = 0;
    if (srcShape.GetDimNum() != 2) {
        fprintf(stderr, "ascendrtc: %s: srcShape has %u dims; it is {rnLength, abLength}\n", api,
                (unsigned)srcShape.GetDimNum());
        return;
    }
    if (typeSizeT != 2 && typeSizeT != 4) {
        fprintf(stderr, "ascendrtc: %s: typeSizeT %u is not 2 (half, bfloat16_t) or 4 (float)\n", api, typeSizeT);
        return;
    }
    if (typeSizeU != 4) {
        fprintf(stderr, "ascendrtc: %s: typeSizeU %u is not 4 (the means and variances are float)\n", api, typeSizeU);
        return;
    }
    arc_detail::elem_scratch(arc_detail::elem_count(srcShape), typeSizeT, api, maxValue, minValue);
}
template <class Shape, class Platform>
inline void GetWelfordUpdateMaxMinTmpSize(const Shape &srcShape, const uint32_t typeSizeT, const uint32_t typeSizeU,
                                          const bool isReuseSource, const bool isInplace, const Platform &,
                                          uint32_t &maxValue, uint32_t &minValue)
{
    GetWelfordUpdateMaxMinTmpSize(srcShape, typeSizeT, typeSizeU, isReuseSource, isInplace, maxValue, minValue);
}
/* srcShape {abLength}: the means and variances, of typeSize (float). */
template <class Shape>
inline void GetWelfordFinalizeMaxMinTmpSize(const Shape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                            uint32_t &maxValue, uint32_t &minValue)
{
    (void)isReuseSource;
    const char *api = "GetWelfordFinalizeMaxMinTmpSize";
    maxValue = minValue = 0;
    if (typeSize != 4) {
        fprintf(stderr, "ascendrtc: %s: typeSize %u is not 4 (the means and variances are float)\n", api, typeSize);
        return;
    }
    arc_detail::elem_scratch(arc_detail::elem_count(srcShape), typeSize, api, maxValue, minValue);
}
template <class Shape, class Platform>
inline void GetWelfordFinalizeMaxMinTmpSize(const Shape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                            const Platform &, uint32_t &maxValue, uint32_t &minValue)
{
    GetWelfordFinalizeMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}
} // namespace AscendC

#endif /* ARC_HOST_WELFORD_TILING_API_H_ */
