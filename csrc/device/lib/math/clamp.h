/* clamp.h - Clamp, ClampMin and ClampMax (advanced API, math), as their
 * pages define them.  Clamp (Ascend 950 only): every element but NaN above
 * max becomes max, below min becomes min, and when min > max every element
 * but NaN becomes max; min and max are each a LocalTensor or a scalar.
 * ClampMin / ClampMax (every SoC, half and float): an element below
 * (above) the scalar becomes the scalar, the rest (NaN included) stay.
 * A NaN bound compares false, so it changes nothing (the pages are
 * silent).  The results are source values: nothing rounds. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_MATH_CLAMP_H_
#define ARC_LIB_MATH_CLAMP_H_

#include "lib/math/bitwise.h" /* adv_zip */

namespace __arc {
/* a < b for the element types (bfloat16_t through float). */
template <class T> inline bool less(T a, T b)
{
    if constexpr (is_same<T, bfloat16_t>::value)
        return (float)a < (float)b;
    else
        return a < b;
}
template <class T> inline T clamp_min(T x, T lo) { return less(x, lo) ? lo : x; }
template <class T> inline T clamp_max(T x, T hi) { return less(hi, x) ? hi : x; }
template <class T> inline bool is_nan(T x)
{
    if constexpr (is_float_v<T>)
        return (float)x != (float)x;
    else
        return false;
}
} // namespace __arc

namespace AscendC {
ARC_REUSE_CONFIG(ClampConfig, DEFAULT_CLAMP_CONFIG)

template <const ClampConfig &config = DEFAULT_CLAMP_CONFIG, typename T, typename U, typename S>
inline void Clamp(const LocalTensor<T> &dst, const LocalTensor<T> &src, const U &min, const S &max,
                  const uint32_t count)
{
    ARC_950_ONLY(Clamp);
    static_assert(__arc::is_bits_v<T> || __arc::one_of<T, half, bfloat16_t, float>,
                  "AscendC::Clamp: supports 8- to 64-bit integers, half, bfloat16_t and float");
    const char *api = "AscendC::Clamp";
    __arc::adv_need(dst, count, api, "dst");
    __arc::opnd_need(dst, src, count, api, "src");
    __arc::opnd_need(dst, min, count, api, "min");
    __arc::opnd_need(dst, max, count, api, "max");
    T *d = dst.addr_;
    for (uint32_t i = 0; i < count; i++) {
        const T x = src.addr_[i], lo = (T)__arc::opnd_at(min, i), hi = (T)__arc::opnd_at(max, i);
        d[i] = __arc::is_nan(x) ? x : __arc::clamp_max(__arc::clamp_min(x, lo), hi);
    }
}

#define ARC_CLAMP_SCALAR(NAME, F)                                                                           \
    template <typename T, bool isReuseSource = false>                                                       \
    inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const T scalar,      \
                     const uint32_t calCount)                                                               \
    {                                                                                                       \
        static_assert(__arc::one_of<T, half, float>, "AscendC::" #NAME ": supports half and float only");  \
        __arc::adv_zip(dstTensor, srcTensor, scalar, calCount, "AscendC::" #NAME,                           \
                       [](T x, T s) -> T { return __arc::F(x, s); });                                       \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false>                                                       \
    inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,                      \
                     const LocalTensor<uint8_t> &sharedTmpBuffer, const T scalar, const uint32_t calCount)  \
    {                                                                                                       \
        __arc::adv_tmp(sharedTmpBuffer, "AscendC::" #NAME);                                                 \
        NAME<T, isReuseSource>(dstTensor, srcTensor, scalar, calCount);                                     \
    }
ARC_CLAMP_SCALAR(ClampMin, clamp_min)
ARC_CLAMP_SCALAR(ClampMax, clamp_max)
#undef ARC_CLAMP_SCALAR
} // namespace AscendC

#endif /* ARC_LIB_MATH_CLAMP_H_ */
