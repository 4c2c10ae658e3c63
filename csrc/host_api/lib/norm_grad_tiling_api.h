/* norm_grad_tiling_api.h - LayerNormGrad's and LayerNormGradBeta's host
 * tiling, for op-project host code and single-source programs:
 * AscendC::GetLayerNormGradMaxMinTmpSize, GetLayerNormGradNDTilingInfo,
 * GetLayerNormGradBetaMaxMinTmpSize, GetLayerNormGradBetaNDTilingInfo.
 *
 * The shape is {B, S, H, originH} (or {B, S, H}); the two H must agree, as
 * the pages say they do where the API is supported.  The scratch sizes are
 * ascendrtc's, as LayerNorm's (adv_tiling.h: float intermediates of one
 * row at least, of every row at most); the tilings get the shape and
 * stackBufferSize, the NPU's split (not public) stays 0.  A bad shape
 * leaves everything zero and says why on stderr. */
#ifndef ARC_HOST_NORM_GRAD_TILING_API_H_
#define ARC_HOST_NORM_GRAD_TILING_API_H_

#include <stdio.h>
#include <string.h>

#include "adv_tiling_api.h" /* arc_detail, optiling::LayerNormGrad(Beta)Tiling */

namespace AscendC {
namespace arc_detail {
/* B, S, H of a LayerNormGrad(Beta) shape, the sizes with `bufs` float
 * intermediates per element; the error, or nullptr. */
template <class Shape>
inline const char *lng_sizes(const Shape &srcShape, uint32_t typeSize, uint32_t bufs, uint32_t *bsh,
                             uint32_t &maxValue, uint32_t &minValue)
{
    auto d = of(srcShape);
    maxValue = minValue = 0;
    const char *e = arc_adv_type_size(typeSize, 0);
    if (e || (e = arc_norm_bsh(d.d, d.n, &bsh[0], &bsh[1], &bsh[2]))) return e;
    if (d.n == 4 && d.d[3] != d.d[2]) return "originH must equal H (H padding is not supported)";
    if ((uint64_t)bsh[2] * typeSize % 32u) return "H must be 32-byte aligned";
    arc_adv_row_scratch(bsh[0] * bsh[1], bsh[2], bufs, &maxValue, &minValue);
    return nullptr;
}
} // namespace arc_detail

template <class Shape>
inline void GetLayerNormGradMaxMinTmpSize(const Shape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                          uint32_t &maxValue, uint32_t &minValue)
{
    uint32_t bsh[3];
    arc_detail::ok(arc_detail::lng_sizes(srcShape, typeSize, isReuseSource ? 3u : 4u, bsh, maxValue, minValue),
                   "GetLayerNormGradMaxMinTmpSize");
}
template <class Shape, class Tiling>
inline void GetLayerNormGradNDTilingInfo(const Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                         const bool isReuseSource, Tiling &tiling)
{
    uint32_t bsh[3], mx, mn;
    ::LayerNormGradTiling t{};
    if (arc_detail::ok(arc_detail::lng_sizes(srcShape, typeSize, isReuseSource ? 3u : 4u, bsh, mx, mn),
                       "GetLayerNormGradNDTilingInfo")) {
        t.stackBufferSize = stackBufferSize;
        t.bLength = bsh[0], t.sLength = bsh[1], t.hLength = t.originalHLength = bsh[2];
    }
    arc_detail::put(tiling, t);
}
template <class Shape>
inline void GetLayerNormGradBetaMaxMinTmpSize(const Shape &srcShape, const uint32_t typeSize,
                                              const bool isReuseSource, uint32_t &maxValue, uint32_t &minValue)
{
    uint32_t bsh[3];
    arc_detail::ok(arc_detail::lng_sizes(srcShape, typeSize, isReuseSource ? 1u : 2u, bsh, maxValue, minValue),
                   "GetLayerNormGradBetaMaxMinTmpSize");
}
template <class Shape, class Tiling>
inline void GetLayerNormGradBetaNDTilingInfo(const Shape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource, Tiling &tiling)
{
    uint32_t bsh[3], mx, mn;
    ::LayerNormGradBetaTiling t{};
    if (arc_detail::ok(arc_detail::lng_sizes(srcShape, typeSize, isReuseSource ? 1u : 2u, bsh, mx, mn),
                       "GetLayerNormGradBetaNDTilingInfo")) {
        t.stackBufferSize = stackBufferSize;
        t.bLength = bsh[0], t.sLength = bsh[1], t.hLength = t.originalHLength = bsh[2];
        t.bsLength = bsh[0] * bsh[1], t.bshLength = t.bsLength * bsh[2];
    }
    arc_detail::put(tiling, t);
}
} // namespace AscendC

#endif /* ARC_HOST_NORM_GRAD_TILING_API_H_ */
