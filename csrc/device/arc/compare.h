/* compare.h - Compare / CompareScalar (one result bit per element, little
 * endian, into a uint8_t tensor), Select (bit 1 -> src0, 0 -> src1 or a
 * scalar), GatherMask (compaction by a fixed or tensor pattern) and
 * Gather (byte offsets). */
#ifndef ARC_COMPARE_H_
#define ARC_COMPARE_H_

#include "arc/vec_unary.h"

namespace AscendC {
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class GatherMaskMode : uint8_t { DEFAULT = 0, V1, V2 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::DEFAULT;
constexpr GatherMaskMode defaultGahterMaskMode = GatherMaskMode::DEFAULT;
struct GatherMaskParams {
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 1;
    uint16_t src0RepeatStride = 8;
    uint8_t src1RepeatStride = 0;
    GatherMaskParams() = default;
    GatherMaskParams(uint8_t b, uint16_t r, uint16_t s0r, uint8_t s1r)
        : src0BlockStride(b), repeatTimes(r), src0RepeatStride(s0r), src1RepeatStride(s1r) {}
};
} // namespace AscendC

namespace __arc {
template <class T> inline bool cmp(T a, T b, AscendC::CMPMODE m)
{
    switch (m) {
    case AscendC::CMPMODE::LT: return a < b;
    case AscendC::CMPMODE::GT: return a > b;
    case AscendC::CMPMODE::EQ: return a == b;
    case AscendC::CMPMODE::LE: return a <= b;
    case AscendC::CMPMODE::GE: return a >= b;
    default: return a != b;
    }
}
template <class T> inline void cmp_types(AscendC::CMPMODE m, const char *api)
{
    ARC_DTYPE_REQUIRE((one_of<T, half, float, int32_t> || __NPU_ARCH__ != 2201),
                  "AscendC::Compare: dav-2201 supports half, float and int32_t (EQ only)");
    if constexpr (is_same<T, int32_t>::value && __NPU_ARCH__ == 2201)
        ARC_CHECK(m == AscendC::CMPMODE::EQ, api, "int32_t supports CMPMODE::EQ only on dav-2201 (got %d)", (int)m);
}
inline void set_bit(uint8_t *d, uint64_t i, bool v)
{
    uint8_t b = (uint8_t)(1u << (i & 7));
    d[i >> 3] = v ? (uint8_t)(d[i >> 3] | b) : (uint8_t)(d[i >> 3] & ~b);
}
inline bool get_bit(const uint8_t *d, uint64_t i) { return (d[i >> 3] >> (i & 7)) & 1; }

template <class T, class U>
inline void cmp_count_check(const AscendC::LocalTensor<U> &dst, int32_t n, const char *api)
{
    ARC_CHECK(n >= 0 && ((uint64_t)n * sizeof(T)) % 256 == 0, api,
              "count %d x %u bytes is not a multiple of 256 bytes", (int)n, (unsigned)sizeof(T));
    ARC_CHECK_ALIGN32(dst.addr_, api, "dst");
    ARC_CHECK(((uint64_t)n + 7) / 8 <= dst.bytes_, api, "dst: %d result bits need %llu bytes, the tensor has %u",
              (int)n, (unsigned long long)((n + 7) / 8), dst.bytes_);
}
} // namespace __arc

namespace AscendC {
/* ---- Compare ---- */
template <typename T, typename U>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE mode,
                    uint32_t count)
{
    const char *api = "AscendC::Compare";
    __arc::cmp_types<T>(mode, api);
    __arc::cmp_count_check<T>(dst, (int32_t)count, api);
    __arc::check_cnt(src0, count, api, "src0");
    __arc::check_cnt(src1, count, api, "src1");
    uint8_t *d = (uint8_t *)(void *)dst.addr_;
    const T *a = src0.addr_, *b = src1.addr_;
    for (uint32_t i = 0; i < count; i += 8) {
        uint8_t byte = 0;
        for (uint32_t k = 0; k < 8; k++) byte |= (uint8_t)(__arc::cmp(a[i + k], b[i + k], mode) << k);
        d[i / 8] = byte;
    }
}
namespace __detail {
template <typename T, typename U>
inline void cmp_l0(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE mode,
                   const __arc::Plan &p, const BinaryRepeatParams &rp)
{
    const char *api = "AscendC::Compare";
    __arc::cmp_types<T>(mode, api);
    __arc::Opnd oa = __arc::opnd<T>(rp.src0BlkStride, rp.src0RepStride), ob = __arc::opnd<T>(rp.src1BlkStride, rp.src1RepStride);
    __arc::check_l0(src0, p, oa, api, "src0");
    __arc::check_l0(src1, p, ob, api, "src1");
    ARC_CHECK_ALIGN32(dst.addr_, api, "dst");
    ARC_CHECK((uint64_t)p.repeat * p.L / 8 <= dst.bytes_, api, "dst: %u repeats need %u bytes, the tensor has %u",
              p.repeat, p.repeat * p.L / 8, dst.bytes_);
    uint8_t *d = (uint8_t *)(void *)dst.addr_;
    __arc::lanes(p, [&](uint32_t r, uint32_t l) {
        __arc::set_bit(d, (uint64_t)r * p.L + l,
                       __arc::cmp(src0.addr_[__arc::off(oa, r, l)], src1.addr_[__arc::off(ob, r, l)], mode));
    });
}
} // namespace __detail
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE mode,
                    uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams &rp)
{
    __detail::cmp_l0(dst, src0, src1, mode, __arc::plan_len(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::Compare"), rp);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE mode,
                    const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams &rp)
{
    __detail::cmp_l0(dst, src0, src1, mode, __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::Compare"), rp);
}
/* No dst: one repeat into the CMPMASK register (read by GetCmpMask / Select mode 0). */
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE mode, uint64_t mask,
                    const BinaryRepeatParams &rp)
{
    uint64_t bits[2] = {0, 0};
    LocalTensor<uint64_t> t((uint64_t *)bits, 16, TPosition::VECCALC);
    __arc::Plan p = __arc::plan_len(256 / sizeof(T), 1, mask, isSetMask, "AscendC::Compare");
    p.repeat = 1;
    __arc::Opnd oa = __arc::opnd<T>(rp.src0BlkStride, rp.src0RepStride), ob = __arc::opnd<T>(rp.src1BlkStride, rp.src1RepStride);
    __arc::lanes(p, [&](uint32_t r, uint32_t l) {
        __arc::set_bit((uint8_t *)bits, l, __arc::cmp(src0.addr_[__arc::off(oa, r, l)], src1.addr_[__arc::off(ob, r, l)], mode));
    });
    (void)t;
    __arc_core()->dev[__arc::SLOT_CMPMASK_LO] = bits[0];
    __arc_core()->dev[__arc::SLOT_CMPMASK_HI] = bits[1];
}
template <typename T> inline void GetCmpMask(const LocalTensor<T> &dst)
{
    ARC_CHECK(dst.bytes_ >= 16, "AscendC::GetCmpMask", "dst has %u bytes, 16 needed", dst.bytes_);
    uint64_t b[2] = {__arc_core()->dev[__arc::SLOT_CMPMASK_LO], __arc_core()->dev[__arc::SLOT_CMPMASK_HI]};
    __builtin_memcpy((void *)dst.addr_, b, 16);
}
template <typename T> inline void SetCmpMask(const LocalTensor<T> &src)
{
    uint64_t b[2];
    __builtin_memcpy(b, (const void *)src.addr_, 16);
    __arc_core()->dev[__arc::SLOT_CMPMASK_LO] = b[0];
    __arc_core()->dev[__arc::SLOT_CMPMASK_HI] = b[1];
}

/* ---- CompareScalar ---- */
template <typename T, typename U, typename S>
inline void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const S &scalar, CMPMODE mode,
                          uint32_t count)
{
    const char *api = "AscendC::CompareScalar";
    __arc::cmp_types<T>(mode, api);
    __arc::cmp_count_check<T>(dst, (int32_t)count, api);
    __arc::check_cnt(src0, count, api, "src0");
    const T s = (T)scalar;
    uint8_t *d = (uint8_t *)(void *)dst.addr_;
    const T *a = src0.addr_;
    for (uint32_t i = 0; i < count; i += 8) {
        uint8_t byte = 0;
        for (uint32_t k = 0; k < 8; k++) byte |= (uint8_t)(__arc::cmp(a[i + k], s, mode) << k);
        d[i / 8] = byte;
    }
}
namespace __detail {
template <typename T, typename U>
inline void cmps_l0(const LocalTensor<U> &dst, const LocalTensor<T> &src0, T s, CMPMODE mode, const __arc::Plan &p,
                    const UnaryRepeatParams &rp)
{
    const char *api = "AscendC::CompareScalar";
    __arc::cmp_types<T>(mode, api);
    __arc::Opnd oa = __arc::opnd<T>(rp.srcBlkStride, rp.srcRepStride);
    __arc::check_l0(src0, p, oa, api, "src0");
    ARC_CHECK_ALIGN32(dst.addr_, api, "dst");
    ARC_CHECK((uint64_t)p.repeat * p.L / 8 <= dst.bytes_, api, "dst: %u repeats need %u bytes, the tensor has %u",
              p.repeat, p.repeat * p.L / 8, dst.bytes_);
    uint8_t *d = (uint8_t *)(void *)dst.addr_;
    __arc::lanes(p, [&](uint32_t r, uint32_t l) {
        __arc::set_bit(d, (uint64_t)r * p.L + l, __arc::cmp(src0.addr_[__arc::off(oa, r, l)], s, mode));
    });
}
} // namespace __detail
template <typename T, typename U, bool isSetMask = true, typename S>
inline void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const S &scalar, CMPMODE mode,
                          uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams &rp)
{
    __detail::cmps_l0(dst, src0, (T)scalar, mode,
                      __arc::plan_len(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::CompareScalar"), rp);
}
template <typename T, typename U, bool isSetMask = true, typename S>
inline void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const S &scalar, CMPMODE mode,
                          const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams &rp)
{
    __detail::cmps_l0(dst, src0, (T)scalar, mode,
                      __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::CompareScalar"), rp);
}
template <typename T, typename U, typename S>
inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const S &scalar, CMPMODE mode, uint32_t count)
{
    CompareScalar(dst, src0, scalar, mode, count);
}

/* ---- Select ---- */
namespace __detail {
template <typename T> inline void sel_types()
{
    ARC_DTYPE_REQUIRE((__arc::one_of<T, half, float> || __NPU_ARCH__ != 2201), "AscendC::Select: dav-2201 supports half and float");
}
/* Count form: element i takes bit i (mode 0: bit i % L, the same mask
 * every repeat). */
template <typename T, typename U, typename F>
inline void sel_count(const LocalTensor<T> &dst, const LocalTensor<U> &sel, const LocalTensor<T> &src0, uint32_t n,
                      SELMODE mode, F other)
{
    const char *api = "AscendC::Select";
    __arc::check_cnt(dst, n, api, "dst");
    __arc::check_cnt(src0, n, api, "src0");
    const uint32_t L = 256 / sizeof(T);
    const bool same = mode == SELMODE::VSEL_CMPMASK_SPR;
    const uint32_t nbits = same ? (n < L ? n : L) : n;
    ARC_CHECK((uint64_t)(nbits + 7) / 8 <= sel.bytes_, api, "selMask: %u bits need %u bytes, the tensor has %u", nbits,
              (nbits + 7) / 8, sel.bytes_);
    const uint8_t *m = (const uint8_t *)(const void *)sel.addr_;
    for (uint32_t i = 0; i < n; i++) dst.addr_[i] = __arc::get_bit(m, same ? i % L : i) ? src0.addr_[i] : other(i);
}
template <typename T, typename U, typename F>
inline void sel_l0(const LocalTensor<T> &dst, const LocalTensor<U> &sel, const LocalTensor<T> &src0, SELMODE mode,
                   const __arc::Plan &p, const BinaryRepeatParams &rp, F other)
{
    const char *api = "AscendC::Select";
    __arc::Opnd od = __arc::opnd<T>(rp.dstBlkStride, rp.dstRepStride), oa = __arc::opnd<T>(rp.src0BlkStride, rp.src0RepStride),
                ob = __arc::opnd<T>(rp.src1BlkStride, rp.src1RepStride);
    __arc::check_l0(dst, p, od, api, "dst");
    __arc::check_l0(src0, p, oa, api, "src0");
    const uint8_t *m = (const uint8_t *)(const void *)sel.addr_;
    bool same = mode == SELMODE::VSEL_CMPMASK_SPR;
    __arc::lanes(p, [&](uint32_t r, uint32_t l) {
        bool b = __arc::get_bit(m, same ? l : (uint64_t)r * p.L + l);
        dst.addr_[__arc::off(od, r, l)] = b ? src0.addr_[__arc::off(oa, r, l)] : other(__arc::off(ob, r, l));
    });
}
} // namespace __detail
template <typename T, typename U>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                   const LocalTensor<T> &src1, SELMODE mode, uint32_t count)
{
    __detail::sel_types<T>();
    __arc::check_cnt(src1, count, "AscendC::Select", "src1");
    const T *b = src1.addr_;
    __detail::sel_count(dst, selMask, src0, count, mode, [b](uint64_t i) { return b[i]; });
}
template <typename T, typename U, typename S, typename = decltype((T)(*(S *)0))>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, S src1,
                   SELMODE mode, uint32_t count)
{
    __detail::sel_types<T>();
    const T s = (T)src1;
    __detail::sel_count(dst, selMask, src0, count, mode, [s](uint64_t) { return s; });
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                   const LocalTensor<T> &src1, SELMODE mode, uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams &rp)
{
    __detail::sel_types<T>();
    __arc::Plan p = __arc::plan_len(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::Select");
    __arc::check_l0(src1, p, __arc::opnd<T>(rp.src1BlkStride, rp.src1RepStride), "AscendC::Select", "src1");
    const T *b = src1.addr_;
    __detail::sel_l0(dst, selMask, src0, mode, p, rp, [b](uint64_t i) { return b[i]; });
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                   const LocalTensor<T> &src1, SELMODE mode, const uint64_t mask[], uint8_t repeatTime,
                   const BinaryRepeatParams &rp)
{
    __detail::sel_types<T>();
    __arc::Plan p = __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::Select");
    __arc::check_l0(src1, p, __arc::opnd<T>(rp.src1BlkStride, rp.src1RepStride), "AscendC::Select", "src1");
    const T *b = src1.addr_;
    __detail::sel_l0(dst, selMask, src0, mode, p, rp, [b](uint64_t i) { return b[i]; });
}
template <typename T, typename U, bool isSetMask = true, typename S, typename = decltype((T)(*(S *)0))>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, S src1,
                   SELMODE mode, uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams &rp)
{
    __detail::sel_types<T>();
    const T s = (T)src1;
    __detail::sel_l0(dst, selMask, src0, mode, __arc::plan_len(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::Select"),
                     rp, [s](uint64_t) { return s; });
}
template <typename T, typename U, bool isSetMask = true, typename S, typename = decltype((T)(*(S *)0))>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, S src1,
                   SELMODE mode, const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams &rp)
{
    __detail::sel_types<T>();
    const T s = (T)src1;
    __detail::sel_l0(dst, selMask, src0, mode, __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::Select"),
                     rp, [s](uint64_t) { return s; });
}

