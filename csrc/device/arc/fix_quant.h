/* fix_quant.h - the Fixpipe's pre-stage on one L0C value: the quantisation
 * modes (QuantMode_t, ARC_QUANT_MODES in arc/cube_types.h) and ReLU, as the
 * docs' 随路量化 and 随路量化与随路ReLU场景组合 pages define them.
 *
 * Every mode multiplies by M1 (bits 31..13 of the word's low half, a float
 * with 10 mantissa bits) where the value is >= 0 and by M2 below (M2 = M1,
 * or 0 with ReLU).  Ascend 950's modes (dav-3510 only) then convert the
 * float product (int32 L0C is first converted to float, as DEQF16 does;
 * the example cube_buffer_dump's gen_data.py computes acc * scale in float,
 * then rounds) to the destination type:
 *   (V)QF322FP8_PRE fp8_e4m3fn_t, nearest even (the pages name CAST_RINT as
 *     the Fixpipe's cast mode); (V)QF322HIF8_PRE hifloat8_t, half away from
 *     zero; (V)QF322HIF8_PRE_HYBRID hifloat8_t, "Hybrid Round" as the Reg
 *     Cast page's float -> hifloat8_t pseudo-code defines it (arc/lowp.h);
 *   (V)QS322BF16_PRE, (V)QF322BF16_PRE bfloat16_t and (V)QF322F16_PRE half,
 *     nearest even; (V)QF322F32_PRE float (the product itself).
 * The docs do not say what these modes do with a product beyond the
 * destination's finite range (saturate, inf or NaN), so such a value (and a
 * NaN or inf in L0C) is refused by name rather than guessed. */
#ifndef ARC_FIX_QUANT_H_
#define ARC_FIX_QUANT_H_

#include "arc/cube_types.h"
#include "arc/lowp.h"

