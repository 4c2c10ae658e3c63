/* adv_config.h - the Ascend 950 (dav-3510) algorithm configs of the math
 * APIs, as their public pages define them (SinConfig, CosConfig, AtanConfig,
 * ErfConfig, FmodConfig; DivConfig and SqrtConfig of the basic
 * API), the forms taking them, and Fmod, Truncate, Ands and Ors (opbase's
 * atvoss calls each).  A config picks the NPU's instruction sequence
 * within the page's error bound (at most 1 ulp, or exact); the simulated
 * core computes every algorithm in float and rounds once, the exact
 * answer, so the config changes nothing here (as highPrecision does not in
 * lib/activation/gelu.h). */
#ifndef ARC_ADV_CONFIG_H_
#define ARC_ADV_CONFIG_H_

#include "arc/adv_math.h"
#include "arc/cast.h"

namespace AscendC {
enum class SinAlgo { POLYNOMIAL_APPROXIMATION = 0, RADIAN_REDUCTION };
struct SinConfig { SinAlgo algo = SinAlgo::POLYNOMIAL_APPROXIMATION; };
constexpr SinConfig defaultSinConfig = {};
enum class CosAlgo { POLYNOMIAL_APPROXIMATION = 0, RADIAN_REDUCTION };
struct CosConfig { CosAlgo algo = CosAlgo::POLYNOMIAL_APPROXIMATION; };
constexpr CosConfig defaultCosConfig = {};
enum class AtanAlgo { TAYLOR_EXPANSION = 0, POLYNOMIAL_APPROXIMATION };
struct AtanConfig { AtanAlgo algo = AtanAlgo::TAYLOR_EXPANSION; };
constexpr AtanConfig defaultAtanConfig = {};
enum class ErfAlgo { PADE_APPROXIMATION = 0, SUBSECTION_POLYNOMIAL_APPROXIMATION };
struct ErfConfig { ErfAlgo algo = ErfAlgo::PADE_APPROXIMATION; };
constexpr ErfConfig defaultErfConfig = {};
constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;
enum class FmodAlgo { NORMAL = 0, ITERATION_COMPENSATION = 1 };
struct FmodConfig {
    FmodAlgo algo = FmodAlgo::NORMAL;
    uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};
constexpr FmodConfig DEFAULT_FMOD_CONFIG = {};
enum class DivAlgo {
    INTRINSIC = 0,
    DIFF_COMPENSATION,
    PRECISION_1ULP_FTZ_TRUE,
    PRECISION_0ULP_FTZ_TRUE,
    PRECISION_0ULP_FTZ_FALSE,
    PRECISION_1ULP_FTZ_FALSE
};
struct DivConfig { DivAlgo algo = DivAlgo::INTRINSIC; };
constexpr DivConfig DEFAULT_DIV_CONFIG = {};
enum class SqrtAlgo { INTRINSIC = 0, FAST_INVERSE, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_FALSE, PRECISION_1ULP_FTZ_FALSE };
struct SqrtConfig { SqrtAlgo algo = SqrtAlgo::INTRINSIC; };
constexpr SqrtConfig DEFAULT_SQRT_CONFIG = {};

/* The config forms of the unary math APIs (no default: the forms without
 * a config stay the ones a call without template arguments picks). */
#define ARC_ADV_CONFIG_FORMS(NAME, CONFIG)                                                                  \
    template <typename T, bool isReuseSource, const CONFIG &config>                                         \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t calCount)        \
    {                                                                                                       \
        NAME<T, isReuseSource>(dst, src, calCount);                                                         \
    }                                                                                                       \
    template <typename T, bool isReuseSource, const CONFIG &config>                                         \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &,   \
                     const uint32_t calCount)                                                               \
    {                                                                                                       \
        NAME<T, isReuseSource>(dst, src, calCount);                                                         \
    }
ARC_ADV_CONFIG_FORMS(Sin, SinConfig)
ARC_ADV_CONFIG_FORMS(Cos, CosConfig)
ARC_ADV_CONFIG_FORMS(Atan, AtanConfig)
ARC_ADV_CONFIG_FORMS(Erf, ErfConfig)
#undef ARC_ADV_CONFIG_FORMS

