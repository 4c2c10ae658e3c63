/* scalar_bits.h - the scalar bit queries of the basic API, as their pages
 * define them, under their names and the older ones CANN's op libraries
 * still call (the pages' rename table): CountLeadingZero
 * (ScalarCountLeadingZero), GetBitCount<v> (ScalarGetCountOfValue<v>),
 * GetSFFValue<v> (ScalarGetSFFValue<v>), CountBitsCntSameAsSignBit. */
#ifndef ARC_SCALAR_BITS_H_
#define ARC_SCALAR_BITS_H_

#include <cstdint>

namespace AscendC {
/* The zero bits above the highest set bit of a uint64_t; 64 for 0. */
__attribute__((always_inline)) constexpr int64_t CountLeadingZero(uint64_t valueIn)
{
    return valueIn ? __builtin_clzll(valueIn) : 64;
}
/* How many bits of valueIn are countValue (0 or 1). */
template <int countValue> __attribute__((always_inline)) constexpr int64_t GetBitCount(uint64_t valueIn)
{
    static_assert(countValue == 0 || countValue == 1, "AscendC::GetBitCount: countValue is 0 or 1");
    return countValue ? __builtin_popcountll(valueIn) : 64 - __builtin_popcountll(valueIn);
}
/* The position of the lowest bit that is countValue; -1 if none. */
template <int countValue> __attribute__((always_inline)) constexpr int64_t GetSFFValue(uint64_t valueIn)
{
    static_assert(countValue == 0 || countValue == 1, "AscendC::GetSFFValue: countValue is 0 or 1");
    uint64_t v = countValue ? valueIn : ~valueIn;
    return v ? __builtin_ctzll(v) : -1;
}
/* The consecutive bits below the sign bit that equal it; -1 for 0 and -1. */
__attribute__((always_inline)) constexpr int64_t CountBitsCntSameAsSignBit(int64_t valueIn)
{
    uint64_t v = (uint64_t)valueIn;
    uint64_t x = (v ^ (v << 1)) | 1; /* bit i+1 set where bit i differs from bit i+1 */
    return valueIn == 0 || valueIn == -1 ? -1 : __builtin_clzll(x);
}
__attribute__((always_inline)) constexpr int64_t ScalarCountLeadingZero(uint64_t valueIn) { return CountLeadingZero(valueIn); }
template <int countValue> __attribute__((always_inline)) constexpr int64_t ScalarGetCountOfValue(uint64_t valueIn)
{
    return GetBitCount<countValue>(valueIn);
}
template <int countValue> __attribute__((always_inline)) constexpr int64_t ScalarGetSFFValue(uint64_t valueIn)
{
    return GetSFFValue<countValue>(valueIn);
}
} // namespace AscendC

#endif /* ARC_SCALAR_BITS_H_ */
