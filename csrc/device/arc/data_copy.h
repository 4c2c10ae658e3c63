/* data_copy.h - DataCopy (count and DataCopyParams forms, GM<->UB, UB->UB),
 * DataCopyPad (new Ext params and old DataCopyPadParams; GM strides and
 * block lengths in bytes, UB strides in 32-byte blocks, each UB block
 * padded to 32 bytes), SetPadValue and InitGlobalMemory.
 *
 * The count form's length must be a multiple of 32 bytes: the CPU twin
 * stops; with -DASCENDRTC_NPU_SEMANTICS it is rounded down like the NPU.
 * GM <-> UB copies repeat over the loop mode SetLoopModePara sets (dav-3510,
 * arc/loop_mode.h). */
#ifndef ARC_DATA_COPY_H_
#define ARC_DATA_COPY_H_

#include "arc/tensor.h"
#include "arc/atomic.h"
#include "arc/loop_mode.h" /* SetLoopModePara, PaddingMode */

namespace AscendC {

struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    union { uint16_t srcStride = 0; uint16_t srcGap; };
    union { uint16_t dstStride = 0; uint16_t dstGap; };
    DataCopyParams() = default;
    DataCopyParams(uint16_t count, uint16_t len, uint16_t srcStrideIn, uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
};
struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    DataCopyExtParams() = default;
    /* All five fields, as CANN declares it: a 4-element braced list then
     * means DataCopyParams, so DataCopyPad(..., {1, len, 1, 1}) resolves. */
    DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcStrideIn, uint32_t dstStrideIn, uint32_t rsvIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
};
template <typename T> struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = T(0);
    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(bool isPadIn, uint8_t l, uint8_t r, T v)
        : isPad(isPadIn), leftPadding(l), rightPadding(r), paddingValue(v) {}
};
struct DataCopyPadParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
    DataCopyPadParams() = default;
    DataCopyPadParams(bool isPadIn, uint8_t l, uint8_t r, uint64_t v)
        : isPad(isPadIn), leftPadding(l), rightPadding(r), paddingValue(v) {}
};
enum class BlockMode : uint8_t {
    BLOCK_MODE_NORMAL = 0, BLOCK_MODE_MATRIX, BLOCK_MODE_VECTOR, BLOCK_MODE_SMALL_CHANNEL, BLOCK_MODE_DEPTHWISE
};
struct DataCopyEnhancedParams {
    BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
    int deqScale = 0;
    uint64_t deqValue = 0;
    uint8_t sidStoreMode = 0;
    bool isRelu = false;
    int padMode = 0;
};

