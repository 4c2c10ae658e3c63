/* reg_cast.h - Reg::Cast<T, U, CastTrait>(dst, src, mask) (dav-3510) as
 * its API page defines it: RegLayout places the narrower type's elements
 * (widening: dst[i] = src[layout + k*i]; narrowing: dst[layout + k*i] =
 * src[i], the other dst elements 0; k the width ratio), the mask selects
 * source elements, MaskMergeMode ZEROING / MERGING (same widths) and the
 * RoundMode of the element conversion (cast.h's, UNKNOWN as CAST_NONE).
 * SatMode needs SetCtrlSpr to take effect, which the simulated core does
 * not model: conversions saturate as cast.h's do. */
#ifndef ARC_REG_CAST_H_
#define ARC_REG_CAST_H_

#include "arc/reg_api.h"
#include "arc/cast.h"

#if __NPU_ARCH__ == 3510
namespace AscendC {
namespace Reg {
enum class RegLayout { UNKNOWN = -1, ZERO, ONE, TWO, THREE };
enum class SatMode { UNKNOWN = -1, NO_SAT, SAT };
struct CastTrait {
    RegLayout layoutMode = RegLayout::UNKNOWN;
    SatMode satMode = SatMode::UNKNOWN;
    MaskMergeMode mrgMode = MaskMergeMode::UNKNOWN;
    RoundMode roundMode = RoundMode::UNKNOWN;
};
constexpr CastTrait __arc_cast_trait_default = {};

template <typename T = DefaultType, typename U = DefaultType, const CastTrait &trait = __arc_cast_trait_default,
          typename S, typename V>
inline void Cast(S &dstReg, V &srcReg, MaskReg &mask)
{
    using TD = typename S::elem;
    using TS = typename V::elem;
    static_assert(std::is_same<T, DefaultType>::value || std::is_same<T, TD>::value,
                  "AscendC::Reg::Cast: T is not dstReg's element type");
    static_assert(std::is_same<U, DefaultType>::value || std::is_same<U, TS>::value,
                  "AscendC::Reg::Cast: U is not srcReg's element type");
    constexpr int M = trait.roundMode == RoundMode::UNKNOWN ? (int)RoundMode::CAST_NONE : (int)trait.roundMode;
    constexpr int layout = trait.layoutMode == RegLayout::UNKNOWN ? 0 : (int)trait.layoutMode;
    constexpr uint32_t ND = __arc::reg::vreg<TD>::N, NS = __arc::reg::vreg<TS>::N;
    const V src = srcReg; /* dst may be src */
    if constexpr (sizeof(TD) == sizeof(TS)) {
        for (uint32_t i = 0; i < ND; i++) {
            if (__arc::reg::on<TS>(mask, i)) dstReg.v[i] = __arc::cvt<TD, TS, M>(src.v[i]);
            else if (trait.mrgMode != MaskMergeMode::MERGING) dstReg.v[i] = (TD)0;
        }
    } else if constexpr (sizeof(TD) > sizeof(TS)) {
        constexpr uint32_t k = sizeof(TD) / sizeof(TS);
        static_assert(k == 2 || k == 4, "AscendC::Reg::Cast: a width ratio of 2 or 4");
        static_assert(layout < (int)k, "AscendC::Reg::Cast: RegLayout beyond the width ratio");
        for (uint32_t i = 0; i < ND; i++) {
            const uint32_t j = layout + k * i;
            dstReg.v[i] = __arc::reg::on<TS>(mask, j) ? __arc::cvt<TD, TS, M>(src.v[j]) : (TD)0;
        }
    } else {
        constexpr uint32_t k = sizeof(TS) / sizeof(TD);
        static_assert(k == 2 || k == 4, "AscendC::Reg::Cast: a width ratio of 2 or 4");
        static_assert(layout < (int)k, "AscendC::Reg::Cast: RegLayout beyond the width ratio");
        for (uint32_t i = 0; i < ND; i++) dstReg.v[i] = (TD)0;
        for (uint32_t i = 0; i < NS; i++)
            if (__arc::reg::on<TS>(mask, i)) dstReg.v[layout + k * i] = __arc::cvt<TD, TS, M>(src.v[i]);
    }
}
} // namespace Reg
} // namespace AscendC
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_REG_CAST_H_ */
