/* round.h - one exact rounding engine for every narrowing conversion of the
 * device API: float/half/bf16/integers into half, bf16, float, fp8
 * (e4m3fn, e5m2, e8m0) and fp4 (e2m1, e1m2), in the rounding modes the
 * docs name (API SIMT-API/数学函数/数据类型转换/概述: CAST_RINT `_rn`,
 * CAST_TRUNC `_rz`, CAST_FLOOR `_rd`, CAST_CEIL `_ru`, CAST_ROUND `_rna`
 * ties away, CAST_ODD `_ro`).  A value is an exact (-1)^s * m * 2^e; the
 * engine rounds it once, so every conversion is correctly rounded whatever
 * the source.  HiFloat8 has its own rounding rules (arc/lowp.h). */
#ifndef ARC_ROUND_H_
#define ARC_ROUND_H_

#include <stdint.h>

namespace __arc {
namespace fp {

/* Rounding modes, in the order of the suffixes. */
enum mode : int { RN = 0, RZ, RD, RU, RNA, RO, RH };

/* A binary format: mbits explicit mantissa bits, emin the exponent of the
 * smallest normal (subnormals below it), emax the largest exponent, maxsig
 * the largest significand (hidden bit included) at emax: 2^(mbits+1)-1 for
 * IEEE-like formats, less where the top codes are NaN (e4m3fn). */
struct fmt {
    int mbits, emin, emax;
    uint32_t maxsig, bias, nbits;
    bool inf;  /* has infinities (overflow gives inf when not saturating) */
    bool nan;  /* has NaN (else NaN converts to 0) */
};
constexpr fmt F32 = {23, -126, 127, 0xffffffu, 127, 32, true, true};
constexpr fmt F16 = {10, -14, 15, 0x7ffu, 15, 16, true, true};
constexpr fmt BF16 = {7, -126, 127, 0xffu, 127, 16, true, true};
constexpr fmt E4M3 = {3, -6, 8, 14u, 7, 8, false, true};   /* S.1111.111 is NaN */
constexpr fmt E5M2 = {2, -14, 15, 7u, 15, 8, true, true};
constexpr fmt E2M1 = {1, 0, 2, 3u, 1, 4, false, false};   /* max 6 */
constexpr fmt E1M2 = {2, 0, 0, 7u, 1, 4, false, false};   /* max 1.75 */

/* An exact value: (-1)^s * m * 2^e. */
struct num { uint32_t s; uint64_t m; int e; };

/* The rounded magnitude sig * 2^q (sig has the hidden bit when normal),
 * over when it exceeds the format's largest finite value. */
struct rounded { uint64_t sig; int q; bool over, inexact; };

constexpr rounded round(num x, const fmt &f, int md)
{
    if (!x.m) return {0, f.emin - f.mbits, false, false};
    const int p = 63 - __builtin_clzll(x.m), E = p + x.e;
    int q = (E > f.emin ? E : f.emin) - f.mbits;
    const int sh = q - x.e;
    uint64_t sig = 0;
    bool g = false, st = false;
    if (sh <= 0) {
        sig = x.m << -sh;
    } else {
        sig = sh >= 64 ? 0 : x.m >> sh;
        g = sh > 64 ? false : (x.m >> (sh - 1)) & 1u;
        st = sh > 64 ? true : sh == 1 ? false : (x.m & ((1ull << (sh - 1)) - 1)) != 0;
    }
    const bool inexact = g || st;
    bool up = false;
    switch (md) {
    case RN: up = g && (st || (sig & 1u)); break;
    case RNA: up = g; break;
    case RU: up = inexact && !x.s; break;
    case RD: up = inexact && x.s; break;
    case RO: if (inexact) sig |= 1u; break;
    default: break; /* RZ */
    }
    if (up && ++sig == (2ull << f.mbits)) { sig >>= 1; ++q; }
    const int Er = q + f.mbits;
    const bool over = sig >= (1ull << f.mbits) && (Er > f.emax || (Er == f.emax && sig > f.maxsig));
    return {sig, q, over, inexact};
}

/* Bits of the largest finite value of f, and of the NaN/inf codes. */
constexpr uint32_t max_bits(const fmt &f)
{
    return ((uint32_t)(f.emax + (int)f.bias) << f.mbits) | (f.maxsig - (1u << f.mbits));
}
constexpr uint32_t inf_bits(const fmt &f) { return ((1u << (f.nbits - 1 - f.mbits)) - 1) << f.mbits; }
constexpr uint32_t nan_bits(const fmt &f)
{   /* the quiet NaN: all-ones exponent, top mantissa bit (e4m3fn: all ones) */
    return f.inf ? inf_bits(f) | (1u << (f.mbits - 1)) : (1u << (f.nbits - 1)) - 1;
}

/* Encode a value into f's bits.  sat: overflow and inf give the largest
 * finite value, NaN gives +0 (the docs' saturation mode); otherwise
 * overflow gives inf (NaN where f has no inf), NaN stays NaN.  Formats
 * without inf or NaN (fp4) always saturate and take NaN to 0. */
constexpr uint32_t encode(num x, const fmt &f, int md, bool sat)
{
    const uint32_t sbit = x.s << (f.nbits - 1);
    const rounded r = round(x, f, md);
    if (r.over) {
        if (sat || (!f.inf && !f.nan)) return sbit | max_bits(f);
        return sbit | (f.inf ? inf_bits(f) : nan_bits(f));
    }
    if (r.sig < (1ull << f.mbits)) return sbit | (uint32_t)r.sig; /* subnormal or zero */
    return sbit | ((uint32_t)(r.q + f.mbits + (int)f.bias) << f.mbits) | (uint32_t)(r.sig - (1ull << f.mbits));
}
/* Special inputs (is_nan/is_inf) first, then encode(). */
constexpr uint32_t encode_special(uint32_t s, bool is_nan, const fmt &f, bool sat)
{
    const uint32_t sbit = s << (f.nbits - 1);
    if (is_nan) return (sat || !f.nan) ? 0u : nan_bits(f);
    if (sat || !f.inf) return sbit | (f.nan && !f.inf && !sat ? nan_bits(f) : max_bits(f));
    return sbit | inf_bits(f);
}

/* Decompose the bits of a binary format into (s, m, e); the caller handles
 * NaN/inf (exponent field all ones when f.inf). */
constexpr num decode(uint32_t b, const fmt &f)
{
    const uint32_t s = (b >> (f.nbits - 1)) & 1u, mant = b & ((1u << f.mbits) - 1);
    const uint32_t ef = (b >> f.mbits) & ((1u << (f.nbits - 1 - f.mbits)) - 1);
    if (!ef) return {s, mant, f.emin - f.mbits};
    return {s, mant | (1u << f.mbits), (int)ef - (int)f.bias - f.mbits};
}
constexpr bool is_nan_bits(uint32_t b, const fmt &f)
{
    const uint32_t mag = b & ((1u << (f.nbits - 1)) - 1);
    if (!f.nan) return false;
    return f.inf ? mag > inf_bits(f) : mag == nan_bits(f);
}
constexpr bool is_inf_bits(uint32_t b, const fmt &f)
{
    return f.inf && (b & ((1u << (f.nbits - 1)) - 1)) == inf_bits(f);
}

/* Value of a finite decoded number as float (exact for every format
 * narrower than float). */
constexpr float pow2f(int e)
{   /* 2^e for -149 <= e <= 127 */
    return __builtin_bit_cast(float, e >= -126 ? (uint32_t)(e + 127) << 23 : 1u << (e + 149));
}
constexpr float to_float(num x)
{   /* m < 2^24 and the product is representable: one exact multiply */
    const float v = (float)x.m * pow2f(x.e);
    return x.s ? -v : v;
}

/* Any format's bits -> float (NaN quiet, inf kept). */
constexpr float bits_to_float(uint32_t b, const fmt &f)
{
    const uint32_t s = (b >> (f.nbits - 1)) & 1u;
    if (is_nan_bits(b, f)) return __builtin_bit_cast(float, 0x7fc00000u | (s << 31));
    if (is_inf_bits(b, f)) return __builtin_bit_cast(float, 0x7f800000u | (s << 31));
    return to_float(decode(b, f));
}

/* float -> (s, m, e); the caller checks NaN/inf first. */
constexpr num of_float(float v)
{
    const uint32_t u = __builtin_bit_cast(uint32_t, v);
    return decode(u, F32);
}
constexpr bool f32_nan(float v) { return (__builtin_bit_cast(uint32_t, v) & 0x7fffffffu) > 0x7f800000u; }
constexpr bool f32_inf(float v) { return (__builtin_bit_cast(uint32_t, v) & 0x7fffffffu) == 0x7f800000u; }

/* float -> bits of f in mode md. */
constexpr uint32_t from_float(float v, const fmt &f, int md, bool sat)
{
    const uint32_t s = __builtin_bit_cast(uint32_t, v) >> 31;
    if (f32_nan(v) || f32_inf(v)) return encode_special(s, f32_nan(v), f, sat);
    return encode(of_float(v), f, md, sat);
}
/* Bits of format g -> bits of f (NaN/inf carried, then rounded). */
constexpr uint32_t convert_bits(uint32_t b, const fmt &g, const fmt &f, int md, bool sat)
{
    const uint32_t s = (b >> (g.nbits - 1)) & 1u;
    if (is_nan_bits(b, g) || is_inf_bits(b, g)) return encode_special(s, is_nan_bits(b, g), f, sat);
    return encode(decode(b, g), f, md, sat);
}
/* Integer -> bits of f. */
constexpr uint32_t from_int(int64_t v, const fmt &f, int md, bool sat)
{
    const uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    return encode({v < 0 ? 1u : 0u, m, 0}, f, md, sat);
}
constexpr uint32_t from_uint(uint64_t v, const fmt &f, int md, bool sat)
{
    return encode({0u, v, 0}, f, md, sat);
}

} // namespace fp
} // namespace __arc

#endif /* ARC_ROUND_H_ */