namespace __detail {
/* How this kernel was compiled, for the runtime's DataCopy checks
 * (core_abi.h arc_dc_mode; they live in rt/services/data_copy.c). */
inline constexpr arc_dc_mode dc_mode = {
#ifdef ASCENDRTC_NPU_SEMANTICS
    ARC_DC_NPU |
#endif
#ifdef ASCENDRTC_NO_GM_CHECKS
    ARC_DC_NO_GM |
#endif
    0, ARC_LIMIT_WHAT};
/* A copy to or from local memory in a file's AIV pass (rtc/core_pass.h):
 * the local side can only be UB, so the copy is vector-core work (the
 * AIV's MTE2/MTE3) that CANN's compiler finds in the vector binary; with
 * cube work in the AIC pass the kernel is MIX.  Elsewhere the local side
 * may be L1: the copy alone decides nothing. */
inline void uses_ub()
{
#if defined(__ARC_CORE_PASS__) && __ARC_CORE_PASS__ == 2
    __arc_uses(ARC_USES_VEC);
#endif
}
/* A local operand of `bytes`.  sparse: bytes is the hull of strided runs
 * (the race check's within-pipe analysis cannot tell which bytes of it the
 * copy really touches).  "dst (local)...": GM -> local on MTE2; "src
 * (local)...": local -> GM on MTE3; "dst"/"src" alone: local -> local on
 * the vector pipe. */
template <typename T>
inline void check_local(const LocalTensor<T> &t, uint64_t bytes, const char *api, const char *what, bool sparse = false)
{
    uses_ub();
    bool gm = what[3] == ' ' && what[4] == '(', dst = what[0] == 'd';
    __arc_dc_local_check(t.addr_, __arc::span_limit(t.addr_, t.bytes_), bytes, (unsigned)sizeof(T), __arc::tname<T>(),
                         api, what, gm ? (dst ? __arc::RP_MTE2 : __arc::RP_MTE3) : __arc::RP_V,
                         (int)dst | (sparse ? ARC_RACE_SPARSE : 0), &dc_mode);
}
/* The sanitizer's view of a GlobalTensor for the count form: its offset
 * from SetGlobalBuffer's address and its size (0: nothing to check). */
template <typename T> inline long long view_lo(const GlobalTensor<T> &g)
{
    return (long long)(g.addr_ - g.base_);
}
template <typename T> inline unsigned long long view_size(const GlobalTensor<T> &g)
{
#ifdef ASCENDRTC_SANITIZER
    constexpr uint32_t per = __arc::packed_per_byte<T>::value; /* a packed type's view in bytes, as view_lo */
    return (g.size_ + per - 1) / per;
#else
    (void)g;
    return 0;
#endif
}
/* The GM side of a copy for the cross-core race check: n runs of len
 * bytes, len + gap apart; a copy out combines under the atomic mode. */
inline void gm_in(const void *p, uint64_t n, uint64_t len, uint64_t gap, const char *api)
{
    __arc::race_gm(ARC_GM_READ, __arc::RP_MTE2, p, n, len, len + gap, api);
}
/* src: the local data of the runs, sstride bytes apart.  Under
 * SetAtomicAdd an element that adds zero changes nothing, so zero elements
 * at either end of a run are not part of the access (a padded row's tail
 * spilling into the next block's range races with nothing). */
template <typename T>
inline void gm_out(const T *p, uint64_t n, uint64_t len, uint64_t gap, const T *src, uint64_t sstride, const char *api)
{
    if (!__arc::race_gm_on()) return;
    int op = (int)__arc_core()->dev[__arc::SLOT_ATOMIC];
    if (op != __arc::ATOMIC_ADD) {
        __arc::race_gm(op ? ARC_GM_ATOMIC : ARC_GM_WRITE, __arc::RP_MTE3, p, n, len, len + gap, api);
        return;
    }
    for (uint64_t i = 0; i < n; i++) {
        const uint8_t *s = (const uint8_t *)src + i * sstride;
        auto zero = [s](uint64_t k) {
            for (size_t j = 0; j < sizeof(T); j++)
                if (s[k * sizeof(T) + j]) return false;
            return true;
        };
        uint64_t lo = 0, hi = len / sizeof(T);
        while (lo < hi && zero(lo)) lo++;
        while (hi > lo && zero(hi - 1)) hi--;
        if (hi > lo)
            __arc_race_gm(ARC_GM_ATOMIC, __arc::RP_MTE3, (const uint8_t *)p + i * (len + gap) + lo * sizeof(T),
                          (hi - lo) * sizeof(T), api);
    }
}
/* Blocked copy: n blocks of len bytes, strides are gaps between blocks. */
inline void copy_blocks(uint8_t *dst, const uint8_t *src, uint32_t n, uint64_t len, uint64_t sgap, uint64_t dgap)
{
    for (uint32_t b = 0; b < n; b++)
        __arc::copy_bytes(dst + b * (len + dgap), src + b * (len + sgap), len);
}
template <typename T>
inline void store_blocks(T *dst, const T *src, uint32_t n, uint64_t len, uint64_t sgap, uint64_t dgap)
{
    for (uint32_t b = 0; b < n; b++)
        __arc::store_gm((T *)((uint8_t *)dst + b * (len + dgap)), (const T *)((const uint8_t *)src + b * (len + sgap)),
                        len / sizeof(T));
}
static inline void check_params(const DataCopyParams &p, const char *api)
{
    ARC_CHECK(p.blockCount <= 4095, api, "blockCount %u exceeds 4095", (unsigned)p.blockCount);
}
} // namespace __detail

