/* layernorm_grad.h - LayerNormGrad and LayerNormGradBeta (advanced API,
 * normalisation): LayerNorm's backward pass over [B, S, H] rows, as
 * LayerNormGrad's page gives it (per row, sums over H, in float):
 *   x1 = dy * gamma, x2 = x - mean, r = (var + eps)^-0.5
 *   pd_var  = sum(-0.5 * x1 * x2 * (var + eps)^-1.5)
 *   pd_mean = sum(-x1 * r) + pd_var * (1/H) * sum(-2 * x2)
 *   pd_x    = x1 * r + pd_var * (2/H) * x2 + pd_mean * (1/H)
 *   resForGamma = x2 * r
 * and LayerNormGradBeta, over the B * S rows (the usual gradients; its
 * page's formulas are images that are not public here, CANN's asc-devkit
 * layernorm example computes these):
 *   pdGamma[h] = sum(dy * resForGamma), pdBeta[h] = sum(dy)
 * Only the shape fields of the tilings are read; originalHLength must be
 * hLength (the pages: the two agree where the API is supported); ND only. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_NORMALIZATION_LAYERNORM_GRAD_H_
#define ARC_LIB_NORMALIZATION_LAYERNORM_GRAD_H_

#include "lib/adv/common.h"
#include "lib/tiling/adv_tiling_data.h"

namespace AscendC {
struct LayerNormGradShapeInfo {
    DataFormat dataFormat = DataFormat::ND;
};
} // namespace AscendC

namespace __arc {
/* rows and H of a LayerNormGrad(Beta)Tiling, checked. */
template <class Tiling> inline uint32_t lng_shape(const Tiling &t, uint32_t &h, const char *api)
{
    h = t.hLength;
    ARC_CHECK(h > 0 && (t.originalHLength == 0 || t.originalHLength == h), api,
              "tiling: hLength %u, originalHLength %u (H padding is not supported: they must agree)", h,
              t.originalHLength);
    return t.bLength * t.sLength;
}
} // namespace __arc

namespace AscendC {
template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T> &outputPdX, const LocalTensor<T> &resForGamma,
                          const LocalTensor<T> &inputDy, const LocalTensor<T> &inputX,
                          const LocalTensor<T> &inputVariance, const LocalTensor<T> &inputMean,
                          const LocalTensor<T> &inputGamma, T epsilon, LayerNormGradTiling &tiling,
                          const LayerNormGradShapeInfo &shapeInfo = {})
{
    ARC_ADV_HF(LayerNormGrad);
    const char *api = "AscendC::LayerNormGrad";
    ARC_CHECK(shapeInfo.dataFormat == DataFormat::ND, api, "shapeInfo.dataFormat %d: only ND is supported",
              (int)shapeInfo.dataFormat);
    uint32_t h = 0;
    const uint32_t rows = __arc::lng_shape(tiling, h, api);
    const uint64_t n = (uint64_t)rows * h;
    __arc::adv_need(outputPdX, n, api, "dst outputPdX");
    __arc::adv_need(resForGamma, n, api, "dst resForGamma");
    __arc::adv_need(inputDy, n, api, "inputDy");
    __arc::adv_need(inputX, n, api, "inputX");
    __arc::adv_need(inputVariance, rows, api, "inputVariance");
    __arc::adv_need(inputMean, rows, api, "inputMean");
    __arc::adv_need(inputGamma, h, api, "inputGamma");
    const float eps = (float)epsilon, inv = 1.0f / (float)h;
    for (uint32_t r = 0; r < rows; r++) {
        const T *dy = inputDy.addr_ + (uint64_t)r * h, *x = inputX.addr_ + (uint64_t)r * h, *g = inputGamma.addr_;
        T *px = outputPdX.addr_ + (uint64_t)r * h, *rg = resForGamma.addr_ + (uint64_t)r * h;
        const float mean = (float)inputMean.addr_[r], ve = (float)inputVariance.addr_[r] + eps;
        const float rs = 1.0f / __builtin_sqrtf(ve), rs3 = rs / ve; /* (var + eps)^-0.5 and ^-1.5 */
        float pdVar = 0.0f, s1 = 0.0f, s2 = 0.0f;
        for (uint32_t c = 0; c < h; c++) {
            const float x1 = (float)dy[c] * (float)g[c], x2 = (float)x[c] - mean;
            pdVar += -0.5f * x1 * x2 * rs3;
            s1 += -x1 * rs;
            s2 += -2.0f * x2;
        }
        const float pdMean = s1 + pdVar * inv * s2;
        /* all inputs of the row are read before any output is written:
         * the page lets sources and destinations share space */
        for (uint32_t c = 0; c < h; c++) {
            const float x1 = (float)dy[c] * (float)g[c], x2 = (float)x[c] - mean;
            const float pdx = x1 * rs + pdVar * (2.0f * inv) * x2 + pdMean * inv, res = x2 * rs;
            px[c] = (T)pdx;
            rg[c] = (T)res;
        }
    }
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T> &outputPdX, const LocalTensor<T> &resForGamma,
                          const LocalTensor<T> &inputDy, const LocalTensor<T> &inputX,
                          const LocalTensor<T> &inputVariance, const LocalTensor<T> &inputMean,
                          const LocalTensor<T> &inputGamma, LocalTensor<uint8_t> &sharedTmpBuffer, T epsilon,
                          LayerNormGradTiling &tiling, const LayerNormGradShapeInfo &shapeInfo = {})
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::LayerNormGrad");
    LayerNormGrad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma,
                                    epsilon, tiling, shapeInfo);
}

template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T> &outputPdGamma, const LocalTensor<T> &outputPdBeta,
                              const LocalTensor<T> &resForGamma, const LocalTensor<T> &inputDy,
                              const LayerNormGradBetaTiling &tiling)
{
    ARC_ADV_HF(LayerNormGradBeta);
    const char *api = "AscendC::LayerNormGradBeta";
    uint32_t h = 0;
    const uint32_t rows = __arc::lng_shape(tiling, h, api);
    __arc::adv_need(outputPdGamma, h, api, "dst outputPdGamma");
    __arc::adv_need(outputPdBeta, h, api, "dst outputPdBeta");
    __arc::adv_need(resForGamma, (uint64_t)rows * h, api, "resForGamma");
    __arc::adv_need(inputDy, (uint64_t)rows * h, api, "inputDy");
    for (uint32_t c = 0; c < h; c++) { /* a column's sums, rows in order */
        float sg = 0.0f, sb = 0.0f;
        for (uint32_t r = 0; r < rows; r++) {
            const float dy = (float)inputDy.addr_[(uint64_t)r * h + c];
            sg += dy * (float)resForGamma.addr_[(uint64_t)r * h + c];
            sb += dy;
        }
        outputPdGamma.addr_[c] = (T)sg;
        outputPdBeta.addr_[c] = (T)sb;
    }
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T> &outputPdGamma, const LocalTensor<T> &outputPdBeta,
                              const LocalTensor<T> &resForGamma, const LocalTensor<T> &inputDy,
                              const LocalTensor<uint8_t> &sharedTmpBuffer, const LayerNormGradBetaTiling &tiling)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::LayerNormGradBeta");
    LayerNormGradBeta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy, tiling);
}
} // namespace AscendC

#endif /* ARC_LIB_NORMALIZATION_LAYERNORM_GRAD_H_ */
