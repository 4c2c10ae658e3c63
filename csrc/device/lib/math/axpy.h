/* axpy.h - the advanced API's Axpy(dst, src, scalar, sharedTmpBuffer,
 * calCount) (every SoC): dst = src * scalar + dst, "as Muls then Add"
 * (its page), with dst and src each half or float.  The product is src's
 * Muls, rounded to src's type; the Add is in float, rounded once to dst's
 * type (half + half rounds as a half Add does but for double rounding
 * when the exact sum needs more than float's 24 bits).  The basic API's
 * Axpy is arc/vec_unary.h's. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_MATH_AXPY_H_
#define ARC_LIB_MATH_AXPY_H_

#include "lib/adv/common.h"

namespace AscendC {
template <typename T, typename U, bool isReuseSource = false>
inline void Axpy(const LocalTensor<T> &dstTensor, const LocalTensor<U> &srcTensor, const U scalarValue,
                 const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount)
{
    static_assert(__arc::one_of<T, half, float> && __arc::one_of<U, half, float>,
                  "AscendC::Axpy: dst and src are half or float");
    const char *api = "AscendC::Axpy";
    __arc::adv_tmp(sharedTmpBuffer, api);
    __arc::adv_need(dstTensor, calCount, api, "dst");
    __arc::opnd_need(dstTensor, srcTensor, calCount, api, "src");
    T *d = dstTensor.addr_;
    const U *s = srcTensor.addr_;
    for (uint32_t i = 0; i < calCount; i++) d[i] = (T)((float)(U)(s[i] * scalarValue) + (float)d[i]);
}
} // namespace AscendC

#endif /* ARC_LIB_MATH_AXPY_H_ */
