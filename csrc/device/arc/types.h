/* types.h - scalar types of the device API: fixed-width integers, `half`
 * (IEEE binary16, clang's _Float16) and `bfloat16_t` (bf16 stored as bits,
 * converted with round-to-nearest-even), plus the few type traits the
 * headers need.  No libstdc++ is available to kernels. */
#ifndef ARC_TYPES_H_
#define ARC_TYPES_H_

#include <stdint.h>
#include <stddef.h>

/* The simulated SoC; the rtc may predefine it from --npu-arch. */
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif

typedef _Float16 half;

namespace __arc {
constexpr uint32_t f32_bits(float f) { return __builtin_bit_cast(uint32_t, f); }
constexpr float bits_f32(uint32_t u) { return __builtin_bit_cast(float, u); }
/* float -> bf16 bits, round to nearest even, NaN kept quiet. */
constexpr uint16_t f32_to_bf16(float f)
{
    uint32_t u = f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}
constexpr float bf16_to_f32(uint16_t b) { return bits_f32((uint32_t)b << 16); }
} // namespace __arc

/* bf16 as a class (CANN's CPU build also uses one, with ToFloat()); every
 * arithmetic type converts to it, and it converts to float. */
struct bfloat16_t {
    uint16_t bits;
    bfloat16_t() = default;
    template <typename U, typename = decltype((float)(U)0)>
    constexpr bfloat16_t(U v) : bits(__arc::f32_to_bf16((float)v)) {}
    constexpr operator float() const { return __arc::bf16_to_f32(bits); }
    float ToFloat() const { return __arc::bf16_to_f32(bits); }
    static bfloat16_t FromBits(uint16_t b) { bfloat16_t r; r.bits = b; return r; }
    bfloat16_t &operator+=(float v) { return *this = bfloat16_t((float)*this + v); }
    bfloat16_t &operator-=(float v) { return *this = bfloat16_t((float)*this - v); }
    bfloat16_t &operator*=(float v) { return *this = bfloat16_t((float)*this * v); }
    bfloat16_t &operator/=(float v) { return *this = bfloat16_t((float)*this / v); }
    bfloat16_t operator-() const { return FromBits(bits ^ 0x8000u); }
};

/* Packed sub-byte integers (the docs' built-in int4b_t; uint2b_t/int2b_t of
 * the experimental quantised matmul): one object is the byte that holds 2
 * (4) elements, the first element in the low bits.  LocalTensor counts
 * their sizes and offsets in elements (arc/tensor.h). */
struct int4b_t {
    uint8_t bits;
    int4b_t() = default;
    /* A value v in [-8, 7] as a byte: both elements v (as a padding or fill
     * value, which covers whole bytes). */
    constexpr int4b_t(int v) : bits((uint8_t)((v & 0xF) | (v & 0xF) << 4)) {}
};
struct uint2b_t { uint8_t bits; };
struct int2b_t { uint8_t bits; };
namespace AscendC { using ::int4b_t; } /* also AscendC::int4b_t, as CANN's headers name it */

namespace __arc {
/* Elements per byte of a packed type (1 for every other type). */
template <class T> struct packed_per_byte { static constexpr uint32_t value = 1; };
template <> struct packed_per_byte<int4b_t> { static constexpr uint32_t value = 2; };
template <> struct packed_per_byte<uint2b_t> { static constexpr uint32_t value = 4; };
template <> struct packed_per_byte<int2b_t> { static constexpr uint32_t value = 4; };
/* Element i of a packed buffer, sign-extended for the signed types. */
template <class T> inline int packed_get(const T *base, uint64_t i)
{
    constexpr uint32_t per = packed_per_byte<T>::value, bits = 8 / per;
    const uint32_t v = (((const uint8_t *)base)[i / per] >> ((i % per) * bits)) & ((1u << bits) - 1);
    const bool sgn = !__is_same(T, uint2b_t);
    return sgn && (v >> (bits - 1)) ? (int)v - (1 << bits) : (int)v;
}

/* Parameter kind of bfloat16_t kernel arguments (see arc/entry.h). */
template <class T> struct param_kind;
template <> struct param_kind<bfloat16_t> { static constexpr unsigned value = 7u; };

template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { typedef T type; };
template <class A, class B> struct is_same { static constexpr bool value = false; };
template <class A> struct is_same<A, A> { static constexpr bool value = true; };
template <bool B, class T, class F> struct conditional { typedef T type; };
template <class T, class F> struct conditional<false, T, F> { typedef F type; };

template <class T> constexpr bool is_float_v =
    is_same<T, float>::value || is_same<T, half>::value || is_same<T, bfloat16_t>::value ||
    is_same<T, double>::value;
template <class T> constexpr bool is_int_v = __is_integral(T);
template <class T> constexpr bool is_signed_v = __is_signed(T) || is_float_v<T>;
template <class T, class... U> constexpr bool one_of = (is_same<T, U>::value || ...);
/* A parenthesised list of types as arguments: one_of<T, ARC_UNPAREN (a, b)>. */
#define ARC_UNPAREN(...) __VA_ARGS__

/* Unsigned integer of the same size, for bit-level ops. */
template <int N> struct uint_of;
template <> struct uint_of<1> { typedef uint8_t type; };
template <> struct uint_of<2> { typedef uint16_t type; };
template <> struct uint_of<4> { typedef uint32_t type; };
template <> struct uint_of<8> { typedef uint64_t type; };

} // namespace __arc
/* Ascend 950's 8-bit floats (arc/lowp.h defines them), named here too. */
struct hifloat8_t;
struct fp8_e4m3fn_t;
struct fp8_e5m2_t;
struct fp8_e8m0_t;
namespace __arc {
/* Type name for error messages. */
template <class T> constexpr const char *tname()
{
    return is_same<T, float>::value ? "float" : is_same<T, half>::value ? "half"
        : is_same<T, bfloat16_t>::value ? "bfloat16_t" : is_same<T, double>::value ? "double"
        : is_same<T, int8_t>::value ? "int8_t" : is_same<T, uint8_t>::value ? "uint8_t"
        : is_same<T, int16_t>::value ? "int16_t" : is_same<T, uint16_t>::value ? "uint16_t"
        : is_same<T, int32_t>::value ? "int32_t" : is_same<T, uint32_t>::value ? "uint32_t"
        : is_same<T, int64_t>::value ? "int64_t" : is_same<T, uint64_t>::value ? "uint64_t"
        : is_same<T, bool>::value ? "bool" : is_same<T, int4b_t>::value ? "int4b_t"
        : is_same<T, uint2b_t>::value ? "uint2b_t" : is_same<T, int2b_t>::value ? "int2b_t"
        : is_same<T, hifloat8_t>::value ? "hifloat8_t" : is_same<T, fp8_e4m3fn_t>::value ? "fp8_e4m3fn_t"
        : is_same<T, fp8_e5m2_t>::value ? "fp8_e5m2_t" : is_same<T, fp8_e8m0_t>::value ? "fp8_e8m0_t" : "T";
}
} // namespace __arc

namespace AscendC {
template <class T> using PrimT = T;
/* bf16 <-> float helpers present in CANN. */
inline float ToFloat(bfloat16_t v) { return v.ToFloat(); }
inline float ToFloat(half v) { return (float)v; }
inline bfloat16_t ToBfloat16(float v) { return bfloat16_t(v); }
} // namespace AscendC

#endif /* ARC_TYPES_H_ */
