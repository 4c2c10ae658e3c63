/* vector_types.h - the SIMT short vector types (API SIMT编程简介/扩展语法/
 * 内置数据类型, 表1/表2): x2/x4 of the integer types and float, half2 and
 * bfloat16x2_t, packed contiguously and aligned to their size.  The fp8 and
 * fp4 pairs are in arc/lowp.h (shared with SIMD code); make_* builders in
 * vector_functions.h. */
#ifndef ASC_SIMT_VECTOR_TYPES_H_
#define ASC_SIMT_VECTOR_TYPES_H_

#include "../arc/lowp.h"

#define ASC_VEC2(N, T, A) struct __attribute__((aligned(A))) N { T x, y; };
#define ASC_VEC4(N, T, A) struct __attribute__((aligned(A))) N { T x, y, z, w; };
ASC_VEC2(char2, signed char, 2)              ASC_VEC4(char4, signed char, 4)
ASC_VEC2(uchar2, unsigned char, 2)           ASC_VEC4(uchar4, unsigned char, 4)
ASC_VEC2(short2, short, 4)                   ASC_VEC4(short4, short, 8)
ASC_VEC2(ushort2, unsigned short, 4)         ASC_VEC4(ushort4, unsigned short, 8)
ASC_VEC2(int2, int, 8)                       ASC_VEC4(int4, int, 16)
ASC_VEC2(uint2, unsigned int, 8)             ASC_VEC4(uint4, unsigned int, 16)
ASC_VEC2(long2, long, 16)                    ASC_VEC4(long4, long, 32)
ASC_VEC2(ulong2, unsigned long, 16)          ASC_VEC4(ulong4, unsigned long, 32)
ASC_VEC2(longlong2, long long, 16)           ASC_VEC4(longlong4, long long, 32)
ASC_VEC2(ulonglong2, unsigned long long, 16) ASC_VEC4(ulonglong4, unsigned long long, 32)
ASC_VEC2(float2, float, 8)                   ASC_VEC4(float4, float, 16)
ASC_VEC2(half2, half, 4)
ASC_VEC2(bfloat16x2_t, bfloat16_t, 4)
#undef ASC_VEC2
#undef ASC_VEC4

#endif /* ASC_SIMT_VECTOR_TYPES_H_ */
