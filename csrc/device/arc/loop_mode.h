/* loop_mode.h - the data-copy loop mode of dav-3510 (SetLoopModePara /
 * ResetLoopModePara, LoopModeParams, DataCopyMVType) and DataCopyPad's
 * PaddingMode, as their pages define them.
 *
 * SetLoopModePara sets, for one path (GM -> UB or UB -> GM), two loops
 * around each later DataCopy / DataCopyPad on that path:
 *     for i2 in [0, loop2Size): for i1 in [0, loop1Size):
 *         the copy, src + i2 * loop2SrcStride + i1 * loop1SrcStride,
 *                   dst + i2 * loop2DstStride + i1 * loop1DstStride
 * (strides in bytes; the UB side's 32-byte aligned) until ResetLoopModePara.
 * The registers live in the core's slots (arc/state.h SLOT_LOOP), zero at a
 * launch: no loop.  A loop size of 0 (in range on the page, its meaning not
 * given) is refused at the copy rather than guessed. */
#ifndef ARC_LOOP_MODE_H_
#define ARC_LOOP_MODE_H_

#include "arc/tensor.h"

namespace AscendC {
/* DataCopyPad's layout of the UB side: Normal pads every block to 32
 * bytes; Compact (dav-3510) packs the blocks and pads once at the end. */
enum class PaddingMode : uint8_t { Normal = 0, Compact };
enum class DataCopyMVType : uint8_t { UB_TO_OUT = 0, OUT_TO_UB = 1 };
struct LoopModeParams {
    uint32_t loop1Size = 0;
    uint32_t loop2Size = 0;
    uint64_t loop1SrcStride = 0;
    uint64_t loop1DstStride = 0;
    uint64_t loop2SrcStride = 0;
    uint64_t loop2DstStride = 0;
};

namespace __detail {
constexpr uint64_t LOOP_ON = 1ull << 63, LOOP_SIZE_MAX = 1u << 21, LOOP_GM_MAX = 1ull << 40;

/* Slot of register r (0 sizes, 1 loop1 strides, 2 loop2 strides) of a path. */
inline unsigned long long &loop_slot(DataCopyMVType t, int r)
{
    return __arc_core()->dev[__arc::SLOT_LOOP + 3 * (int)t + r];
}
/* A loop's strides packed: the GM side's in bits 0-39, the UB side's above. */
inline uint64_t loop_pack(DataCopyMVType t, uint64_t src, uint64_t dst, const char *api, const char *which)
{
    uint64_t gm = t == DataCopyMVType::OUT_TO_UB ? src : dst, ub = t == DataCopyMVType::OUT_TO_UB ? dst : src;
    ARC_CHECK(gm < LOOP_GM_MAX, api, "%s's GM stride %llu bytes is not below 2^40", which, (unsigned long long)gm);
    ARC_CHECK(ub < LOOP_SIZE_MAX && ub % 32 == 0, api, "%s's UB stride %llu bytes is not a multiple of 32 below 2^21",
              which, (unsigned long long)ub);
    return gm | ub << 40;
}

/* Runs once(src_bytes, dst_bytes) for each iteration of the path's loops
 * and returns true, or returns false when no loop is set.  The registers
 * are cleared while it runs, so the copy it repeats runs once each time. */
template <class F> inline bool looped(DataCopyMVType t, const char *api, F once)
{
#if __NPU_ARCH__ == 3510
    const uint64_t sizes = loop_slot(t, 0), l1 = loop_slot(t, 1), l2 = loop_slot(t, 2);
    if (!(sizes & LOOP_ON)) return false;
    const uint32_t n1 = (uint32_t)(sizes % LOOP_SIZE_MAX), n2 = (uint32_t)(sizes / LOOP_SIZE_MAX % LOOP_SIZE_MAX);
    ARC_CHECK(n1 && n2, api, "the loop mode's loop1Size %u / loop2Size %u: a size of 0 is not simulated "
              "(the page does not say what it does)", n1, n2);
    const bool in = t == DataCopyMVType::OUT_TO_UB;
    auto gm = [](uint64_t v) { return v % LOOP_GM_MAX; };
    auto ub = [](uint64_t v) { return v / LOOP_GM_MAX; };
    const uint64_t s1 = in ? gm(l1) : ub(l1), d1 = in ? ub(l1) : gm(l1), s2 = in ? gm(l2) : ub(l2),
                   d2 = in ? ub(l2) : gm(l2);
    loop_slot(t, 0) = 0;
    for (uint32_t i2 = 0; i2 < n2; i2++)
        for (uint32_t i1 = 0; i1 < n1; i1++) once(i2 * s2 + i1 * s1, i2 * d2 + i1 * d1);
    loop_slot(t, 0) = sizes;
    return true;
#else
    (void)t, (void)api, (void)once;
    return false;
#endif
}
/* The tensors `bytes` further on (a UB offset is 32-byte aligned). */
template <typename T> inline GlobalTensor<T> gm_at(const GlobalTensor<T> &g, uint64_t bytes)
{
    GlobalTensor<T> r = g;
    r.addr_ = (T *)((uint8_t *)g.addr_ + bytes);
    return r;
}
template <typename T> inline LocalTensor<T> ub_at(const LocalTensor<T> &l, uint64_t bytes)
{
    return bytes ? l[(uint32_t)(bytes * __arc::packed_per_byte<T>::value / sizeof(T))] : l;
}
} // namespace __detail

#if __NPU_ARCH__ == 3510
inline void SetLoopModePara(const LoopModeParams &p, DataCopyMVType type)
{
    const char *api = "AscendC::SetLoopModePara";
    ARC_CHECK(p.loop1Size < __detail::LOOP_SIZE_MAX && p.loop2Size < __detail::LOOP_SIZE_MAX, api,
              "loop1Size %u / loop2Size %u: each must be below 2^21", p.loop1Size, p.loop2Size);
    __detail::loop_slot(type, 1) = __detail::loop_pack(type, p.loop1SrcStride, p.loop1DstStride, api, "loop1");
    __detail::loop_slot(type, 2) = __detail::loop_pack(type, p.loop2SrcStride, p.loop2DstStride, api, "loop2");
    __detail::loop_slot(type, 0) = __detail::LOOP_ON | p.loop1Size | (uint64_t)p.loop2Size << 21;
}
inline void ResetLoopModePara(DataCopyMVType type)
{
    for (int r = 0; r < 3; r++) __detail::loop_slot(type, r) = 0;
}
#endif
} // namespace AscendC

#endif /* ARC_LOOP_MODE_H_ */