namespace AscendC {
namespace __cube {

/* The mode table's columns. */
constexpr bool quant_is_vec(QuantMode_t m)
{
    switch (m) {
#define ARC_QM_VEC_(name, vec, only950) case QuantMode_t::name: return vec;
        ARC_QUANT_MODES(ARC_QM_VEC_)
#undef ARC_QM_VEC_
    }
    return false;
}
constexpr bool quant_is_950(QuantMode_t m)
{
    switch (m) {
#define ARC_QM_950_(name, vec, only950) case QuantMode_t::name: return only950;
        ARC_QUANT_MODES(ARC_QM_950_)
#undef ARC_QM_950_
    }
    return false;
}
constexpr const char *quant_name(QuantMode_t m)
{
    switch (m) {
#define ARC_QM_NAME_(name, vec, only950) case QuantMode_t::name: return #name;
        ARC_QUANT_MODES(ARC_QM_NAME_)
#undef ARC_QM_NAME_
    }
    return "(not a QuantMode_t)";
}
/* Modes that read a quantisation word (all but NoQuant and the plain casts). */
constexpr bool quant_has_word(QuantMode_t m)
{
    return m != QuantMode_t::NoQuant && m != QuantMode_t::F322F16 && m != QuantMode_t::F322BF16;
}

/* A quantisation word: scale M1 (float, bits 31..13 used), shift N, MCB
 * (shift and saturate to int16 first), 9-bit offset.  On Ascend 950 bits
 * 32..36 (N, MCB) are unused (the 随路量化 page's table 2): no shift. */
struct QuantWord {
    float scale;
    uint32_t shift;
    bool mcb;
    int32_t offset;
};
static inline QuantWord decode_quant(uint64_t w)
{
    QuantWord q;
    q.scale = __arc::bits_f32((uint32_t)w & 0xffffe000u);
    q.shift = __NPU_ARCH__ == 3510 ? 0u : (uint32_t)(w >> 32) & 15u;
    q.mcb = __NPU_ARCH__ != 3510 && ((w >> 36) & 1u);
    int32_t off = (int32_t)((w >> 37) & 0x1ffu);
    q.offset = off >= 256 ? off - 512 : off;
    return q;
}
static inline float sat_half(float v)
{
    return v > 65504.0f ? 65504.0f : v < -65504.0f ? -65504.0f : v;
}
static inline float rint_f(float v) { return __builtin_rintf(v); }
/* The value times M1 where it is >= 0, times M2 below. */
static inline float scaled(float f, float m1, float m2) { return f >= 0 ? f * m1 : f * m2; }
/* (V)REQ8's and (V)QF322B8_PRE's last steps: round to an integer, bound it
 * to [-256, 255], add the word's offset, saturate to D (int8_t or uint8_t). */
template <typename D> inline D to_b8(float f, int32_t offset)
{
    float r = rint_f(f);
    r = r > 255.0f ? 255.0f : r < -256.0f ? -256.0f : r;
    r += (float)offset;
    float lo = __arc::is_same<D, uint8_t>::value ? 0.0f : -128.0f, hi = __arc::is_same<D, uint8_t>::value ? 255.0f : 127.0f;
    return (D)(r > hi ? hi : r < lo ? lo : r);
}

/* The L0C (S) and destination (D) types an Ascend 950 mode converts
 * between; the dav-2201 modes are not checked here. */
template <typename D, typename S> constexpr bool quant_types_fit(QuantMode_t m)
{
    constexpr bool f = __arc::is_same<S, float>::value;
    switch (m) {
    case QuantMode_t::QF322FP8_PRE: case QuantMode_t::VQF322FP8_PRE: return f && __arc::is_same<D, fp8_e4m3fn_t>::value;
    case QuantMode_t::QF322HIF8_PRE: case QuantMode_t::VQF322HIF8_PRE: case QuantMode_t::QF322HIF8_PRE_HYBRID:
    case QuantMode_t::VQF322HIF8_PRE_HYBRID: return f && __arc::is_same<D, hifloat8_t>::value;
    case QuantMode_t::QS322BF16_PRE: case QuantMode_t::VQS322BF16_PRE:
        return __arc::is_same<S, int32_t>::value && __arc::is_same<D, bfloat16_t>::value;
    case QuantMode_t::QF322F16_PRE: case QuantMode_t::VQF322F16_PRE: return f && __arc::is_same<D, half>::value;
    case QuantMode_t::QF322BF16_PRE: case QuantMode_t::VQF322BF16_PRE: return f && __arc::is_same<D, bfloat16_t>::value;
    case QuantMode_t::QF322F32_PRE: case QuantMode_t::VQF322F32_PRE: return f && __arc::is_same<D, float>::value;
    default: return true;
    }
}
/* What the Ascend 950 modes write, for the message when the types differ. */
constexpr const char *quant_types_of(QuantMode_t m)
{
    switch (m) {
    case QuantMode_t::QF322FP8_PRE: case QuantMode_t::VQF322FP8_PRE: return "float L0C -> fp8_e4m3fn_t";
    case QuantMode_t::QS322BF16_PRE: case QuantMode_t::VQS322BF16_PRE: return "int32_t L0C -> bfloat16_t";
    case QuantMode_t::QF322F16_PRE: case QuantMode_t::VQF322F16_PRE: return "float L0C -> half";
    case QuantMode_t::QF322BF16_PRE: case QuantMode_t::VQF322BF16_PRE: return "float L0C -> bfloat16_t";
    case QuantMode_t::QF322F32_PRE: case QuantMode_t::VQF322F32_PRE: return "float L0C -> float";
    default: return "float L0C -> hifloat8_t";
    }
}

/* An Ascend 950 mode's conversion of the scaled value f (D fits the mode:
 * quant_types_fit was checked before), refusing a non-finite result. */
template <typename D, typename S> inline D fix_value_950(S x, float f, QuantMode_t mode)
{
    D v{};
    if constexpr (__arc::is_same<D, fp8_e4m3fn_t>::value)
        v = D::from_bits((uint8_t)__arc::fp::from_float(f, __arc::fp::E4M3, __arc::fp::RN, false));
    else if constexpr (__arc::is_same<D, hifloat8_t>::value)
        v = D::from_bits(__arc::lp::f32_to_hif8(
            f, mode == QuantMode_t::QF322HIF8_PRE_HYBRID || mode == QuantMode_t::VQF322HIF8_PRE_HYBRID ? __arc::fp::RH
                                                                                                       : __arc::fp::RNA,
            false));
    else if constexpr (__arc::is_same<D, bfloat16_t>::value || __arc::is_same<D, half>::value ||
                       __arc::is_same<D, float>::value)
        v = (D)f;
    else
        ARC_TRAP("AscendC::Fixpipe", "quantPre %s cannot write %s", quant_name(mode), __arc::tname<D>());
    float back = (float)v;
    ARC_CHECK(!__arc::fp::f32_nan(back) && !__arc::fp::f32_inf(back), "AscendC::Fixpipe",
              "quantPre %s: L0C value %g scaled to %g is outside the destination's finite range (or not a number); "
              "the docs do not say whether this mode saturates it or writes inf/NaN, so it is refused",
              quant_name(mode), (double)x, (double)f);
    return v;
}

/* One L0C value through the Fixpipe's pre-stage: quantisation and ReLU. */
template <typename D, typename S>
inline D fix_value(S x, QuantMode_t mode, const QuantWord &q, bool relu)
{
    float m1 = q.scale, m2 = relu ? 0.0f : q.scale;
    if (quant_is_950(mode)) {
        return fix_value_950<D, S>(x, scaled((float)x, m1, m2), mode);
    }
    switch (mode) {
    case QuantMode_t::DEQF16: case QuantMode_t::VDEQF16: case QuantMode_t::REQ8: case QuantMode_t::VREQ8: {
        int64_t v = (int64_t)x;
        if (q.mcb) {
            v >>= q.shift;
            v = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
        }
        float f = scaled((float)v, m1, m2);
        if (mode == QuantMode_t::DEQF16 || mode == QuantMode_t::VDEQF16) return (D)sat_half(f);
        return to_b8<D>(f, q.offset);
    }
    case QuantMode_t::QF322B8_PRE: case QuantMode_t::VQF322B8_PRE:
        return to_b8<D>(scaled((float)x, m1, m2), q.offset);
    default: {
        S v = relu && x < (S)0 ? (S)0 : x;
        return (D)v; /* NoQuant, F322F16, F322BF16: a round-to-nearest-even cast */
    }
    }
}

} // namespace __cube
} // namespace AscendC

#endif /* ARC_FIX_QUANT_H_ */
