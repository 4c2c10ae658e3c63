/* rmsnorm.h - RmsNorm (advanced API, normalisation) over the last axis of
 * src [B, S, H] (from RmsNormTiling):
 *   dst = x / sqrt(sum(x^2) / oriH + epsilon) * gamma
 * gamma is [H].  Computed in float.  Assumed where the docs are silent:
 * only the first originalHLength columns take part and dst's columns
 * originalHLength..H-1 are written 0. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_NORMALIZATION_RMSNORM_H_
#define ARC_LIB_NORMALIZATION_RMSNORM_H_

#include "lib/adv/common.h"
#include "lib/tiling/adv_tiling_data.h"

namespace AscendC {
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const LocalTensor<T> &gammaLocal,
                    const T epsilon, const RmsNormTiling &tiling)
{
    ARC_ADV_HF(RmsNorm);
    const char *api = "AscendC::RmsNorm";
    const uint32_t rows = tiling.bLength * tiling.sLength, h = tiling.hLength;
    const uint32_t oh = tiling.originalHLength ? tiling.originalHLength : h;
    ARC_CHECK(h > 0 && oh <= h, api, "tiling: hLength %u, originalHLength %u", h, oh);
    __arc::adv_need(dstLocal, (uint64_t)rows * h, api, "dst");
    __arc::adv_need(srcLocal, (uint64_t)rows * h, api, "src");
    __arc::adv_need(gammaLocal, oh, api, "gamma");
    const float eps = (float)epsilon;
    const float inv = tiling.reciprocalOfHLength != 0.0f ? tiling.reciprocalOfHLength : 1.0f / (float)oh;
    for (uint32_t r = 0; r < rows; r++) {
        const T *x = srcLocal.addr_ + (uint64_t)r * h;
        T *y = dstLocal.addr_ + (uint64_t)r * h;
        float s = 0.0f;
        for (uint32_t c = 0; c < oh; c++) s += (float)x[c] * (float)x[c];
        const float rs = 1.0f / __builtin_sqrtf(s * inv + eps);
        for (uint32_t c = 0; c < oh; c++) y[c] = (T)((float)x[c] * rs * (float)gammaLocal.addr_[c]);
        for (uint32_t c = oh; c < h; c++) y[c] = (T)0.0f;
    }
}
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const LocalTensor<T> &gammaLocal,
                    const LocalTensor<uint8_t> &sharedTmpBuffer, const T epsilon, const RmsNormTiling &tiling)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::RmsNorm");
    RmsNorm<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, epsilon, tiling);
}
} // namespace AscendC

#endif /* ARC_LIB_NORMALIZATION_RMSNORM_H_ */
