/* layernorm.h - LayerNorm (advanced API, normalisation) over the last axis
 * of inputX [B, S, H] (B, S, H, originalH from LayerNormTiling):
 *   mean = sum(x) / oriH, var = sum((x - mean)^2) / oriH   (population)
 *   out  = (x - mean) / sqrt(var + epsilon) * gamma + beta
 * outputMean/outputVariance are [B * S], gamma/beta [H].  Computed in float.
 * Assumed where the docs are silent: only the first originalHLength columns
 * take part and out's columns originalHLength..H-1 are written 0. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_NORMALIZATION_LAYERNORM_H_
#define ARC_LIB_NORMALIZATION_LAYERNORM_H_

#include "lib/adv/common.h"
#include "lib/tiling/adv_tiling_data.h"

namespace AscendC {
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T> &output, const LocalTensor<T> &outputMean,
                      const LocalTensor<T> &outputVariance, const LocalTensor<T> &inputX, const LocalTensor<T> &gamma,
                      const LocalTensor<T> &beta, const T epsilon, LayerNormTiling &tiling)
{
    ARC_ADV_HF(LayerNorm);
    const char *api = "AscendC::LayerNorm";
    const uint32_t rows = tiling.bLength * tiling.sLength, h = tiling.hLength;
    const uint32_t oh = tiling.originalHLength ? tiling.originalHLength : h;
    ARC_CHECK(h > 0 && oh <= h, api, "tiling: hLength %u, originalHLength %u", h, oh);
    /* "dst ..." marks the outputs as written for the race check (arc/race.h). */
    __arc::adv_need(output, (uint64_t)rows * h, api, "dst output");
    __arc::adv_need(inputX, (uint64_t)rows * h, api, "inputX");
    __arc::adv_need(outputMean, rows, api, "dst outputMean");
    __arc::adv_need(outputVariance, rows, api, "dst outputVariance");
    __arc::adv_need(gamma, oh, api, "gamma");
    __arc::adv_need(beta, oh, api, "beta");
    const float eps = (float)epsilon;
    for (uint32_t r = 0; r < rows; r++) {
        const T *x = inputX.addr_ + (uint64_t)r * h;
        T *y = output.addr_ + (uint64_t)r * h;
        float s = 0.0f;
        for (uint32_t c = 0; c < oh; c++) s += (float)x[c];
        const float mean = s / (float)oh;
        float v = 0.0f;
        for (uint32_t c = 0; c < oh; c++) {
            float d = (float)x[c] - mean;
            v += d * d;
        }
        v /= (float)oh;
        const float rs = 1.0f / __builtin_sqrtf(v + eps);
        for (uint32_t c = 0; c < oh; c++)
            y[c] = (T)(((float)x[c] - mean) * rs * (float)gamma.addr_[c] + (float)beta.addr_[c]);
        for (uint32_t c = oh; c < h; c++) y[c] = (T)0.0f;
        outputMean.addr_[r] = (T)mean;
        outputVariance.addr_[r] = (T)v;
    }
}
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T> &output, const LocalTensor<T> &outputMean,
                      const LocalTensor<T> &outputVariance, const LocalTensor<T> &inputX, const LocalTensor<T> &gamma,
                      const LocalTensor<T> &beta, const LocalTensor<uint8_t> &sharedTmpBuffer, const T epsilon,
                      LayerNormTiling &tiling)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::LayerNorm");
    LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta, epsilon, tiling);
}
} // namespace AscendC

#endif /* ARC_LIB_NORMALIZATION_LAYERNORM_H_ */
