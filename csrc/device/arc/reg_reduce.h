/* reg_reduce.h - the Reg reductions within a register of dav-3510, in both
 * spellings (AscendC::Reg and the C API), each defined once:
 *   Reduce<SUM|MAX|MIN> = asc_reduce_sum/max/min: the sum of the active
 *   elements in element 0; or the largest (smallest) in element 0 and the
 *   index of its first occurrence, as an integer in the element's bits, in
 *   element 1; the rest 0.  No active element: the lowest (highest) value;
 *   a NaN wins, the first one; max(-0, +0) = +0, min(-0, +0) = -0;
 *   ReduceDataBlock<SUM|MAX|MIN> = asc_reduce_sum/max/min_datablock: the
 *   active elements of each 32-byte block reduced, block b's result in
 *   element b, the rest 0 (a block with no active element gives the
 *   operation's identity: 0, or the lowest/highest value, as Reduce does);
 *   a block's sum is a tree of adjacent pairs (((x0 + x1) + (x2 + x3)) +
 *   ...), which CANN's example checks bit for bit against NumPy's sum;
 *   PairReduceElem<SUM> = asc_pair_reduce_sum: element i of the low half is
 *   src[2i] + src[2i+1] (an inactive element counts as 0), the high half 0.
 * The widening forms (int16 -> int32 sums) are refused by name. */
#ifndef ARC_REG_REDUCE_H_
#define ARC_REG_REDUCE_H_

#include "arc/reg_api.h"

#if __NPU_ARCH__ == 3510
namespace __arc {
namespace reg {
template <int K, class T> inline void reduce_block(vreg<T> &d, const vreg<T> &a, const vmask &m)
{
    lanes_used<T>(m, "a Reg reduction");
    constexpr uint32_t N = vreg<T>::N, per = 32 / sizeof(T);
    vreg<T> r{};
    for (uint32_t b = 0; b < N / per; b++) {
        if constexpr (K == 0) { /* adjacent pairs, then pairs of those: ((x0 + x1) + (x2 + x3)) + ... */
            T t[per];
            for (uint32_t i = 0; i < per; i++) t[i] = on<T>(m, b * per + i) ? a.v[b * per + i] : (T)0;
            for (uint32_t n = per; n > 1; n /= 2)
                for (uint32_t i = 0; i < n / 2; i++) t[i] = (T)(t[2 * i] + t[2 * i + 1]);
            r.v[b] = t[0];
            continue;
        }
        T acc = K == 1 ? lowest<T>() : highest<T>();
        for (uint32_t i = b * per; i < (b + 1) * per; i++)
            if (on<T>(m, i)) acc = K == 1 ? (a.v[i] > acc ? a.v[i] : acc) : (a.v[i] < acc ? a.v[i] : acc);
        r.v[b] = acc;
    }
    d = r;
}
template <int K, class T> inline void reduce_minmax(vreg<T> &d, const vreg<T> &a, const vmask &m)
{
    lanes_used<T>(m, "a Reg reduction");
    T best = K == 1 ? lowest<T>() : highest<T>();
    uint32_t at = 0;
    bool any = false;
    for (uint32_t i = 0; i < vreg<T>::N; i++) {
        if (!on<T>(m, i)) continue;
        T x = a.v[i];
        bool nan_b = best != best, nan_x = x != x;
        if (!any || (!nan_b && (nan_x || (K == 1 ? x > best : x < best)))) {
            best = x;
            at = i;
        } else if (!nan_b && x == best && x == (T)0 && (K == 1 ? !__builtin_signbit((float)x) : __builtin_signbit((float)x))) {
            best = x; /* +0 over -0 for MAX, -0 over +0 for MIN; the index stays the first */
        }
        any = true;
    }
    vreg<T> r{};
    r.v[0] = best;
    typename uint_of<sizeof(T)>::type bits = (typename uint_of<sizeof(T)>::type)at;
    __builtin_memcpy(&r.v[1], &bits, sizeof(T));
    d = r;
}
template <class T> inline void pair_sum(vreg<T> &d, const vreg<T> &a, const vmask &m)
{
    lanes_used<T>(m, "a Reg reduction");
    constexpr uint32_t N = vreg<T>::N;
    vreg<T> r{};
    for (uint32_t i = 0; i < N / 2; i++)
        r.v[i] = (T)((on<T>(m, 2 * i) ? a.v[2 * i] : (T)0) + (on<T>(m, 2 * i + 1) ? a.v[2 * i + 1] : (T)0));
    d = r;
}
} // namespace reg
} // namespace __arc