/* ---- DataCopy, count form: all of it in the runtime (rt/services/data_copy.c) ---- */
namespace __detail {
/* The count the runtime moves: a packed type's elements as whole bytes
 * (named as such in its messages); others unchanged. */
template <typename T> inline uint32_t dc_count(uint32_t count)
{
    constexpr uint32_t per = __arc::packed_per_byte<T>::value;
    if constexpr (per > 1)
        ARC_CHECK(count % per == 0, "AscendC::DataCopy", "count %u of %s is not a whole number of bytes (%u per byte)",
                  count, __arc::tname<T>(), per);
    return count / per;
}
template <typename T> constexpr const char *dc_name()
{
    return __arc::packed_per_byte<T>::value > 1 ? "bytes of packed int4b_t/int2b_t" : __arc::tname<T>();
}
} // namespace __detail
template <typename T> inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t count)
{
    if (__detail::looped(DataCopyMVType::OUT_TO_UB, "AscendC::DataCopy", [&](uint64_t s, uint64_t d) {
            DataCopy(__detail::ub_at(dst, d), __detail::gm_at(src, s), count);
        }))
        return;
    __detail::uses_ub();
    __arc_dc_in((void *)dst.addr_, __arc::span_limit(dst.addr_, dst.bytes_), (const void *)src.addr_,
                __detail::view_lo(src), __detail::view_size(src), __detail::dc_count<T>(count), (unsigned)sizeof(T),
                __detail::dc_name<T>(), &__detail::dc_mode);
}
template <typename T> inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count)
{
    if (__detail::looped(DataCopyMVType::UB_TO_OUT, "AscendC::DataCopy", [&](uint64_t s, uint64_t d) {
            DataCopy(__detail::gm_at(dst, d), __detail::ub_at(src, s), count);
        }))
        return;
    __detail::uses_ub();
    count = __detail::dc_count<T>(count);
    if (int op = __arc_dc_out((void *)dst.addr_, __detail::view_lo(dst), __detail::view_size(dst),
                              (const void *)src.addr_, __arc::span_limit(src.addr_, src.bytes_), &count,
                              (unsigned)sizeof(T), __detail::dc_name<T>(), &__detail::dc_mode))
        __arc::store_atomic(dst.addr_, src.addr_, count, op);
}
template <typename T> inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count)
{
    __detail::uses_ub();
    __arc_dc_local((void *)dst.addr_, __arc::span_limit(dst.addr_, dst.bytes_), (const void *)src.addr_,
                   __arc::span_limit(src.addr_, src.bytes_), __detail::dc_count<T>(count), (unsigned)sizeof(T),
                   __detail::dc_name<T>(), &__detail::dc_mode);
}

