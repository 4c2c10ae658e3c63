/* reg_elem.h - more element-wise Reg operations of dav-3510, in both
 * spellings (AscendC::Reg and the C API on vector_<type>), each defined
 * once over the register model (arc/reg.h):
 *   Compare/Compares<T, CMPMODE> (asc_gt ... keep their own, arc/capi_reg.h;
 *   CompareScalar is Compares' older name),
 *   Truncate<T, RoundMode> = asc_rint/round/floor/ceil/trunc: a float
 *   rounded to an integral value of its own type (exact: half and bf16
 *   values are floats, and an integral float is representable in them),
 *   Arange<T, IndexOrder> = asc_arange[_descend]: start + i, or the
 *   descending run that ends at start; integers wrap as the page says;
 *   Div<T, mode>: mode a MaskMergeMode (DivAlgo::INTRINSIC) or a
 *   DivSpecificMode.  Every algorithm but the two FTZ_FALSE ones flushes
 *   subnormals, inputs and result, to zero of their sign (the page: "其他
 *   模式下Subnormal均被FTZ"; its example's table: S / N = 0, N / S = inf,
 *   S / S = 0 / 0 = NaN 0x7fffffff); results are correctly rounded, within
 *   the 0 or 1 ulp each algorithm promises.
 * Inactive destination lanes are 0 (ZEROING; MERGING is refused). */
#ifndef ARC_REG_ELEM_H_
#define ARC_REG_ELEM_H_

#include "arc/adv_config.h" /* DivAlgo (one owner, with DivConfig) */
#include "arc/cast.h"
#include "arc/compare.h"
#include "arc/reg_api.h"

#if __NPU_ARCH__ == 3510
namespace __arc {
namespace reg {
template <int M, class T> inline void truncate(vreg<T> &d, const vreg<T> &a, const vmask &m)
{
    static_assert(is_float_v<T>, "Truncate (asc_floor ...): supports half, bfloat16_t and float");
    map1(d, a, m, [](T x) -> T { return (T)rndf<M>((float)x); });
}
/* Subnormals (below the smallest normal of T) to zero of their sign. */
template <class T> inline T ftz(T x)
{
    float a = __builtin_fabsf((float)x);
    float tiny = sizeof(T) == 2 ? 6.103515625e-05f : 1.17549435e-38f; /* 2^-14, 2^-126 */
    return (a != 0 && a < tiny) ? (T)(__builtin_signbit((float)x) ? -0.0f : 0.0f) : x;
}
template <class T> inline T div_ftz(T x, T y)
{
    if constexpr (is_float_v<T>) {
        T a = ftz(x), b = ftz(y);
        T r = (T)(a / b);
        if (r != r && a == a && b == b) { /* an invalid operation: the NPU's NaN */
            uint32_t bits = sizeof(T) == 2 ? 0x7fffu : 0x7fffffffu;
            __builtin_memcpy(&r, &bits, sizeof(T));
            return r;
        }
        return ftz(r);
    } else {
        return (T)(x / y);
    }
}
template <class T> inline void arange(vreg<T> &d, T start, bool down)
{
    constexpr uint32_t N = vreg<T>::N;
    for (uint32_t i = 0; i < N; i++) {
        uint32_t k = down ? N - 1 - i : i;
        if constexpr (is_float_v<T>)
            d.v[i] = (T)((float)start + (float)k);
        else
            d.v[i] = (T)(typename uint_of<sizeof(T)>::type)((uint64_t)start + k);
    }
}
} // namespace reg
} // namespace __arc

