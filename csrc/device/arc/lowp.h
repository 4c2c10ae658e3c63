/* lowp.h - the 8- and 4-bit floating types of Ascend 950 (dav-3510), shared
 * by SIMD and SIMT code: hifloat8_t (HiFloat8), fp8_e4m3fn_t and fp8_e5m2_t
 * (SIMT spells them float8_e4m3_t / float8_e5m2_t), fp8_e8m0_t (MX scale),
 * the packed fp4 pairs fp4x2_e2m1_t / fp4x2_e1m2_t (SIMT: float4_e2m1x2_t /
 * float4_e1m2x2_t) and the fp8 pairs of SIMT.  Each is its bits; the
 * conversions are in __arc::lp and the SIMT function names in
 * simt_api/asc_fp8.h.
 *
 * Facts (API SIMT-API/数学函数/fp8类型, SIMT编程简介/扩展语法/内置数据类型,
 * SIMD-API/基础API/Reg矢量计算/类型转换/Cast "float转hifloat8_t转换规则",
 * 附录/Reg矢量计算接口边界值汇总, in the asc-devkit docs):
 * - e4m3fn: bias 7, no inf, S.1111.111 NaN, max 448; e5m2: IEEE-like, max
 *   57344; e2m1 max 6, e1m2 max 1.75, neither has inf or NaN (inf and
 *   overflow give the signed max, NaN gives 0).
 * - HiFloat8: sign, a prefix-coded dot field D (11, 10, 01, 001, 0001, 0000)
 *   giving 4/3/2/1/0 exponent bits and 1/2/3/3/3 mantissa bits, or
 *   subnormal (D = 0000: 2^(M-23), M = 1..7); the exponent is
 *   sign-magnitude with an implicit leading 1 (|E| in 8..15, 4..7, 2..3, 1,
 *   0).  0x00 is zero, 0x80 NaN, 0x6F/0xEF +-inf (so the largest finite is
 *   2^15 = 32768); values below 2^-23 are 0.
 * - HiFloat8 rounding: |E| <= 3 always rounds half away; |E| in 4..15 and
 *   subnormals round half away (CAST_ROUND) or, in CAST_HYBRID, up when the
 *   bits below the kept mantissa (14 of them for float, 2 for half) are >=
 *   a threshold taken from the source itself (float: its low 14 bits;
 *   half: {bit 0, 1}).  That is the docs' "random" rounding: deterministic
 *   per input, so no PRNG is involved.  Taken literally, frac >= thr would
 *   also round up exact values (frac = thr = 0); a representable value is
 *   kept (our choice: no mode changes an exact value).
 * Choices: a half subnormal source is taken at its value (the pseudocode
 * reads the exponent field without normalising); the exponent sign bit is
 * 1 for negative exponents; implicit conversions round to nearest (hif8:
 * half away) and saturate, as the docs say of fp8/hif8 outputs ("溢出默认
 * 按照饱和处理"). */
#ifndef ARC_LOWP_H_
#define ARC_LOWP_H_

#include "types.h"
#include "round.h"

