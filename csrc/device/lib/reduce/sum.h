/* sum.h - Sum (advanced API, reduce): src is [outter, inner] (inner
 * 32-byte aligned); dst[r] = sum of the first n elements of row r.
 * SumParams{outter, inner, n}.  Accumulates in float. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_REDUCE_SUM_H_
#define ARC_LIB_REDUCE_SUM_H_

#include "lib/adv/common.h"

namespace AscendC {
struct SumParams {
    uint32_t outter = 1;
    uint32_t inner;
    uint32_t n;
};
struct MeanParams {
    uint32_t outter = 1;
    uint32_t inner;
    uint32_t n;
};
} // namespace AscendC

namespace __arc {
/* dst[r] = sum(row r[0..n)) * scale. */
template <class T, class A>
inline void row_sums(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src, uint32_t outter,
                     uint32_t inner, uint32_t n, bool mean, const char *api)
{
    ARC_CHECK(n <= inner, api, "n %u exceeds inner %u", n, inner);
    ARC_CHECK(((uint64_t)inner * sizeof(T)) % 32 == 0, api, "inner %u is not 32-byte aligned for %s", inner, tname<T>());
    adv_need(src, (uint64_t)outter * inner, api, "src");
    adv_need(dst, outter, api, "dst");
    for (uint32_t r = 0; r < outter; r++) {
        A s = 0;
        for (uint32_t c = 0; c < n; c++) s += (A)(float)src.addr_[(uint64_t)r * inner + c];
        dst.addr_[r] = (T)(mean ? s / (A)n : s);
    }
}
} // namespace __arc

namespace AscendC {
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const SumParams &sumParams)
{
    ARC_ADV_HF(Sum);
    __arc::row_sums<T, float>(dstTensor, srcTensor, sumParams.outter, sumParams.inner, sumParams.n, false,
                              "AscendC::Sum");
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                const LocalTensor<uint8_t> &sharedTmpBuffer, const SumParams &sumParams)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::Sum");
    Sum<T, reduceDim, isReuseSource, isBasicBlock>(dstTensor, srcTensor, sumParams);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
inline void Mean(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const MeanParams &meanParams)
{
    ARC_ADV_HF(Mean);
    __arc::row_sums<T, float>(dstTensor, srcTensor, meanParams.outter, meanParams.inner, meanParams.n, true,
                              "AscendC::Mean");
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
inline void Mean(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                 const LocalTensor<uint8_t> &sharedTmpBuffer, const MeanParams &meanParams)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::Mean");
    Mean<T, accType, isReuseSource, isBasicBlock, reduceDim>(dstTensor, srcTensor, meanParams);
}
} // namespace AscendC

#endif /* ARC_LIB_REDUCE_SUM_H_ */
