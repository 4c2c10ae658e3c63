/* misc.h - data rearrangement: Copy (UB->UB level-0), Brcb (broadcast 8
 * elements per repeat to 8 blocks), TransDataTo5HD (16x16 transposes of
 * b16 data given 16 source and 16 destination addresses). */
#ifndef ARC_MISC_H_
#define ARC_MISC_H_

#include "arc/vec_unary.h"

namespace AscendC {
struct CopyRepeatParams {
    uint16_t dstStride = 1, srcStride = 1;
    uint16_t dstRepeatSize = 8, srcRepeatSize = 8;
    CopyRepeatParams() = default;
    CopyRepeatParams(uint16_t ds, uint16_t ss, uint16_t dr, uint16_t sr)
        : dstStride(ds), srcStride(ss), dstRepeatSize(dr), srcRepeatSize(sr) {}
};
struct BrcbRepeatParams {
    uint16_t dstBlkStride = 1;
    uint16_t dstRepStride = 8;
    BrcbRepeatParams() = default;
    BrcbRepeatParams(uint16_t b, uint16_t r) : dstBlkStride(b), dstRepStride(r) {}
};
struct TransDataTo5HDParams {
    bool dstHighHalf = false, srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0, srcRepStride = 0;
    TransDataTo5HDParams() = default;
    TransDataTo5HDParams(bool dh, bool sh, uint8_t rep, uint16_t dr, uint16_t sr)
        : dstHighHalf(dh), srcHighHalf(sh), repeatTimes(rep), dstRepStride(dr), srcRepStride(sr) {}
};

namespace __detail {
template <typename T>
inline void copy_l0(const LocalTensor<T> &dst, const LocalTensor<T> &src, const __arc::Plan &p, const CopyRepeatParams &cp)
{
    const char *api = "AscendC::Copy";
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "AscendC::Copy supports 16- and 32-bit types");
    __arc::Opnd od = __arc::opnd<T>(cp.dstStride, cp.dstRepeatSize), os = __arc::opnd<T>(cp.srcStride, cp.srcRepeatSize);
    __arc::check_l0(dst, p, od, api, "dst");
    __arc::check_l0(src, p, os, api, "src");
    __arc::lanes(p, [&](uint32_t r, uint32_t l) { dst.addr_[__arc::off(od, r, l)] = src.addr_[__arc::off(os, r, l)]; });
}
} // namespace __detail
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask, const uint8_t repeatTime,
                 const CopyRepeatParams &cp)
{
    __detail::copy_l0(dst, src, __arc::plan_len(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::Copy"), cp);
}
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[], const uint8_t repeatTime,
                 const CopyRepeatParams &cp)
{
    __detail::copy_l0(dst, src, __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::Copy"), cp);
}

/* Repeat r: src[8r..8r+7]; element j fills block (r*dstRepStride + j*dstBlkStride). */
template <typename T>
inline void Brcb(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint8_t repeatTime, const BrcbRepeatParams &bp)
{
    __arc_uses(ARC_USES_VEC);
    const char *api = "AscendC::Brcb";
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "AscendC::Brcb supports 16- and 32-bit types");
#ifndef ASCENDRTC_NPU_SEMANTICS
    /* Compiled once in the runtime (rt/services/brcb.c): same checks and copies. */
    __arc_brcb(dst.addr_, dst.bytes_, src.addr_, src.bytes_, repeatTime, bp.dstBlkStride, bp.dstRepStride,
               (unsigned)sizeof(T), __arc::tname<T>());
    return;
#endif
    const uint32_t epb = 32 / sizeof(T);
    if (repeatTime) { /* dst written on PIPE_V, reported first as in rt/services/brcb.c */
        uint64_t b = ((uint64_t)(repeatTime - 1) * bp.dstRepStride + 7ull * bp.dstBlkStride + 1) * 32;
        __arc::cost_esize<T>();
        __arc::race(__arc::RP_V, bp.dstBlkStride == 1 && (repeatTime == 1 || bp.dstRepStride == 8) ? 2 : 2 | ARC_RACE_SPARSE,
                    dst.addr_, b < dst.bytes_ ? b : dst.bytes_, api);
    }
    __arc::check_cnt(src, (int64_t)repeatTime * 8, api, "src");
    ARC_CHECK_ALIGN32(dst.addr_, api, "dst");
    ARC_CHECK(dst.addr_ != src.addr_, api, "dst and src must not be the same tensor");
    if (repeatTime == 0) return;
    uint64_t ext = ((uint64_t)(repeatTime - 1) * bp.dstRepStride + 7ull * bp.dstBlkStride + 1) * epb;
    ARC_CHECK(ext * sizeof(T) <= dst.bytes_, api, "dst: %u repeats reach element %llu, the tensor has %u",
              (unsigned)repeatTime, (unsigned long long)ext, dst.GetSize());
    for (uint32_t r = 0; r < repeatTime; r++)
        for (uint32_t j = 0; j < 8; j++) {
            T v = src.addr_[r * 8 + j];
            T *d = dst.addr_ + ((uint64_t)r * bp.dstRepStride + (uint64_t)j * bp.dstBlkStride) * epb;
            for (uint32_t e = 0; e < epb; e++) d[e] = v;
        }
}

/* Advanced-API broadcast: dim 1 fills dst with src[0]; dim 2 repeats a
 * (1, n) row over m rows (axis 0) or spreads an (m, 1) column over n
 * columns (axis 1).  The tmp buffer forms are accepted and unused. */
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim])
{
    static_assert(dim == 1 || dim == 2, "AscendC::BroadCast supports dim 1 and 2");
    static_assert(axis == 0 || axis == 1, "AscendC::BroadCast: axis is 0 or 1");
    const char *api = "AscendC::BroadCast";
    if constexpr (dim == 1) {
        __arc::check_cnt(dst, dstShape[0], api, "dst");
        ARC_CHECK(srcShape[0] == 1 || srcShape[0] == dstShape[0], api, "src shape [%u] does not broadcast to [%u]",
                  srcShape[0], dstShape[0]);
        for (uint32_t i = 0; i < dstShape[0]; i++) dst.addr_[i] = src.addr_[srcShape[0] == 1 ? 0 : i];
    } else {
        const uint32_t m = dstShape[0], n = dstShape[1];
        __arc::check_cnt(dst, (int64_t)m * n, api, "dst");
        if (axis == 0) {
            ARC_CHECK(srcShape[0] == 1 && srcShape[1] == n, api, "src shape [%u, %u] does not broadcast to [%u, %u] on axis 0",
                      srcShape[0], srcShape[1], m, n);
            __arc::check_cnt(src, n, api, "src");
            for (uint32_t r = 0; r < m; r++)
                for (uint32_t c = 0; c < n; c++) dst.addr_[(uint64_t)r * n + c] = src.addr_[c];
        } else {
            ARC_CHECK(srcShape[0] == m && srcShape[1] == 1, api, "src shape [%u, %u] does not broadcast to [%u, %u] on axis 1",
                      srcShape[0], srcShape[1], m, n);
            __arc::check_cnt(src, m, api, "src");
            for (uint32_t r = 0; r < m; r++)
                for (uint32_t c = 0; c < n; c++) dst.addr_[(uint64_t)r * n + c] = src.addr_[r];
        }
    }
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], const LocalTensor<uint8_t> &)
{
    BroadCast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false, typename... A>
inline void Broadcast(const LocalTensor<T> &dst, const LocalTensor<T> &src, A... a)
{
    BroadCast<T, dim, axis, isReuseSource>(dst, src, a...);
}

/* Print the first n elements of a tensor with a tag (debugging aid). */
template <typename T> inline void DumpTensor(const LocalTensor<T> &t, uint32_t desc, uint32_t n)
{
    uint32_t m = n < t.GetSize() ? n : t.GetSize();
    __arc_printf("DumpTensor: desc=%u, %u elements of %s:", desc, m, __arc::tname<T>());
    for (uint32_t i = 0; i < m; i++) {
        if constexpr (__arc::is_float_v<T>) __arc_printf(" %g", (double)(float)t.addr_[i]);
        else __arc_printf(" %lld", (long long)t.addr_[i]);
    }
    __arc_printf("\n");
}
template <typename T> inline void DumpTensor(const GlobalTensor<T> &t, uint32_t desc, uint32_t n)
{
    LocalTensor<T> l(t.addr_, n * (uint32_t)sizeof(T), TPosition::GM);
    DumpTensor(l, desc, n);
}
inline void SetSaturationFlag(bool) {}

/* b16: per repeat, dst_i[j] = src_j[i] for the 16 x 16 block formed by 16
 * rows of 16 elements; addresses advance by the repeat strides (32-byte
 * blocks).  b32: 16 rows of 8 elements, dst_i (i < 8) as 2 x 8 pairs;
 * b8: 16 rows of 32 bytes, the high/low half selects dst/src halves. */
template <typename T>
inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[16], const LocalTensor<T> (&srcList)[16],
                           const TransDataTo5HDParams &tp)
{
    uint64_t d[16], s[16];
    for (int i = 0; i < 16; i++) {
        d[i] = (uint64_t)(uintptr_t)dstList[i].addr_;
        s[i] = (uint64_t)(uintptr_t)srcList[i].addr_;
    }
    TransDataTo5HD<T>(d, s, tp);
}
template <typename T>
inline void TransDataTo5HD(const uint64_t dstList[16], const uint64_t srcList[16], const TransDataTo5HDParams &tp)
{
    const char *api = "AscendC::TransDataTo5HD";
    for (int i = 0; i < 16; i++) {
        ARC_CHECK_ALIGN32((void *)(uintptr_t)dstList[i], api, "dstList entry");
        ARC_CHECK_ALIGN32((void *)(uintptr_t)srcList[i], api, "srcList entry");
    }
    for (uint32_t r = 0; r < tp.repeatTimes; r++) {
        uint64_t doff = (uint64_t)r * tp.dstRepStride * 32, soff = (uint64_t)r * tp.srcRepStride * 32;
        if constexpr (sizeof(T) == 2) {
            uint16_t tmp[16][16];
            for (int j = 0; j < 16; j++) __builtin_memcpy(tmp[j], (const void *)(uintptr_t)(srcList[j] + soff), 32);
            for (int i = 0; i < 16; i++) {
                uint16_t *o = (uint16_t *)(uintptr_t)(dstList[i] + doff);
                for (int j = 0; j < 16; j++) o[j] = tmp[j][i];
            }
        } else if constexpr (sizeof(T) == 4) {
            /* 16 rows x 8 elements -> element i of every row goes to
             * dst 2i (rows 0..7) and 2i+1 (rows 8..15). */
            uint32_t tmp[16][8];
            for (int j = 0; j < 16; j++) __builtin_memcpy(tmp[j], (const void *)(uintptr_t)(srcList[j] + soff), 32);
            for (int i = 0; i < 8; i++) {
                uint32_t *o0 = (uint32_t *)(uintptr_t)(dstList[2 * i] + doff);
                uint32_t *o1 = (uint32_t *)(uintptr_t)(dstList[2 * i + 1] + doff);
                for (int j = 0; j < 8; j++) { o0[j] = tmp[j][i]; o1[j] = tmp[8 + j][i]; }
            }
        } else {
            /* b8: 16 rows x 32 bytes; the selected 16-byte half of the
             * transposed 32 x 16 data lands in each dst half. */
            uint8_t tmp[16][32];
            for (int j = 0; j < 16; j++) __builtin_memcpy(tmp[j], (const void *)(uintptr_t)(srcList[j] + soff), 32);
            int sh = tp.srcHighHalf ? 16 : 0, dh = tp.dstHighHalf ? 16 : 0;
            for (int i = 0; i < 16; i++) {
                uint8_t *o = (uint8_t *)(uintptr_t)(dstList[i] + doff) + dh;
                for (int j = 0; j < 16; j++) o[j] = tmp[j][sh + i];
            }
        }
    }
}
} // namespace AscendC

#endif /* ARC_MISC_H_ */
