/* softmaxflashv2.h - SoftmaxFlashV2 (advanced API, activation): the
 * FlashAttention-2 step of a softmax whose rows arrive in column blocks.
 * Row-wise over a [srcM, srcK] tensor (srcK 32-byte aligned), as the public
 * docs' formula states:
 *   isUpdate = false: max = rowmax(x), dst = exp(x - max), sum = rowsum(dst)
 *   isUpdate = true:  max = max(inMax, rowmax(x)), dst = exp(x - max),
 *                     expMax = exp(inMax - max),
 *                     sum = expMax * inSum + rowsum(dst)
 * dst is not divided by the sum (the caller rescales at the end).  max, sum
 * and expMax hold one 32-byte block per row, every element the row's value
 * (sum/max may be float for half input; expMax has dst's type).  The in*
 * tensors may be the same as the outputs (the samples update in place): a
 * row's inputs are read before its outputs are written.  Shape: as SoftMax
 * (lib/activation/softmax.h), SoftMaxShapeInfo or else the tiling's srcM/srcK;
 * columns oriSrcK..srcK-1 take no part and are written 0 in dst.
 *
 * SoftMaxFlashV2TilingFuncImpl is the kernel-side tiling function kernels
 * call when the shape is known only on the device; it fills the fields
 * SoftmaxFlashV2 reads (srcM, srcK) and a one-pass split. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_ACTIVATION_SOFTMAXFLASHV2_H_
#define ARC_LIB_ACTIVATION_SOFTMAXFLASHV2_H_

#include "lib/activation/softmax.h"

namespace __arc {
template <class T, class U>
inline void softmax_flash_v2_rows(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<U> &sum,
                                  const AscendC::LocalTensor<U> &mx, const AscendC::LocalTensor<T> &src,
                                  const AscendC::LocalTensor<T> &expMax, const AscendC::LocalTensor<U> &inSum,
                                  const AscendC::LocalTensor<U> &inMax, sm_shape s, bool update)
{
    const char *api = "AscendC::SoftmaxFlashV2";
    ARC_CHECK(((uint64_t)s.k * sizeof(T)) % 32 == 0, api, "srcK %u is not 32-byte aligned for %s", s.k, tname<T>());
    const uint32_t blk = 32 / (uint32_t)sizeof(U), eblk = 32 / (uint32_t)sizeof(T);
    /* inputs first, then outputs ("dst..." marks a write for the race check) */
    adv_need(src, (uint64_t)s.m * s.k, api, "srcTensor");
    if (update) {
        adv_need(inSum, (uint64_t)s.m * blk, api, "inExpSumTensor");
        adv_need(inMax, (uint64_t)s.m * blk, api, "inMaxTensor");
    }
    adv_need(dst, (uint64_t)s.m * s.k, api, "dstTensor");
    adv_need(sum, (uint64_t)s.m * blk, api, "dst expSumTensor");
    adv_need(mx, (uint64_t)s.m * blk, api, "dst maxTensor");
    if (update) adv_need(expMax, (uint64_t)s.m * eblk, api, "dst expMaxTensor");
    for (uint32_t r = 0; r < s.m; r++) {
        const T *x = src.addr_ + (uint64_t)r * s.k;
        T *y = dst.addr_ + (uint64_t)r * s.k;
        float m = -__builtin_inff();
        for (uint32_t c = 0; c < s.ok; c++) m = (float)x[c] > m ? (float)x[c] : m;
        float old_m = 0.0f, old_s = 0.0f;
        if (update) {
            old_m = (float)inMax.addr_[(uint64_t)r * blk];
            old_s = (float)inSum.addr_[(uint64_t)r * blk];
            m = old_m > m ? old_m : m;
        }
        float z = 0.0f;
        for (uint32_t c = 0; c < s.ok; c++) {
            float e = __builtin_expf((float)x[c] - m);
            y[c] = (T)e;
            z += e;
        }
        for (uint32_t c = s.ok; c < s.k; c++) y[c] = (T)0.0f;
        if (update) {
            float em = __builtin_expf(old_m - m);
            z += em * old_s;
            for (uint32_t i = 0; i < eblk; i++) expMax.addr_[(uint64_t)r * eblk + i] = (T)em;
        }
        for (uint32_t i = 0; i < blk; i++) {
            mx.addr_[(uint64_t)r * blk + i] = (U)m;
            sum.addr_[(uint64_t)r * blk + i] = (U)z;
        }
    }
}
} // namespace __arc

