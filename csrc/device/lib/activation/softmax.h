/* softmax.h - SoftMax, SimpleSoftMax (advanced API, activation).
 * Row-wise over a [srcM, srcK] tensor (srcK 32-byte aligned):
 *   SoftMax:       max_r = max(row), sum_r = sum(exp(row - max_r)),
 *                  dst = exp(src - max_r) / sum_r; also writes max and sum
 *   SimpleSoftMax: dst = exp(src - inMax_r) / inSum_r with given max/sum
 * max and sum hold one 32-byte block per row, every element the row's value
 * (their type may be float when src is half).  SoftMaxShapeInfo{srcM, srcK,
 * oriSrcM, oriSrcK} gives the shape; when it is left empty the tiling's
 * srcM/srcK are used.  Assumed where the docs are silent: only the first
 * oriSrcK columns take part, and dst's columns oriSrcK..srcK-1 are written
 * 0.  Computed in float.  The NZ layout (isDataFormatNZ) stops the kernel
 * with a message: only ND rows are implemented. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_ACTIVATION_SOFTMAX_H_
#define ARC_LIB_ACTIVATION_SOFTMAX_H_

#include "lib/adv/common.h"
#include "lib/tiling/adv_tiling_data.h"

namespace AscendC {
struct SoftMaxShapeInfo {
    uint32_t srcM;
    uint32_t srcK;
    uint32_t oriSrcM;
    uint32_t oriSrcK;
};
struct SoftmaxConfig {
    bool isCheckTiling;
    uint32_t oriSrcM;
    uint32_t oriSrcK;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0};
} // namespace AscendC

namespace __arc {
struct sm_shape {
    uint32_t m, k, ok;
};
inline sm_shape sm_resolve(const SoftMaxTiling &t, const AscendC::SoftMaxShapeInfo &s, const char *api)
{
    sm_shape r;
    r.m = s.srcM ? s.srcM : t.srcM;
    r.k = s.srcK ? s.srcK : t.srcK;
    r.ok = s.oriSrcK ? s.oriSrcK : r.k;
    ARC_CHECK(r.ok <= r.k, api, "oriSrcK %u exceeds srcK %u", r.ok, r.k);
    return r;
}
/* mode 0: SoftMax (computes max/sum, writes them); 1: SimpleSoftMax (reads them). */
template <class T, class U>
inline void softmax_rows(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<U> &sum,
                         const AscendC::LocalTensor<U> &mx, const AscendC::LocalTensor<T> &src, sm_shape s, int mode,
                         bool has_stats, const char *api)
{
    ARC_CHECK(((uint64_t)s.k * sizeof(T)) % 32 == 0, api, "srcK %u is not 32-byte aligned for %s", s.k, tname<T>());
    const uint32_t blk = 32 / (uint32_t)sizeof(U);
    adv_need(dst, (uint64_t)s.m * s.k, api, "dst");
    adv_need(src, (uint64_t)s.m * s.k, api, "src");
    if (has_stats) {
        /* "dst ..." tells the race check SoftMax writes them (arc/race.h). */
        adv_need(sum, (uint64_t)s.m * blk, api, mode == 0 ? "dst sumTensor" : "sumTensor");
        adv_need(mx, (uint64_t)s.m * blk, api, mode == 0 ? "dst maxTensor" : "maxTensor");
    }
    for (uint32_t r = 0; r < s.m; r++) {
        const T *x = src.addr_ + (uint64_t)r * s.k;
        T *y = dst.addr_ + (uint64_t)r * s.k;
        float m, z;
        if (mode == 0) {
            m = -__builtin_inff();
            for (uint32_t c = 0; c < s.ok; c++) m = (float)x[c] > m ? (float)x[c] : m;
            z = 0.0f;
            for (uint32_t c = 0; c < s.ok; c++) z += __builtin_expf((float)x[c] - m);
        } else {
            m = (float)mx.addr_[(uint64_t)r * blk];
            z = (float)sum.addr_[(uint64_t)r * blk];
        }
        for (uint32_t c = 0; c < s.ok; c++) y[c] = (T)(__builtin_expf((float)x[c] - m) / z);
        for (uint32_t c = s.ok; c < s.k; c++) y[c] = (T)0.0f;
        if (mode == 0 && has_stats)
            for (uint32_t i = 0; i < blk; i++) {
                mx.addr_[(uint64_t)r * blk + i] = (U)m;
                sum.addr_[(uint64_t)r * blk + i] = (U)z;
            }
    }
}
} // namespace __arc

