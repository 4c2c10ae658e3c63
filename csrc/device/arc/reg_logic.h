/* reg_logic.h - the Reg logic family of dav-3510 (AscendC::Reg, the C API's
 * asc_and ... keep their own spellings in arc/capi_reg.h over the same
 * helpers): And/Or/Xor/Not on each selected element's bits (a float's
 * too) and on mask registers (the bits the mask selects), with the older
 * names MaskAnd/MaskOr/MaskXor/MaskNot CANN's op libraries still call;
 * ShiftLeft/ShiftRight (a shift per element) and ShiftLefts/ShiftRights
 * (one scalar shift).  As the pages define the shifts: unsigned elements
 * shift logically; signed ones arithmetically (a right shift copies the
 * sign bit in, a left shift keeps the sign bit and drops the bit below
 * it: int16 1010101010101010 << 1 = 1101010101010100).  A shift count
 * outside [0, bits of the element) is undefined on the page: refused.
 * Inactive destination lanes are 0 (ZEROING; MERGING is refused). */
#ifndef ARC_REG_LOGIC_H_
#define ARC_REG_LOGIC_H_

#include "arc/reg_api.h"

#if __NPU_ARCH__ == 3510
namespace __arc {
namespace reg {
template <class T> inline T shift(T x, long long n, bool left, const char *api)
{
    static_assert(!is_float_v<T>, "AscendC::Reg shifts take integer elements");
    constexpr int bits = 8 * (int)sizeof(T);
    ARC_CHECK(n >= 0 && n < bits, api, "shift count %lld is outside [0, %d) (the page leaves it undefined)", n, bits);
    using U = typename uint_of<sizeof(T)>::type;
    U u = (U)x;
    if (!left) return __is_signed(T) ? (T)(x >> n) : (T)(u >> n);
    if (!__is_signed(T)) return (T)(U)(u << n);
    const U sign = (U)((U)1 << (bits - 1));
    return (T)(U)((u & sign) | ((U)(u << n) & (U)~sign));
}
} // namespace reg
} // namespace __arc

namespace AscendC {
namespace Reg {
namespace detail {
template <MaskMergeMode mode> constexpr void zeroing_only()
{
    static_assert(mode == MaskMergeMode::ZEROING, "AscendC::Reg: MERGING is not supported here (the page says so)");
}
} // namespace detail

#define ARC_REG_LOGIC(NAME, OLD, OP)                                                                            \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>                \
    inline void NAME(U &dstReg, U &srcReg0, U &srcReg1, MaskReg &mask)                                         \
    {                                                                                                          \
        using E = typename detail::elem_of<U>::type;                                                           \
        detail::zeroing_only<mode>();                                                                          \
        __arc::reg::map2(dstReg, srcReg0, srcReg1, mask, [](E x, E y) -> E {                                   \
            return __arc::reg::bitwise(x, y, [](unsigned long long a, unsigned long long b) { return a OP b; }); \
        });                                                                                                    \
    }                                                                                                          \
    inline void NAME(MaskReg &dst, MaskReg &src0, MaskReg &src1, MaskReg &mask)                                \
    {                                                                                                          \
        dst = __arc::reg::maskwise(src0, src1, mask, [](unsigned a, unsigned b) { return a OP b; });           \
    }                                                                                                          \
    inline void OLD(MaskReg &dst, MaskReg &src0, MaskReg &src1, MaskReg &mask) { NAME(dst, src0, src1, mask); }
ARC_REG_LOGIC(And, MaskAnd, &)
ARC_REG_LOGIC(Or, MaskOr, |)
ARC_REG_LOGIC(Xor, MaskXor, ^)
#undef ARC_REG_LOGIC

template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
inline void Not(U &dstReg, U &srcReg, MaskReg &mask)
{
    using E = typename detail::elem_of<U>::type;
    detail::zeroing_only<mode>();
    __arc::reg::map1(dstReg, srcReg, mask, [](E x) -> E {
        return __arc::reg::bitwise(x, x, [](unsigned long long a, unsigned long long) { return ~a; });
    });
}
inline void Not(MaskReg &dst, MaskReg &src, MaskReg &mask)
{
    dst = __arc::reg::maskwise(src, src, mask, [](unsigned a, unsigned) { return ~a; });
}
inline void MaskNot(MaskReg &dst, MaskReg &src, MaskReg &mask) { Not(dst, src, mask); }

#define ARC_REG_SHIFTS(NAME, LEFT)                                                                              \
    template <typename T = DefaultType, typename U, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>    \
    inline void NAME##s(S &dstReg, S &srcReg, U scalarValue, MaskReg &mask)                                    \
    {                                                                                                          \
        using E = typename detail::elem_of<S>::type;                                                           \
        detail::zeroing_only<mode>();                                                                          \
        const long long n = (long long)scalarValue;                                                            \
        __arc::reg::map1(dstReg, srcReg, mask,                                                                 \
                         [&](E x) -> E { return __arc::reg::shift(x, n, LEFT, "AscendC::Reg::" #NAME "s"); }); \
    }                                                                                                          \
    template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,  \
              typename S, typename V>                                                                          \
    inline void NAME(S &dstReg, S &srcReg0, V &srcReg1, MaskReg &mask)                                         \
    {                                                                                                          \
        using E = typename detail::elem_of<S>::type;                                                           \
        using F = typename detail::elem_of<V>::type;                                                           \
        static_assert(sizeof(E) == sizeof(F), "AscendC::Reg::" #NAME ": the shift counts' elements have the source's size"); \
        detail::zeroing_only<mode>();                                                                          \
        const S a = srcReg0;                                                                                   \
        for (uint32_t i = 0; i < __arc::reg::vreg<E>::N; i++)                                                  \
            dstReg.v[i] = __arc::reg::on<E>(mask, i)                                                           \
                              ? __arc::reg::shift(a.v[i], (long long)srcReg1.v[i], LEFT, "AscendC::Reg::" #NAME) \
                              : (E)0;                                                                          \
    }
ARC_REG_SHIFTS(ShiftLeft, true)
ARC_REG_SHIFTS(ShiftRight, false)
#undef ARC_REG_SHIFTS
} // namespace Reg
} // namespace AscendC
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_REG_LOGIC_H_ */
