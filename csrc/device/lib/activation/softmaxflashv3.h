/* softmaxflashv3.h - SoftmaxFlashV3 (advanced API, activation; the Softmax
 * PASA algorithm) over [m, n] rows, n >= 512 a multiple of 64, m a multiple
 * of 8, T = half, U = float, as its page's Python definition gives it (in
 * float; scalar = alpha / (1 - alpha), baseK = n / 8):
 *   t[j] = sum(x[8j .. 8j+7]) for j < 64, then t[k] += x[512 + 64r + k] for
 *     each further 64-column repeat r; local[c] = sum(t[8c .. 8c+7]) / baseK
 *     (the page's BlockReduceSum, Add, BlockReduceSum, in that order)
 *   g = mean(x); x'[i] = x[i] - (g - local[i / baseK]) * scalar
 *     (chunk i / baseK: the contiguous split the page describes, as CANN's
 *     asc-devkit softmaxflashv3 golden broadcasts it)
 *   not update: mean = g, max = rowmax(x'), dst = exp(x' - max),
 *     sum = rowsum(dst)
 *   update: mean = (g + inMean * (loopCnt - 1)) / loopCnt,
 *     sc = (g - mean) * scalar, sp = (inMean - mean) * scalar,
 *     max = max(sc + rowmax(x'), sp + inMax), dst = exp(x' - (max - sc)),
 *     expMax = exp(inMax - max + sp), sum = expMax * inSum + rowsum(dst)
 * mean, sum, max (U) and expMax (T) hold one 32-byte block per row, every
 * element the row's value; the in* tensors may be the outputs (a row's
 * inputs are read first).  expMax is written in the update form only (the
 * page's definition returns none otherwise). */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_ACTIVATION_SOFTMAXFLASHV3_H_
#define ARC_LIB_ACTIVATION_SOFTMAXFLASHV3_H_

#include "lib/activation/softmax.h"

namespace AscendC {
/* srcTensor's shape and the algorithm's parameters (the page's struct). */
struct SoftMaxParams {
    uint32_t srcM;
    uint32_t srcK;
    uint32_t oriSrcM;
    uint32_t oriSrcK;
    uint32_t loopCnt;
    uint32_t splitMeanCnt;
    float alpha;
};
} // namespace AscendC

namespace __arc {
/* The page's per-chunk means of row x (n columns) into local[8]. */
template <class T> inline void sfv3_local_means(const T *x, uint32_t n, float *local)
{
    float t[64];
    for (uint32_t j = 0; j < 64; j++) {
        float s = 0.0f;
        for (uint32_t e = 0; e < 8; e++) s += (float)x[8 * j + e];
        t[j] = s;
    }
    for (uint32_t r = 0; r < n / 64 - 8; r++)
        for (uint32_t k = 0; k < 64; k++) t[k] += (float)x[512 + 64 * r + k];
    for (uint32_t c = 0; c < 8; c++) {
        float s = 0.0f;
        for (uint32_t k = 0; k < 8; k++) s += t[8 * c + k];
        local[c] = s / (float)(n / 8);
    }
}
} // namespace __arc

