/* mask.h - vector mask state (SetVectorMask, SetMaskCount/Norm, ResetMask),
 * the repeat-parameter structs and the level-0 engine: a call covers
 * `repeat` repeats of 256 bytes (8 blocks of 32 bytes); lane l of repeat r
 * of an operand lives at element (r*repStride + (l/epb)*blkStride)*epb + l%epb
 * (epb = elements per 32-byte block).  Masked-off lanes keep dst. */
#ifndef ARC_MASK_H_
#define ARC_MASK_H_

#include "arc/cost.h"
#include "arc/ctrl.h"
#include "arc/tensor.h"

#include "lib/tiling/block_sizes.h"  // ONE_BLK_SIZE, BLOCK_CUBE

namespace AscendC {
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr uint32_t MAX_REPEAT_TIMES = 255;
constexpr uint32_t DEFAULT_BLK_NUM = 8;
constexpr uint8_t DEFAULT_BLK_STRIDE = 1;
constexpr uint8_t DEFAULT_REPEAT_STRIDE = 8;

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER = 1 };

struct BinaryRepeatParams {
    uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
    uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false;
    BinaryRepeatParams() = default;
    BinaryRepeatParams(uint8_t db, uint8_t s0b, uint8_t s1b, uint8_t dr, uint8_t s0r, uint8_t s1r)
        : dstBlkStride(db), src0BlkStride(s0b), src1BlkStride(s1b), dstRepStride(dr), src0RepStride(s0r),
          src1RepStride(s1r) {}
};
struct UnaryRepeatParams {
    uint16_t dstBlkStride = 1, srcBlkStride = 1;
    uint8_t dstRepStride = 8, srcRepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false;
    UnaryRepeatParams() = default;
    UnaryRepeatParams(uint16_t db, uint16_t sb, uint8_t dr, uint8_t sr)
        : dstBlkStride(db), srcBlkStride(sb), dstRepStride(dr), srcRepStride(sr) {}
};

inline void SetMaskCount() { __arc_core()->dev[__arc::SLOT_MASK_MODE] = 1; }
inline void SetMaskNorm() { __arc_core()->dev[__arc::SLOT_MASK_MODE] = 0; }
inline void ResetMask() { __arc_core()->dev[__arc::SLOT_MASK_SET] = 0; }
template <typename T, MaskMode mode = MaskMode::NORMAL> inline void SetVectorMask(uint64_t maskHigh, uint64_t maskLow)
{
    arc_core *c = __arc_core();
    c->dev[__arc::SLOT_MASK_SET] = 1;
    c->dev[__arc::SLOT_MASK_LO] = maskLow;
    c->dev[__arc::SLOT_MASK_HI] = maskHigh;
}
template <typename T, MaskMode mode = MaskMode::NORMAL> inline void SetVectorMask(int32_t len)
{
    arc_core *c = __arc_core();
    c->dev[__arc::SLOT_MASK_SET] = 1;
    if (mode == MaskMode::COUNTER || c->dev[__arc::SLOT_MASK_MODE] == 1) {
        c->dev[__arc::SLOT_MASK_LO] = (uint64_t)(uint32_t)len;
        c->dev[__arc::SLOT_MASK_HI] = 0;
    } else {
        uint32_t n = len < 0 ? 0u : (uint32_t)len;
        c->dev[__arc::SLOT_MASK_LO] = n >= 64 ? ~0ull : ((1ull << n) - 1);
        c->dev[__arc::SLOT_MASK_HI] = n >= 128 ? ~0ull : n <= 64 ? 0ull : ((1ull << (n - 64)) - 1);
    }
}
} // namespace AscendC

/* Raw mask intrinsics some kernels call directly. */
inline void set_vector_mask(uint64_t hi, uint64_t lo) { AscendC::SetVectorMask<uint16_t>(hi, lo); }
inline void set_mask_count() { AscendC::SetMaskCount(); }
inline void set_mask_norm() { AscendC::SetMaskNorm(); }

