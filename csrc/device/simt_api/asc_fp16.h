/* asc_fp16.h - SIMT half and half2 (API SIMT-API/数学函数/half类型: 146
 * half and 66 half2 functions) and the ASCRT_*_FP16 constants.  The
 * functions shared with bfloat16 are in h16_ops.h/h16_cvt.h; here the
 * half-only conversions (CAST_ODD, the int _sat forms, from bfloat16). */
#ifndef ASC_SIMT_FP16_H_
#define ASC_SIMT_FP16_H_

#include "h16_cvt.h"

#define ASCRT_INF_FP16 __builtin_bit_cast(half, (unsigned short)0x7c00)
#define ASCRT_NAN_FP16 __builtin_bit_cast(half, (unsigned short)0x7fff)
#define ASCRT_MAX_NORMAL_FP16 __builtin_bit_cast(half, (unsigned short)0x7bff)
#define ASCRT_MIN_NORMAL_FP16 __builtin_bit_cast(half, (unsigned short)0x0400)
#define ASCRT_MIN_DENORM_FP16 __builtin_bit_cast(half, (unsigned short)0x0001)
#define ASCRT_NEG_ZERO_FP16 __builtin_bit_cast(half, (unsigned short)0x8000)
#define ASCRT_ZERO_FP16 __builtin_bit_cast(half, (unsigned short)0x0000)
#define ASCRT_ONE_FP16 __builtin_bit_cast(half, (unsigned short)0x3c00)

typedef __arc::simt::h16<half> asc_h16_traits_half;
ASC_H16_OPS(half, half2, asc_h16_traits_half)
ASC_H16_CVT(half, half2, half, half2, asc_h16_traits_half)

#define ASC_FP16_SAT_FORMS(sfx, md)                                                                \
    ASC_H16_CVT_INT(half, half, asc_h16_traits_half, sfx, md, , false)                             \
    ASC_H16_CVT_INT(half, half, asc_h16_traits_half, sfx, md, _sat, true)                          \
    inline half __bfloat162half_##sfx(const bfloat16_t x)                                          \
    { return asc_h16_traits_half::of(__arc::fp::convert_bits(x.bits, __arc::fp::BF16, __arc::fp::F16, md, false)); } \
    inline half __bfloat162half_##sfx##_sat(const bfloat16_t x)                                    \
    { return asc_h16_traits_half::of(__arc::fp::convert_bits(x.bits, __arc::fp::BF16, __arc::fp::F16, md, true)); }
ASC_FP16_SAT_FORMS(rn, __arc::fp::RN)
ASC_FP16_SAT_FORMS(rz, __arc::fp::RZ)
ASC_FP16_SAT_FORMS(rd, __arc::fp::RD)
ASC_FP16_SAT_FORMS(ru, __arc::fp::RU)
ASC_FP16_SAT_FORMS(rna, __arc::fp::RNA)
#undef ASC_FP16_SAT_FORMS
/* CAST_ODD (half only) */
inline half __float2half_ro(const float x) { return __arc::simt::rnd<half>(x, __arc::fp::RO, false); }
inline half __float2half_ro_sat(const float x) { return __arc::simt::rnd<half>(x, __arc::fp::RO, true); }
inline half2 __float22half2_ro(const float2 x) { return __halves2half2(__float2half_ro(x.x), __float2half_ro(x.y)); }
inline half2 __float22half2_ro_sat(const float2 x) { return __halves2half2(__float2half_ro_sat(x.x), __float2half_ro_sat(x.y)); }

#endif /* ASC_SIMT_FP16_H_ */
