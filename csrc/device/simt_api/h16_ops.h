/* h16_ops.h - the arithmetic, comparison and math functions that SIMT
 * defines alike for half/half2 (asc_fp16.h) and bfloat16_t/bfloat16x2_t
 * (asc_bf16.h) (API SIMT-API/数学函数/half类型, bfloat16类型: 8 arithmetic,
 * 18 comparison, 16 math functions per scalar type, 9 + 41 + 16 for the
 * pair).  ASC_H16_OPS(H, H2) instantiates them for one type.  Each result
 * is computed in float and rounded once to H in CAST_RINT (exact for + - *
 * / and sqrt, whose float results carry more than 2p+2 bits), and the math
 * functions are the float library's rounded to H.  Comparisons without `u`
 * are ordered (false on NaN), with `u` unordered (true on NaN); the x2
 * forms give 1.0/0.0 per lane, `_mask` 0xFFFF/0 per 16-bit lane, `hb` true
 * only when both lanes hold. */
#ifndef ASC_SIMT_H16_OPS_H_
#define ASC_SIMT_H16_OPS_H_

#include "vector_types.h"
#include "math_functions.h"

namespace __arc {
namespace simt {
template <class H> struct h16;
template <> struct h16<half> {
    static constexpr const fp::fmt &F = fp::F16;
    static uint16_t bits(half x) { return __builtin_bit_cast(uint16_t, x); }
    static half of(uint32_t b) { return __builtin_bit_cast(half, (uint16_t)b); }
    static float f(half x) { return (float)x; }
};
template <> struct h16<bfloat16_t> {
    static constexpr const fp::fmt &F = fp::BF16;
    static uint16_t bits(bfloat16_t x) { return x.bits; }
    static bfloat16_t of(uint32_t b) { return bfloat16_t::FromBits((uint16_t)b); }
    static float f(bfloat16_t x) { return (float)x; }
};
/* float -> H in mode md (sat: the _sat behaviour). */
template <class H> inline H rnd(float v, int md = fp::RN, bool sat = false)
{
    return h16<H>::of(fp::from_float(v, h16<H>::F, md, sat));
}
template <class H> inline bool nan_(H x) { return fp::is_nan_bits(h16<H>::bits(x), h16<H>::F); }
/* Ascend 950 flushes H-subnormal inputs and results of division, exp and
 * sqrt to signed zero (the docs of __hdiv, hexp, hexp2, hexp10, hsqrt). */
template <class H> inline float in_ftz(H x)
{
    const float v = h16<H>::f(x);
    return __builtin_fabsf(v) < fp::pow2f(h16<H>::F.emin) ? __builtin_copysignf(0.0f, v) : v;
}
template <class H> inline H out_ftz(H r)
{
    const float v = h16<H>::f(r);
    return __builtin_fabsf(v) < fp::pow2f(h16<H>::F.emin) ? h16<H>::of(h16<H>::bits(r) & 0x8000u) : r;
}
/* max/min as the docs' tables give them: NaN loses (both NaN: NaN), +0
 * beats -0 in max and -0 beats +0 in min; _nan: NaN wins. */
template <class H> inline H hmax(H x, H y, bool nan_wins)
{
    if (nan_(x) || nan_(y)) {
        if (nan_wins || (nan_(x) && nan_(y))) return h16<H>::of(fp::nan_bits(h16<H>::F));
        return nan_(x) ? y : x;
    }
    const float a = h16<H>::f(x), b = h16<H>::f(y);
    if (a == b) return __builtin_signbit(a) ? y : x;
    return a > b ? x : y;
}
template <class H> inline H hmin(H x, H y, bool nan_wins)
{
    if (nan_(x) || nan_(y)) {
        if (nan_wins || (nan_(x) && nan_(y))) return h16<H>::of(fp::nan_bits(h16<H>::F));
        return nan_(x) ? y : x;
    }
    const float a = h16<H>::f(x), b = h16<H>::f(y);
    if (a == b) return __builtin_signbit(a) ? x : y;
    return a < b ? x : y;
}
/* fma rounded once: x*y is exact in double; the sum is taken in double
 * rounded to odd (TwoSum gives the exact error, an inexact even result
 * steps to its odd neighbour), which rounds to H (p <= 11 <= 53 - 2)
 * exactly as the exact sum would.  relu: a result below H's smallest normal
 * (negatives, zero, subnormals) is 0, NaN stays NaN (the docs' special
 * values). */
template <class H> inline H hfma(H x, H y, H z, bool relu)
{
    typedef h16<H> T;
    const double p = (double)T::f(x) * (double)T::f(y), c = (double)T::f(z);
    double r = p + c;
    if (__builtin_isfinite(r) && r != 0) {
        const double bb = r - p, e = (p - (r - bb)) + (c - bb);
        uint64_t ub = __builtin_bit_cast(uint64_t, r);
        if (e != 0 && !(ub & 1u)) r = __builtin_bit_cast(double, ((e > 0) == (r > 0)) ? ub + 1 : ub - 1);
    }
    const uint64_t u = __builtin_bit_cast(uint64_t, r);
    H v;
    if (r != r) {
        v = T::of(fp::nan_bits(T::F));
    } else if (__builtin_isinf(r)) {
        v = T::of(fp::encode_special((uint32_t)(u >> 63), false, T::F, false));
    } else {
        const int ef = (int)((u >> 52) & 0x7ff);
        const uint64_t m = (u & ((1ull << 52) - 1)) | (ef ? 1ull << 52 : 0);
        v = T::of(fp::encode({(uint32_t)(u >> 63), m, (ef ? ef : 1) - 1075}, T::F, fp::RN, false));
    }
    if (relu && !nan_<H>(v) && !(T::f(v) >= fp::pow2f(T::F.emin))) v = T::of(0);
    return v;
}
} // namespace simt
} // namespace __arc

