/* exp.h - the advanced API's Exp<T, taylorExpandLevel, isReuseSource>
 * (every SoC; half and float), as its page defines it.  Level 0: e^x.
 * Level n > 0: x = xA + xB with xA = floor(x) and xB in [0, 1), and
 * e^x = e^xA * (1 + xB + xB^2/2! + ... + xB^n/n!): "n terms" read as the
 * series up to the power n (the page's formula is an image; the
 * polynomial's order is our reading), summed in float from the constant
 * term up, each term the previous one times xB / k; e^xA is the float
 * exp of an integer.  half computes in float and rounds once.
 * isReuseSource (float only, the page) lets the NPU keep intermediates in
 * src: the page's example shows src holding xB afterwards, which this does
 * too, so a kernel that reads src again sees what it would on the NPU.
 * The basic API's Exp(dst, src, count) is arc/vec_unary.h's. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_MATH_EXP_H_
#define ARC_LIB_MATH_EXP_H_

#include "lib/adv/common.h"

namespace __arc {
inline float exp_taylor(float x, unsigned level)
{
    if (level == 0)
        return __builtin_expf(x);
    const float xa = __builtin_floorf(x), xb = x - xa;
    float term = 1.0f, sum = 1.0f;
    for (unsigned k = 1; k <= level; k++) {
        term = term * xb / (float)k;
        sum += term;
    }
    return __builtin_expf(xa) * sum;
}
} // namespace __arc

namespace AscendC {
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const uint32_t calCount)
{
    ARC_A2_HF(Exp);
    const char *api = "AscendC::Exp";
    constexpr bool reuse = isReuseSource && taylorExpandLevel > 0 && __arc::is_same<T, float>::value;
    __arc::adv_need(dstLocal, calCount, api, "dst");
    /* a reused src is written too ("dst ..." names a write for the race check) */
    __arc::adv_need(srcLocal, calCount, api, reuse ? "dst srcLocal (isReuseSource)" : "src");
    __arc::check_overlap(dstLocal, calCount, srcLocal, calCount, ARC_OVERLAP_NONE, api, "src");
    T *d = dstLocal.addr_, *s = srcLocal.addr_;
    for (uint32_t i = 0; i < calCount; i++) {
        const float x = (float)s[i];
        d[i] = (T)__arc::exp_taylor(x, taylorExpandLevel);
        if constexpr (reuse)
            s[i] = x - __builtin_floorf(x);
    }
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::Exp");
    Exp<T, taylorExpandLevel, isReuseSource>(dstLocal, srcLocal, calCount);
}
} // namespace AscendC

#endif /* ARC_LIB_MATH_EXP_H_ */
