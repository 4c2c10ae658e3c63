/* reg_fused.h - more Reg arithmetic of dav-3510 (AscendC::Reg):
 *   Log / Log2 / Log10<T, mode>: mode a MaskMergeMode or a pointer to a
 *   Log*SpecificMode; every algorithm but PRECISION_1ULP_FTZ_FALSE flushes
 *   a subnormal input to zero (the pages: only that one "支持Subnormal数据
 *   计算"), so its log is -inf; results are the C library's (within the
 *   1 ulp the pages promise);
 *   Axpy: dst = scalar * src + dst, MulAddDst: dst = src0 * src1 + dst
 *   (the product rounded to T, then the sum: the basic API's rule);
 *   MulDstAdd: dst = dst * src0 + src1, which its page calls a fused
 *   multiply-add: one rounding;
 *   AbsSub: dst = |src0 - src1| (the difference rounded to T first).
 * Inactive destination lanes are 0 (ZEROING; MERGING is refused). */
#ifndef ARC_REG_FUSED_H_
#define ARC_REG_FUSED_H_

#include "arc/reg_elem.h" /* __arc::reg::ftz */
#include "arc/reg_logic.h"

#if __NPU_ARCH__ == 3510
namespace AscendC {
namespace Reg {
#define ARC_REG_LOG(NAME, EXPR)                                                                                 \
    enum class NAME##Algo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };               \
    struct NAME##SpecificMode {                                                                                \
        MaskMergeMode mrgMode = MaskMergeMode::ZEROING;                                                        \
        NAME##Algo algo = NAME##Algo::INTRINSIC;                                                               \
    };                                                                                                         \
    template <typename T = DefaultType, auto mode = MaskMergeMode::ZEROING, typename U>                        \
    inline void NAME(U &dstReg, U &srcReg, MaskReg &mask)                                                      \
    {                                                                                                          \
        using E = typename detail::elem_of<U>::type;                                                           \
        static_assert(__arc::one_of<E, half, float>, "AscendC::Reg::" #NAME ": supports half and float");      \
        constexpr bool plain = __arc::is_same<decltype(mode), const MaskMergeMode>::value ||                  \
                               __arc::is_same<decltype(mode), MaskMergeMode>::value;                           \
        constexpr NAME##SpecificMode m = [] {                                                                  \
            if constexpr (plain) return NAME##SpecificMode{mode, NAME##Algo::INTRINSIC};                       \
            else return *mode;                                                                                 \
        }();                                                                                                   \
        detail::zeroing_only<m.mrgMode>();                                                                     \
        constexpr bool keep = m.algo == NAME##Algo::PRECISION_1ULP_FTZ_FALSE;                                  \
        __arc::reg::map1(dstReg, srcReg, mask, [](E v) -> E {                                                  \
            float x = (float)(keep ? v : __arc::reg::ftz(v));                                                  \
            return (E)(EXPR);                                                                                  \
        });                                                                                                    \
    }
ARC_REG_LOG(Log, __builtin_logf(x))
ARC_REG_LOG(Log2, __builtin_log2f(x))
ARC_REG_LOG(Log10, __builtin_log10f(x))
#undef ARC_REG_LOG

template <typename T = DefaultType, typename U, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>
inline void Axpy(S &dstReg, S &srcReg, const U scalarValue, MaskReg &mask)
{
    using E = typename detail::elem_of<S>::type;
    static_assert(__arc::one_of<E, half, float>, "AscendC::Reg::Axpy: supports half and float");
    detail::zeroing_only<mode>();
    const E s = (E)scalarValue;
    __arc::reg::map2(dstReg, srcReg, dstReg, mask, [&](E x, E d) -> E { return (E)((E)(s * x) + d); });
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
inline void MulAddDst(U &dstReg, U &srcReg0, U &srcReg1, MaskReg &mask)
{
    using E = typename detail::elem_of<U>::type;
    detail::zeroing_only<mode>();
    const U d = dstReg;
    for (uint32_t i = 0; i < __arc::reg::vreg<E>::N; i++)
        dstReg.v[i] = __arc::reg::on<E>(mask, i) ? __arc::mul_add_dst(d.v[i], srcReg0.v[i], srcReg1.v[i]) : (E)0;
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
inline void MulDstAdd(U &dstReg, U &srcReg0, U &srcReg1, MaskReg &mask)
{
    using E = typename detail::elem_of<U>::type;
    static_assert(__arc::one_of<E, half, float>, "AscendC::Reg::MulDstAdd: supports half and float");
    detail::zeroing_only<mode>();
    /* one rounding: fmaf for float; a half product and sum are exact in double */
    const U d = dstReg;
    for (uint32_t i = 0; i < __arc::reg::vreg<E>::N; i++) {
        E r = (E)0;
        if (__arc::reg::on<E>(mask, i)) {
            if constexpr (__arc::is_same<E, float>::value)
                r = __builtin_fmaf(d.v[i], srcReg0.v[i], srcReg1.v[i]);
            else
                r = (E)((double)d.v[i] * (double)srcReg0.v[i] + (double)srcReg1.v[i]);
        }
        dstReg.v[i] = r;
    }
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
inline void AbsSub(U &dstReg, U &srcReg0, U &srcReg1, MaskReg &mask)
{
    using E = typename detail::elem_of<U>::type;
    detail::zeroing_only<mode>();
    __arc::reg::map2(dstReg, srcReg0, srcReg1, mask, [](E x, E y) -> E { return __arc::fabs_((E)(x - y)); });
}
} // namespace Reg
} // namespace AscendC
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_REG_FUSED_H_ */