/* ---- GatherMask: keep the elements whose pattern bit is 1, packed ---- */
namespace __detail {
template <typename T, typename F>
inline void gather_mask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, bool reduceMode, uint32_t mask,
                        const GatherMaskParams &gp, uint64_t &rsvdCnt, F bit)
{
    const char *api = "AscendC::GatherMask";
    const uint32_t L = 256 / sizeof(T), epb = 32 / sizeof(T);
    ARC_CHECK_ALIGN32(dst.addr_, api, "dst");
    ARC_CHECK_ALIGN32(src0.addr_, api, "src0");
    /* Counter mode has two forms: with repeatTimes > 1 every repeat takes
     * `mask` elements (at most one repeat's worth); otherwise `mask` is the
     * whole element count and the repeats follow from it. */
    const bool per_repeat = reduceMode && gp.repeatTimes > 1;
    uint32_t reps = per_repeat ? gp.repeatTimes : reduceMode ? (mask + L - 1) / L : gp.repeatTimes;
    uint64_t total = per_repeat ? (uint64_t)reps * L : reduceMode ? mask : (uint64_t)reps * L;
    uint64_t n = 0, cap = dst.bytes_ / sizeof(T), scap = src0.bytes_ / sizeof(T), reach = 0;
    auto lanes_of = [&](uint32_t r) {
        uint32_t lanes = (uint32_t)((total - (uint64_t)r * L) < L ? (total - (uint64_t)r * L) : L);
        return per_repeat && mask < lanes ? mask : lanes;
    };
    for (uint32_t r = 0; r < reps; r++) { /* reach: the src0 elements read, for the overlap check below */
        uint32_t l = lanes_of(r);
        uint64_t last = l ? ((uint64_t)r * gp.src0RepeatStride + (uint64_t)((l - 1) / epb) * gp.src0BlockStride) * epb +
                                (l - 1) % epb + 1 : 0;
        reach = last > reach ? last : reach;
    }
    /* The general overlap rule: compaction of contiguous repeats in place
     * (or into bytes before src0) reads each element before its bytes are
     * written; a dst inside src0, or repeats that re-read src0's bytes,
     * would read what an earlier repeat wrote. */
    const bool flat = gp.src0BlockStride == 1 && (reps <= 1 || gp.src0RepeatStride == 8);
    __arc::check_overlap(dst, cap, src0, reach < scap ? reach : scap, flat ? ARC_OVERLAP_BEHIND : ARC_OVERLAP_NONE, api,
                  "src0");
    for (uint32_t r = 0; r < reps; r++) {
        uint32_t lanes = lanes_of(r);
        for (uint32_t l = 0; l < lanes; l++) {
            if (!bit(r, l)) continue;
            uint64_t o = ((uint64_t)r * gp.src0RepeatStride + (uint64_t)(l / epb) * gp.src0BlockStride) * epb + l % epb;
            ARC_CHECK(o < scap, api, "src0: element %llu is beyond the tensor's %llu elements", (unsigned long long)o,
                      (unsigned long long)scap);
            ARC_CHECK(n < cap, api, "dst: more than %llu kept elements", (unsigned long long)cap);
            dst.addr_[n++] = src0.addr_[o];
        }
    }
    rsvdCnt = n;
    __arc_core()->dev[__arc::SLOT_MASK_MODE] = 0;
}
} // namespace __detail
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const uint8_t src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams &gp, uint64_t &rsvdCnt)
{
    ARC_CHECK(src1Pattern >= 1 && src1Pattern <= 7, "AscendC::GatherMask", "src1Pattern %u is not in 1..7",
              (unsigned)src1Pattern);
    __detail::gather_mask(dst, src0, reduceMode, mask, gp, rsvdCnt, [src1Pattern](uint32_t, uint32_t l) {
        switch (src1Pattern) {
        case 1: return (l & 1) == 0;
        case 2: return (l & 1) == 1;
        case 3: case 4: case 5: case 6: return (l & 3) == (uint32_t)(src1Pattern - 3);
        default: return true;
        }
    });
}
/* Tensor pattern: bit l of repeat r is at bit r*src1RepeatStride*256 + l
 * (src1RepeatStride in 32-byte blocks; 0 reuses the first bits). */
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<U> &src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams &gp, uint64_t &rsvdCnt)
{
    const uint8_t *m = (const uint8_t *)(const void *)src1Pattern.addr_;
    const uint32_t L = 256 / sizeof(T);
    uint64_t bits = (uint64_t)src1Pattern.bytes_ * 8;
    __detail::gather_mask(dst, src0, reduceMode, mask, gp, rsvdCnt, [&](uint32_t r, uint32_t l) {
        uint64_t i = reduceMode && gp.repeatTimes <= 1 ? (uint64_t)r * L + l : (uint64_t)r * gp.src1RepeatStride * 256 + l;
        ARC_CHECK(i < bits, "AscendC::GatherMask", "src1Pattern: bit %llu is beyond the tensor's %llu bits",
                  (unsigned long long)i, (unsigned long long)bits);
        return __arc::get_bit(m, i);
    });
}
template <typename T> inline int64_t GetGatherMaskRemainCount() { return 0; }