template <typename T, const DivConfig &config>
inline void Div(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, const int32_t &count)
{
    Div(dst, src0, src1, count);
}
template <typename T, const SqrtConfig &config>
inline void Sqrt(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count)
{
    Sqrt(dst, src, count);
}

/* Fmod(a, b) = a - Trunc(a / b) * b, the remainder with a's sign; exact
 * (the remainder is representable), which ITERATION_COMPENSATION's page
 * approaches and the simulated core computes directly. */
template <typename T, bool isReuseSource = false, const FmodConfig &config = DEFAULT_FMOD_CONFIG>
inline void Fmod(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                 const uint32_t calCount)
{
    ARC_A2_HF(Fmod);
    __arc::adv_binary(dst, src0, src1, calCount, "AscendC::Fmod", [](float a, float b) { return __builtin_fmodf(a, b); });
}
template <typename T, bool isReuseSource = false, const FmodConfig &config = DEFAULT_FMOD_CONFIG>
inline void Fmod(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                 const LocalTensor<uint8_t> &, const uint32_t calCount)
{
    Fmod<T, isReuseSource, config>(dst, src0, src1, calCount);
}

/* Truncate (ISASI): each element rounded to an integer value by roundMode
 * (RINT: nearest, ties to even; ROUND: ties away from zero; FLOOR; CEIL;
 * TRUNC), the type kept.  Exact in float for half and bfloat16_t. */
template <typename T, RoundMode roundMode>
inline void Truncate(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count)
{
    static_assert(__arc::is_float_v<T>, "AscendC::Truncate: supports floating-point types only");
    static_assert(roundMode == RoundMode::CAST_RINT || roundMode == RoundMode::CAST_ROUND ||
                      roundMode == RoundMode::CAST_FLOOR || roundMode == RoundMode::CAST_CEIL ||
                      roundMode == RoundMode::CAST_TRUNC,
                  "AscendC::Truncate: roundMode must be CAST_RINT, CAST_ROUND, CAST_FLOOR, CAST_CEIL or CAST_TRUNC");
    __arc::un_count(dst, src, (int32_t)count, "AscendC::Truncate", [](T v) -> T {
        const float x = (float)v;
        switch (roundMode) {
        case RoundMode::CAST_ROUND: return (T)__builtin_roundf(x);
        case RoundMode::CAST_FLOOR: return (T)__builtin_floorf(x);
        case RoundMode::CAST_CEIL: return (T)__builtin_ceilf(x);
        case RoundMode::CAST_TRUNC: return (T)__builtin_truncf(x);
        default: return (T)__builtin_rintf(x);
        }
    });
}

/* Ands / Ors (dav-3510): each element & (|) a scalar, the scalar after or
 * before the tensor. */
#define ARC_BITS_SCALAR(NAME, OP)                                                                           \
    template <typename T, typename U>                                                                       \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const U &scalar, const int32_t &count) \
    {                                                                                                       \
        static_assert(__NPU_ARCH__ != 2201, "AscendC::" #NAME ": Ascend 950 (dav-3510) only");             \
        static_assert(std::is_integral<T>::value, "AscendC::" #NAME ": supports integer types only");      \
        const T s = (T)scalar;                                                                              \
        __arc::un_count(dst, src, count, "AscendC::" #NAME, [s](T x) -> T { return (T)(x OP s); });        \
    }                                                                                                       \
    template <typename T, typename U>                                                                       \
    inline void NAME(const LocalTensor<T> &dst, const U &scalar, const LocalTensor<T> &src, const int32_t &count) \
    {                                                                                                       \
        NAME(dst, src, scalar, count);                                                                      \
    }
ARC_BITS_SCALAR(Ands, &)
ARC_BITS_SCALAR(Ors, |)
#undef ARC_BITS_SCALAR
} // namespace AscendC

#endif /* ARC_ADV_CONFIG_H_ */