namespace __arc {
namespace lp {
using fp::mode;

/* ---- HiFloat8 ---- */
constexpr uint8_t HIF8_NAN = 0x80, HIF8_INF = 0x6f, HIF8_MAX = 0x6e;

/* {sign, exponent Ev, mantissa M} -> bits; sub: M is a subnormal's 1..7. */
constexpr uint8_t hif8_pack(uint32_t s, int ev, uint32_t m, bool sub)
{
    const uint32_t sb = s << 7;
    if (sub) return (uint8_t)(sb | m);
    const uint32_t es = ev < 0 ? 1u : 0u, a = (uint32_t)(ev < 0 ? -ev : ev);
    if (a == 0) return (uint8_t)(sb | 0x08u | m);
    if (a == 1) return (uint8_t)(sb | 0x10u | es << 3 | m);
    if (a <= 3) return (uint8_t)(sb | 0x20u | es << 4 | (a & 1u) << 3 | m);
    if (a <= 7) return (uint8_t)(sb | 0x40u | es << 4 | (a - 4) << 2 | m);
    return (uint8_t)(sb | 0x60u | es << 4 | (a - 8) << 1 | m);
}

/* Mantissa bits kept at exponent ev (normal range). */
constexpr int hif8_mbits(int ev)
{
    const int a = ev < 0 ? -ev : ev;
    return a <= 3 ? 3 : a <= 7 ? 2 : 1;
}

/* Round a finite nonzero magnitude 1.f * 2^ev, where sig24 = 2^23 + the
 * 23-bit fraction, into HiFloat8.  thr/w: the hybrid threshold and the
 * width of the compared bits (14 for float sources, 2 for half). */
constexpr uint8_t hif8_round(uint32_t s, int ev, uint32_t sig24, int md, uint32_t thr, int w, bool sat)
{
    const uint8_t inf = (uint8_t)(s << 7 | HIF8_INF), mx = (uint8_t)(s << 7 | HIF8_MAX);
    if (ev > 15) return sat ? mx : inf;
    if (ev < -23) return 0;
    const uint32_t wmask = (1u << w) - 1;
    if (ev == -23) { /* below half of the smallest subnormal 2^-22: 0 or 2^-22 */
        const uint32_t frac = (sig24 >> (23 - (-1) - w)) & wmask;  /* {1, f...} */
        const bool up = md == fp::RNA || (md == fp::RH && frac >= thr);
        return up ? (uint8_t)(s << 7 | 1u) : 0;
    }
    const bool sub = ev < -15;
    const int k = sub ? 0 : hif8_mbits(ev);
    const uint32_t frac = (sig24 >> (23 - k - w)) & wmask, ta = frac >> (w - 1);
    uint32_t m = sub ? (uint32_t)(ev + 23) : (sig24 >> (23 - k)) & ((1u << k) - 1);
    const int a = ev < 0 ? -ev : ev;
    bool up = false;
    if (!sub && a <= 3) up = ta;
    else up = (md == fp::RNA && ta) || (md == fp::RH && frac >= thr && (sig24 & ((1u << (23 - k)) - 1)));
    if (up) {
        if (sub) {
            ++ev;
            if (ev == -15) return hif8_pack(s, ev, 0, false);
            return hif8_pack(s, 0, (uint32_t)(ev + 23), true);
        }
        if (++m == (1u << k)) { m = 0; ++ev; }
    }
    if (sub) return hif8_pack(s, 0, m, true);
    if (ev > 15 || (ev == 15 && m == 1)) return sat ? mx : inf;
    return hif8_pack(s, ev, m, false);
}

/* float -> HiFloat8 (md: fp::RNA or fp::RH). */
constexpr uint8_t f32_to_hif8(float v, int md, bool sat)
{
    const uint32_t u = __builtin_bit_cast(uint32_t, v), s = u >> 31;
    const int ev = (int)((u >> 23) & 0xffu) - 127;
    if (ev == 128) return (u & 0x7fffffu) ? (sat ? 0 : HIF8_NAN) : (uint8_t)(s << 7 | (sat ? HIF8_MAX : HIF8_INF));
    if (ev == -127) return 0; /* zero and float subnormals (< 2^-126) */
    return hif8_round(s, ev, (u & 0x7fffffu) | 0x800000u, md, u & 0x3fffu, 14, sat);
}
/* half bits -> HiFloat8. */
constexpr uint8_t f16_to_hif8(uint16_t h, int md, bool sat)
{
    const uint32_t s = h >> 15, ef = (h >> 10) & 0x1fu, f = h & 0x3ffu, thr = ((h & 1u) << 1) | 1u;
    if (ef == 31) return f ? (sat ? 0 : HIF8_NAN) : (uint8_t)(s << 7 | (sat ? HIF8_MAX : HIF8_INF));
    if (ef == 0) {
        if (!f) return 0;
        const int p = 31 - __builtin_clz(f); /* value f * 2^-24 = 1.x * 2^(p-24) */
        return hif8_round(s, p - 24, (f << (23 - p)) & 0xffffffu, md, thr, 2, sat);
    }
    return hif8_round(s, (int)ef - 15, (f << 13) | 0x800000u, md, thr, 2, sat);
}
/* HiFloat8 -> float (exact). */
constexpr float hif8_to_f32(uint8_t b)
{
    const uint32_t s = b >> 7, r = b & 0x7fu;
    if (b == HIF8_NAN) return __builtin_bit_cast(float, 0x7fc00000u);
    if (r == HIF8_INF) return __builtin_bit_cast(float, 0x7f800000u | s << 31);
    int ev = 0;
    uint32_t m = 0;
    int k = 0;
    if (r >= 0x60) { ev = 8 + (int)((r >> 1) & 7u); k = 1; m = r & 1u; if (r & 0x10u) ev = -ev; }
    else if (r >= 0x40) { ev = 4 + (int)((r >> 2) & 3u); k = 2; m = r & 3u; if (r & 0x10u) ev = -ev; }
    else if (r >= 0x20) { ev = 2 + (int)((r >> 3) & 1u); k = 3; m = r & 7u; if (r & 0x10u) ev = -ev; }
    else if (r >= 0x10) { ev = (r & 0x08u) ? -1 : 1; k = 3; m = r & 7u; }
    else if (r >= 0x08) { ev = 0; k = 3; m = r & 7u; }
    else {
        if (!r) return s ? -0.0f : 0.0f;  /* 0x80 was NaN above */
        return fp::to_float({s, 1, (int)r - 23});
    }
    return fp::to_float({s, (1u << k) | m, ev - k});
}

/* ---- e8m0 (MX scale): 2^(b-127), 0xff NaN ---- */
constexpr float e8m0_to_f32(uint8_t b)
{
    if (b == 0xff) return __builtin_bit_cast(float, 0x7fc00000u);
    return b == 0 ? __builtin_bit_cast(float, 0x00400000u) : __builtin_bit_cast(float, (uint32_t)b << 23);
}
/* float -> e8m0: the magnitude rounded in md to a power of two; inf and
 * overflow give 0xfe, NaN 0xff, zero and values below 2^-127 0x00. */
constexpr uint8_t f32_to_e8m0(float v, int md)
{
    constexpr fp::fmt E8 = {0, -127, 127, 1u, 127, 8, false, false};
    if (fp::f32_nan(v)) return 0xff;
    if (fp::f32_inf(v)) return 0xfe;
    fp::num x = fp::of_float(v);
    x.s = 0;
    const fp::rounded r = fp::round(x, E8, md);
    if (r.over) return 0xfe;
    const int e = r.q + 127;
    return (uint8_t)(!r.sig || e < 0 ? 0 : e);
}

} // namespace lp
} // namespace __arc