/* ---- Gather: dst[i] = src[(base + offset[i]) / sizeof(T)], offsets in bytes ---- */
template <typename T>
inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &srcOffset,
                   const uint32_t srcBaseAddr, const uint32_t count)
{
    const char *api = "AscendC::Gather";
    __arc::check_cnt(dst, count, api, "dst");
    __arc::check_cnt(srcOffset, count, api, "srcOffset");
    const uint8_t *s = (const uint8_t *)(const void *)src.addr_;
    /* no overlap rule on Gather's page: dst overlapping the sources is not allowed (the general note) */
    __arc::check_overlap(dst, count, srcOffset, count, ARC_OVERLAP_NONE, api, "srcOffset");
    if (count) {
        uint64_t lo = ~0ull, hi = 0; /* the bytes of src the offsets reach */
        for (uint32_t i = 0; i < count; i++) {
            uint64_t o = (uint64_t)srcBaseAddr + srcOffset.addr_[i];
            lo = o < lo ? o : lo;
            hi = o + sizeof(T) > hi ? o + sizeof(T) : hi;
        }
        if (hi <= src.cap_ && lo % sizeof(T) == 0)
            __arc::check_overlap(dst, count, src[(uint32_t)(lo / sizeof(T))], (hi - lo) / sizeof(T), ARC_OVERLAP_NONE,
                                 api, "src (the elements the offsets reach)");
    }
    for (uint32_t i = 0; i < count; i++) {
        uint64_t o = (uint64_t)srcBaseAddr + srcOffset.addr_[i];
        ARC_CHECK(o % sizeof(T) == 0 && o + sizeof(T) <= src.cap_, api,
                  "offset %llu bytes (element %u) is misaligned or beyond src's %u bytes", (unsigned long long)o, i,
                  src.cap_);
        __builtin_memcpy((void *)(dst.addr_ + i), s + o, sizeof(T));
    }
}
template <typename T>
inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &srcOffset,
                   const uint32_t srcBaseAddr, const uint64_t mask, const uint8_t repeatTime, const uint16_t dstRepStride)
{
    const uint32_t L = 256 / sizeof(T);
    uint32_t n = (uint32_t)(mask > L ? L : mask);
    for (uint32_t r = 0; r < repeatTime; r++) {
        LocalTensor<T> d = dst[r * dstRepStride * (32 / sizeof(T))];
        LocalTensor<uint32_t> o = srcOffset[r * L];
        Gather(d, src, o, srcBaseAddr, n);
    }
}

