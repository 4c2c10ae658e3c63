/* capi_cvt.h - the SIMD C API's register conversions (dav-3510),
 * asc_<src>2<dst>[_rd|_rn|_rna|_ru|_rz|_ro][_sat][_v2](dst, src, mask), as
 * their pages (reg/data_type_convert) define them: one row per source and
 * destination type below gives every suffix its page lists.
 * - Lanes: a widening conversion reads the even source elements (_v2: the
 *   odd ones); a narrowing one writes the even destination elements (_v2:
 *   the odd ones) and zeroes the rest; equal widths map lane to lane.
 *   Elements the mask leaves out become 0.
 * - Rounding: the suffix (RINT, ROUND, FLOOR, CEIL, TRUNC, ODD); none is an
 *   exact conversion (nearest even where it is not).
 * - Saturation ("rounding_mode" page and asc_set_ctrl): to an integer,
 *   CTRL[59] decides while CTRL[60] is set (its reset value: saturate,
 *   CTRL[59] = 0), the _sat suffix when CTRL[60] is clear; saturating
 *   clamps to the type's range, truncating keeps the low bits of the
 *   rounded value (NaN gives 0 and +-inf the extremes either way; a value
 *   beyond 64 bits stops the kernel).  To a float type the _sat suffix or
 *   CTRL[48] = 0 saturates (inf -> +-max, NaN -> 0), else inf and NaN stay
 *   (our reading: the pages name both controls and not their order).
 * - hifloat8_t (half <-> hifloat8_t): _rna rounds half away, _rh is
 *   CAST_HYBRID (arc/lowp.h's rule); saturation gives +-max, else +-inf
 *   and NaN stay. */
#ifndef ARC_CAPI_CVT_H_
#define ARC_CAPI_CVT_H_

#include "arc/capi_reg.h"
#include "arc/cast.h"
#include "arc/ctrl.h"

#if __NPU_ARCH__ == 3510
typedef __arc::reg::vreg<hifloat8_t> vector_hifloat8_t;

namespace __arc {
/* Saturation of a conversion to TD with the _sat suffix `suffix`. */
template <class TD> inline bool cvt_saturates(bool suffix)
{
    const uint64_t c = ctrl_read();
    if constexpr (is_float_v<TD> || is_same<TD, hifloat8_t>::value)
        return suffix || !(c >> 48 & 1u);
    else
        return (c >> 60 & 1u) ? !(c >> 59 & 1u) : suffix;
}
/* The largest finite value of a float type. */
template <class F> inline F fmax_of()
{
    return is_same<F, half>::value ? (F)65504.0f
         : is_same<F, bfloat16_t>::value ? from_bits<F>(0x7f7fu) : (F)3.4028234663852886e38f;
}
/* One element TS -> TD in mode M, saturating or not. */
template <class TD, class TS, int M> inline TD capi_elem(TS x, bool sat, const char *api)
{
    if constexpr (is_same<TD, hifloat8_t>::value) {
        static_assert(is_same<TS, half>::value, "half -> hifloat8_t only");
        const int md = M == (int)AscendC::RoundMode::CAST_HYBRID ? fp::RH : fp::RNA;
        return hifloat8_t::from_bits(lp::f16_to_hif8(__builtin_bit_cast(uint16_t, x), md, sat));
    } else if constexpr (is_same<TS, hifloat8_t>::value) {
        return (TD)(float)x; /* exact */
    } else if constexpr (is_float_v<TS> && !is_float_v<TD>) {
        const float f = (float)x;
        if (sat || f != f || f - f != 0.0f) return cvt<TD, TS, M>(x); /* NaN 0, +-inf the extremes */
        const double r = (double)rndf<M>(f);
        ARC_CHECK(r > -9.2233720368547758e18 && r < 9.2233720368547758e18, api,
                  "%g beyond 64 bits: the truncating conversion keeps low bits the NPU's register does not show",
                  (double)f);
        return (TD)(uint64_t)(int64_t)r;
    } else if constexpr (!is_float_v<TS> && !is_float_v<TD>) {
        return sat ? sat_int<TD>(x) : (TD)x;
    } else {
        TD y;
        if constexpr (!is_float_v<TS>)
            y = sizeof(TS) >= 4 ? narrow<TD, M>((double)x) : narrow<TD, M>((float)x);
        else
            y = cvt<TD, TS, M>(x);
        if (sat) {
            const float v = (float)y;
            if (v != v) return (TD)0.0f;
            if (v - v != 0.0f) return v > 0 ? fmax_of<TD>() : (TD)-(float)fmax_of<TD>();
        }
        return y;
    }
}
/* dst from src over the mask's lanes (the layout the header describes). */
template <class TD, class TS, int M, bool SAT, int PART>
inline void capi_cvt(reg::vreg<TD> &dst, const reg::vreg<TS> &src, const reg::vmask &mask, const char *api)
{
    constexpr uint32_t ND = reg::vreg<TD>::N, NS = reg::vreg<TS>::N;
    const reg::vreg<TS> s = src; /* dst may be src */
    const bool sat = cvt_saturates<TD>(SAT);
    if constexpr (sizeof(TD) == sizeof(TS)) {
        for (uint32_t i = 0; i < ND; i++) dst.v[i] = reg::on<TS>(mask, i) ? capi_elem<TD, TS, M>(s.v[i], sat, api) : (TD)0;
    } else if constexpr (sizeof(TD) > sizeof(TS)) {
        static_assert(sizeof(TD) == 2 * sizeof(TS), "a width ratio of 2");
        for (uint32_t i = 0; i < ND; i++) {
            const uint32_t j = PART + 2 * i;
            dst.v[i] = reg::on<TS>(mask, j) ? capi_elem<TD, TS, M>(s.v[j], sat, api) : (TD)0;
        }
    } else {
        static_assert(sizeof(TS) == 2 * sizeof(TD), "a width ratio of 2");
        for (uint32_t i = 0; i < ND; i++) dst.v[i] = (TD)0;
        for (uint32_t i = 0; i < NS; i++)
            if (reg::on<TS>(mask, i)) dst.v[PART + 2 * i] = capi_elem<TD, TS, M>(s.v[i], sat, api);
    }
}
} // namespace __arc