#define ARC_SOFTMAX_TPL                                                                                        \
    template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false, \
              const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG, typename U>

namespace AscendC {
/* SoftMax with sum and max outputs. */
ARC_SOFTMAX_TPL
inline void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<U> &sumTensor, const LocalTensor<U> &maxTensor,
                    const LocalTensor<T> &srcTensor, const SoftMaxTiling &tiling,
                    const SoftMaxShapeInfo &softmaxShapeInfo = {})
{
    ARC_ADV_HF(SoftMax);
    ARC_CHECK(!isDataFormatNZ, "AscendC::SoftMax",
              "isDataFormatNZ = true (NZ layout) is not implemented by ascendrtc; only ND rows are");
    __arc::softmax_rows(dstTensor, sumTensor, maxTensor, srcTensor,
                        __arc::sm_resolve(tiling, softmaxShapeInfo, "AscendC::SoftMax"), 0, true, "AscendC::SoftMax");
}
ARC_SOFTMAX_TPL
inline void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<U> &sumTensor, const LocalTensor<U> &maxTensor,
                    const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                    const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {})
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::SoftMax");
    SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dstTensor, sumTensor, maxTensor, srcTensor, tiling,
                                                                    softmaxShapeInfo);
}
/* SoftMax without the sum/max outputs. */
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const SoftMaxTiling &tiling,
                    const SoftMaxShapeInfo &softmaxShapeInfo = {})
{
    ARC_ADV_HF(SoftMax);
    __arc::softmax_rows(dstTensor, dstTensor, dstTensor, srcTensor,
                        __arc::sm_resolve(tiling, softmaxShapeInfo, "AscendC::SoftMax"), 0, false, "AscendC::SoftMax");
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                    const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
                    const SoftMaxShapeInfo &softmaxShapeInfo = {})
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::SoftMax");
    SoftMax<T, isReuseSource, isBasicBlock, config>(dstTensor, srcTensor, tiling, softmaxShapeInfo);
}
/* SimpleSoftMax: max and sum come in. */
ARC_SOFTMAX_TPL
inline void SimpleSoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<U> &inSumTensor,
                          const LocalTensor<U> &inMaxTensor, const LocalTensor<T> &srcTensor,
                          const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {})
{
    ARC_ADV_HF(SimpleSoftMax);
    ARC_CHECK(!isDataFormatNZ, "AscendC::SimpleSoftMax",
              "isDataFormatNZ = true (NZ layout) is not implemented by ascendrtc; only ND rows are");
    __arc::softmax_rows(dstTensor, inSumTensor, inMaxTensor, srcTensor,
                        __arc::sm_resolve(tiling, softmaxShapeInfo, "AscendC::SimpleSoftMax"), 1, true,
                        "AscendC::SimpleSoftMax");
}
ARC_SOFTMAX_TPL
inline void SimpleSoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<U> &inSumTensor,
                          const LocalTensor<U> &inMaxTensor, const LocalTensor<T> &srcTensor,
                          const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
                          const SoftMaxShapeInfo &softmaxShapeInfo = {})
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::SimpleSoftMax");
    SimpleSoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dstTensor, inSumTensor, inMaxTensor,
                                                                          srcTensor, tiling, softmaxShapeInfo);
}
} // namespace AscendC
#undef ARC_SOFTMAX_TPL

#endif /* ARC_LIB_ACTIVATION_SOFTMAX_H_ */
