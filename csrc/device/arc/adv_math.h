/* adv_math.h - element-wise functions of the advanced API
 * (CANN lib/math headers): Sigmoid, Silu, Tanh, Sin, Cos, Tan, Asin, Acos,
 * Atan, Sinh, Cosh, Asinh, Acosh, Atanh, Erf, Erfc, Log, Log2, Log10,
 * Floor, Ceil, Trunc, Frac and Sign (Power: arc/adv_power.h).  Each has the (dst, src,
 * calCount) form and the (dst, src, sharedTmpBuffer, calCount) form, and
 * both without calCount (the whole source tensor); the
 * CPU twin needs no scratch, so the tmp buffer is accepted and unused.  half and bfloat16_t
 * compute in float and round once, as the hardware's float paths do. */
#ifndef ARC_ADV_MATH_H_
#define ARC_ADV_MATH_H_

#include "arc/vec_unary.h"

namespace __arc {
static inline float fsign(float x) { return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x; } /* keeps +-0 and NaN */
static inline float fsigmoid(float x) { return 1.0f / (1.0f + __builtin_expf(-x)); }
} // namespace __arc

/* One element-wise function; EXPR computes in float from `x`. */
#define ARC_ADV_UNARY(NAME, EXPR) ARC_ADV_UNARY_OVERLAP(NAME, EXPR, ARC_OVERLAP_NONE)
/* OVERLAP: what the API's page allows (ARC_OVERLAP_REPEAT where it allows
 * overlap: the general rule still holds). */
#define ARC_ADV_UNARY_OVERLAP(NAME, EXPR, OVERLAP)                                                          \
    template <typename T, bool isReuseSource = false>                                                       \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t calCount)        \
    {                                                                                                       \
        ARC_A2_HF(NAME);                                                                                \
        __arc::check_overlap(dst, calCount, src, calCount, OVERLAP, "AscendC::" #NAME, "src");             \
        __arc::un_count(dst, src, (int32_t)calCount, "AscendC::" #NAME, [](T v) -> T {                     \
            float x = (float)v;                                                                             \
            return (T)(EXPR);                                                                               \
        });                                                                                                 \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false>                                                       \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &,   \
                     const uint32_t calCount)                                                               \
    {                                                                                                       \
        NAME<T, isReuseSource>(dst, src, calCount);                                                         \
    }                                                                                                       \
    /* "the whole source tensor takes part": calCount is src's size */                                      \
    template <typename T, bool isReuseSource = false>                                                       \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &)   \
    {                                                                                                       \
        NAME<T, isReuseSource>(dst, src, (uint32_t)src.GetSize());                                          \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false>                                                       \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src)                                  \
    {                                                                                                       \
        NAME<T, isReuseSource>(dst, src, (uint32_t)src.GetSize());                                          \
    }

namespace AscendC {
ARC_ADV_UNARY(Sigmoid, __arc::fsigmoid(x))
ARC_ADV_UNARY(Silu, x * __arc::fsigmoid(x))
ARC_ADV_UNARY(Tanh, __builtin_tanhf(x))
ARC_ADV_UNARY(Sin, __builtin_sinf(x))
ARC_ADV_UNARY(Cos, __builtin_cosf(x))
ARC_ADV_UNARY(Tan, __builtin_tanf(x))
ARC_ADV_UNARY(Asin, __builtin_asinf(x))
ARC_ADV_UNARY(Acos, __builtin_acosf(x))
ARC_ADV_UNARY(Atan, __builtin_atanf(x))
ARC_ADV_UNARY(Sinh, __builtin_sinhf(x))
ARC_ADV_UNARY(Cosh, __builtin_coshf(x))
ARC_ADV_UNARY(Asinh, __builtin_asinhf(x))
ARC_ADV_UNARY(Acosh, __builtin_acoshf(x))
ARC_ADV_UNARY(Atanh, __builtin_atanhf(x))
ARC_ADV_UNARY(Erf, __builtin_erff(x))
ARC_ADV_UNARY(Erfc, __builtin_erfcf(x))
ARC_ADV_UNARY(Log, __builtin_logf(x))
ARC_ADV_UNARY(Log2, __builtin_log2f(x))
ARC_ADV_UNARY(Log10, __builtin_log10f(x))
ARC_ADV_UNARY(Floor, __builtin_floorf(x))
ARC_ADV_UNARY(Ceil, __builtin_ceilf(x))
ARC_ADV_UNARY_OVERLAP(Trunc, __builtin_truncf(x), ARC_OVERLAP_REPEAT)
ARC_ADV_UNARY(Frac, x - __builtin_truncf(x))
ARC_ADV_UNARY(Sign, __arc::fsign(x))

/* IsFinite: 1 (or true) where src is neither NaN nor +-inf, else 0; dst
 * is src's type or bool, and may not overlap src (the API's page). */
template <typename T, typename U>
inline void IsFinite(const LocalTensor<U> &dst, const LocalTensor<T> &src, uint32_t calCount)
{
    static_assert(__arc::one_of<T, half, bfloat16_t, float>, "AscendC::IsFinite: src is half, bfloat16_t or float");
    static_assert(__arc::is_same<U, T>::value || __arc::is_same<U, bool>::value,
                  "AscendC::IsFinite: dst is src's type or bool");
    __arc::check_overlap(dst, calCount, src, calCount, ARC_OVERLAP_NONE, "AscendC::IsFinite", "src");
    __arc::un_count(dst, src, (int32_t)calCount, "AscendC::IsFinite", [](T v) -> U {
        float x = (float)v;
        return (U)(x == x && x - x == 0.0f ? 1 : 0);
    });
}

} // namespace AscendC

namespace __arc {
/* A two-tensor advanced math function f(a, b) in float (Fmod): no
 * overlap of dst with either source (their pages). */
template <typename T, typename F>
inline void adv_binary(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src0,
                       const AscendC::LocalTensor<T> &src1, uint32_t calCount, const char *api, F f)
{
    check_overlap(dst, calCount, src0, calCount, ARC_OVERLAP_NONE, api, "src0");
    check_overlap(dst, calCount, src1, calCount, ARC_OVERLAP_NONE, api, "src1");
    bin_count(dst, src0, src1, (int32_t)calCount, api, [f](T a, T b) -> T { return (T)f((float)a, (float)b); });
}
} // namespace __arc

#endif /* ARC_ADV_MATH_H_ */