/* ---- DataCopy, DataCopyParams form: lengths and strides in 32-byte blocks ---- */
template <typename T> inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &p)
{
    const char *api = "AscendC::DataCopy";
    if (__detail::looped(DataCopyMVType::OUT_TO_UB, api, [&](uint64_t s, uint64_t d) {
            DataCopy(__detail::ub_at(dst, d), __detail::gm_at(src, s), p);
        }))
        return;
    __detail::check_params(p, api);
    if (p.blockCount == 0 || p.blockLen == 0) return;
    uint64_t len = (uint64_t)p.blockLen * 32;
    __detail::check_local(dst, (p.blockCount - 1) * (len + p.dstStride * 32ull) + len, api, "dst (local) extent",
                          p.blockCount > 1 && p.dstStride);
    src.check_range(0, ((p.blockCount - 1) * (len + p.srcStride * 32ull) + len) / sizeof(T), api);
    __detail::gm_in(src.addr_, p.blockCount, len, p.srcStride * 32ull, api);
    __detail::copy_blocks((uint8_t *)dst.addr_, (const uint8_t *)src.addr_, p.blockCount, len, p.srcStride * 32ull,
                          p.dstStride * 32ull);
}
template <typename T> inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p)
{
    const char *api = "AscendC::DataCopy";
    if (__detail::looped(DataCopyMVType::UB_TO_OUT, api, [&](uint64_t s, uint64_t d) {
            DataCopy(__detail::gm_at(dst, d), __detail::ub_at(src, s), p);
        }))
        return;
    __detail::check_params(p, api);
    if (p.blockCount == 0 || p.blockLen == 0) return;
    uint64_t len = (uint64_t)p.blockLen * 32;
    __detail::check_local(src, (p.blockCount - 1) * (len + p.srcStride * 32ull) + len, api, "src (local) extent",
                          p.blockCount > 1 && p.srcStride);
    dst.check_range(0, ((p.blockCount - 1) * (len + p.dstStride * 32ull) + len) / sizeof(T), api);
    __detail::gm_out<T>(dst.addr_, p.blockCount, len, p.dstStride * 32ull, src.addr_, len + p.srcStride * 32ull, api);
    __detail::store_blocks(dst.addr_, src.addr_, p.blockCount, len, p.srcStride * 32ull, p.dstStride * 32ull);
}
template <typename T> inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p)
{
    const char *api = "AscendC::DataCopy";
    if (dst.pos_ == TPosition::C2) { /* L1 -> BiasTable: 64-byte units (arc/cube_load.h) */
        if constexpr (sizeof(T) == 4) __cube_copy_to_bt(dst, src, p);
        else __arc_trap(api, "the BiasTable (C2) holds float or int32_t, not %s", __arc::tname<T>());
        return;
    }
    if (dst.pos_ == TPosition::C2PIPE2GM) { /* L1 -> Fixpipe buffer: 128-byte units (arc/cube_load.h) */
        if constexpr (__arc::is_same<T, uint64_t>::value) __cube_copy_to_fb(dst, src, p);
        else __arc_trap(api, "the Fixpipe buffer (C2PIPE2GM) takes uint64_t quantisation words, not %s",
                        __arc::tname<T>());
        return;
    }
    __detail::check_params(p, api);
    if (p.blockCount == 0 || p.blockLen == 0) return;
    uint64_t len = (uint64_t)p.blockLen * 32;
    __detail::check_local(dst, (p.blockCount - 1) * (len + p.dstStride * 32ull) + len, api, "dst extent",
                          p.blockCount > 1 && p.dstStride);
    __detail::check_local(src, (p.blockCount - 1) * (len + p.srcStride * 32ull) + len, api, "src extent",
                          p.blockCount > 1 && p.srcStride);
    __detail::copy_blocks((uint8_t *)dst.addr_, (const uint8_t *)src.addr_, p.blockCount, len, p.srcStride * 32ull,
                          p.dstStride * 32ull);
}
template <typename T, typename E>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &p, const E &)
{
    DataCopy(dst, src, p);
}
template <typename T, typename E>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p, const E &)
{
    DataCopy(dst, src, p);
}

/* ---- DataCopyPad ---- */
template <typename T> inline void SetPadValue(T v)
{
    uint64_t b = 0;
    __builtin_memcpy(&b, &v, sizeof(T));
    __arc_core()->dev[__arc::SLOT_PADVAL] = b;
    __arc_core()->dev[__arc::SLOT_PADVAL_SET] = 1;
}

