/* device_functions.h - SIMT per-thread intrinsics (API SIMT-API/数学函数):
 * float <-> integer conversions in the five rounding modes (CAST_RINT _rn,
 * CAST_TRUNC _rz, CAST_FLOOR _rd, CAST_CEIL _ru, CAST_ROUND _rna), the
 * __*_as_* reinterpretations, __fdividef/__saturatef and the 20 integer
 * intrinsics.  Float -> integer saturates (inf and out-of-range give the
 * type's limit) and takes NaN to 0, as every documented special-value table
 * says; integer -> float rounds once, exactly (arc/round.h). */
#ifndef ASC_SIMT_DEVICE_FUNCTIONS_H_
#define ASC_SIMT_DEVICE_FUNCTIONS_H_

#include "../arc/round.h"

namespace __arc {
namespace simt {
/* x rounded to an integral float in mode md. */
inline float rint_mode(float x, int md)
{
    switch (md) {
    case fp::RZ: return __builtin_truncf(x);
    case fp::RD: return __builtin_floorf(x);
    case fp::RU: return __builtin_ceilf(x);
    case fp::RNA: return __builtin_roundf(x);
    default: return __builtin_rintf(x); /* the default environment: nearest even */
    }
}
/* float -> integer I in mode md: saturating, NaN -> 0. */
template <class I> inline I f2i(float x, int md, I lo, I hi)
{
    if (__builtin_isnan(x)) return 0;
    const float r = rint_mode(x, md);
    if ((double)r <= (double)lo) return lo;
    if ((double)r >= (double)hi) return hi;
    return (I)r;
}
inline float bits_f(uint32_t b) { return __builtin_bit_cast(float, b); }
} // namespace simt
} // namespace __arc

#define ASC_F2I(sfx, md)                                                                                     \
    inline float __float2float_##sfx(const float x) { return __arc::simt::rint_mode(x, md); }                 \
    inline int __float2int_##sfx(const float x) { return __arc::simt::f2i<int>(x, md, -2147483647 - 1, 2147483647); } \
    inline unsigned int __float2uint_##sfx(const float x) { return __arc::simt::f2i<unsigned int>(x, md, 0u, 4294967295u); } \
    inline long long int __float2ll_##sfx(const float x)                                                      \
    { return __arc::simt::f2i<long long>(x, md, -9223372036854775807ll - 1, 9223372036854775807ll); }        \
    inline unsigned long long int __float2ull_##sfx(const float x)                                            \
    { return __arc::simt::f2i<unsigned long long>(x, md, 0ull, 18446744073709551615ull); }                    \
    inline float __int2float_##sfx(const int x) { return __arc::simt::bits_f(__arc::fp::from_int(x, __arc::fp::F32, md, false)); } \
    inline float __uint2float_##sfx(const unsigned int x) { return __arc::simt::bits_f(__arc::fp::from_uint(x, __arc::fp::F32, md, false)); } \
    inline float __ll2float_##sfx(const long long int x) { return __arc::simt::bits_f(__arc::fp::from_int(x, __arc::fp::F32, md, false)); } \
    inline float __ull2float_##sfx(const unsigned long long int x) { return __arc::simt::bits_f(__arc::fp::from_uint(x, __arc::fp::F32, md, false)); }
ASC_F2I(rn, __arc::fp::RN)
ASC_F2I(rz, __arc::fp::RZ)
ASC_F2I(rd, __arc::fp::RD)
ASC_F2I(ru, __arc::fp::RU)
ASC_F2I(rna, __arc::fp::RNA)
#undef ASC_F2I

inline int __float_as_int(const float x) { return __builtin_bit_cast(int, x); }
inline unsigned int __float_as_uint(const float x) { return __builtin_bit_cast(unsigned int, x); }
inline float __int_as_float(const int x) { return __builtin_bit_cast(float, x); }
inline float __uint_as_float(const unsigned int x) { return __builtin_bit_cast(float, x); }

/* x / y with subnormal inputs and results flushed to signed zero (the
 * docs: 950 has no subnormals here), else IEEE (x/0 = +-inf, 0/0 NaN). */
inline float __fdividef(float x, float y)
{
    const float a = __builtin_fabsf(x) < 0x1p-126f ? __builtin_copysignf(0.0f, x) : x;
    const float b = __builtin_fabsf(y) < 0x1p-126f ? __builtin_copysignf(0.0f, y) : y;
    const float r = a / b;
    return __builtin_fabsf(r) < 0x1p-126f ? __builtin_copysignf(0.0f, r) : r;
}
/* x clamped to [0, 1]; NaN gives 0. */
inline float __saturatef(float x) { return x >= 1.0f ? 1.0f : x > 0.0f ? x : 0.0f; }

/* ---- integer intrinsics ---- */
inline unsigned int __brev(unsigned int x) { return __builtin_bitreverse32(x); }
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s)
{
    const uint64_t v = ((uint64_t)y << 32) | x;
    unsigned int r = 0;
    for (int i = 0; i < 4; ++i) r |= (unsigned int)((v >> (((s >> (4 * i)) & 7u) * 8)) & 0xffu) << (8 * i);
    return r;
}
inline int __clz(int x) { return x ? __builtin_clz((unsigned int)x) : 32; }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
/* Averages without overflow: floor((x + y) / 2) and floor((x + y + 1) / 2). */
inline int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
inline int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
inline unsigned int __uhadd(unsigned int x, unsigned int y) { return (unsigned int)(((uint64_t)x + y) >> 1); }
inline unsigned int __urhadd(unsigned int x, unsigned int y) { return (unsigned int)(((uint64_t)x + y + 1) >> 1); }
/* Low 32 bits of the product of the low 24 bits (signed: sign-extended from
 * bit 23, our reading of "the high 8 bits are ignored"). */
inline int __mul24(int x, int y)
{
    const int a = (int)((unsigned int)x << 8) >> 8, b = (int)((unsigned int)y << 8) >> 8;
    return (int)(unsigned int)((long long)a * b);
}
inline unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
inline unsigned int __umulhi(unsigned int x, unsigned int y) { return (unsigned int)(((uint64_t)x * y) >> 32); }
inline long long __mul64hi(long long x, long long y) { return (long long)(((__int128)x * y) >> 64); }
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y)
{
    return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
inline long long __mul_i32toi64(int x, int y) { return (long long)x * y; }
/* |x - y| + z, modulo 2^32. */
inline unsigned int __sad(int x, int y, unsigned int z)
{
    const long long d = (long long)x - y;
    return (unsigned int)(d < 0 ? -d : d) + z;
}
inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return (x > y ? x - y : y - x) + z; }

#endif /* ASC_SIMT_DEVICE_FUNCTIONS_H_ */