/* ASC_H16_OPS(H, H2, T): the functions for scalar H, pair H2, traits T
 * (a typedef of __arc::simt::h16<H>). */
#define ASC_H16_OPS(H, H2, T)                                                                      \
    inline H __habs(H x) { return T::of(T::bits(x) & 0x7fffu); }                                   \
    inline H __hneg(const H x) { return T::of(T::bits(x) ^ 0x8000u); }                             \
    inline H __hadd(const H x, const H y) { return __arc::simt::rnd<H>(T::f(x) + T::f(y)); }        \
    inline H __hsub(const H x, const H y) { return __arc::simt::rnd<H>(T::f(x) - T::f(y)); }        \
    inline H __hmul(const H x, const H y) { return __arc::simt::rnd<H>(T::f(x) * T::f(y)); }        \
    inline H __hdiv(const H x, const H y)                                                          \
    { return __arc::simt::out_ftz<H>(__arc::simt::rnd<H>(__arc::simt::in_ftz<H>(x) / __arc::simt::in_ftz<H>(y))); } \
    inline H __hfma(H x, H y, H z) { return __arc::simt::hfma<H>(x, y, z, false); }                 \
    inline H __hfma_relu(const H x, const H y, const H z) { return __arc::simt::hfma<H>(x, y, z, true); } \
    inline bool __hisnan(H x) { return __arc::simt::nan_<H>(x); }                                  \
    inline bool __hisinf(H x) { return __builtin_isinf(T::f(x)); }                                 \
    inline bool __heq(H x, H y) { return T::f(x) == T::f(y); }                                     \
    inline bool __hne(H x, H y) { return T::f(x) != T::f(y) && !__hisnan(x) && !__hisnan(y); }     \
    inline bool __hge(H x, H y) { return T::f(x) >= T::f(y); }                                     \
    inline bool __hgt(H x, H y) { return T::f(x) > T::f(y); }                                      \
    inline bool __hle(H x, H y) { return T::f(x) <= T::f(y); }                                     \
    inline bool __hlt(H x, H y) { return T::f(x) < T::f(y); }                                      \
    inline bool __hequ(H x, H y) { return !(T::f(x) != T::f(y)) || __hisnan(x) || __hisnan(y); }   \
    inline bool __hneu(H x, H y) { return T::f(x) != T::f(y); }                                    \
    inline bool __hgeu(H x, H y) { return !(T::f(x) < T::f(y)); }                                  \
    inline bool __hgtu(H x, H y) { return !(T::f(x) <= T::f(y)); }                                 \
    inline bool __hleu(H x, H y) { return !(T::f(x) > T::f(y)); }                                  \
    inline bool __hltu(H x, H y) { return !(T::f(x) >= T::f(y)); }                                 \
    inline H __hmax(H x, H y) { return __arc::simt::hmax<H>(x, y, false); }                        \
    inline H __hmax_nan(const H x, const H y) { return __arc::simt::hmax<H>(x, y, true); }          \
    inline H __hmin(H x, H y) { return __arc::simt::hmin<H>(x, y, false); }                        \
    inline H __hmin_nan(const H x, const H y) { return __arc::simt::hmin<H>(x, y, true); }          \
    inline H hceil(H x) { return __arc::simt::rnd<H>(__builtin_ceilf(T::f(x))); }                 \
    inline H hfloor(H x) { return __arc::simt::rnd<H>(__builtin_floorf(T::f(x))); }               \
    inline H htrunc(H x) { return __arc::simt::rnd<H>(__builtin_truncf(T::f(x))); }               \
    inline H hrint(H x) { return __arc::simt::rnd<H>(__builtin_rintf(T::f(x))); }                 \
    inline H hsqrt(H x) { return __arc::simt::out_ftz<H>(__arc::simt::rnd<H>(__builtin_sqrtf(__arc::simt::in_ftz<H>(x)))); } \
    inline H hrsqrt(H x) { return __arc::simt::rnd<H>((float)(1.0 / __builtin_sqrt((double)__arc::simt::in_ftz<H>(x)))); } \
    inline H hrcp(H x) { return __arc::simt::rnd<H>(1.0f / __arc::simt::in_ftz<H>(x)); }          \
    inline H hexp(H x) { return __arc::simt::out_ftz<H>(__arc::simt::rnd<H>(__builtin_expf(__arc::simt::in_ftz<H>(x)))); } \
    inline H hexp2(H x) { return __arc::simt::out_ftz<H>(__arc::simt::rnd<H>(__builtin_exp2f(__arc::simt::in_ftz<H>(x)))); } \
    inline H hexp10(H x) { return __arc::simt::out_ftz<H>(__arc::simt::rnd<H>(__builtin_exp10f(__arc::simt::in_ftz<H>(x)))); } \
    inline H hlog(H x) { return __arc::simt::rnd<H>(logf(T::f(x))); }                             \
    inline H hlog2(H x) { return __arc::simt::rnd<H>(log2f(T::f(x))); }                           \
    inline H hlog10(H x) { return __arc::simt::rnd<H>(log10f(T::f(x))); }                         \
    inline H hsin(H x) { return __arc::simt::rnd<H>(sinf(T::f(x))); }                             \
    inline H hcos(H x) { return __arc::simt::rnd<H>(cosf(T::f(x))); }                             \
    inline H htanh(H x) { return __arc::simt::rnd<H>(tanhf(T::f(x))); }                           \
    ASC_H16_X2_UN(H2, h2ceil, hceil) ASC_H16_X2_UN(H2, h2floor, hfloor) ASC_H16_X2_UN(H2, h2trunc, htrunc) \
    ASC_H16_X2_UN(H2, h2rint, hrint) ASC_H16_X2_UN(H2, h2sqrt, hsqrt) ASC_H16_X2_UN(H2, h2rsqrt, hrsqrt) \
    ASC_H16_X2_UN(H2, h2rcp, hrcp) ASC_H16_X2_UN(H2, h2exp, hexp) ASC_H16_X2_UN(H2, h2exp2, hexp2) \
    ASC_H16_X2_UN(H2, h2exp10, hexp10) ASC_H16_X2_UN(H2, h2log, hlog) ASC_H16_X2_UN(H2, h2log2, hlog2) \
    ASC_H16_X2_UN(H2, h2log10, hlog10) ASC_H16_X2_UN(H2, h2sin, hsin) ASC_H16_X2_UN(H2, h2cos, hcos) \
    ASC_H16_X2_UN(H2, h2tanh, htanh) ASC_H16_X2_UN(H2, __habsx2, __habs) ASC_H16_X2_UN(H2, __hnegx2, __hneg) \
    ASC_H16_X2_BIN(H2, __haddx2, __hadd) ASC_H16_X2_BIN(H2, __hsubx2, __hsub)                     \
    ASC_H16_X2_BIN(H2, __hmulx2, __hmul) ASC_H16_X2_BIN(H2, __hdivx2, __hdiv)                     \
    ASC_H16_X2_BIN(H2, __hmaxx2, __hmax) ASC_H16_X2_BIN(H2, __hmaxx2_nan, __hmax_nan)             \
    ASC_H16_X2_BIN(H2, __hminx2, __hmin) ASC_H16_X2_BIN(H2, __hminx2_nan, __hmin_nan)             \
    inline H2 __hfmax2(const H2 x, const H2 y, const H2 z)                                         \
    { H2 r; r.x = __hfma(x.x, y.x, z.x); r.y = __hfma(x.y, y.y, z.y); return r; }                 \
    inline H2 __hfmax2_relu(const H2 x, const H2 y, const H2 z)                                    \
    { H2 r; r.x = __hfma_relu(x.x, y.x, z.x); r.y = __hfma_relu(x.y, y.y, z.y); return r; }       \
    /* complex x*y+z, each part rounded once */                                                    \
    inline H2 __hcmadd(const H2 x, const H2 y, const H2 z)                                         \
    {                                                                                              \
        const double xr = T::f(x.x), xi = T::f(x.y), yr = T::f(y.x), yi = T::f(y.y);               \
        H2 r;                                                                                      \
        r.x = __arc::simt::rnd<H>((float)(xr * yr - xi * yi + (double)T::f(z.x)));                \
        r.y = __arc::simt::rnd<H>((float)(xr * yi + xi * yr + (double)T::f(z.y)));                \
        return r;                                                                                  \
    }                                                                                              \
    inline H2 __isnanx2(H2 x)                                                                      \
    { H2 r; r.x = __arc::simt::rnd<H>(__hisnan(x.x) ? 1.0f : 0.0f); r.y = __arc::simt::rnd<H>(__hisnan(x.y) ? 1.0f : 0.0f); return r; } \
    /* lane-wise operators on the pair (short_vector_add adds half2 with +) */                    \
    inline H2 operator+(const H2 x, const H2 y) { return __haddx2(x, y); }                         \
    inline H2 operator-(const H2 x, const H2 y) { return __hsubx2(x, y); }                         \
    inline H2 operator*(const H2 x, const H2 y) { return __hmulx2(x, y); }                         \
    inline H2 operator/(const H2 x, const H2 y) { return __hdivx2(x, y); }                         \
    inline H2 operator-(const H2 x) { return __hnegx2(x); }                                        \
    inline H2 &operator+=(H2 &x, const H2 y) { return x = __haddx2(x, y); }                        \
    inline H2 &operator-=(H2 &x, const H2 y) { return x = __hsubx2(x, y); }                        \
    inline H2 &operator*=(H2 &x, const H2 y) { return x = __hmulx2(x, y); }                        \
    inline H2 &operator/=(H2 &x, const H2 y) { return x = __hdivx2(x, y); }                        \
    ASC_H16_X2C(H, H2, eq) ASC_H16_X2C(H, H2, ne) ASC_H16_X2C(H, H2, ge) ASC_H16_X2C(H, H2, gt)  \
    ASC_H16_X2C(H, H2, le) ASC_H16_X2C(H, H2, lt) ASC_H16_X2C(H, H2, equ) ASC_H16_X2C(H, H2, neu) \
    ASC_H16_X2C(H, H2, geu) ASC_H16_X2C(H, H2, gtu) ASC_H16_X2C(H, H2, leu) ASC_H16_X2C(H, H2, ltu) \
    inline bool operator==(const H2 x, const H2 y) { return __hbeqx2(x, y); }                     \
    inline bool operator!=(const H2 x, const H2 y) { return __hbnex2(x, y); }

