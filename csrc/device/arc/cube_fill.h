/* cube_fill.h - Fill (formerly InitConstValue): set runs of blocks of an L1,
 * L0A or L0B tensor to one value (asc-devkit docs, Fill: L1 blocks of 32 B
 * on MTE2, L0A/L0B blocks of 512 B on MTE1, 512-byte aligned). */
#ifndef ARC_CUBE_FILL_H_
#define ARC_CUBE_FILL_H_

#include "arc/cube_load.h"

namespace AscendC {
namespace __cube {
template <typename T, typename U>
inline void fill_blocks(const LocalTensor<T> &dst, const InitConstValueParams<U> &p, const char *api)
{
    static_assert(__arc::is_same<T, U>::value, "Fill: the value's type U must be dst's type T");
    __arc_uses(ARC_USES_CUBE);
    TPosition dp = where(dst);
    bool l0 = dp == TPosition::A2 || dp == TPosition::B2;
    ARC_CHECK(l0 || dp == TPosition::A1 || dp == TPosition::B1, api,
              "dst is a %s tensor; Fill initialises L1 (A1, B1), L0A (A2) or L0B (B2)", pos_str(dst.pos_));
    ARC_CHECK(p.repeatTimes <= 32767 && p.blockNum <= 32767 && p.dstGap <= 32767, api,
              "repeatTimes %u, blockNum %u, dstGap %u: each must be at most 32767", (unsigned)p.repeatTimes,
              (unsigned)p.blockNum, (unsigned)p.dstGap);
    if (p.repeatTimes == 0 || p.blockNum == 0) return; /* a NOP, as the docs say */
    const uint64_t blk = l0 ? 512 : 32;
    uint64_t bytes = ((uint64_t)(p.repeatTimes - 1) * (p.blockNum + p.dstGap) + p.blockNum) * blk;
    check_operand(dst, dp, bytes, api, "dst");
    __arc::race(l0 ? __arc::RP_MTE1 : __arc::RP_MTE2, p.repeatTimes > 1 && p.dstGap ? 1 | ARC_RACE_SPARSE : 1,
                dst.addr_, bytes, api);
    const uint64_t per = blk / sizeof(T);
    for (uint32_t r = 0; r < p.repeatTimes; r++) {
        T *d = dst.addr_ + (uint64_t)r * (p.blockNum + p.dstGap) * per;
        for (uint64_t i = 0; i < (uint64_t)p.blockNum * per; i++) d[i] = p.initValue;
    }
    if (l0) {
        uint32_t f = frac_of(dst.addr_, dp, 512);
        for (uint32_t r = 0; r < p.repeatTimes; r++) __arc::frac_mark(l0_bits(dp), f + r * (p.blockNum + p.dstGap), p.blockNum);
    }
}
} // namespace __cube

/* U defaults to T: a braced list ({rep, blocks, gap, value}) deduces nothing. */
template <typename T, typename U = T> inline void Fill(const LocalTensor<T> &dst, const InitConstValueParams<U> &p)
{
    __cube::fill_blocks(dst, p, "AscendC::Fill");
}
/* The name before Fill (the docs' API change list: InitConstValue -> Fill). */
template <typename T, typename U = T> inline void InitConstValue(const LocalTensor<T> &dst, const InitConstValueParams<U> &p)
{
    __cube::fill_blocks(dst, p, "AscendC::InitConstValue");
}
} // namespace AscendC

#endif /* ARC_CUBE_FILL_H_ */
