/* deepnorm.h - DeepNorm (advanced API, normalisation) over the last axis of
 * [B, S, H] (DeepNormTiling, LayerNormTiling's fields):
 *   z = alpha * x + gx (each step rounded in float);  LayerNorm of z:
 *   mean = sum(z) / oriH, var = sum((z - mean)^2) / oriH,
 *   dst = (z - mean) / sqrt(var + epsilon) * gamma + beta
 * Its page names the third output rstdLocal ("reciprocal standard
 * deviation"), but the page's own example output and CANN's asc-devkit
 * deepnorm example (its golden) hold the variance there, as LayerNorm's
 * outputVariance: so does this.  Computed in float; columns past
 * originalHLength are written 0, as LayerNorm's.  Note the page's operand
 * order: beta before gamma. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_NORMALIZATION_DEEPNORM_H_
#define ARC_LIB_NORMALIZATION_DEEPNORM_H_

#include "lib/normalization/layernorm.h"

namespace AscendC {
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &meanLocal, const LocalTensor<T> &rstdLocal,
                     const LocalTensor<T> &srcLocal, const LocalTensor<T> &gxLocal, const LocalTensor<T> &betaLocal,
                     const LocalTensor<T> &gammaLocal, const T alpha, const T epsilon, DeepNormTiling &tiling)
{
    ARC_ADV_HF(DeepNorm);
    const char *api = "AscendC::DeepNorm";
    static_assert(!isReuseSrc || __arc::is_same<T, float>::value, "AscendC::DeepNorm: isReuseSrc is for float only");
    const uint32_t oh = __arc::ln_bsh_check(dstLocal, meanLocal, rstdLocal, srcLocal, gammaLocal, betaLocal, tiling, api);
    const uint32_t rows = tiling.bLength * tiling.sLength, h = tiling.hLength;
    ARC_CHECK(h <= 2040, api, "tiling: hLength %u exceeds 2040", h);
    ARC_CHECK(!isBasicBlock || (h % 64 == 0 && rows % 8 == 0 && oh == h), api,
              "isBasicBlock needs H a multiple of 64 (here %u, original %u) and B * S a multiple of 8 (here %u)", h, oh,
              rows);
    __arc::adv_need(gxLocal, (uint64_t)rows * h, api, "gxLocal");
    if (!isReuseSrc)
        __arc::check_overlap(dstLocal, (uint64_t)rows * h, srcLocal, (uint64_t)rows * h, ARC_OVERLAP_NONE, api,
                             "srcLocal");
    const float a = (float)alpha;
    for (uint32_t r = 0; r < rows; r++) {
        const T *x = srcLocal.addr_ + (uint64_t)r * h, *g = gxLocal.addr_ + (uint64_t)r * h;
        auto z = [x, g, a](uint32_t c) {
#pragma clang fp contract(off) /* alpha * x rounds before gx is added */
            return a * (float)x[c] + (float)g[c];
        };
        float mean, var;
        __arc::ln_bsh_row(z, oh, h, (float)epsilon, gammaLocal.addr_, betaLocal.addr_,
                          dstLocal.addr_ + (uint64_t)r * h, mean, var);
        meanLocal.addr_[r] = (T)mean;
        rstdLocal.addr_[r] = (T)var;
    }
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &meanLocal, const LocalTensor<T> &rstdLocal,
                     const LocalTensor<T> &srcLocal, const LocalTensor<T> &gxLocal, const LocalTensor<T> &betaLocal,
                     const LocalTensor<T> &gammaLocal, const LocalTensor<uint8_t> &sharedTmpBuffer, const T alpha,
                     const T epsilon, DeepNormTiling &tiling)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::DeepNorm");
    DeepNorm<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal,
                                          alpha, epsilon, tiling);
}
} // namespace AscendC

#endif /* ARC_LIB_NORMALIZATION_DEEPNORM_H_ */