namespace AscendC {
template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV3(const LocalTensor<T> &dstTensor, const LocalTensor<U> &meanTensor,
                           const LocalTensor<U> &expSumTensor, const LocalTensor<U> &maxTensor,
                           const LocalTensor<T> &srcTensor, const LocalTensor<T> &expMaxTensor,
                           const LocalTensor<U> &inMeanTensor, const LocalTensor<U> &inExpSumTensor,
                           const LocalTensor<U> &inMaxTensor, const SoftMaxTiling &tiling, const SoftMaxParams &params)
{
    static_assert(__arc::is_same<T, half>::value && __arc::is_same<U, float>::value,
                  "AscendC::SoftmaxFlashV3: T must be half and U float (its page)");
    const char *api = "AscendC::SoftmaxFlashV3";
    (void)tiling;
    ARC_CHECK(!isDataFormatNZ, api, "isDataFormatNZ = true (NZ layout) is not implemented by ascendrtc; only ND rows are");
    const uint32_t m = params.srcM, n = params.srcK;
    ARC_CHECK(params.oriSrcM == m && params.oriSrcK == n, api,
              "params: srcM %u x srcK %u must equal oriSrcM %u x oriSrcK %u (no unaligned shapes, the page)", m, n,
              params.oriSrcM, params.oriSrcK);
    ARC_CHECK(n >= 512 && n % 64 == 0 && m % 8 == 0, api,
              "params: srcK %u must be >= 512 and a multiple of 64, srcM %u a multiple of 8", n, m);
    ARC_CHECK(params.splitMeanCnt == 8, api, "params.splitMeanCnt %u: only 8 is supported", params.splitMeanCnt);
    ARC_CHECK(!isUpdate || params.loopCnt >= 1, api, "params.loopCnt %u must be >= 1", params.loopCnt);
    ARC_CHECK(params.alpha != 1.0f, api, "params.alpha is 1: alpha / (1 - alpha) is undefined");
    const uint32_t bu = 32 / sizeof(U), bt = 32 / sizeof(T);
    __arc::adv_need(srcTensor, (uint64_t)m * n, api, "srcTensor");
    __arc::adv_need(dstTensor, (uint64_t)m * n, api, "dst dstTensor");
    __arc::adv_need(meanTensor, (uint64_t)m * bu, api, "dst meanTensor");
    __arc::adv_need(expSumTensor, (uint64_t)m * bu, api, "dst expSumTensor");
    __arc::adv_need(maxTensor, (uint64_t)m * bu, api, "dst maxTensor");
    if (isUpdate) {
        __arc::adv_need(expMaxTensor, (uint64_t)m * bt, api, "dst expMaxTensor");
        __arc::adv_need(inMeanTensor, (uint64_t)m * bu, api, "inMeanTensor");
        __arc::adv_need(inExpSumTensor, (uint64_t)m * bu, api, "inExpSumTensor");
        __arc::adv_need(inMaxTensor, (uint64_t)m * bu, api, "inMaxTensor");
    }
    const float scalar = params.alpha / (1.0f - params.alpha);
    const uint32_t baseK = n / 8;
    for (uint32_t r = 0; r < m; r++) {
        const T *x = srcTensor.addr_ + (uint64_t)r * n;
        T *y = dstTensor.addr_ + (uint64_t)r * n;
        float local[8], g = 0.0f;
        __arc::sfv3_local_means(x, n, local);
        for (uint32_t i = 0; i < n; i++) g += (float)x[i];
        g /= (float)n;
        auto xs = [&](uint32_t i) { return (float)x[i] - (g - local[i / baseK]) * scalar; };
        float rmax = xs(0);
        for (uint32_t i = 1; i < n; i++) rmax = __builtin_fmaxf(rmax, xs(i));
        float mean = g, mx = rmax, shift = rmax, em = 0.0f, insum = 0.0f;
        if (isUpdate) {
            const float im = inMeanTensor.addr_[(uint64_t)r * bu], ix = inMaxTensor.addr_[(uint64_t)r * bu];
            insum = inExpSumTensor.addr_[(uint64_t)r * bu];
            mean = (g + im * (float)(params.loopCnt - 1)) / (float)params.loopCnt;
            const float sc = (g - mean) * scalar, sp = (im - mean) * scalar;
            mx = __builtin_fmaxf(sc + rmax, sp + ix);
            shift = mx - sc;
            em = __builtin_expf(ix - mx + sp);
        }
        /* dst may be src: each element is read (by xs) before it is written */
        float s = 0.0f;
        for (uint32_t i = 0; i < n; i++) {
            const float e = __builtin_expf(xs(i) - shift);
            y[i] = (T)e;
            s += e;
        }
        const float sum = isUpdate ? em * insum + s : s;
        for (uint32_t k = 0; k < bu; k++) {
            meanTensor.addr_[(uint64_t)r * bu + k] = (U)mean;
            maxTensor.addr_[(uint64_t)r * bu + k] = (U)mx;
            expSumTensor.addr_[(uint64_t)r * bu + k] = (U)sum;
        }
        if (isUpdate)
            for (uint32_t k = 0; k < bt; k++) expMaxTensor.addr_[(uint64_t)r * bt + k] = (T)em;
    }
}
template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV3(const LocalTensor<T> &dstTensor, const LocalTensor<U> &meanTensor,
                           const LocalTensor<U> &expSumTensor, const LocalTensor<U> &maxTensor,
                           const LocalTensor<T> &srcTensor, const LocalTensor<T> &expMaxTensor,
                           const LocalTensor<U> &inMeanTensor, const LocalTensor<U> &inExpSumTensor,
                           const LocalTensor<U> &inMaxTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                           const SoftMaxTiling &tiling, const SoftMaxParams &params)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::SoftmaxFlashV3");
    SoftmaxFlashV3<T, U, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inMeanTensor, inExpSumTensor,
        inMaxTensor, tiling, params);
}
} // namespace AscendC

#endif /* ARC_LIB_ACTIVATION_SOFTMAXFLASHV3_H_ */