/* One function. */
#define ARC_CVT_FN(S, TS, D, TD, SUF, M, SAT, PART)                                                         \
    inline void asc_##S##2##D##SUF(vector_##TD &dst, vector_##TS src, vector_bool mask)                     \
    {                                                                                                       \
        __arc::capi_cvt<TD, TS, (int)AscendC::RoundMode::M, SAT, PART>(dst, src, mask, "asc_" #S "2" #D #SUF); \
    }
/* The _v2 twin of a function whose widths differ (W 1), none else. */
#define ARC_CVT_V2_0(S, TS, D, TD, SUF, M, SAT)
#define ARC_CVT_V2_1(S, TS, D, TD, SUF, M, SAT) ARC_CVT_FN(S, TS, D, TD, SUF##_v2, M, SAT, 1)
#define ARC_CVT_PARTS(S, TS, D, TD, SUF, M, SAT, W)                                                         \
    ARC_CVT_FN(S, TS, D, TD, SUF, M, SAT, 0) ARC_CVT_V2_##W(S, TS, D, TD, SUF, M, SAT)
/* The _sat twins (SAT 1), none else. */
#define ARC_CVT_SAT_0(S, TS, D, TD, SUF, M, W)
#define ARC_CVT_SAT_1(S, TS, D, TD, SUF, M, W) ARC_CVT_PARTS(S, TS, D, TD, SUF##_sat, M, true, W)
#define ARC_CVT_ROUND(S, TS, D, TD, SUF, M, SAT, W)                                                         \
    ARC_CVT_PARTS(S, TS, D, TD, SUF, M, false, W) ARC_CVT_SAT_##SAT(S, TS, D, TD, SUF, M, W)
/* The rounding suffixes a row lists. */
#define ARC_CVT_R_NONE(S, TS, D, TD, SAT, W) ARC_CVT_ROUND(S, TS, D, TD, , CAST_NONE, SAT, W)
#define ARC_CVT_R_5(S, TS, D, TD, SAT, W)                                                                    \
    ARC_CVT_ROUND(S, TS, D, TD, _rd, CAST_FLOOR, SAT, W) ARC_CVT_ROUND(S, TS, D, TD, _rn, CAST_RINT, SAT, W)  \
    ARC_CVT_ROUND(S, TS, D, TD, _rna, CAST_ROUND, SAT, W) ARC_CVT_ROUND(S, TS, D, TD, _ru, CAST_CEIL, SAT, W) \
    ARC_CVT_ROUND(S, TS, D, TD, _rz, CAST_TRUNC, SAT, W)
#define ARC_CVT_R_6(S, TS, D, TD, SAT, W) ARC_CVT_R_5(S, TS, D, TD, SAT, W) ARC_CVT_ROUND(S, TS, D, TD, _ro, CAST_ODD, SAT, W)
#define ARC_CVT_R_H(S, TS, D, TD, SAT, W)                                                                    \
    ARC_CVT_ROUND(S, TS, D, TD, _rh, CAST_HYBRID, SAT, W) ARC_CVT_ROUND(S, TS, D, TD, _rna, CAST_ROUND, SAT, W)

/* (source name, type, destination name, type, rounding suffixes, _sat forms, _v2 forms): the pages' list. */
#define ARC_CAPI_CVTS(X)                                                                                     \
    X(bfloat16, bfloat16_t, float, float, NONE, 0, 1) X(bfloat16, bfloat16_t, half, half, 5, 1, 0)             \
    X(bfloat16, bfloat16_t, int32, int32_t, 5, 1, 1) X(float, float, bfloat16, bfloat16_t, 5, 1, 1)            \
    X(float, float, half, half, 6, 1, 1) X(float, float, int16, int16_t, 5, 1, 1)                             \
    X(float, float, int32, int32_t, 5, 1, 0) X(float, float, int64, int64_t, 5, 1, 1)                         \
    X(half, half, bfloat16, bfloat16_t, 5, 0, 0) X(half, half, float, float, NONE, 0, 1)                      \
    X(half, half, int16, int16_t, 5, 1, 0) X(half, half, int32, int32_t, 5, 0, 1)                             \
    X(half, half, int8, int8_t, 5, 1, 1) X(half, half, uint8, uint8_t, 5, 1, 1)                               \
    X(half, half, hif8, hifloat8_t, H, 1, 1) X(hif8, hifloat8_t, half, half, NONE, 0, 1)                      \
    X(int16, int16_t, float, float, NONE, 0, 1) X(int16, int16_t, half, half, 5, 0, 0)                        \
    X(int16, int16_t, int32, int32_t, NONE, 0, 1) X(int16, int16_t, uint32, uint32_t, NONE, 0, 1)             \
    X(int16, int16_t, uint8, uint8_t, NONE, 1, 1) X(int32, int32_t, float, float, 5, 0, 0)                    \
    X(int32, int32_t, int16, int16_t, NONE, 1, 1) X(int32, int32_t, int64, int64_t, NONE, 0, 1)               \
    X(int32, int32_t, uint16, uint16_t, NONE, 1, 1) X(int64, int64_t, float, float, 5, 0, 1)                  \
    X(int64, int64_t, int32, int32_t, NONE, 1, 1) X(int8, int8_t, half, half, NONE, 0, 1)                     \
    X(int8, int8_t, int16, int16_t, NONE, 0, 1) X(uint16, uint16_t, uint32, uint32_t, NONE, 0, 1)             \
    X(uint16, uint16_t, uint8, uint8_t, NONE, 1, 1) X(uint32, uint32_t, int16, int16_t, NONE, 1, 1)           \
    X(uint32, uint32_t, uint16, uint16_t, NONE, 1, 1) X(uint8, uint8_t, half, half, NONE, 0, 1)               \
    X(uint8, uint8_t, uint16, uint16_t, NONE, 0, 1)
#define ARC_CVT_ROW(S, TS, D, TD, R, SAT, W) ARC_CVT_R_##R(S, TS, D, TD, SAT, W)
ARC_CAPI_CVTS(ARC_CVT_ROW)
#undef ARC_CVT_ROW
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_CAPI_CVT_H_ */
