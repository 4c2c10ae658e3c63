/* normalize.h - Normalize (advanced API, normalisation): LayerNorm's last
 * step over inputX [A, R] given each row's mean and variance (float [A]):
 *   rstd = 1 / sqrt(variance + epsilon)
 *   y    = (x - mean) * rstd * gamma + beta   (gamma/beta dropped by the config)
 * in float, rows rLengthWithPadding apart (the [A, R] helpers of
 * layernorm.h); outputRstd is float [A]. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_NORMALIZATION_NORMALIZE_H_
#define ARC_LIB_NORMALIZATION_NORMALIZE_H_

#include "lib/normalization/layernorm.h"
#include "lib/reduce/reduce_pattern.h"

namespace AscendC {
struct NormalizeConfig {
    ReducePattern reducePattern = ReducePattern::AR;
    int32_t aLength = -1; /* -1: para.aLength; else it must equal para.aLength */
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
};
constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false, false, false};
struct NormalizePara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};

template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig &config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T> &output, const LocalTensor<float> &outputRstd,
                      const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance,
                      const LocalTensor<T> &inputX, const LocalTensor<U> &gamma, const LocalTensor<U> &beta,
                      const float epsilon, const NormalizePara &para)
{
    ARC_ADV_HF(Normalize);
    static_assert(config.reducePattern == ReducePattern::AR, "AscendC::Normalize: only ReducePattern::AR (the docs)");
    const char *api = "AscendC::Normalize";
    const uint32_t a = para.aLength, r = para.rLength, rp = para.rLengthWithPadding;
    ARC_CHECK(config.aLength == -1 || (uint32_t)config.aLength == a, api,
              "config.aLength %d differs from para.aLength %u (it must be -1 or equal)", (int)config.aLength, a);
    __arc::ar_norm_need(output, inputX, gamma, beta, a, r, rp, !config.isNoGamma, !config.isNoBeta, api);
    __arc::adv_need(inputMean, a, api, "inputMean");
    __arc::adv_need(inputVariance, a, api, "inputVariance");
    if (!config.isOnlyOutput) __arc::adv_need(outputRstd, a, api, "dst outputRstd");
    for (uint32_t i = 0; i < a; i++) {
        const float rstd = 1.0f / __builtin_sqrtf(inputVariance.addr_[i] + epsilon);
        __arc::ar_norm_row(output.addr_ + (uint64_t)i * rp, inputX.addr_ + (uint64_t)i * rp, gamma.addr_, beta.addr_,
                           inputMean.addr_[i], rstd, r, rp, !config.isNoGamma, !config.isNoBeta);
        if (!config.isOnlyOutput) outputRstd.addr_[i] = rstd;
    }
}
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig &config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T> &output, const LocalTensor<float> &outputRstd,
                      const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance,
                      const LocalTensor<T> &inputX, const LocalTensor<U> &gamma, const LocalTensor<U> &beta,
                      const LocalTensor<uint8_t> &sharedTmpBuffer, const float epsilon, const NormalizePara &para)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::Normalize");
    Normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta, epsilon,
                                           para);
}
} // namespace AscendC

#endif /* ARC_LIB_NORMALIZATION_NORMALIZE_H_ */
