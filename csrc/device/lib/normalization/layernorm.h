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

namespace __arc {
/* One [B, S, H] row of LayerNorm over the first oh of its h columns, x(c)
 * giving column c in float (DeepNorm's alpha * x + gx too): y, the row's
 * mean and population variance. */
template <typename T, class Get>
inline void ln_bsh_row(Get x, uint32_t oh, uint32_t h, float eps, const T *gamma, const T *beta, T *y, float &mean,
                       float &var)
{
    float s = 0.0f;
    for (uint32_t c = 0; c < oh; c++) s += x(c);
    mean = s / (float)oh;
    float v = 0.0f;
    for (uint32_t c = 0; c < oh; c++) {
        float d = x(c) - mean;
        v += d * d;
    }
    var = v / (float)oh;
    const float rs = 1.0f / __builtin_sqrtf(var + eps);
    for (uint32_t c = 0; c < oh; c++) y[c] = (T)((x(c) - mean) * rs * (float)gamma[c] + (float)beta[c]);
    for (uint32_t c = oh; c < h; c++) y[c] = (T)0.0f;
}
/* The [B, S, H] forms' shape (LayerNormTiling's fields; DeepNormTiling has
 * the same) and operand checks; the valid width. */
template <typename T, class Tiling>
inline uint32_t ln_bsh_check(const AscendC::LocalTensor<T> &out, const AscendC::LocalTensor<T> &mean,
                             const AscendC::LocalTensor<T> &var, const AscendC::LocalTensor<T> &x,
                             const AscendC::LocalTensor<T> &gamma, const AscendC::LocalTensor<T> &beta,
                             const Tiling &tiling, const char *api)
{
    const uint32_t rows = tiling.bLength * tiling.sLength, h = tiling.hLength;
    const uint32_t oh = tiling.originalHLength ? tiling.originalHLength : h;
    ARC_CHECK(h > 0 && oh <= h, api, "tiling: hLength %u, originalHLength %u", h, oh);
    /* "dst ..." marks the outputs as written for the race check (arc/race.h). */
    adv_need(out, (uint64_t)rows * h, api, "dst output");
    adv_need(x, (uint64_t)rows * h, api, "inputX");
    adv_need(mean, rows, api, "dst outputMean");
    adv_need(var, rows, api, "dst outputVariance");
    adv_need(gamma, oh, api, "gamma");
    adv_need(beta, oh, api, "beta");
    return oh;
}
} // namespace __arc

namespace AscendC {
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T> &output, const LocalTensor<T> &outputMean,
                      const LocalTensor<T> &outputVariance, const LocalTensor<T> &inputX, const LocalTensor<T> &gamma,
                      const LocalTensor<T> &beta, const T epsilon, LayerNormTiling &tiling)
{
    ARC_ADV_HF(LayerNorm);
    const uint32_t oh = __arc::ln_bsh_check(output, outputMean, outputVariance, inputX, gamma, beta, tiling,
                                            "AscendC::LayerNorm");
    const uint32_t rows = tiling.bLength * tiling.sLength, h = tiling.hLength;
    for (uint32_t r = 0; r < rows; r++) {
        const T *x = inputX.addr_ + (uint64_t)r * h;
        float mean, var;
        __arc::ln_bsh_row([x](uint32_t c) { return (float)x[c]; }, oh, h, (float)epsilon, gamma.addr_, beta.addr_,
                          output.addr_ + (uint64_t)r * h, mean, var);
        outputMean.addr_[r] = (T)mean;
        outputVariance.addr_[r] = (T)var;
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

/* ---- The [A, R] form with the mean and rstd (or variance) outputs:
 *   mean = sum(x[:R]) / R, var = sum((x - mean)^2) / R, rstd = 1 / sqrt(var + eps)
 *   y = (x - mean) * rstd * gamma + beta     (gamma/beta dropped by the config)
 * in float; mean/rstd are float [A].  Rows are rLengthWithPadding apart;
 * assumed where the docs are silent, as the [B, S, H] form: y's padding
 * columns are written 0. */
struct LayerNormConfig {
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
    bool isOutputRstd = true;
};
constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};
struct LayerNormPara {
    uint32_t aLength = 0;
    uint32_t rLength = 0;
    uint32_t rLengthWithPadding = 0;
    LayerNormPara() = default;
    /* the docs' tiling example constructs it from (A, rLengthWithPadding):
     * assumed to mean R = rLengthWithPadding */
    LayerNormPara(uint32_t a, uint32_t rPad) : aLength(a), rLength(rPad), rLengthWithPadding(rPad) {}
    LayerNormPara(uint32_t a, uint32_t r, uint32_t rPad) : aLength(a), rLength(r), rLengthWithPadding(rPad) {}
};
} // namespace AscendC

