/* asc_bf16.h - SIMT bfloat16_t and bfloat16x2_t (API SIMT-API/数学函数/
 * bfloat16类型: 129 bfloat16 and 66 bfloat16x2 functions) and the
 * ASCRT_*_BF16 constants; the shared families are in h16_ops.h/h16_cvt.h. */
#ifndef ASC_SIMT_BF16_H_
#define ASC_SIMT_BF16_H_

#include "h16_cvt.h"

#define ASCRT_INF_BF16 bfloat16_t::FromBits(0x7f80)
#define ASCRT_NAN_BF16 bfloat16_t::FromBits(0x7fff)
#define ASCRT_MAX_NORMAL_BF16 bfloat16_t::FromBits(0x7f7f)
#define ASCRT_MIN_NORMAL_BF16 bfloat16_t::FromBits(0x0080)
#define ASCRT_MIN_DENORM_BF16 bfloat16_t::FromBits(0x0001)
#define ASCRT_NEG_ZERO_BF16 bfloat16_t::FromBits(0x8000)
#define ASCRT_ZERO_BF16 bfloat16_t::FromBits(0x0000)
#define ASCRT_ONE_BF16 bfloat16_t::FromBits(0x3f80)

typedef __arc::simt::h16<bfloat16_t> asc_h16_traits_bf16;
ASC_H16_OPS(bfloat16_t, bfloat16x2_t, asc_h16_traits_bf16)
ASC_H16_CVT(bfloat16_t, bfloat16x2_t, bfloat16, bfloat162, asc_h16_traits_bf16)

#define ASC_BF16_FORMS(sfx, md)                                                                    \
    ASC_H16_CVT_INT(bfloat16_t, bfloat16, asc_h16_traits_bf16, sfx, md, , false)                   \
    inline bfloat16_t __half2bfloat16_##sfx(const half x)                                          \
    { return bfloat16_t::FromBits((uint16_t)__arc::fp::convert_bits(__builtin_bit_cast(uint16_t, x), __arc::fp::F16, __arc::fp::BF16, md, false)); }
ASC_BF16_FORMS(rn, __arc::fp::RN)
ASC_BF16_FORMS(rz, __arc::fp::RZ)
ASC_BF16_FORMS(rd, __arc::fp::RD)
ASC_BF16_FORMS(ru, __arc::fp::RU)
ASC_BF16_FORMS(rna, __arc::fp::RNA)
#undef ASC_BF16_FORMS
inline bfloat16x2_t __float2bfloat162_rn(const float x) { return __floats2bfloat162_rn(x, x); }
inline bfloat16x2_t __bfloat162bfloat162(const bfloat16_t x) { return __halves2bfloat162(x, x); }

#endif /* ASC_SIMT_BF16_H_ */
