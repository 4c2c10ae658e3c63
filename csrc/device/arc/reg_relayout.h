/* reg_relayout.h - Reg data rearrangement of dav-3510 in both spellings,
 * each defined once:
 *   Interleave = asc_intlv: [s0[0], s1[0], s0[1], s1[1], ...] over 2 VL,
 *   its first VL in dst0 and its second in dst1;
 *   DeInterleave = asc_deintlv: the inverse (the even elements of s0:s1 in
 *   dst0, the odd ones in dst1);
 *   Pack<T, U, LOWEST|HIGHEST> = asc_pack_to_low/high: the low half of each
 *   element's bits (b16 -> b8, b32 -> b16, b64 -> b32) into dst's low
 *   (high) half; the page leaves the other half open, the simulator zeroes
 *   it;
 *   asc_copy: register to register, the masked elements (the others keep
 *   dst's), or a whole mask register. */
#ifndef ARC_REG_RELAYOUT_H_
#define ARC_REG_RELAYOUT_H_

#include "arc/reg_api.h"

#if __NPU_ARCH__ == 3510
namespace __arc {
namespace reg {
template <class T> inline void interleave(vreg<T> &d0, vreg<T> &d1, const vreg<T> &a, const vreg<T> &b)
{
    constexpr uint32_t N = vreg<T>::N;
    vreg<T> r0, r1;
    for (uint32_t i = 0; i < N; i++) {
        vreg<T> &r = i < N / 2 ? r0 : r1;
        uint32_t j = i % (N / 2);
        r.v[2 * j] = a.v[i];
        r.v[2 * j + 1] = b.v[i];
    }
    d0 = r0;
    d1 = r1;
}
template <class T> inline void deinterleave(vreg<T> &d0, vreg<T> &d1, const vreg<T> &a, const vreg<T> &b)
{
    constexpr uint32_t N = vreg<T>::N;
    vreg<T> r0, r1;
    for (uint32_t i = 0; i < N; i++) {
        const T *src = i < N / 2 ? a.v : b.v;
        uint32_t j = i % (N / 2);
        r0.v[i] = src[2 * j];
        r1.v[i] = src[2 * j + 1];
    }
    d0 = r0;
    d1 = r1;
}
template <bool high, class TD, class TS> inline void pack(vreg<TD> &d, const vreg<TS> &s)
{
    static_assert(2 * sizeof(TD) == sizeof(TS), "Pack (asc_pack_to_low/high): dst elements are half as wide as src's");
    vreg<TD> r{};
    for (uint32_t i = 0; i < vreg<TS>::N; i++) {
        typename uint_of<sizeof(TS)>::type bits;
        __builtin_memcpy(&bits, &s.v[i], sizeof(TS));
        typename uint_of<sizeof(TD)>::type low = (typename uint_of<sizeof(TD)>::type)bits;
        __builtin_memcpy(&r.v[(high ? vreg<TS>::N : 0) + i], &low, sizeof(TD));
    }
    d = r;
}
} // namespace reg
} // namespace __arc

namespace AscendC {
namespace Reg {
enum class HighLowPart { LOWEST, HIGHEST };

template <typename T = DefaultType, typename U> inline void Interleave(U &dstReg0, U &dstReg1, U &srcReg0, U &srcReg1)
{
    __arc::reg::interleave(dstReg0, dstReg1, U(srcReg0), U(srcReg1));
}
template <typename T = DefaultType, typename U> inline void DeInterleave(U &dstReg0, U &dstReg1, U &srcReg0, U &srcReg1)
{
    __arc::reg::deinterleave(dstReg0, dstReg1, U(srcReg0), U(srcReg1));
}
template <typename T = DefaultType, typename U = DefaultType, HighLowPart part = HighLowPart::LOWEST, typename S,
          typename V>
inline void Pack(S &dstReg, V &srcReg)
{
    __arc::reg::pack<part == HighLowPart::HIGHEST>(dstReg, srcReg);
}
} // namespace Reg
} // namespace AscendC

template <class T>
inline void asc_intlv(__arc::reg::vreg<T> &dst0, __arc::reg::vreg<T> &dst1, __arc::reg::vreg<T> src0, __arc::reg::vreg<T> src1)
{
    __arc::reg::interleave(dst0, dst1, src0, src1);
}
template <class T>
inline void asc_deintlv(__arc::reg::vreg<T> &dst0, __arc::reg::vreg<T> &dst1, __arc::reg::vreg<T> src0, __arc::reg::vreg<T> src1)
{
    __arc::reg::deinterleave(dst0, dst1, src0, src1);
}
template <class TD, class TS> inline void asc_pack_to_low(__arc::reg::vreg<TD> &dst, __arc::reg::vreg<TS> src)
{
    __arc::reg::pack<false>(dst, src);
}
template <class TD, class TS> inline void asc_pack_to_high(__arc::reg::vreg<TD> &dst, __arc::reg::vreg<TS> src)
{
    __arc::reg::pack<true>(dst, src);
}
template <class T> inline void asc_copy(__arc::reg::vreg<T> &dst, __arc::reg::vreg<T> src, __arc::reg::vmask mask)
{
    __arc::reg::select(dst, src, __arc::reg::vreg<T>(dst), mask);
}
inline void asc_copy(__arc::reg::vmask &dst, __arc::reg::vmask src) { dst = src; }
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_REG_RELAYOUT_H_ */