namespace AscendC {
namespace Reg {
enum class IndexOrder { INCREASE_ORDER, DECREASE_ORDER };

template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U>
inline void Compare(MaskReg &dst, U &srcReg0, U &srcReg1, MaskReg &mask)
{
    using E = typename detail::elem_of<U>::type;
    dst = __arc::reg::cmp(srcReg0, srcReg1, mask, [](E x, E y) { return __arc::cmp(x, y, mode); });
}
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U, typename S>
inline void Compares(MaskReg &dst, U &srcReg, S scalarValue, MaskReg &mask)
{
    using E = typename detail::elem_of<U>::type;
    const E y = (E)scalarValue;
    U b;
    for (uint32_t i = 0; i < __arc::reg::vreg<E>::N; i++) b.v[i] = y;
    dst = __arc::reg::cmp(srcReg, b, mask, [](E x, E z) { return __arc::cmp(x, z, mode); });
}
/* The older name of Compares, which CANN's op libraries still call. */
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U, typename S>
inline void CompareScalar(MaskReg &dst, U &srcReg, S scalarValue, MaskReg &mask)
{
    Compares<T, mode>(dst, srcReg, scalarValue, mask);
}
template <typename T = DefaultType, RoundMode roundMode = RoundMode::CAST_NONE,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>
inline void Truncate(S &dstReg, S &srcReg, MaskReg &mask)
{
    static_assert(roundMode == RoundMode::CAST_RINT || roundMode == RoundMode::CAST_ROUND ||
                      roundMode == RoundMode::CAST_FLOOR || roundMode == RoundMode::CAST_CEIL ||
                      roundMode == RoundMode::CAST_TRUNC,
                  "AscendC::Reg::Truncate: roundMode is CAST_RINT, CAST_ROUND, CAST_FLOOR, CAST_CEIL or CAST_TRUNC");
    static_assert(mode == MaskMergeMode::ZEROING, "AscendC::Reg::Truncate: MERGING is not supported");
    __arc::reg::truncate<(int)roundMode>(dstReg, srcReg, mask);
}
struct DivSpecificMode {
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    bool precisionMode = false;
    DivAlgo algo = DivAlgo::INTRINSIC;
};
template <typename T = DefaultType, auto mode = MaskMergeMode::ZEROING, typename U>
inline void Div(U &dstReg, U &srcReg0, U &srcReg1, MaskReg &mask)
{
    using E = typename detail::elem_of<U>::type;
    constexpr bool plain = __arc::is_same<decltype(mode), const MaskMergeMode>::value ||
                           __arc::is_same<decltype(mode), MaskMergeMode>::value;
    constexpr DivSpecificMode m = [] {
        if constexpr (plain) return DivSpecificMode{mode, false, DivAlgo::INTRINSIC};
        else return *mode;
    }();
    constexpr bool keep = m.algo == DivAlgo::PRECISION_0ULP_FTZ_FALSE || m.algo == DivAlgo::PRECISION_1ULP_FTZ_FALSE;
    const U a = srcReg0, b = srcReg1;
    detail::apply<m.mrgMode>(dstReg, mask, [&](uint32_t i) -> E {
        return keep ? __arc::op::Div{}(a.v[i], b.v[i]) : __arc::reg::div_ftz(a.v[i], b.v[i]);
    });
}
template <typename T = DefaultType, IndexOrder order = IndexOrder::INCREASE_ORDER, typename U, typename S>
inline void Arange(S &dstReg, U scalarValue)
{
    using E = typename detail::elem_of<S>::type;
    static_assert(__arc::one_of<E, int8_t, int16_t, int32_t, int64_t, half, float>,
                  "AscendC::Reg::Arange: supports int8_t, int16_t, int32_t, int64_t, half and float");
    __arc::reg::arange<E>(dstReg, (E)scalarValue, order == IndexOrder::DECREASE_ORDER);
}
} // namespace Reg
} // namespace AscendC

#define ARC_CAPI_ROUND(NAME, MODE)                                                                             \
    template <class T> inline void NAME(__arc::reg::vreg<T> &dst, __arc::reg::vreg<T> src, __arc::reg::vmask mask) \
    {                                                                                                          \
        __arc::reg::truncate<(int)AscendC::RoundMode::MODE>(dst, src, mask);                                   \
    }
ARC_CAPI_ROUND(asc_rint, CAST_RINT)
ARC_CAPI_ROUND(asc_round, CAST_ROUND)
ARC_CAPI_ROUND(asc_floor, CAST_FLOOR)
ARC_CAPI_ROUND(asc_ceil, CAST_CEIL)
ARC_CAPI_ROUND(asc_trunc, CAST_TRUNC)
#undef ARC_CAPI_ROUND

template <class T> inline void asc_arange(__arc::reg::vreg<T> &dst, typename __arc::reg::vreg<T>::elem value)
{
    static_assert(__arc::one_of<T, int8_t, int16_t, int32_t, half, float>,
                  "asc_arange: supports int8_t, int16_t, int32_t, half and float");
    __arc::reg::arange<T>(dst, value, false);
}
template <class T>
inline void asc_arange_descend(__arc::reg::vreg<T> &dst, typename __arc::reg::vreg<T>::elem value)
{
    static_assert(__arc::one_of<T, int8_t, int16_t, int32_t, half, float>,
                  "asc_arange_descend: supports int8_t, int16_t, int32_t, half and float");
    __arc::reg::arange<T>(dst, value, true);
}
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_REG_ELEM_H_ */
