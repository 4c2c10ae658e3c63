/* vec_unary.h - element-wise dst = op(src) and dst = op(src, scalar):
 * Abs, Exp, Ln, Sqrt, Rsqrt, Reciprocal, Relu, Not, Neg, LeakyRelu, Adds,
 * Muls, Maxs, Mins, Subs, Divs, ShiftLeft, ShiftRight, Axpy,
 * Duplicate, CreateVecIndex, ArithProgression.  Count form and level-0
 * form (mask, repeatTime, UnaryRepeatParams). */
#ifndef ARC_VEC_UNARY_H_
#define ARC_VEC_UNARY_H_

#include "arc/vec_binary.h"

namespace __arc {
template <class T> struct ident { typedef T type; };
template <class T> using ident_t = typename ident<T>::type;


template <class TD, class TS, class F>
inline void un_count(const AscendC::LocalTensor<TD> &d, const AscendC::LocalTensor<TS> &s, int32_t n, const char *api, F f)
{
    check_cnt(d, n, api, "dst");
    check_cnt(s, n, api, "src");
    check_overlap(d, n, s, n, ARC_OVERLAP_REPEAT, api, "src");
    TD *__restrict dp = d.addr_;
    const TS *__restrict sp = s.addr_;
    for (int32_t i = 0; i < n; i++) dp[i] = f(sp[i]);
}
template <class TD, class TS, class F>
inline void un_l0(const AscendC::LocalTensor<TD> &d, const AscendC::LocalTensor<TS> &s, const Plan &p,
                  const AscendC::UnaryRepeatParams &rp, const char *api, F f)
{
    Opnd od = opnd<TD>(rp.dstBlkStride, rp.dstRepStride), os = opnd<TS>(rp.srcBlkStride, rp.srcRepStride);
    check_l0(d, p, od, api, "dst");
    check_l0(s, p, os, api, "src");
    check_overlap_l0(d, p, od, s, os, api, "src");
    TD *dp = d.addr_;
    const TS *sp = s.addr_;
    if (full(p) && flat(p, od) && flat(p, os)) {
        uint64_t n = flat_n(p);
        for (uint64_t i = 0; i < n; i++) dp[i] = f(sp[i]);
        return;
    }
    lanes(p, [&](uint32_t r, uint32_t l) { dp[off(od, r, l)] = f(sp[off(os, r, l)]); });
}

template <class T> inline T fexp(T x) { return (T)__builtin_expf((float)x); }
template <> inline double fexp(double x) { return __builtin_exp(x); }
template <class T> inline T fln(T x) { return (T)__builtin_logf((float)x); }
template <class T> inline T fsqrt(T x) { return (T)__builtin_sqrtf((float)x); }
template <class T> inline T fabs_(T x) { return x < (T)0 ? (T)-x : x; }
template <> inline float fabs_(float x) { return __builtin_fabsf(x); }
template <> inline half fabs_(half x) { return (half)__builtin_fabsf((float)x); }
} // namespace __arc

