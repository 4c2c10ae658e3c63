/* logsoftmax.h - LogSoftMax (advanced API, activation), as the docs'
 * Python definition gives it, row-wise over [srcM, srcK]:
 *   max = rowmax(src), sum = rowsum(exp(src - max)), dst = log10(exp(src - max) / sum)
 * (log base 10, as the page says); sum and max hold one 32-byte block per
 * row of T, every element the row's value.  The shape comes from
 * SoftMaxShapeInfo, else the tiling (LogSoftMaxTiling is SoftMaxTiling:
 * the docs name its fields reduceSize, splitSize... as SoftMax's, ascendrtc
 * gives it SoftMax's layout).  Computed in float; ND only. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_ACTIVATION_LOGSOFTMAX_H_
#define ARC_LIB_ACTIVATION_LOGSOFTMAX_H_

#include "lib/activation/softmax.h"

namespace AscendC {
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void LogSoftMax(const LocalTensor<T> &dst, const LocalTensor<T> &sum, const LocalTensor<T> &max,
                       const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
                       const LogSoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {})
{
    ARC_ADV_HF(LogSoftMax);
    const char *api = "AscendC::LogSoftMax";
    ARC_CHECK(!isDataFormatNZ, api, "isDataFormatNZ = true (NZ layout) is not implemented by ascendrtc; only ND rows are");
    __arc::adv_tmp(sharedTmpBuffer, api);
    const __arc::sm_shape s = __arc::sm_resolve(tiling, softmaxShapeInfo, api);
    __arc::softmax_rows(dst, sum, max, src, s, 0, true, api);
    for (uint32_t r = 0; r < s.m; r++) {
        T *y = dst.addr_ + (uint64_t)r * s.k;
        for (uint32_t c = 0; c < s.ok; c++) y[c] = (T)__builtin_log10f((float)y[c]);
    }
}
} // namespace AscendC

#endif /* ARC_LIB_ACTIVATION_LOGSOFTMAX_H_ */