/* The scalar types: one byte of bits each (fp4 pairs: the first element in
 * the low nibble).  Arithmetic types convert in (rounding to nearest,
 * saturating) and they convert out to float exactly. */
#define ARC_LOWP_COMMON(T)                                                     \
    uint8_t __x;                                                               \
    T() = default;                                                             \
    static constexpr T from_bits(uint8_t b) { T r{}; r.__x = b; return r; }

struct hifloat8_t {
    ARC_LOWP_COMMON(hifloat8_t)
    template <typename U, typename = decltype((float)(U)0)>
    constexpr hifloat8_t(U v) : __x(__arc::lp::f32_to_hif8((float)v, __arc::fp::RNA, true)) {}
    constexpr operator float() const { return __arc::lp::hif8_to_f32(__x); }
};
struct fp8_e4m3fn_t {
    ARC_LOWP_COMMON(fp8_e4m3fn_t)
    template <typename U, typename = decltype((float)(U)0)>
    constexpr fp8_e4m3fn_t(U v) : __x((uint8_t)__arc::fp::from_float((float)v, __arc::fp::E4M3, __arc::fp::RN, true)) {}
    constexpr operator float() const { return __arc::fp::bits_to_float(__x, __arc::fp::E4M3); }
};
struct fp8_e5m2_t {
    ARC_LOWP_COMMON(fp8_e5m2_t)
    template <typename U, typename = decltype((float)(U)0)>
    constexpr fp8_e5m2_t(U v) : __x((uint8_t)__arc::fp::from_float((float)v, __arc::fp::E5M2, __arc::fp::RN, true)) {}
    constexpr operator float() const { return __arc::fp::bits_to_float(__x, __arc::fp::E5M2); }
};
struct fp8_e8m0_t {
    ARC_LOWP_COMMON(fp8_e8m0_t)
    template <typename U, typename = decltype((float)(U)0)>
    constexpr fp8_e8m0_t(U v) : __x(__arc::lp::f32_to_e8m0((float)v, __arc::fp::RN)) {}
    constexpr operator float() const { return __arc::lp::e8m0_to_f32(__x); }
};
/* A pair of fp4 values in one byte; .x is the low nibble, .y the high. */
#define ARC_FP4X2(T, F)                                                                      \
    struct T {                                                                               \
        ARC_LOWP_COMMON(T)                                                                   \
        static constexpr uint8_t enc(float v) { return (uint8_t)__arc::fp::from_float(v, __arc::fp::F, __arc::fp::RN, true); } \
        constexpr T(float lo, float hi) : __x((uint8_t)(enc(lo) | enc(hi) << 4)) {}          \
        constexpr float get(int i) const { return __arc::fp::bits_to_float((__x >> (4 * i)) & 15u, __arc::fp::F); } \
    };
ARC_FP4X2(fp4x2_e2m1_t, E2M1)
ARC_FP4X2(fp4x2_e1m2_t, E1M2)
#undef ARC_FP4X2
#undef ARC_LOWP_COMMON

/* also AscendC::fp8_e8m0_t ..., as CANN's examples name them */
namespace AscendC {
using ::hifloat8_t;
using ::fp8_e4m3fn_t;
using ::fp8_e5m2_t;
using ::fp8_e8m0_t;
using ::fp4x2_e2m1_t;
using ::fp4x2_e1m2_t;
} // namespace AscendC

/* SIMT spellings of the same types (API SIMT编程简介/扩展语法/内置数据类型). */
typedef fp8_e4m3fn_t float8_e4m3_t;
typedef fp8_e5m2_t float8_e5m2_t;
typedef fp4x2_e2m1_t float4_e2m1x2_t;
typedef fp4x2_e1m2_t float4_e1m2x2_t;
/* Pairs of fp8 (2 bytes, 2-byte aligned; .x first in memory). */
struct __attribute__((aligned(2))) float8_e4m3x2_t { float8_e4m3_t x, y; };
struct __attribute__((aligned(2))) float8_e5m2x2_t { float8_e5m2_t x, y; };
struct __attribute__((aligned(2))) hifloat8x2_t { hifloat8_t x, y; };

#endif /* ARC_LOWP_H_ */
