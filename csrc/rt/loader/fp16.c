/* fp16.c - the half and bfloat16 conversion builtins clang emits for
 * loaded kernels (__extendhfsf2, __truncsfhf2, __truncdfhf2, __truncsfbf2,
 * ...).  GCC 12's libgcc lacks some of them and compiler-rt is not linked,
 * so the runtime provides them, with round-to-nearest-even on the bits and
 * subnormals kept (never flushed).  x86-64 passes _Float16 and __bf16 in
 * the low 16 bits of an XMM register, so both are declared _Float16 here
 * and their bits moved with memcpy. */
#include <stdint.h>
#include <string.h>

#include "rt/rt_internal.h"

/* Round a double (exact input) to a binary format with `mbits` mantissa
 * bits, exponent bias `bias` and all-ones exponent field `emaxf`. */
static uint32_t from_double(uint64_t x, int mbits, int bias, uint32_t emaxf)
{
    int ebits = emaxf == 31 ? 5 : 8;
    uint32_t sign = (uint32_t)(x >> 63) << (ebits + mbits);
    int exp = (int)((x >> 52) & 0x7ff);
    uint64_t man = x & ((1ull << 52) - 1);
    if (exp == 0x7ff) /* inf, or NaN made quiet with its top payload bits */
        return sign | emaxf << mbits | (man ? 1u << (mbits - 1) | (uint32_t)(man >> (52 - mbits)) : 0);
    if (exp == 0) /* zero, or a double subnormal: far below either format */
        return sign;
    int e = exp - 1023 + bias; /* the target's biased exponent */
    if (e >= (int)emaxf)
        return sign | emaxf << mbits;
    man |= 1ull << 52;
    int shift = e > 0 ? 52 - mbits : 53 - mbits - e;
    if (shift > 63)
        return sign;
    uint64_t q = man >> shift, rem = man & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    if (e > 0)
        q = (uint64_t)e << mbits | (q & ((1u << mbits) - 1));
    if (rem > half || (rem == half && (q & 1)))
        q++; /* a carry moves into the exponent, up to infinity */
    return sign | (uint32_t)q;
}

static double dbl(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static uint64_t bits64(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static _Float16 h16(uint32_t v)
{
    uint16_t b = (uint16_t)v;
    _Float16 h;
    memcpy(&h, &b, sizeof h);
    return h;
}

static uint16_t b16(_Float16 h)
{
    uint16_t b;
    memcpy(&b, &h, sizeof b);
    return b;
}

/* binary16 bits -> double, exactly. */
static double half_to_double(uint16_t h)
{
    uint64_t sign = (uint64_t)(h >> 15) << 63;
    int exp = (h >> 10) & 0x1f;
    uint64_t man = h & 0x3ff;
    if (exp == 0x1f)
        return dbl(sign | 0x7ffull << 52 | man << 42);
    if (exp == 0) {
        if (!man)
            return dbl(sign);
        int e = -14;
        while (!(man & 0x400)) {
            man <<= 1;
            e--;
        }
        return dbl(sign | (uint64_t)(e + 1023) << 52 | (man & 0x3ff) << 42);
    }
    return dbl(sign | (uint64_t)(exp - 15 + 1023) << 52 | man << 42);
}

float sim_extendhfsf2(_Float16 h) { return (float)half_to_double(b16(h)); }
double sim_extendhfdf2(_Float16 h) { return half_to_double(b16(h)); }
_Float16 sim_truncsfhf2(float f) { return h16(from_double(bits64((double)f), 10, 15, 31)); }
_Float16 sim_truncdfhf2(double d) { return h16(from_double(bits64(d), 10, 15, 31)); }
_Float16 sim_truncsfbf2(float f) { return h16(from_double(bits64((double)f), 7, 127, 255)); }
_Float16 sim_truncdfbf2(double d) { return h16(from_double(bits64(d), 7, 127, 255)); }

float sim_extendbfsf2(_Float16 b)
{
    uint32_t v = (uint32_t)b16(b) << 16;
    float f;
    memcpy(&f, &v, sizeof f);
    return f;
}
