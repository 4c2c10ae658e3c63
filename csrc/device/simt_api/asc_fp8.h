/* asc_fp8.h - the fp8/hif8 conversion functions of SIMT (API SIMT-API/
 * 数学函数/fp8类型/fp8数据转换函数, 13 functions).  The types are in
 * arc/lowp.h; the docs allow these in SIMD+SIMT hybrid code.  Saturation is
 * the interface's own (_sat or __ASC_SATFINITE), as with CTRL[60] = 0; the
 * global CTRL[60]/CTRL[48] override is not modelled. */
#ifndef ASC_SIMT_FP8_H_
#define ASC_SIMT_FP8_H_

#include "vector_types.h"

typedef unsigned short __asc_fp8x2_storage_t;
enum __asc_saturation_t { __ASC_NOSAT = 0, __ASC_SATFINITE = 1 };
enum __asc_fp8_interpretation_t { __ASC_E4M3 = 0, __ASC_E5M2 = 1 };

namespace __arc {
namespace lp {
inline hifloat8x2_t f2_hif8x2(float a, float b, int md, bool sat)
{
    hifloat8x2_t r;
    r.x = hifloat8_t::from_bits(f32_to_hif8(a, md, sat));
    r.y = hifloat8_t::from_bits(f32_to_hif8(b, md, sat));
    return r;
}
inline hifloat8x2_t h2_hif8x2(half a, half b, int md, bool sat)
{
    hifloat8x2_t r;
    r.x = hifloat8_t::from_bits(f16_to_hif8(__builtin_bit_cast(uint16_t, a), md, sat));
    r.y = hifloat8_t::from_bits(f16_to_hif8(__builtin_bit_cast(uint16_t, b), md, sat));
    return r;
}
} // namespace lp
} // namespace __arc

#define ASC_HIF8_CVT(name, md, sat)                                                                      \
    inline hifloat8x2_t __float22hif82_##name(const float2 x) { return __arc::lp::f2_hif8x2(x.x, x.y, md, sat); } \
    inline hifloat8x2_t __half22hif82_##name(const half2 x) { return __arc::lp::h2_hif8x2(x.x, x.y, md, sat); }
ASC_HIF8_CVT(rna, __arc::fp::RNA, false)
ASC_HIF8_CVT(rna_sat, __arc::fp::RNA, true)
ASC_HIF8_CVT(rh, __arc::fp::RH, false)
ASC_HIF8_CVT(rh_sat, __arc::fp::RH, true)
#undef ASC_HIF8_CVT

inline float2 __hif822float2(const hifloat8x2_t x)
{
    float2 r;
    r.x = __arc::lp::hif8_to_f32(x.x.__x);
    r.y = __arc::lp::hif8_to_f32(x.y.__x);
    return r;
}
/* hif8 -> half is exact (2^-22 .. 2^15 all fit in half). */
inline half2 __hif822half2(const hifloat8x2_t x)
{
    half2 r;
    r.x = (half)__arc::lp::hif8_to_f32(x.x.__x);
    r.y = (half)__arc::lp::hif8_to_f32(x.y.__x);
    return r;
}
inline float2 __e4m3x22float2(const float8_e4m3x2_t x)
{
    float2 r;
    r.x = (float)x.x;
    r.y = (float)x.y;
    return r;
}
inline float2 __e5m2x22float2(const float8_e5m2x2_t x)
{
    float2 r;
    r.x = (float)x.x;
    r.y = (float)x.y;
    return r;
}
/* Both components in CAST_RINT; x.x goes to the low byte (the pair's first
 * element in memory). */
inline __asc_fp8x2_storage_t __asc_cvt_float2_to_fp8x2(const float2 x, const __asc_saturation_t saturate,
                                                        const __asc_fp8_interpretation_t fp8_interpretation)
{
    const __arc::fp::fmt &f = fp8_interpretation == __ASC_E5M2 ? __arc::fp::E5M2 : __arc::fp::E4M3;
    const bool sat = saturate == __ASC_SATFINITE;
    const uint32_t lo = __arc::fp::from_float(x.x, f, __arc::fp::RN, sat);
    const uint32_t hi = __arc::fp::from_float(x.y, f, __arc::fp::RN, sat);
    return (__asc_fp8x2_storage_t)(lo | hi << 8);
}

#endif /* ASC_SIMT_FP8_H_ */