namespace __detail {
/* GM -> UB: each block is blockLen bytes in GM (gaps srcGap bytes), lands
 * in UB with leftPad elements before it and is padded to 32 bytes; UB
 * blocks are dstGap 32-byte blocks apart.  Compact: the blocks land back to
 * back and only the last is padded to 32 bytes (dstGap and the paddings do
 * not apply, as the page says). */
template <typename T>
inline void pad_in(const LocalTensor<T> &dst, const T *src, uint32_t n, uint32_t len, uint64_t sgap, uint64_t dgap_blk,
                   bool isPad, uint32_t lpad, uint32_t rpad, T padv, const char *api, bool compact = false)
{
    ARC_CHECK(len % sizeof(T) == 0, api, "blockLen %u bytes is not a multiple of sizeof(%s) = %u", len,
              __arc::tname<T>(), (unsigned)sizeof(T));
    ARC_CHECK(lpad * sizeof(T) <= 32 && rpad * sizeof(T) <= 32, api,
              "padding of %u left / %u right elements exceeds 32 bytes per side", lpad, rpad);
    /* A packed type (int4b_t) moves whole bytes; its element padding is not
     * described for sub-byte elements. */
    ARC_CHECK(__arc::packed_per_byte<T>::value == 1 || (lpad == 0 && rpad == 0), api,
              "leftPadding %u / rightPadding %u of %s: padding of packed sub-byte elements is not simulated", lpad,
              rpad, __arc::tname<T>());
    if (n == 0 || len == 0) return;
    if (compact) lpad = rpad = 0, dgap_blk = 0;
    uint64_t ublk = ((uint64_t)lpad * sizeof(T) + len + rpad * sizeof(T) + 31) & ~31ull;
    uint64_t ustride = ublk + dgap_blk * 32;
    check_local(dst, compact ? ((uint64_t)n * len + 31) & ~31ull : (n - 1) * ustride + ublk, api, "dst (local) extent",
                n > 1 && dgap_blk);
    gm_in(src, n, len, sgap, api);
    uint32_t ne = len / (uint32_t)sizeof(T);
    uint32_t nb = (uint32_t)(ublk / sizeof(T));
    bool have = __arc_core()->dev[__arc::SLOT_PADVAL_SET] != 0;
    T fill = padv;
    if (!isPad && have) {
        uint64_t b = __arc_core()->dev[__arc::SLOT_PADVAL];
        __builtin_memcpy(&fill, &b, sizeof(T));
    }
    if (compact) {
        for (uint32_t b = 0; b < n; b++)
            __arc::copy_bytes((void *)(dst.addr_ + (uint64_t)b * ne), (const void *)((const uint8_t *)src + b * (len + sgap)), len);
        T f = (isPad || have) ? fill : src[0];
        for (uint64_t i = (uint64_t)n * ne; i < (((uint64_t)n * len + 31) & ~31ull) / sizeof(T); i++) dst.addr_[i] = f;
        return;
    }
    for (uint32_t b = 0; b < n; b++) {
        T *u = (T *)((uint8_t *)dst.addr_ + b * ustride);
        const T *g = (const T *)((const uint8_t *)src + b * (len + sgap));
        __arc::copy_bytes((void *)(u + lpad), (const void *)g, len);
        T f = (isPad || have) ? fill : g[0];
        for (uint32_t i = 0; i < lpad; i++) u[i] = f;
        for (uint32_t i = lpad + ne; i < nb; i++) u[i] = f;
    }
}
/* UB -> GM: writes exactly blockLen bytes per block; the UB blocks are
 * 32-byte aligned, or back to back in Compact mode. */
template <typename T>
inline void pad_out(T *dst, const LocalTensor<T> &src, uint32_t n, uint32_t len, uint64_t sgap_blk, uint64_t dgap,
                    const char *api, bool compact = false)
{
    ARC_CHECK(len % sizeof(T) == 0, api, "blockLen %u bytes is not a multiple of sizeof(%s) = %u", len,
              __arc::tname<T>(), (unsigned)sizeof(T));
    ARC_CHECK(!compact || sgap_blk == 0, api, "srcStride %llu in Compact mode: the page does not say how it applies",
              (unsigned long long)sgap_blk);
    if (n == 0 || len == 0) return;
    uint64_t ublk = compact ? len : ((uint64_t)len + 31) & ~31ull;
    uint64_t ustride = ublk + sgap_blk * 32;
    check_local(src, (n - 1) * ustride + len, api, "src (local) extent", n > 1 && sgap_blk);
    gm_out<T>(dst, n, len, dgap, src.addr_, ustride, api);
    for (uint32_t b = 0; b < n; b++)
        __arc::store_gm((T *)((uint8_t *)dst + b * (len + dgap)), (const T *)((const uint8_t *)src.addr_ + b * ustride),
                        len / sizeof(T));
}
} // namespace __detail