#define ASC_H16_X2_UN(H2, name, op) inline H2 name(H2 x) { H2 r; r.x = op(x.x); r.y = op(x.y); return r; }
#define ASC_H16_X2_BIN(H2, name, op) inline H2 name(const H2 x, const H2 y) { H2 r; r.x = op(x.x, y.x); r.y = op(x.y, y.y); return r; }
#define ASC_H16_X2C(H, H2, c)                                                                      \
    inline H2 __h##c##x2(H2 x, H2 y)                                                               \
    {                                                                                              \
        H2 r;                                                                                      \
        r.x = __arc::simt::rnd<H>(__h##c(x.x, y.x) ? 1.0f : 0.0f);                                \
        r.y = __arc::simt::rnd<H>(__h##c(x.y, y.y) ? 1.0f : 0.0f);                                \
        return r;                                                                                  \
    }                                                                                              \
    inline unsigned int __h##c##x2_mask(H2 x, H2 y)                                                \
    { return (__h##c(x.x, y.x) ? 0xffffu : 0u) | (__h##c(x.y, y.y) ? 0xffff0000u : 0u); }         \
    inline bool __hb##c##x2(H2 x, H2 y) { return __h##c(x.x, y.x) && __h##c(x.y, y.y); }

#endif /* ASC_SIMT_H16_OPS_H_ */
