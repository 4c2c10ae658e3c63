/* cast.h - Cast(dst<TD>, src<TS>, RoundMode, count) and its level-0 forms.
 * RINT = nearest even, ROUND = nearest away from zero, FLOOR, CEIL, TRUNC,
 * ODD = von Neumann (inexact results get an odd last bit), NONE = exact
 * where possible, else RINT.  Float -> integer saturates, NaN -> 0. */
#ifndef ARC_CAST_H_
#define ARC_CAST_H_

#include "arc/vec_unary.h"

namespace AscendC {
/* UNKNOWN (dav-3510's Reg::CastTrait): a conversion that takes no round
 * mode; Reg::Cast treats it as CAST_NONE. */
enum class RoundMode : uint8_t { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD, CAST_HYBRID,
                                 UNKNOWN = 0xff };
} // namespace AscendC

namespace __arc {
using AscendC::RoundMode;

/* Round x to an integral value in mode M (NONE behaves as RINT). */
template <int M> inline double rnd(double x)
{
    switch ((RoundMode)M) {
    case RoundMode::CAST_FLOOR: return __builtin_floor(x);
    case RoundMode::CAST_CEIL: return __builtin_ceil(x);
    case RoundMode::CAST_ROUND: return __builtin_round(x);
    case RoundMode::CAST_TRUNC: return __builtin_trunc(x);
    default: return __builtin_rint(x);
    }
}
template <int M> inline float rndf(float x)
{
    switch ((RoundMode)M) {
    case RoundMode::CAST_FLOOR: return __builtin_floorf(x);
    case RoundMode::CAST_CEIL: return __builtin_ceilf(x);
    case RoundMode::CAST_ROUND: return __builtin_roundf(x);
    case RoundMode::CAST_TRUNC: return __builtin_truncf(x);
    default: return __builtin_rintf(x);
    }
}
/* Saturating conversion of an integral-valued double to integer type I. */
template <class I> inline I sat(double v)
{
    if (v != v) return (I)0;
    const double lo = __is_signed(I) ? -(double)((uint64_t)1 << (sizeof(I) * 8 - 1)) : 0.0;
    const double hi = __is_signed(I) ? (double)((uint64_t)1 << (sizeof(I) * 8 - 1)) : 2.0 * (double)((uint64_t)1 << (sizeof(I) * 8 - 1));
    if (v <= lo) return __is_signed(I) ? (I)((uint64_t)1 << (sizeof(I) * 8 - 1)) : (I)0;
    if (v >= hi) return (I)~(__is_signed(I) ? ((uint64_t)1 << (sizeof(I) * 8 - 1)) : (uint64_t)0);
    return (I)v;
}
template <class I, class T> inline I sat_int(T v)
{
    const int64_t lo = __is_signed(I) ? -(int64_t)((uint64_t)1 << (sizeof(I) * 8 - 1)) : 0;
    const uint64_t hi = __is_signed(I) ? ((uint64_t)1 << (sizeof(I) * 8 - 1)) - 1 : ~(uint64_t)0 >> (64 - sizeof(I) * 8);
    if (__is_signed(T) && (int64_t)v < lo) return (I)lo;
    if (!(__is_signed(T) && (int64_t)v < 0) && (uint64_t)v > hi) return (I)hi;
    return (I)v;
}

/* Narrow float/double x to a float type F (half, bf16, float) in mode M. */
template <class F> inline uint32_t fbits(F v)
{
    if constexpr (sizeof(F) == 2) { uint16_t b; __builtin_memcpy(&b, &v, 2); return b; }
    else { uint32_t b; __builtin_memcpy(&b, &v, 4); return b; }
}
template <class F> inline F from_bits(uint32_t b)
{
    F v;
    if constexpr (sizeof(F) == 2) { uint16_t h = (uint16_t)b; __builtin_memcpy(&v, &h, 2); }
    else __builtin_memcpy(&v, &b, 4);
    return v;
}
/* Next representable value of F towards +inf (up) or -inf. */
template <class F> inline F step(F v, bool up)
{
    uint32_t b = fbits(v);
    const uint32_t sign = sizeof(F) == 2 ? 0x8000u : 0x80000000u;
    if ((b & ~sign) == 0) return from_bits<F>(up ? 1u : (sign | 1u));
    bool neg = (b & sign) != 0;
    return from_bits<F>(up != neg ? b + 1 : b - 1);
}
template <class F, int M, class S> inline F narrow(S x)
{
    F h = (F)x;  /* nearest even */
    if (M == (int)RoundMode::CAST_RINT || M == (int)RoundMode::CAST_NONE) return h;
    double hx = (double)(float)h, dx = (double)x;
    if (hx == dx || dx != dx) return h;
    F lo, hi;
    if (hx < dx) { lo = h; hi = step(h, true); } else { hi = h; lo = step(h, false); }
    switch ((RoundMode)M) {
    case RoundMode::CAST_FLOOR: return lo;
    case RoundMode::CAST_CEIL: return hi;
    case RoundMode::CAST_TRUNC: return dx > 0 ? lo : hi;
    case RoundMode::CAST_ODD: return (fbits(lo) & 1) ? lo : hi;
    case RoundMode::CAST_ROUND: {
        double dl = dx - (double)(float)lo, dh = (double)(float)hi - dx;
        if (dl != dh) return dl < dh ? lo : hi;
        return dx > 0 ? hi : lo;
    }
    default: return h;
    }
}

/* One element TS -> TD in mode M. */
template <class TD, class TS, int M> inline TD cvt(TS x)
{
    constexpr bool dflt = is_float_v<TD>, sflt = is_float_v<TS>;
    if constexpr (sflt && !dflt) {
        if constexpr (is_same<TS, double>::value) return sat<TD>(rnd<M>(x));
        else return sat<TD>((double)rndf<M>((float)x));
    } else if constexpr (sflt && dflt) {
        if constexpr (sizeof(TD) < sizeof(TS) || (sizeof(TD) == sizeof(TS) && !is_same<TD, TS>::value)) {
            return narrow<TD, M>((float)x);
        } else if constexpr (is_same<TD, TS>::value) {
            /* float -> float: round to an integral value. */
            if constexpr (M == (int)RoundMode::CAST_NONE) return x;
            else return (TD)rndf<M>((float)x);
        } else {
            return (TD)(float)x;  /* widening is exact */
        }
    } else if constexpr (!sflt && dflt) {
        if constexpr (is_same<TD, half>::value && sizeof(TS) == 4) {
            /* int32 -> half goes through the SetDeqScale factor. */
            uint64_t b = __arc_core()->dev[SLOT_DEQSCALE];
            float sc = b ? bits_f32((uint32_t)b) : 1.0f;
            return narrow<half, M == (int)RoundMode::CAST_NONE ? (int)RoundMode::CAST_RINT : M>((float)x * sc);
        } else if constexpr (sizeof(TS) >= 4) {
            return narrow<TD, M>((double)x);
        } else {
            return (TD)(float)x;
        }
    } else {
        return sat_int<TD>(x);
    }
}

template <class TD, class TS> constexpr bool cast_ok()
{
    return !((is_same<TD, half>::value && is_same<TS, bfloat16_t>::value) ||
             (is_same<TD, bfloat16_t>::value && is_same<TS, half>::value));
}

/* Cast's page: beyond the general overlap rule, converting to a wider type
 * over overlapping operands may give wrong results (a repeat's wider
 * results overwrite sources later repeats still read). */
constexpr const char *WIDEN = "src (narrower than dst: Cast's page warns that overlap when widening gives wrong results)";
/* Narrowing, a repeat's results take fewer bytes than its sources: in
 * place (or the destination before the source) reads every source before
 * its bytes are written; a destination inside the source overwrites what a
 * later repeat still reads (the general rule). */
constexpr const char *NARROW = "src (wider than dst)";
template <class TD, class TS, int M>
inline void cast_count(const AscendC::LocalTensor<TD> &d, const AscendC::LocalTensor<TS> &s, int32_t n)
{
    if (sizeof(TD) > sizeof(TS) && n > 0) /* same widths: un_count applies the general rule */
        check_overlap(d, (uint64_t)n, s, (uint64_t)n, ARC_OVERLAP_NONE, "AscendC::Cast", WIDEN);
    else if (sizeof(TD) < sizeof(TS) && n > 0)
        check_overlap(d, (uint64_t)n, s, (uint64_t)n, ARC_OVERLAP_BEHIND, "AscendC::Cast", NARROW);
    un_count(d, s, n, "AscendC::Cast", [](TS x) -> TD { return cvt<TD, TS, M>(x); });
}
template <class TD, class TS, int M>
inline void cast_l0(const AscendC::LocalTensor<TD> &d, const AscendC::LocalTensor<TS> &s, const Plan &p,
                    const AscendC::UnaryRepeatParams &rp)
{
    if (sizeof(TD) > sizeof(TS)) {
        Opnd od = opnd<TD>(rp.dstBlkStride, rp.dstRepStride), os = opnd<TS>(rp.srcBlkStride, rp.srcRepStride);
        if (flat(p, od) && flat(p, os))
            check_overlap(d, extent(p, od), s, extent(p, os), ARC_OVERLAP_NONE, "AscendC::Cast", WIDEN);
    } else if (sizeof(TD) < sizeof(TS)) {
        Opnd od = opnd<TD>(rp.dstBlkStride, rp.dstRepStride), os = opnd<TS>(rp.srcBlkStride, rp.srcRepStride);
        if (flat(p, od) && flat(p, os))
            check_overlap(d, extent(p, od), s, extent(p, os), ARC_OVERLAP_BEHIND, "AscendC::Cast", NARROW);
    }
    un_l0(d, s, p, rp, "AscendC::Cast", [](TS x) -> TD { return cvt<TD, TS, M>(x); });
}
/* An integral-valued float saturated to int4's [-8, 7]; NaN -> 0. */
inline int sat_nib(float v) { return v != v ? 0 : v <= -8.0f ? -8 : v >= 7.0f ? 7 : (int)v; }
/* int4b_t <-> half, the pairs dav-2201's Cast page lists for int4b_t:
 * two elements per byte, the first in the low nibble; half -> int4b_t
 * rounds in mode M and saturates to [-8, 7] (NaN -> 0), as every float ->
 * integer Cast.  The count must be even (whole bytes, the page says). */
template <class TD, class TS, int M>
inline void cast_packed(const AscendC::LocalTensor<TD> &d, const AscendC::LocalTensor<TS> &s, int32_t n)
{
    constexpr bool from4 = is_same<TS, int4b_t>::value && is_same<TD, half>::value;
    constexpr bool to4 = is_same<TD, int4b_t>::value && is_same<TS, half>::value;
    if constexpr (!from4 && !to4) {
        __arc_trap("AscendC::Cast", "%s -> %s: with a packed type dav-2201 converts int4b_t -> half and half -> "
                   "int4b_t only", tname<TS>(), tname<TD>());
    } else {
        ARC_CHECK(n >= 0 && n % 2 == 0, "AscendC::Cast", "count %d with int4b_t must be even (whole bytes)", (int)n);
        AscendC::LocalTensor<uint8_t> db = d.template ReinterpretCast<uint8_t>(), sb = s.template ReinterpretCast<uint8_t>();
        uint64_t dn = from4 ? (uint64_t)n * 2 : (uint64_t)n / 2, sn = from4 ? (uint64_t)n / 2 : (uint64_t)n * 2;
        check_cnt(db, (int64_t)dn, "AscendC::Cast", "dst (bytes)");
        check_cnt(sb, (int64_t)sn, "AscendC::Cast", "src (bytes)");
        check_overlap(db, dn, sb, sn, from4 ? ARC_OVERLAP_NONE : ARC_OVERLAP_BEHIND, "AscendC::Cast",
                      from4 ? WIDEN : NARROW);
        if constexpr (from4) {
            for (int32_t i = 0; i < n; i++) d.addr_[i] = (half)(float)packed_get(s.addr_, (uint64_t)i);
        } else {
            uint8_t *o = (uint8_t *)d.addr_;
            for (int32_t i = 0; i < n; i += 2) {
                uint32_t lo = (uint32_t)sat_nib(rndf<M>((float)s.addr_[i])) & 0xF;
                uint32_t hi = (uint32_t)sat_nib(rndf<M>((float)s.addr_[i + 1])) & 0xF;
                o[i / 2] = (uint8_t)(lo | hi << 4);
            }
        }
    }
}
/* The level-0 form with int4b_t: lanes and mask as for half (the wider
 * type picks them), the half operand laid out as any level-0 operand; a
 * 32-byte block of the int4b_t operand holds 64 elements, so lane l of a
 * repeat is element l % 64 of block l / 64 (its strides count those
 * blocks), nibble (l % 2) of its byte. */
template <class TD, class TS, int M>
inline void cast_packed_l0(const AscendC::LocalTensor<TD> &d, const AscendC::LocalTensor<TS> &s, const Plan &p,
                           const AscendC::UnaryRepeatParams &rp)
{
    constexpr bool from4 = is_same<TS, int4b_t>::value && is_same<TD, half>::value;
    constexpr bool to4 = is_same<TD, int4b_t>::value && is_same<TS, half>::value;
    if constexpr (!from4 && !to4) {
        __arc_trap("AscendC::Cast", "%s -> %s: with a packed type dav-2201 converts int4b_t -> half and half -> "
                   "int4b_t only", tname<TS>(), tname<TD>());
    } else {
        const Opnd od = from4 ? opnd<half>(rp.dstBlkStride, rp.dstRepStride) : Opnd{64, rp.dstBlkStride, rp.dstRepStride};
        const Opnd os = from4 ? Opnd{64, rp.srcBlkStride, rp.srcRepStride} : opnd<half>(rp.srcBlkStride, rp.srcRepStride);
        AscendC::LocalTensor<uint8_t> db = d.template ReinterpretCast<uint8_t>(), sb = s.template ReinterpretCast<uint8_t>();
        const uint64_t de = extent(p, od), se = extent(p, os); /* elements */
        const uint64_t dn = from4 ? de * 2 : (de + 1) / 2, sn = from4 ? (se + 1) / 2 : se * 2; /* bytes */
        if constexpr (from4) {
            check_l0(d, p, od, "AscendC::Cast", "dst");
            check_cnt(sb, (int64_t)sn, "AscendC::Cast", "src (bytes of int4b_t)");
        } else {
            check_cnt(db, (int64_t)dn, "AscendC::Cast", "dst (bytes of int4b_t)");
            check_l0(s, p, os, "AscendC::Cast", "src");
        }
        const uintptr_t a = (uintptr_t)d.addr_, b = (uintptr_t)s.addr_;
        if (a < b + sn && b < a + dn) {
            ARC_CHECK(flat(p, od) && flat(p, os), "AscendC::Cast",
                      "dst and src overlap with block or repeat strides that are not one contiguous run "
                      "(dst bytes [%p, +%llu), src bytes [%p, +%llu)): not simulated with int4b_t",
                      (void *)d.addr_, (unsigned long long)dn, (const void *)s.addr_, (unsigned long long)sn);
            check_overlap(db, dn, sb, sn, from4 ? ARC_OVERLAP_NONE : ARC_OVERLAP_BEHIND, "AscendC::Cast",
                          from4 ? WIDEN : NARROW);
        }
        uint8_t *o = (uint8_t *)d.addr_;
        lanes(p, [&](uint32_t r, uint32_t l) {
            const uint64_t i = off(os, r, l), j = off(od, r, l);
            if constexpr (from4) {
                d.addr_[j] = (half)(float)packed_get(s.addr_, i);
            } else {
                const uint32_t v = (uint32_t)sat_nib(rndf<M>((float)s.addr_[i])) & 0xF;
                o[j / 2] = (uint8_t)(j % 2 ? (o[j / 2] & 0x0F) | v << 4 : (o[j / 2] & 0xF0) | v);
            }
        });
    }
}
#define ARC_CAST_DISPATCH(CALL)                                                   \
    switch (mode) {                                                               \
    case RoundMode::CAST_NONE: CALL((int)RoundMode::CAST_NONE); break;            \
    case RoundMode::CAST_RINT: CALL((int)RoundMode::CAST_RINT); break;            \
    case RoundMode::CAST_FLOOR: CALL((int)RoundMode::CAST_FLOOR); break;          \
    case RoundMode::CAST_CEIL: CALL((int)RoundMode::CAST_CEIL); break;            \
    case RoundMode::CAST_ROUND: CALL((int)RoundMode::CAST_ROUND); break;          \
    case RoundMode::CAST_TRUNC: CALL((int)RoundMode::CAST_TRUNC); break;          \
    case RoundMode::CAST_ODD: CALL((int)RoundMode::CAST_ODD); break;              \
    default: __arc_trap("AscendC::Cast", "RoundMode %d is not supported on this arch", (int)mode); \
    }
} // namespace __arc

