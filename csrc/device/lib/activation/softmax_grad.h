/* softmax_grad.h - SoftmaxGrad (advanced API, activation), as the docs'
 * Python definition gives it, row-wise over [srcM, srcK] (the shape from
 * SoftMaxShapeInfo, else the tiling):
 *   s = rowsum(grad * src); isFront: dst = s, one 32-byte block per row;
 *   else dst = (grad - s) * src
 * Computed in float; only the first oriSrcK columns take part (the other
 * columns of a full-width dst are written 0, as SoftMax's).  dst may be
 * src or grad (the row's sum is taken first).  ND only. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_ACTIVATION_SOFTMAX_GRAD_H_
#define ARC_LIB_ACTIVATION_SOFTMAX_GRAD_H_

#include "lib/activation/softmax.h"

namespace AscendC {
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                        const LocalTensor<T> &srcTensor, const SoftMaxTiling &tiling, bool isFront = false,
                        const SoftMaxShapeInfo &softmaxShapeInfo = {})
{
    ARC_ADV_HF(SoftmaxGrad);
    const char *api = "AscendC::SoftmaxGrad";
    ARC_CHECK(!isDataFormatNZ, api, "isDataFormatNZ = true (NZ layout) is not implemented by ascendrtc; only ND rows are");
    const __arc::sm_shape s = __arc::sm_resolve(tiling, softmaxShapeInfo, api);
    ARC_CHECK((uint64_t)s.k * sizeof(T) % 32 == 0, api, "srcK %u is not 32-byte aligned for %s", s.k,
              __arc::tname<T>());
    const uint32_t blk = 32u / (uint32_t)sizeof(T), w = isFront ? blk : s.k;
    __arc::adv_need(gradTensor, (uint64_t)s.m * s.k, api, "gradTensor");
    __arc::adv_need(srcTensor, (uint64_t)s.m * s.k, api, "srcTensor");
    __arc::adv_need(dstTensor, (uint64_t)s.m * w, api, "dst");
    for (uint32_t r = 0; r < s.m; r++) {
        const T *g = gradTensor.addr_ + (uint64_t)r * s.k, *x = srcTensor.addr_ + (uint64_t)r * s.k;
        T *y = dstTensor.addr_ + (uint64_t)r * w;
        /* the float products summed exactly (double), rounded once: the NPU's
         * reduction tree's order is not documented, a running float sum of
         * 960 terms drifts 1e-5 from it */
        double acc = 0.0;
        for (uint32_t c = 0; c < s.ok; c++) acc += (double)((float)g[c] * (float)x[c]);
        const float sum = (float)acc;
        if (isFront) {
            for (uint32_t c = 0; c < blk; c++) y[c] = (T)sum;
            continue;
        }
        for (uint32_t c = 0; c < s.ok; c++) y[c] = (T)(((float)g[c] - sum) * (float)x[c]);
        for (uint32_t c = s.ok; c < s.k; c++) y[c] = (T)0.0f;
    }
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                        const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                        const SoftMaxTiling &tiling, bool isFront = false, const SoftMaxShapeInfo &softmaxShapeInfo = {})
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::SoftmaxGrad");
    SoftmaxGrad<T, isReuseSource, isDataFormatNZ>(dstTensor, gradTensor, srcTensor, tiling, isFront,
                                                  softmaxShapeInfo);
}
/* SoftmaxGradFront: SoftmaxGrad's isFront form under its own name (its page
 * gives the same definition: the row's sum of grad * src, one 32-byte block
 * per row). */
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                             const LocalTensor<T> &srcTensor, const SoftMaxTiling &tiling,
                             const SoftMaxShapeInfo &softmaxShapeInfo = {})
{
    SoftmaxGrad<T, false, isDataFormatNZ>(dstTensor, gradTensor, srcTensor, tiling, true, softmaxShapeInfo);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                             const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                             const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {})
{
    SoftmaxGrad<T, false, isDataFormatNZ>(dstTensor, gradTensor, srcTensor, sharedTmpBuffer, tiling, true,
                                          softmaxShapeInfo);
}
} // namespace AscendC

#endif /* ARC_LIB_ACTIVATION_SOFTMAX_GRAD_H_ */
