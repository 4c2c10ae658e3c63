/* swish.h - Swish(dst, src, dataSize, beta): x / (1 + exp(-beta x)),
 * computed in float and rounded once (advanced API, activation). */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_ACTIVATION_SWISH_H_
#define ARC_LIB_ACTIVATION_SWISH_H_

#include "lib/adv/common.h"

namespace __arc {
inline float swish(float x, float beta) { return x / (1.0f + __builtin_expf(-beta * x)); }
} // namespace __arc

namespace AscendC {
template <typename T, bool isReuseSource = false>
inline void Swish(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, uint32_t dataSize,
                  const T &scalarValue)
{
    ARC_ADV_HF(Swish);
    const float beta = (float)scalarValue;
    __arc::check_overlap(dstLocal, dataSize, srcLocal, dataSize, ARC_OVERLAP_NONE, "AscendC::Swish", "src");
    __arc::adv_map(dstLocal, srcLocal, dataSize, "AscendC::Swish", [beta](float x) { return __arc::swish(x, beta); });
}
template <typename T, bool isReuseSource = false>
inline void Swish(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                  const LocalTensor<uint8_t> &sharedTmpBuffer, uint32_t dataSize, const T &scalarValue)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::Swish");
    Swish<T, isReuseSource>(dstLocal, srcLocal, dataSize, scalarValue);
}
} // namespace AscendC

#endif /* ARC_LIB_ACTIVATION_SWISH_H_ */