/* ---- Gatherb: 32-byte blocks of src to dst by byte offsets (the Gatherb
 * page's pseudo-code): per repeat 8 blocks, block j of repeat i from
 * src + offset[8i + j] to dst block i * dstRepStride + j * dstBlkStride
 * (0 counts as 1).  The other fields are reserved (ignored, as the page
 * says). ---- */
struct GatherRepeatParams {
    uint16_t dstBlkStride = 1;
    uint16_t dstRepStride = 8;
    uint8_t blockNumber = 8;
    uint8_t src0BlkStride = 1;
    uint8_t src1BlkStride = 1;
    uint8_t src0RepStride = 8;
    uint8_t src1RepStride = 8;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};
template <typename T>
inline void Gatherb(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &offset,
                    const uint8_t repeatTime, const GatherRepeatParams &repeatParams)
{
#if __NPU_ARCH__ == 2201
    static_assert(__arc::is_same<T, uint16_t>::value || __arc::is_same<T, uint32_t>::value,
                  "AscendC::Gatherb on dav-2201 takes uint16_t or uint32_t");
#endif
    const char *api = "AscendC::Gatherb";
    if (repeatTime == 0) return; /* a NOP, as the page says for Atlas A2 */
    const uint32_t blk = repeatParams.dstBlkStride ? repeatParams.dstBlkStride : 1, rep = repeatParams.dstRepStride;
    const uint64_t last = ((uint64_t)(repeatTime - 1) * rep + 7u * blk) * 32u + 32u; /* dst bytes reached */
    __arc::check_cnt(dst, (int64_t)(last / sizeof(T)), api, "dst");
    __arc::check_cnt(offset, (int64_t)repeatTime * 8, api, "offset");
    __arc::check_overlap(dst, (uint64_t)(last / sizeof(T)), offset, (uint64_t)repeatTime * 8, ARC_OVERLAP_NONE, api,
                         "offset");
    uint8_t *d = (uint8_t *)(void *)dst.addr_;
    const uint8_t *s = (const uint8_t *)(const void *)src.addr_;
    for (uint32_t i = 0; i < repeatTime; i++)
        for (uint32_t j = 0; j < 8; j++) {
            uint64_t o = offset.addr_[i * 8 + j];
            ARC_CHECK(o % 32 == 0 && o + 32 <= src.cap_, api,
                      "offset %llu bytes (block %u of repeat %u) is not 32-byte aligned or runs past src's %u bytes",
                      (unsigned long long)o, j, i, src.cap_);
            __builtin_memmove(d + ((uint64_t)i * rep + (uint64_t)j * blk) * 32u, s + o, 32);
        }
}
} // namespace AscendC

#endif /* ARC_COMPARE_H_ */
