/* h16_cvt.h - the conversions SIMT spells alike for half (asc_fp16.h) and
 * bfloat16_t (asc_bf16.h): NAME is "half" or "bfloat16", NAME2 the pair's
 * spelling ("half2", "bfloat162").  Integer -> H rounds once (arc/round.h);
 * H -> integer saturates with NaN -> 0 like float's; H -> H rounds to an
 * integral value.  The lane helpers follow the docs: low = .x, high = .y. */
#ifndef ASC_SIMT_H16_CVT_H_
#define ASC_SIMT_H16_CVT_H_

#include "device_functions.h"
#include "h16_ops.h"

#define ASC_H16_CVT_MODE(H, NAME, T, sfx, md)                                                       \
    inline H __##NAME##2##NAME##_##sfx(const H x) { return __arc::simt::rnd<H>(__arc::simt::rint_mode(T::f(x), md)); } \
    inline int __##NAME##2int_##sfx(const H x) { return __float2int_##sfx(T::f(x)); }              \
    inline unsigned int __##NAME##2uint_##sfx(const H x) { return __float2uint_##sfx(T::f(x)); }   \
    inline long long int __##NAME##2ll_##sfx(const H x) { return __float2ll_##sfx(T::f(x)); }      \
    inline unsigned long long int __##NAME##2ull_##sfx(const H x) { return __float2ull_##sfx(T::f(x)); } \
    inline H __ll2##NAME##_##sfx(const long long int x) { return T::of(__arc::fp::from_int(x, T::F, md, false)); } \
    inline H __ull2##NAME##_##sfx(const unsigned long long int x) { return T::of(__arc::fp::from_uint(x, T::F, md, false)); }
/* int/uint -> H with an optional _sat form (SAT: ASC_H16_SAT or nothing). */
#define ASC_H16_CVT_INT(H, NAME, T, sfx, md, satsfx, sat)                                           \
    inline H __int2##NAME##_##sfx##satsfx(const int x) { return T::of(__arc::fp::from_int(x, T::F, md, sat)); } \
    inline H __uint2##NAME##_##sfx##satsfx(const unsigned int x) { return T::of(__arc::fp::from_uint(x, T::F, md, sat)); }
/* float -> H and float2 -> H2 in one mode, with and without _sat. */
#define ASC_H16_CVT_F(H, H2, NAME, NAME2, T, sfx, md)                                               \
    inline H __float2##NAME##_##sfx(const float x) { return __arc::simt::rnd<H>(x, md, false); }  \
    inline H __float2##NAME##_##sfx##_sat(const float x) { return __arc::simt::rnd<H>(x, md, true); } \
    inline H2 __float22##NAME2##_##sfx(const float2 x)                                             \
    { H2 r; r.x = __arc::simt::rnd<H>(x.x, md, false); r.y = __arc::simt::rnd<H>(x.y, md, false); return r; } \
    inline H2 __float22##NAME2##_##sfx##_sat(const float2 x)                                       \
    { H2 r; r.x = __arc::simt::rnd<H>(x.x, md, true); r.y = __arc::simt::rnd<H>(x.y, md, true); return r; }
/* Everything else for one type. */
#define ASC_H16_CVT(H, H2, NAME, NAME2, T)                                                          \
    ASC_H16_CVT_MODE(H, NAME, T, rn, __arc::fp::RN) ASC_H16_CVT_MODE(H, NAME, T, rz, __arc::fp::RZ) \
    ASC_H16_CVT_MODE(H, NAME, T, rd, __arc::fp::RD) ASC_H16_CVT_MODE(H, NAME, T, ru, __arc::fp::RU) \
    ASC_H16_CVT_MODE(H, NAME, T, rna, __arc::fp::RNA)                                               \
    ASC_H16_CVT_F(H, H2, NAME, NAME2, T, rn, __arc::fp::RN) ASC_H16_CVT_F(H, H2, NAME, NAME2, T, rz, __arc::fp::RZ) \
    ASC_H16_CVT_F(H, H2, NAME, NAME2, T, rd, __arc::fp::RD) ASC_H16_CVT_F(H, H2, NAME, NAME2, T, ru, __arc::fp::RU) \
    ASC_H16_CVT_F(H, H2, NAME, NAME2, T, rna, __arc::fp::RNA)                                       \
    inline H __float2##NAME(const float x) { return __arc::simt::rnd<H>(x); }                        \
    inline float __##NAME##2float(const H x) { return T::f(x); }                                   \
    inline H2 __floats2##NAME2##_rn(const float x, const float y)                                  \
    { H2 r; r.x = __arc::simt::rnd<H>(x); r.y = __arc::simt::rnd<H>(y); return r; }               \
    inline float2 __##NAME2##2float2(const H2 x) { float2 r; r.x = T::f(x.x); r.y = T::f(x.y); return r; } \
    inline H2 __halves2##NAME2(const H x, const H y) { H2 r; r.x = x; r.y = y; return r; }         \
    inline H __high2##NAME(const H2 x) { return x.y; }                                             \
    inline H __low2##NAME(const H2 x) { return x.x; }                                              \
    inline H2 __high2##NAME2(const H2 x) { H2 r; r.x = x.y; r.y = x.y; return r; }                 \
    inline H2 __low2##NAME2(const H2 x) { H2 r; r.x = x.x; r.y = x.x; return r; }                  \
    inline H2 __highs2##NAME2(const H2 x, const H2 y) { H2 r; r.x = x.y; r.y = y.y; return r; }    \
    inline H2 __lows2##NAME2(const H2 x, const H2 y) { H2 r; r.x = x.x; r.y = y.x; return r; }     \
    inline H2 __lowhigh2highlow(const H2 x) { H2 r; r.x = x.y; r.y = x.x; return r; }              \
    inline float __high2float(const H2 x) { return T::f(x.y); }                                    \
    inline float __low2float(const H2 x) { return T::f(x.x); }                                     \
    inline H __ushort_as_##NAME(const unsigned short int x) { return T::of(x); }

#endif /* ASC_SIMT_H16_CVT_H_ */