template <typename T, PaddingMode mode = PaddingMode::Normal>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyExtParams &p,
                        const DataCopyPadExtParams<T> &pad)
{
    static_assert(mode == PaddingMode::Normal || __NPU_ARCH__ == 3510, "AscendC::DataCopyPad: Compact mode is dav-3510's");
    if (__detail::looped(DataCopyMVType::OUT_TO_UB, "AscendC::DataCopyPad", [&](uint64_t s, uint64_t d) {
            DataCopyPad<T, mode>(__detail::ub_at(dst, d), __detail::gm_at(src, s), p, pad);
        }))
        return;
    ARC_CHECK(p.blockLen <= 2097151u, "AscendC::DataCopyPad", "blockLen %u bytes exceeds 2097151", p.blockLen);
    if (p.blockCount)
        src.check_range(0, ((p.blockCount - 1) * ((uint64_t)p.blockLen + p.srcStride) + p.blockLen + sizeof(T) - 1) / sizeof(T),
                        "AscendC::DataCopyPad");
    __detail::pad_in(dst, src.addr_, p.blockCount, p.blockLen, p.srcStride, p.dstStride, pad.isPad, pad.leftPadding,
                     pad.rightPadding, pad.paddingValue, "AscendC::DataCopyPad", mode == PaddingMode::Compact);
}
template <typename T, PaddingMode mode = PaddingMode::Normal>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyExtParams &p)
{
    static_assert(mode == PaddingMode::Normal || __NPU_ARCH__ == 3510, "AscendC::DataCopyPad: Compact mode is dav-3510's");
    if (__detail::looped(DataCopyMVType::UB_TO_OUT, "AscendC::DataCopyPad", [&](uint64_t s, uint64_t d) {
            DataCopyPad<T, mode>(__detail::gm_at(dst, d), __detail::ub_at(src, s), p);
        }))
        return;
    ARC_CHECK(p.blockLen <= 2097151u, "AscendC::DataCopyPad", "blockLen %u bytes exceeds 2097151", p.blockLen);
    if (p.blockCount)
        dst.check_range(0, ((p.blockCount - 1) * ((uint64_t)p.blockLen + p.dstStride) + p.blockLen + sizeof(T) - 1) / sizeof(T),
                        "AscendC::DataCopyPad");
    __detail::pad_out(dst.addr_, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, "AscendC::DataCopyPad",
                      mode == PaddingMode::Compact);
}
/* Old form: the DataCopy struct, but blockLen and GM strides in bytes. */
template <typename T>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &p,
                        const DataCopyPadParams &pad)
{
    if (__detail::looped(DataCopyMVType::OUT_TO_UB, "AscendC::DataCopyPad", [&](uint64_t s, uint64_t d) {
            DataCopyPad(__detail::ub_at(dst, d), __detail::gm_at(src, s), p, pad);
        }))
        return;
    T v;
    uint64_t pv = pad.paddingValue;
    __builtin_memcpy(&v, &pv, sizeof(T));
    if (p.blockCount && p.blockLen)
        __arc::gm_access(src.addr_, (p.blockCount - 1) * ((uint64_t)p.blockLen + p.srcStride) + p.blockLen,
                         "AscendC::DataCopyPad");
    __detail::pad_in(dst, src.addr_, p.blockCount, p.blockLen, p.srcStride, p.dstStride, pad.isPad, pad.leftPadding,
                     pad.rightPadding, v, "AscendC::DataCopyPad");
}
template <typename T>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p)
{
    if (__detail::looped(DataCopyMVType::UB_TO_OUT, "AscendC::DataCopyPad", [&](uint64_t s, uint64_t d) {
            DataCopyPad(__detail::gm_at(dst, d), __detail::ub_at(src, s), p);
        }))
        return;
    if (p.blockCount && p.blockLen)
        __arc::gm_access(dst.addr_, (p.blockCount - 1) * ((uint64_t)p.blockLen + p.dstStride) + p.blockLen,
                         "AscendC::DataCopyPad");
    __detail::pad_out(dst.addr_, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, "AscendC::DataCopyPad");
}

/* Fill n elements of GM (all cores may call it on their own slices). */
template <typename T> inline void InitGlobalMemory(GlobalTensor<T> &gm, uint64_t size, const T &value)
{
    __arc::gm_access(gm.addr_, size * sizeof(T), "AscendC::InitGlobalMemory");
    if (__arc::race_gm_on() && size) {
        unsigned long long bits = 0;
        __builtin_memcpy(&bits, &value, sizeof(T) < 8 ? sizeof(T) : 8);
        __arc_race_gm_fill(gm.addr_, size * sizeof(T), bits, sizeof(T), "AscendC::InitGlobalMemory");
    }
    T *__restrict p = gm.addr_;
    for (uint64_t i = 0; i < size; i++) p[i] = value;
}

/* Older names of InitGlobalMemory: fill `size` GM elements with value. */
template <typename T> inline void Fill(GlobalTensor<T> &gm, uint64_t size, const T &value)
{
    InitGlobalMemory(gm, size, value);
}
template <typename T> inline void InitOutput(GlobalTensor<T> &gm, uint64_t size, const T &value)
{
    InitGlobalMemory(gm, size, value);
}

} // namespace AscendC

#endif /* ARC_DATA_COPY_H_ */
