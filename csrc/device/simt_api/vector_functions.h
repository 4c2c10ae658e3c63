/* vector_functions.h - the 24 make_* builders of the SIMT short vectors
 * (API SIMT编程简介/扩展语法/内置数据类型). */
#ifndef ASC_SIMT_VECTOR_FUNCTIONS_H_
#define ASC_SIMT_VECTOR_FUNCTIONS_H_

#include "vector_types.h"

#define ASC_MAKE2(N, T) inline N make_##N(T x, T y) { N r; r.x = x; r.y = y; return r; }
#define ASC_MAKE4(N, T) inline N make_##N(T x, T y, T z, T w) { N r; r.x = x; r.y = y; r.z = z; r.w = w; return r; }
ASC_MAKE2(int2, int)                                  ASC_MAKE4(int4, int)
ASC_MAKE2(uint2, unsigned int)                        ASC_MAKE4(uint4, unsigned int)
ASC_MAKE2(ulonglong2, unsigned long long int)         ASC_MAKE4(ulonglong4, unsigned long long int)
ASC_MAKE2(longlong2, long long int)                   ASC_MAKE4(longlong4, long long int)
ASC_MAKE2(ulong2, unsigned long int)                  ASC_MAKE4(ulong4, unsigned long int)
ASC_MAKE2(long2, long int)                            ASC_MAKE4(long4, long int)
ASC_MAKE2(float2, float)                              ASC_MAKE4(float4, float)
ASC_MAKE2(short2, short)                              ASC_MAKE4(short4, short)
ASC_MAKE2(ushort2, unsigned short)                    ASC_MAKE4(ushort4, unsigned short)
ASC_MAKE2(uchar2, unsigned char)                      ASC_MAKE4(uchar4, unsigned char)
ASC_MAKE2(char2, signed char)                         ASC_MAKE4(char4, signed char)
ASC_MAKE2(half2, half)
#undef ASC_MAKE2
#undef ASC_MAKE4
inline bfloat16x2_t make_bfloat162(bfloat16_t x, bfloat16_t y) { bfloat16x2_t r; r.x = x; r.y = y; return r; }

#endif /* ASC_SIMT_VECTOR_FUNCTIONS_H_ */