namespace __arc {
/* The [A, R] checks both LayerNorm's rstd form and Normalize make. */
template <class T, class U>
inline void ar_norm_need(const AscendC::LocalTensor<T> &y, const AscendC::LocalTensor<T> &x,
                         const AscendC::LocalTensor<U> &gamma, const AscendC::LocalTensor<U> &beta, uint32_t a,
                         uint32_t r, uint32_t rp, bool use_gamma, bool use_beta, const char *api)
{
    static_assert(sizeof(U) >= sizeof(T), "gamma/beta's type must be at least as precise as inputX's (the docs)");
    ARC_CHECK(r > 0 && r <= rp && rp * sizeof(T) % 32 == 0, api,
              "para: rLength %u, rLengthWithPadding %u (must be >= rLength and 32-byte aligned)", r, rp);
    adv_need(y, (uint64_t)a * rp, api, "dst output");
    adv_need(x, (uint64_t)a * rp, api, "inputX");
    if (use_gamma) adv_need(gamma, r, api, "gamma");
    if (use_beta) adv_need(beta, r, api, "beta");
}
/* One row: y[c] = (x[c] - mean) * rstd (* gamma[c]) (+ beta[c]), padding 0. */
template <class T, class U>
inline void ar_norm_row(T *y, const T *x, const U *gamma, const U *beta, float mean, float rstd, uint32_t r,
                        uint32_t rp, bool use_gamma, bool use_beta)
{
    for (uint32_t c = 0; c < r; c++) {
        float v = ((float)x[c] - mean) * rstd;
        if (use_gamma) v *= (float)gamma[c];
        if (use_beta) v += (float)beta[c];
        y[c] = (T)v;
    }
    for (uint32_t c = r; c < rp; c++) y[c] = (T)0.0f;
}
} // namespace __arc

namespace AscendC {
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig &config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T> &output, const LocalTensor<float> &outputMean,
                      const LocalTensor<float> &outputRstd, const LocalTensor<T> &inputX, const LocalTensor<U> &gamma,
                      const LocalTensor<U> &beta, const float epsilon, const LayerNormPara &para,
                      const LayerNormSeparateTiling &tiling)
{
    ARC_ADV_HF(LayerNorm);
    const char *api = "AscendC::LayerNorm";
    const uint32_t a = para.aLength, r = para.rLength, rp = para.rLengthWithPadding;
    ARC_CHECK(a <= tiling.aLength && r == tiling.rLength, api,
              "para [A %u, R %u] against the tiling's [A %u, R %u] (GetLayerNormNDTilingInfo's shape): A may be "
              "smaller, R must match", a, r, tiling.aLength, tiling.rLength);
    ARC_CHECK(config.isOutputRstd || __NPU_ARCH__ == 3510, api,
              "config.isOutputRstd = false (the variance output) is Ascend 950 only, not dav-%d", __NPU_ARCH__);
    __arc::ar_norm_need(output, inputX, gamma, beta, a, r, rp, !config.isNoGamma, !config.isNoBeta, api);
    if (!config.isOnlyOutput) {
        __arc::adv_need(outputMean, a, api, "dst outputMean");
        __arc::adv_need(outputRstd, a, api, "dst outputRstd");
    }
    for (uint32_t i = 0; i < a; i++) {
        const T *x = inputX.addr_ + (uint64_t)i * rp;
        float s = 0.0f;
        for (uint32_t c = 0; c < r; c++) s += (float)x[c];
        const float mean = s / (float)r;
        float v = 0.0f;
        for (uint32_t c = 0; c < r; c++) {
            const float d = (float)x[c] - mean;
            v += d * d;
        }
        v /= (float)r;
        const float rstd = 1.0f / __builtin_sqrtf(v + epsilon);
        __arc::ar_norm_row(output.addr_ + (uint64_t)i * rp, x, gamma.addr_, beta.addr_, mean, rstd, r, rp,
                           !config.isNoGamma, !config.isNoBeta);
        if (!config.isOnlyOutput) {
            outputMean.addr_[i] = mean;
            outputRstd.addr_[i] = config.isOutputRstd ? rstd : v;
        }
    }
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig &config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T> &output, const LocalTensor<float> &outputMean,
                      const LocalTensor<float> &outputRstd, const LocalTensor<T> &inputX, const LocalTensor<U> &gamma,
                      const LocalTensor<U> &beta, const float epsilon, const LocalTensor<uint8_t> &sharedTmpBuffer,
                      const LayerNormPara &para, const LayerNormSeparateTiling &tiling)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::LayerNorm");
    LayerNorm<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon, para, tiling);
}
} // namespace AscendC

#endif /* ARC_LIB_NORMALIZATION_LAYERNORM_H_ */
