/* reduce_names.h - the memory-vector reductions under their CANN 9.1
 * names (asc-devkit docs, 归约计算): ReduceRepeat<SUM/MAX/MIN> is
 * WholeReduceSum/Max/Min, ReduceDataBlock<...> is BlockReduceSum/Max/Min,
 * ReducePairElem<SUM> is PairReduceSum, GetReduceRepeatSumSpr is GetAccVal
 * and GetReduceRepeatMaxMinSpr is GetReduceMaxMinCount (arc/reduce.h
 * computes them all).  The template takes the dst type T and the src type
 * U; Ascend 950's widening forms (U = int16_t into T = int32_t) are not
 * simulated: T and U must be the same. */
#ifndef ARC_REDUCE_NAMES_H_
#define ARC_REDUCE_NAMES_H_

#include "arc/reduce.h"

namespace AscendC {
/* The reduction kinds, shared with the Reg API (Reg::ReduceType, arc/reg_api.h). */
enum class ReduceType { SUM = 0, MAX, MIN };

namespace __detail {
template <ReduceType R> constexpr int red_op()
{
    return R == ReduceType::SUM ? __arc::RED_SUM : R == ReduceType::MAX ? __arc::RED_MAX : __arc::RED_MIN;
}
template <typename T, typename U> constexpr bool same_red_types()
{
    return __is_same(T, U);
}
} // namespace __detail

#define ARC_RED_SAME_(API)                                                                                   \
    static_assert(__detail::same_red_types<T, U>(),                                                         \
                  "AscendC::" API ": dst and src of different types (Ascend 950's widening reductions) "      \
                  "are not simulated")

template <ReduceType R, typename T, typename U, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T> &dst, const LocalTensor<U> &src, const int32_t mask,
                         const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                         const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
{
    ARC_RED_SAME_("ReduceRepeat");
    __detail::whole(dst, src,
                    __arc::plan_len(256 / sizeof(T), repeatTime, (uint64_t)mask, isSetMask, "AscendC::ReduceRepeat"),
                    dstRepStride, srcBlkStride, srcRepStride, __detail::red_op<R>(),
                    R == ReduceType::SUM ? ReduceOrder::ORDER_ONLY_VALUE : order, "AscendC::ReduceRepeat");
}
template <ReduceType R, typename T, typename U, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint64_t mask[],
                         const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                         const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
{
    ARC_RED_SAME_("ReduceRepeat");
    __detail::whole(dst, src, __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::ReduceRepeat"),
                    dstRepStride, srcBlkStride, srcRepStride, __detail::red_op<R>(),
                    R == ReduceType::SUM ? ReduceOrder::ORDER_ONLY_VALUE : order, "AscendC::ReduceRepeat");
}

/* ReduceDataBlock (one result per 32-byte block) and ReducePairElem (one
 * per adjacent pair, SUM only) take (mask, repeatTime, ...) in that order,
 * where the older BlockReduce/PairReduce names take repeatTime first. */
#define ARC_RED_BLOCKWISE_(NAME, PAIRS)                                                                          \
    template <ReduceType R, typename T, typename U, bool isSetMask = true>                                      \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src, const int32_t mask,                  \
                     const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,          \
                     const int32_t srcRepStride)                                                                \
    {                                                                                                           \
        ARC_RED_SAME_(#NAME);                                                                                   \
        static_assert(!PAIRS || R == ReduceType::SUM, "AscendC::" #NAME ": only ReduceType::SUM exists");      \
        __detail::blockred(dst, src,                                                                            \
                           __arc::plan_len(256 / sizeof(T), repeatTime, (uint64_t)mask, isSetMask, "AscendC::" #NAME), \
                           dstRepStride, srcBlkStride, srcRepStride, __detail::red_op<R>(), PAIRS, "AscendC::" #NAME); \
    }                                                                                                           \
    template <ReduceType R, typename T, typename U, bool isSetMask = true>                                      \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint64_t mask[],               \
                     const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,          \
                     const int32_t srcRepStride)                                                                \
    {                                                                                                           \
        ARC_RED_SAME_(#NAME);                                                                                   \
        static_assert(!PAIRS || R == ReduceType::SUM, "AscendC::" #NAME ": only ReduceType::SUM exists");      \
        __detail::blockred(dst, src, __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::" #NAME), \
                           dstRepStride, srcBlkStride, srcRepStride, __detail::red_op<R>(), PAIRS, "AscendC::" #NAME); \
    }
ARC_RED_BLOCKWISE_(ReduceDataBlock, false)
ARC_RED_BLOCKWISE_(ReducePairElem, true)
#undef ARC_RED_BLOCKWISE_
#undef ARC_RED_SAME_

template <typename T> inline T GetReduceRepeatSumSpr() { return GetAccVal<T>(); }
template <typename T> inline void GetReduceRepeatMaxMinSpr(T &maxMinValue, T &maxMinIndex)
{
    GetReduceMaxMinCount<T>(maxMinValue, maxMinIndex);
}
template <typename T> inline void GetReduceRepeatMaxMinSpr(T &maxMinValue) { GetReduceMaxMinCount<T>(maxMinValue); }
} // namespace AscendC

#endif /* ARC_REDUCE_NAMES_H_ */
