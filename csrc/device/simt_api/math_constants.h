/* math_constants.h - the float/int32 ASCRT_* constants of SIMT (API SIMT编程
 * 简介/扩展语法/内置宏); the half and bf16 ones are in asc_fp16.h/asc_bf16.h.
 * Values are the float nearest each constant (hex float literals). */
#ifndef ASC_SIMT_MATH_CONSTANTS_H_
#define ASC_SIMT_MATH_CONSTANTS_H_

#define ASCRT_INF_F __builtin_bit_cast(float, 0x7f800000u)
#define ASCRT_NAN_F __builtin_bit_cast(float, 0x7fffffffu)
#define ASCRT_MIN_DENORM_F __builtin_bit_cast(float, 0x00000001u)
#define ASCRT_MAX_NORMAL_F __builtin_bit_cast(float, 0x7f7fffffu)
#define ASCRT_NEG_ZERO_F __builtin_bit_cast(float, 0x80000000u)
#define ASCRT_ZERO_F 0.0f
#define ASCRT_ONE_F 1.0f
#define ASCRT_SQRT_HALF_F 0.707106781f
#define ASCRT_SQRT_HALF_HI_F 0.707106781f
#define ASCRT_SQRT_HALF_LO_F 1.210161749e-08f
#define ASCRT_SQRT_TWO_F 1.414213562f
#define ASCRT_THIRD_F 0.333333333f
#define ASCRT_PIO4_F 0.785398163f
#define ASCRT_PIO2_F 1.570796327f
#define ASCRT_3PIO4_F 2.356194490f
#define ASCRT_2_OVER_PI_F 0.636619772f
#define ASCRT_SQRT_2_OVER_PI_F 0.797884561f
#define ASCRT_PI_F 3.141592654f
#define ASCRT_L2E_F 1.442695041f
#define ASCRT_L2T_F 3.321928094f
#define ASCRT_LG2_F 0.301029996f
#define ASCRT_LGE_F 0.434294482f
#define ASCRT_LN2_F 0.693147181f
#define ASCRT_LNT_F 2.302585093f
#define ASCRT_LNPI_F 1.144729886f
#define ASCRT_TWO_TO_M126_F 0x1p-126f
#define ASCRT_TWO_TO_126_F 0x1p126f
#define ASCRT_NORM_HUGE_F 3.402823466e38f
#define ASCRT_TWO_TO_23_F 8388608.0f
#define ASCRT_TWO_TO_24_F 16777216.0f
#define ASCRT_TWO_TO_31_F 2147483648.0f
#define ASCRT_TWO_TO_32_F 4294967296.0f
#define ASCRT_REMQUO_BITS_F 3
#define ASCRT_REMQUO_MASK_F ((1 << ASCRT_REMQUO_BITS_F) - 1)
#define ASCRT_TRIG_PLOSS_F 105615.0f
#define ASCRT_MIN_VAL_S (-2147483647 - 1)
#define ASCRT_MAX_VAL_S 2147483647
/* bit patterns the reinterpretation docs name (__float_as_int/uint of inf) */
#define ASCRT_INT32_INF_S 0x7f800000
#define ASCRT_INF_U 0x7f800000u

#endif /* ASC_SIMT_MATH_CONSTANTS_H_ */