/* Count and level-0 (two mask styles) forms of dst = __arc::op::NAME(x). */
#define ARC_UNARY_API(NAME, CHECK)                                                                      \
    template <typename T>                                                                                     \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count)             \
    {                                                                                                         \
        CHECK;                                                                                                \
        __arc::un_count(dst, src, count, "AscendC::" #NAME, __arc::op::NAME{});                              \
    }                                                                                                         \
    template <typename T, bool isSetMask = true>                                                              \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask,                    \
                     const uint8_t repeatTime, const UnaryRepeatParams &rp)                                   \
    {                                                                                                         \
        CHECK;                                                                                                \
        __arc::Plan p = __arc::plan_len(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::" #NAME);    \
        __arc::un_l0(dst, src, p, rp, "AscendC::" #NAME, __arc::op::NAME{});                                 \
    }                                                                                                         \
    template <typename T, bool isSetMask = true>                                                              \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],            \
                     const uint8_t repeatTime, const UnaryRepeatParams &rp)                                   \
    {                                                                                                         \
        CHECK;                                                                                                \
        __arc::Plan p = __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::" #NAME);    \
        __arc::un_l0(dst, src, p, rp, "AscendC::" #NAME, __arc::op::NAME{});                                 \
    }

/* Same with a scalar operand s (converted to T, as CANN requires T):
 * dst = __arc::op::NAME(x, s). */
#define ARC_SCALAR_API(NAME, CHECK)                                                                     \
    template <typename T, typename U>                                                                         \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const U &scalar,                  \
                     const int32_t &count)                                                                    \
    {                                                                                                         \
        CHECK;                                                                                                \
        const T s = (T)scalar;                                                                                \
        __arc::un_count(dst, src, count, "AscendC::" #NAME, [s](T x) -> T { return __arc::op::NAME{}(x, s); });                 \
    }                                                                                                         \
    template <typename T, bool isSetMask = true, typename U>                                                  \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const U &scalar, uint64_t mask,   \
                     const uint8_t repeatTime, const UnaryRepeatParams &rp)                                   \
    {                                                                                                         \
        CHECK;                                                                                                \
        ARC_CX_COUNT_ONLY(NAME);                                                                              \
        const T s = (T)scalar;                                                                                \
        __arc::Plan p = __arc::plan_len(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::" #NAME);    \
        __arc::un_l0(dst, src, p, rp, "AscendC::" #NAME, [s](T x) -> T { return __arc::op::NAME{}(x, s); });                    \
    }                                                                                                         \
    template <typename T, bool isSetMask = true, typename U>                                                  \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const U &scalar,                  \
                     const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams &rp)            \
    {                                                                                                         \
        CHECK;                                                                                                \
        ARC_CX_COUNT_ONLY(NAME);                                                                              \
        const T s = (T)scalar;                                                                                \
        __arc::Plan p = __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::" #NAME);    \
        __arc::un_l0(dst, src, p, rp, "AscendC::" #NAME, [s](T x) -> T { return __arc::op::NAME{}(x, s); });                    \
    }

#define ARC_A2_HF(NAME)                                                                                   \
    static_assert(__arc::is_float_v<T>, "AscendC::" #NAME ": supports half and float only");                 \
    ARC_DTYPE_REQUIRE((__arc::one_of<T, half, float> || (__NPU_ARCH__ != 2201 && __arc::is_float_v<T>)),         \
                  "AscendC::" #NAME ": dav-2201 supports half and float only (no bfloat16_t: Cast to float first)")
#define ARC_A2_RELU(NAME)                                                                                   \
    ARC_DTYPE_REQUIRE((__NPU_ARCH__ != 2201 || __arc::one_of<T, half, float, int32_t>),                           \
                  "AscendC::" #NAME ": dav-2201 supports half, float and int32_t only")
#define ARC_A2_SHIFT(NAME)                                                                                  \
    ARC_DTYPE_REQUIRE((__arc::one_of<T, int16_t, uint16_t, int32_t, uint32_t> || __NPU_ARCH__ != 2201),          \
                  "AscendC::" #NAME ": supports int16_t, uint16_t, int32_t and uint32_t only")

#define ARC_UNARY_OPS(X)                                                           \
    X(Abs, ARC_A2_HF(Abs), __arc::fabs_(x))                                        \
    X(Exp, ARC_A2_HF(Exp), __arc::fexp(x))                                         \
    X(Ln, ARC_A2_HF(Ln), __arc::fln(x))                                            \
    X(Sqrt, ARC_A2_HF(Sqrt), __arc::fsqrt(x))                                      \
    X(Rsqrt, ARC_A2_HF(Rsqrt), (T)(1.0f / __builtin_sqrtf((float)x)))              \
    X(Reciprocal, ARC_A2_HF(Reciprocal), (T)(1.0f / (float)x))                     \
    X(Relu, ARC_A2_RELU(Relu); ARC_CX_NO(Relu), (x > (T)0 ? x : (T)0))             \
    X(Not, ARC_A2_BITS(Not); ARC_CX_NO(Not), (T)(~x))                               \
    X(Neg, ARC_A2_ARITH(Neg), (T)(-x))
/* y is the scalar, converted to T. */
#define ARC_SCALAR_OPS(X)                                                                                \
    X(Adds, ARC_A2_ARITH(Adds), (T)(x + y))                                                              \
    X(Subs, ARC_A2_ARITH(Subs), (T)(x - y))                                                              \
    X(Muls, ARC_A2_ARITH(Muls), (T)(x * y))                                                              \
    X(Divs, ARC_A2_FLOAT(Divs), (T)(x / y))                                                              \
    X(Maxs, ARC_A2_ARITH(Maxs); ARC_CX_NO(Maxs), (x > y ? x : y))                                        \
    X(Mins, ARC_A2_ARITH(Mins); ARC_CX_NO(Mins), (x < y ? x : y))                                        \
    X(LeakyRelu, ARC_A2_HF(LeakyRelu), (x >= (T)0 ? x : (T)(x * y)))                                     \
    /* Logical shift for unsigned, arithmetic for signed types. */                                       \
    X(ShiftLeft, ARC_A2_SHIFT(ShiftLeft), (T)((typename __arc::uint_of<sizeof(T)>::type)x << (int)y))    \
    X(ShiftRight, ARC_A2_SHIFT(ShiftRight), (T)(x >> (int)y))
#define ARC_UNARY_FUNCTOR(NAME, CHECK, EXPR) \
    struct NAME {                            \
        template <class T> T operator()(T x) const { return EXPR; } \
    };
namespace __arc {
namespace op {
ARC_UNARY_OPS(ARC_UNARY_FUNCTOR)
ARC_SCALAR_OPS(ARC_OP_FUNCTOR)
} // namespace op
} // namespace __arc

namespace AscendC {
#define ARC_UNARY_API_ROW(NAME, CHECK, EXPR) ARC_UNARY_API(NAME, CHECK)
#define ARC_SCALAR_API_ROW(NAME, CHECK, EXPR) ARC_SCALAR_API(NAME, CHECK)
ARC_UNARY_OPS(ARC_UNARY_API_ROW)
ARC_SCALAR_OPS(ARC_SCALAR_API_ROW)
#undef ARC_UNARY_API_ROW
#undef ARC_SCALAR_API_ROW

/* Abs of complex32/complex64 (dav-3510, count form): dst[i] = |src[i]|,
 * half for complex32, float for complex64 (arc/complex.h computes it). */
template <typename T, typename U, typename __arc::enable_if<__arc::is_complex_v<U>, int>::type = 0>
inline void Abs(const LocalTensor<T> &dst, const LocalTensor<U> &src, const int32_t &count)
{
    ARC_DTYPE_REQUIRE(__NPU_ARCH__ != 2201, "AscendC::Abs: complex32/complex64 are dav-3510 types");
    static_assert(__arc::is_same<AscendC::Complex<T>, U>::value,
                  "AscendC::Abs: the result of a complex32 is half, of a complex64 float");
    const char *api = "AscendC::Abs";
    __arc::check_cnt(dst, count, api, "dst");
    __arc::check_cnt(src, count, api, "src");
    __arc::check_overlap(dst, count, src, count, ARC_OVERLAP_NONE, api, "src");
    for (int32_t i = 0; i < count; i++) dst.addr_[i] = __arc::cabs(src.addr_[i]);
}

/* Axpy: dst = scalar * src + dst (half->half, float->float, half->float). */
template <typename TD, typename TS, typename U>
inline void Axpy(const LocalTensor<TD> &dst, const LocalTensor<TS> &src, const U &scalar, const int32_t &count)
{
    static_assert(__arc::one_of<TS, half, float> && (__arc::is_same<TD, TS>::value || __arc::is_same<TD, float>::value),
                  "AscendC::Axpy: supports half->half, float->float and half->float");
    const char *api = "AscendC::Axpy";
    __arc::check_cnt(dst, count, api, "dst");
    __arc::check_cnt(src, count, api, "src");
    const float s = (float)scalar;
    TD *__restrict dp = dst.addr_;
    const TS *__restrict sp = src.addr_;
    if constexpr (__arc::is_same<TD, TS>::value) {
        const TS st = (TS)scalar;
        for (int32_t i = 0; i < count; i++) dp[i] = (TD)((TS)(st * sp[i]) + (TS)dp[i]);
    } else {
        for (int32_t i = 0; i < count; i++) dp[i] = (TD)(s * (float)sp[i] + (float)dp[i]);
    }
}
namespace __detail {
/* Level-0 Axpy over a plan (the two mask forms below build it). */
template <typename TD, typename TS, typename U>
inline void axpy_l0(const LocalTensor<TD> &dst, const LocalTensor<TS> &src, const U &scalar, const __arc::Plan &p,
                    const UnaryRepeatParams &rp)
{
    const char *api = "AscendC::Axpy";
    __arc::Opnd od = __arc::opnd<TD>(rp.dstBlkStride, rp.dstRepStride), os = __arc::opnd<TS>(rp.srcBlkStride, rp.srcRepStride);
    __arc::check_l0(dst, p, od, api, "dst");
    __arc::check_l0(src, p, os, api, "src");
    const TS st = (TS)scalar;
    __arc::lanes(p, [&](uint32_t r, uint32_t l) {
        TD &d = dst.addr_[__arc::off(od, r, l)];
        d = (TD)((float)(TS)(st * src.addr_[__arc::off(os, r, l)]) + (float)d);
    });
}
} // namespace __detail
template <typename TD, typename TS, bool isSetMask = true, typename U>
inline void Axpy(const LocalTensor<TD> &dst, const LocalTensor<TS> &src, const U &scalar, uint64_t mask,
                 const uint8_t repeatTime, const UnaryRepeatParams &rp)
{
    __detail::axpy_l0(dst, src, scalar,
                      __arc::plan_len(__arc::lanes_of<TD, TS>(), repeatTime, mask, isSetMask, "AscendC::Axpy"), rp);
}
template <typename TD, typename TS, bool isSetMask = true, typename U>
inline void Axpy(const LocalTensor<TD> &dst, const LocalTensor<TS> &src, const U &scalar, const uint64_t mask[],
                 const uint8_t repeatTime, const UnaryRepeatParams &rp)
{
    __detail::axpy_l0(dst, src, scalar,
                      __arc::plan_arr(__arc::lanes_of<TD, TS>(), repeatTime, mask, isSetMask, "AscendC::Axpy"), rp);
}

/* ---- Duplicate: fill with a scalar ---- */
template <typename T, typename U> inline void Duplicate(const LocalTensor<T> &dst, const U &scalar, const int32_t &count)
{
    const char *api = "AscendC::Duplicate";
    __arc::check_cnt(dst, count, api, "dst");
    const T s = (T)scalar;
    T *__restrict dp = dst.addr_;
    for (int32_t i = 0; i < count; i++) dp[i] = s;
}
/* Ascend 950's form with a LocalTensor source: src[0] fills dst (its page;
 * src may be dst: the value is read first). */
template <typename T> inline void Duplicate(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count)
{
    const char *api = "AscendC::Duplicate";
    ARC_CHECK(__NPU_ARCH__ != 2201, api, "the LocalTensor source form is Ascend 950 (dav-3510) only: pass a scalar");
    __arc::check_cnt(src, 1, api, "src");
    Duplicate(dst, src.addr_[0], count);
}
namespace __detail {
template <typename T>
inline void dup_l0(const LocalTensor<T> &dst, T s, const __arc::Plan &p, uint16_t blk, uint8_t rep)
{
    __arc::Opnd od = __arc::opnd<T>(blk, rep);
    __arc::check_l0(dst, p, od, "AscendC::Duplicate", "dst");
    T *dp = dst.addr_;
    __arc::lanes(p, [&](uint32_t r, uint32_t l) { dp[__arc::off(od, r, l)] = s; });
}
} // namespace __detail
template <typename T, bool isSetMask = true, typename U>
inline void Duplicate(const LocalTensor<T> &dst, const U &scalar, uint64_t mask, const uint8_t repeatTime,
                      const uint16_t dstBlockStride, const uint8_t dstRepeatStride)
{
    __arc::Plan p = __arc::plan_len(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::Duplicate");
    __detail::dup_l0(dst, (T)scalar, p, dstBlockStride, dstRepeatStride);
}
template <typename T, bool isSetMask = true, typename U>
inline void Duplicate(const LocalTensor<T> &dst, const U &scalar, const uint64_t mask[], const uint8_t repeatTime,
                      const uint16_t dstBlockStride, const uint8_t dstRepeatStride)
{
    __arc::Plan p = __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::Duplicate");
    __detail::dup_l0(dst, (T)scalar, p, dstBlockStride, dstRepeatStride);
}

/* dst[i] = first + i */
template <typename T, typename U> inline void CreateVecIndex(LocalTensor<T> dst, const U &firstValue, uint32_t count)
{
    static_assert(__arc::one_of<T, int16_t, half, int32_t, float>, "AscendC::CreateVecIndex: int16_t, half, int32_t or float");
    __arc::check_cnt(dst, count, "AscendC::CreateVecIndex", "dst");
    const T f = (T)firstValue;
    for (uint32_t i = 0; i < count; i++) dst.addr_[i] = (T)(f + (T)i);
}
/* dst[i] = first + i * diff */
template <typename T, typename U, typename V>
inline void ArithProgression(const LocalTensor<T> &dst, const U first, const V diff, const int32_t count)
{
    __arc::check_cnt(dst, count, "AscendC::ArithProgression", "dst");
    const T f = (T)first, d = (T)diff;
    for (int32_t i = 0; i < count; i++) dst.addr_[i] = (T)(f + (T)((T)i * d));
}
/* Advanced-API name of the same: dst[i] = start + i * diff. */
template <typename T>
inline void Arange(const LocalTensor<T> &dst, const __arc::ident_t<T> start, const __arc::ident_t<T> diff,
                   const int32_t count)
{
    __arc::check_cnt(dst, count, "AscendC::Arange", "dst");
    for (int32_t i = 0; i < count; i++) dst.addr_[i] = (T)(start + (T)((T)i * diff));
}
} // namespace AscendC

#endif /* ARC_VEC_UNARY_H_ */