namespace AscendC {
namespace Reg {
enum class PairReduce { SUM = 0 };

template <ReduceType type = ReduceType::SUM, typename T = DefaultType, typename U = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V>
inline void Reduce(S &dstReg, V srcReg, MaskReg mask)
{
    using E = typename detail::elem_of<V>::type;
    static_assert(__arc::is_same<typename detail::elem_of<S>::type, E>::value,
                  "AscendC::Reg::Reduce: a widening reduce (int16 -> int32) is not simulated");
    static_assert(mode == MaskMergeMode::ZEROING, "AscendC::Reg::Reduce: MERGING is not supported");
    if constexpr (type == ReduceType::SUM)
        __arc::reg::reduce(dstReg, srcReg, mask, (E)0, [](E a, E b) -> E { return (E)(a + b); });
    else
        __arc::reg::reduce_minmax<(int)type>(dstReg, srcReg, mask);
}
template <ReduceType type = ReduceType::SUM, typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename U, typename V>
inline void ReduceDataBlock(U &dstReg, V srcReg, MaskReg mask)
{
    using E = typename detail::elem_of<V>::type;
    static_assert(__arc::is_same<typename detail::elem_of<U>::type, E>::value,
                  "AscendC::Reg::ReduceDataBlock: a widening sum (16 -> 32 bits) is not simulated");
    static_assert(mode == MaskMergeMode::ZEROING, "AscendC::Reg::ReduceDataBlock: MERGING is not supported");
    static_assert(type == ReduceType::SUM ? __arc::one_of<E, half, float, int32_t, uint32_t>
                                          : __arc::one_of<E, half, float, int16_t, uint16_t, int32_t, uint32_t>,
                  "AscendC::Reg::ReduceDataBlock: this element type is not supported (see the API's page)");
    __arc::reg::reduce_block<(int)type>(dstReg, srcReg, mask);
}
template <PairReduce type = PairReduce::SUM, typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename U>
inline void PairReduceElem(U &dstReg, U srcReg, MaskReg mask)
{
    using E = typename detail::elem_of<U>::type;
    static_assert(__arc::one_of<E, half, float>, "AscendC::Reg::PairReduceElem: supports half and float");
    static_assert(mode == MaskMergeMode::ZEROING, "AscendC::Reg::PairReduceElem: MERGING is not supported");
    __arc::reg::pair_sum(dstReg, srcReg, mask);
}
} // namespace Reg
} // namespace AscendC

#define ARC_CAPI_BLOCK_REDUCE(NAME, K, TYPES)                                                                   \
    template <class T> inline void NAME(__arc::reg::vreg<T> &dst, __arc::reg::vreg<T> src, __arc::reg::vmask mask) \
    {                                                                                                           \
        static_assert(__arc::one_of<T, ARC_UNPAREN TYPES>, #NAME ": supports " #TYPES " (the widening forms are not simulated)"); \
        __arc::reg::reduce_block<K>(dst, src, mask);                                                           \
    }
ARC_CAPI_BLOCK_REDUCE(asc_reduce_sum_datablock, 0, (half, float, int32_t, uint32_t))
ARC_CAPI_BLOCK_REDUCE(asc_reduce_max_datablock, 1, (half, float, int16_t, uint16_t, int32_t, uint32_t))
ARC_CAPI_BLOCK_REDUCE(asc_reduce_min_datablock, 2, (half, float, int16_t, uint16_t, int32_t, uint32_t))
#undef ARC_CAPI_BLOCK_REDUCE

#define ARC_CAPI_MINMAX(NAME, K)                                                                                \
    template <class T> inline void NAME(__arc::reg::vreg<T> &dst, __arc::reg::vreg<T> src, __arc::reg::vmask mask) \
    {                                                                                                           \
        static_assert(__arc::one_of<T, uint16_t, int16_t, half, uint32_t, int32_t, float>,                     \
                      #NAME ": supports uint16_t, int16_t, half, uint32_t, int32_t and float");                  \
        __arc::reg::reduce_minmax<K>(dst, src, mask);                                                          \
    }
ARC_CAPI_MINMAX(asc_reduce_max, 1)
ARC_CAPI_MINMAX(asc_reduce_min, 2)
#undef ARC_CAPI_MINMAX

template <class T> inline void asc_pair_reduce_sum(__arc::reg::vreg<T> &dst, __arc::reg::vreg<T> src, __arc::reg::vmask mask)
{
    static_assert(__arc::one_of<T, half, float>, "asc_pair_reduce_sum: supports half and float");
    __arc::reg::pair_sum(dst, src, mask);
}
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_REG_REDUCE_H_ */