namespace __arc {
/* One operand of a level-0 call: elements per block, strides in blocks. */
struct Opnd {
    uint32_t epb, blk, rep;
};
template <class T> inline Opnd opnd(uint32_t blk, uint32_t rep) { return Opnd{32u / (uint32_t)sizeof(T), blk, rep}; }
inline uint64_t off(const Opnd &o, uint32_t r, uint32_t l)
{
    return ((uint64_t)r * o.rep + (uint64_t)(l / o.epb) * o.blk) * o.epb + l % o.epb;
}

/* What one level-0 call covers: L lanes per repeat, and either a lane
 * mask (normal mode) or an element count (counter mode). */
struct Plan {
    uint32_t L, repeat;
    bool counter;
    uint64_t count, lo, hi;
};

inline Plan plan_bits(uint32_t L, int32_t repeat, uint64_t lo, uint64_t hi, bool isSetMask, const char *api)
{
    arc_core *c = __arc_core();
    Plan p;
    p.L = L;
    p.counter = c->dev[SLOT_MASK_MODE] == 1;
    if (!isSetMask) {
        if (c->dev[SLOT_MASK_SET]) {
            lo = c->dev[SLOT_MASK_LO];
            hi = c->dev[SLOT_MASK_HI];
        } else {
            lo = hi = ~0ull;
        }
    }
    if (p.counter) {
        p.count = (!isSetMask && !c->dev[SLOT_MASK_SET]) ? (uint64_t)L * (uint64_t)(repeat < 0 ? 0 : repeat) : lo;
        p.repeat = (uint32_t)((p.count + L - 1) / L);
        p.lo = p.hi = ~0ull;
    } else {
        ARC_CHECK(repeat >= 0 && repeat <= 255, api, "repeatTime %d is out of range 0..255", (int)repeat);
        p.repeat = (uint32_t)repeat;
        p.count = 0;
        if (L <= 64) {
            p.lo = L == 64 ? lo : lo & ((1ull << L) - 1);
            p.hi = 0;
        } else {
            p.lo = lo;
            p.hi = hi;
        }
    }
    return p;
}
/* uint64_t mask: the first `mask` lanes (clamped to L). */
inline Plan plan_len(uint32_t L, int32_t repeat, uint64_t mask, bool isSetMask, const char *api)
{
    if (isSetMask && __arc_core()->dev[SLOT_MASK_MODE] == 1) return plan_bits(L, repeat, mask, 0, true, api);
    uint64_t n = mask > L ? L : mask;
    uint64_t lo = n >= 64 ? ~0ull : ((1ull << n) - 1);
    uint64_t hi = n >= 128 ? ~0ull : n <= 64 ? 0ull : ((1ull << (n - 64)) - 1);
    return plan_bits(L, repeat, lo, hi, isSetMask, api);
}
inline Plan plan_arr(uint32_t L, int32_t repeat, const uint64_t *mask, bool isSetMask, const char *api)
{
    if (!isSetMask) return plan_bits(L, repeat, 0, 0, false, api);
    return plan_bits(L, repeat, mask[0], L > 64 ? mask[1] : 0, true, api);
}

static_assert(__builtin_offsetof(Plan, L) == __builtin_offsetof(arc_plan, L) &&
                  __builtin_offsetof(Plan, repeat) == __builtin_offsetof(arc_plan, repeat) &&
                  __builtin_offsetof(Plan, counter) == __builtin_offsetof(arc_plan, counter) && sizeof(bool) == 1 &&
                  __builtin_offsetof(Plan, count) == __builtin_offsetof(arc_plan, count) &&
                  __builtin_offsetof(Plan, lo) == __builtin_offsetof(arc_plan, lo) &&
                  __builtin_offsetof(Plan, hi) == __builtin_offsetof(arc_plan, hi) && sizeof(Plan) == sizeof(arc_plan) &&
                  __builtin_offsetof(Opnd, epb) == __builtin_offsetof(arc_opnd, epb) &&
                  __builtin_offsetof(Opnd, blk) == __builtin_offsetof(arc_opnd, blk) &&
                  __builtin_offsetof(Opnd, rep) == __builtin_offsetof(arc_opnd, rep) && sizeof(Opnd) == sizeof(arc_opnd),
              "Plan/Opnd and arc_plan/arc_opnd (core_abi.h) must have the same layout");

inline bool L_full(uint32_t L, uint64_t lo, uint64_t hi)
{
    return L >= 128 ? (lo == ~0ull && hi == ~0ull) : L == 64 ? lo == ~0ull : lo == ((1ull << L) - 1);
}
inline bool full(const Plan &p)
{
    if (p.counter) return true;
    return L_full(p.L, p.lo, p.hi);
}
/* Operand laid out contiguously repeat after repeat. */
inline bool flat(const Plan &p, const Opnd &o) { return o.blk == 1 && (uint64_t)o.rep * o.epb == p.L; }
/* Elements a flat run covers. */
inline uint64_t flat_n(const Plan &p) { return p.counter ? p.count : (uint64_t)p.repeat * p.L; }

inline int top_lane(const Plan &p)
{
    if (p.hi) return 127 - __builtin_clzll(p.hi);
    if (p.lo) return 63 - __builtin_clzll(p.lo);
    return -1;
}
/* One past the last element of the operand the call touches (the runtime's
 * check_l0 has the same, rt/services/vec_check.c). */
inline uint64_t extent(const Plan &p, const Opnd &o)
{
    if (p.repeat == 0) return 0;
    uint64_t e = 0;
    auto at = [&](uint32_t r, uint32_t h) {
        uint64_t x = off(o, r, h) + 1;
        if (x > e) e = x;
        if (h >= o.epb) {
            uint32_t prev = (h / o.epb) * o.epb - 1;
            x = off(o, r, prev) + 1;
            if (x > e) e = x;
        }
    };
    if (p.counter) {
        uint64_t last = p.count - (uint64_t)(p.repeat - 1) * p.L;
        at(p.repeat - 1, (uint32_t)last - 1);
        if (p.repeat >= 2) at(p.repeat - 2, p.L - 1);
    } else {
        int h = top_lane(p);
        if (h < 0) return 0;
        at(p.repeat - 1, (uint32_t)h);
    }
    return e;
}
/* Calls f(r, l) for every active lane. */
template <class F> inline void lanes(const Plan &p, F f)
{
    for (uint32_t r = 0; r < p.repeat; r++) {
        if (p.counter) {
            uint64_t n = p.count - (uint64_t)r * p.L;
            if (n > p.L) n = p.L;
            for (uint32_t l = 0; l < n; l++) f(r, l);
        } else {
            for (uint64_t m = p.lo; m; m &= m - 1) f(r, (uint32_t)__builtin_ctzll(m));
            for (uint64_t m = p.hi; m; m &= m - 1) f(r, 64u + (uint32_t)__builtin_ctzll(m));
        }
    }
}
/* Level-0 operand check: 32-byte aligned start, extent within the tensor. */
/* Operand checks: the runtime's (rt/services/vec_check.c, compiled once) unless
 * -DASCENDRTC_NPU_SEMANTICS changes the limit they check. */
template <class T>
inline void check_l0(const AscendC::LocalTensor<T> &t, const Plan &p, const Opnd &o, const char *api, const char *what)
{
    __arc_uses(ARC_USES_VEC);
    ctrl_sat_guard<T>(api, what);
#ifndef ASCENDRTC_NPU_SEMANTICS
    __arc_check_l0(t.addr_, t.bytes_, reinterpret_cast<const arc_plan *>(&p), reinterpret_cast<const arc_opnd *>(&o),
                   (unsigned)sizeof(T), api, what);
#else
    ARC_CHECK_ALIGN32(t.addr_, api, what);
    uint64_t e = extent(p, o), lim = span_limit(t.addr_, t.bytes_);
    ARC_CHECK(e * sizeof(T) <= lim, api,
              "%s: %u repeats (block stride %u, repeat stride %u) reach element %llu, beyond " ARC_LIMIT_WHAT " %llu elements",
              what, p.repeat, o.blk, o.rep, (unsigned long long)e, (unsigned long long)(lim / sizeof(T)));
    cost_esize<T>();
    race_v(t.addr_, e * sizeof(T), what, api);
#endif
}
/* Count-form operand check. */
template <class T>
inline void check_cnt(const AscendC::LocalTensor<T> &t, int64_t n, const char *api, const char *what)
{
    __arc_uses(ARC_USES_VEC);
    ctrl_sat_guard<T>(api, what);
#ifndef ASCENDRTC_NPU_SEMANTICS
    __arc_check_cnt(t.addr_, t.bytes_, n, (unsigned)sizeof(T), tname<T>(), api, what);
#else
    ARC_CHECK_ALIGN32(t.addr_, api, what);
    ARC_CHECK(n >= 0 && (uint64_t)n * sizeof(T) <= span_limit(t.addr_, t.bytes_), api,
              "%s: count %lld exceeds " ARC_LIMIT_WHAT " %llu elements of %s", what, (long long)n,
              (unsigned long long)(span_limit(t.addr_, t.bytes_) / sizeof(T)), tname<T>());
    cost_esize<T>();
    race_v(t.addr_, (uint64_t)n * sizeof(T), what, api);
#endif
}
/* Undefined overlap of dst (nd elements) and a source (ns elements): the
 * disjoint case inline, the rest in the runtime (core_abi.h).  REPEAT is
 * checked for same-width operands only (a mixed-width run's repeats cover
 * different byte counts on each side). */
template <class TD, class TS>
inline void check_overlap(const AscendC::LocalTensor<TD> &d, uint64_t nd, const AscendC::LocalTensor<TS> &s, uint64_t ns,
                          int rule, const char *api, const char *what)
{
    uintptr_t a = (uintptr_t)d.addr_, b = (uintptr_t)s.addr_;
    uint64_t da = nd * sizeof(TD), sb = ns * sizeof(TS);
    if (a + da <= b || b + sb <= a || (rule == ARC_OVERLAP_REPEAT && sizeof(TD) != sizeof(TS)))
        return;
    __arc_check_overlap(d.addr_, da, s.addr_, sb, rule, api, what);
}
/* The same for a level-0 call: operands of one element size that are
 * contiguous runs of repeats (block stride 1, repeat stride one repeat)
 * here; the rest (strided, or of different element sizes), when their
 * ranges meet, repeat by repeat in the runtime. */
template <class TD, class TS>
inline void check_overlap_l0(const AscendC::LocalTensor<TD> &d, const Plan &p, const Opnd &od,
                             const AscendC::LocalTensor<TS> &s, const Opnd &os, const char *api, const char *what)
{
    if (sizeof(TD) == sizeof(TS) && flat(p, od) && flat(p, os)) {
        check_overlap(d, extent(p, od), s, extent(p, os), ARC_OVERLAP_REPEAT, api, what);
        return;
    }
    uintptr_t a = (uintptr_t)d.addr_, b = (uintptr_t)s.addr_;
    uint64_t da = extent(p, od) * sizeof(TD), sb = extent(p, os) * sizeof(TS);
    if (a + da <= b || b + sb <= a)
        return;
    __arc_check_overlap_l0(d.addr_, s.addr_, reinterpret_cast<const arc_plan *>(&p),
                           reinterpret_cast<const arc_opnd *>(&od), reinterpret_cast<const arc_opnd *>(&os),
                           (unsigned)sizeof(TD), tname<TD>(), api, what);
}
} // namespace __arc

#endif /* ARC_MASK_H_ */