namespace AscendC {
/* The kernel-side tiling of SoftmaxFlashV2 for a [srcM, srcK] tensor:
 * dataTypeSize1 is src's element size, dataTypeSize2 sum/max's,
 * workLocalSize the elements of scratch the kernel gives (the CPU twin
 * needs none: one pass over all rows). */
inline SoftMaxTiling SoftMaxFlashV2TilingFuncImpl(uint32_t srcM, uint32_t srcK, uint32_t dataTypeSize1,
                                                  uint32_t dataTypeSize2, uint32_t workLocalSize,
                                                  bool isUpdate = false, bool isBasicBlock = false)
{
    (void)workLocalSize; (void)isUpdate; (void)isBasicBlock; (void)dataTypeSize1;
    ARC_CHECK(dataTypeSize2 == 2 || dataTypeSize2 == 4, "AscendC::SoftMaxFlashV2TilingFuncImpl",
              "dataTypeSize2 %u is not 2 (half) or 4 (float)", dataTypeSize2);
    SoftMaxTiling t = {};
    t.srcM = srcM;
    t.srcK = srcK;
    t.srcSize = srcM * srcK;
    t.outMaxM = srcM;
    t.outMaxK = 32 / dataTypeSize2;
    t.outMaxSize = t.outMaxM * t.outMaxK;
    t.splitM = srcM;
    t.splitK = srcK;
    t.splitSize = t.srcSize;
    t.reduceM = srcM;
    t.reduceK = t.outMaxK;
    t.reduceSize = t.outMaxSize;
    t.rangeM = 1;
    return t;
}

#define ARC_SMF2_TPL                                                                                       \
    template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,   \
              bool isDataFormatNZ = false, const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG, typename U>
/* SoftmaxFlashV2, scratch from the framework. */
ARC_SMF2_TPL
inline void SoftmaxFlashV2(const LocalTensor<T> &dstTensor, const LocalTensor<U> &expSumTensor,
                           const LocalTensor<U> &maxTensor, const LocalTensor<T> &srcTensor,
                           const LocalTensor<T> &expMaxTensor, const LocalTensor<U> &inExpSumTensor,
                           const LocalTensor<U> &inMaxTensor, const SoftMaxTiling &tiling,
                           const SoftMaxShapeInfo &softmaxShapeInfo = {})
{
    ARC_ADV_HF(SoftmaxFlashV2);
    static_assert(__arc::is_float_v<U>, "AscendC::SoftmaxFlashV2: expSum/max must be half or float");
    ARC_CHECK(!isDataFormatNZ, "AscendC::SoftmaxFlashV2",
              "isDataFormatNZ = true (NZ layout) is not implemented by ascendrtc; only ND rows are");
    __arc::softmax_flash_v2_rows(dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor,
                                 inMaxTensor,
                                 __arc::sm_resolve(tiling, softmaxShapeInfo, "AscendC::SoftmaxFlashV2"), isUpdate);
}
/* SoftmaxFlashV2 with a caller-given scratch buffer. */
ARC_SMF2_TPL
inline void SoftmaxFlashV2(const LocalTensor<T> &dstTensor, const LocalTensor<U> &expSumTensor,
                           const LocalTensor<U> &maxTensor, const LocalTensor<T> &srcTensor,
                           const LocalTensor<T> &expMaxTensor, const LocalTensor<U> &inExpSumTensor,
                           const LocalTensor<U> &inMaxTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                           const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {})
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::SoftmaxFlashV2");
    SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, tiling,
        softmaxShapeInfo);
}
#undef ARC_SMF2_TPL
} // namespace AscendC

#endif /* ARC_LIB_ACTIVATION_SOFTMAXFLASHV2_H_ */