namespace AscendC {
template <typename TD, typename TS>
inline void Cast(const LocalTensor<TD> &dst, const LocalTensor<TS> &src, const RoundMode &mode, const uint32_t count)
{
    ARC_DTYPE_REQUIRE((__arc::cast_ok<TD, TS>()), "AscendC::Cast: there is no half <-> bfloat16_t conversion; go through float");
    if constexpr (__arc::packed_per_byte<TD>::value > 1 || __arc::packed_per_byte<TS>::value > 1) {
#define ARC_CP(M) __arc::cast_packed<TD, TS, M>(dst, src, (int32_t)count)
        ARC_CAST_DISPATCH(ARC_CP)
#undef ARC_CP
    } else {
#define ARC_CC(M) __arc::cast_count<TD, TS, M>(dst, src, (int32_t)count)
        ARC_CAST_DISPATCH(ARC_CC)
#undef ARC_CC
    }
}
/* The level-0 forms with a packed type (int4b_t): __arc::cast_packed_l0. */
#define ARC_CAST_L0(M)                                                                                  \
    if constexpr (__arc::packed_per_byte<TD>::value > 1 || __arc::packed_per_byte<TS>::value > 1)      \
        __arc::cast_packed_l0<TD, TS, M>(dst, src, p, rp);                                              \
    else                                                                                                \
        __arc::cast_l0<TD, TS, M>(dst, src, p, rp)
template <typename TD, typename TS, bool isSetMask = true>
inline void Cast(const LocalTensor<TD> &dst, const LocalTensor<TS> &src, const RoundMode &mode, uint64_t mask,
                 const uint8_t repeatTime, const UnaryRepeatParams &rp)
{
    ARC_DTYPE_REQUIRE((__arc::cast_ok<TD, TS>()), "AscendC::Cast: there is no half <-> bfloat16_t conversion; go through float");
    __arc::Plan p = __arc::plan_len(__arc::lanes_of<TD, TS>(), repeatTime, mask, isSetMask, "AscendC::Cast");
    ARC_CAST_DISPATCH(ARC_CAST_L0)
}
template <typename TD, typename TS, bool isSetMask = true>
inline void Cast(const LocalTensor<TD> &dst, const LocalTensor<TS> &src, const RoundMode &mode, const uint64_t mask[],
                 const uint8_t repeatTime, const UnaryRepeatParams &rp)
{
    ARC_DTYPE_REQUIRE((__arc::cast_ok<TD, TS>()), "AscendC::Cast: there is no half <-> bfloat16_t conversion; go through float");
    __arc::Plan p = __arc::plan_arr(__arc::lanes_of<TD, TS>(), repeatTime, mask, isSetMask, "AscendC::Cast");
    ARC_CAST_DISPATCH(ARC_CAST_L0)
}
#undef ARC_CAST_L0
/* Scale for int32 -> half Cast. */
inline void SetDeqScale(half scale) { __arc_core()->dev[__arc::SLOT_DEQSCALE] = __arc::f32_bits((float)scale); }
inline void SetDeqScale(float scale, int16_t = 0, bool = false)
{
    __arc_core()->dev[__arc::SLOT_DEQSCALE] = __arc::f32_bits(scale);
}
} // namespace AscendC

#endif /* ARC_CAST_H_ */
