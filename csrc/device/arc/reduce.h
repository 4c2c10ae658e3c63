/* reduce.h - reductions.  Level 2: ReduceSum/Max/Min(dst, src, work, count
 * [, calIndex]) put the result in dst[0] (and the index's bits in dst[1]).
 * Level 0: WholeReduceSum/Max/Min (one result per repeat), BlockReduceSum/
 * Max/Min (one per 32-byte block), PairReduceSum (adjacent pairs).  Sums
 * are pairwise trees in T's precision, as the vector unit does. */
#ifndef ARC_REDUCE_H_
#define ARC_REDUCE_H_

#include "arc/vec_unary.h"

namespace AscendC {
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
} // namespace AscendC

namespace __arc {
enum RedOp { RED_SUM = 0, RED_MAX, RED_MIN };

template <class T> inline T red2(T a, T b, int op)
{
    return op == RED_SUM ? (T)(a + b) : op == RED_MAX ? (b > a ? b : a) : (b < a ? b : a);
}
/* Pairwise tree over v[0..n) in place; returns the result (n >= 1). */
template <class T> inline T tree(T *v, uint32_t n, int op)
{
    while (n > 1) {
        uint32_t h = n / 2;
        for (uint32_t i = 0; i < h; i++) v[i] = red2(v[2 * i], v[2 * i + 1], op);
        if (n & 1) v[h] = v[n - 1];
        n = h + (n & 1);
    }
    return v[0];
}
template <class T> inline void red_types(const char *api)
{
    (void)api;
    ARC_DTYPE_REQUIRE((one_of<T, half, float> || __NPU_ARCH__ != 2201), "reductions on dav-2201 support half and float only");
}
/* Index bits stored in an element of T (uint16 in half, uint32 in float). */
template <class T> inline T idx_bits(uint32_t i)
{
    T v;
    if constexpr (sizeof(T) == 2) { uint16_t b = (uint16_t)(i > 65535 ? 65535 : i); __builtin_memcpy(&v, &b, 2); }
    else { uint32_t b = i; __builtin_memcpy(&v, &b, sizeof(T) < 4 ? sizeof(T) : 4); }
    return v;
}

/* Whether a lane mask selects lanes 0..k-1 and nothing else (k may be 0). */
inline bool prefix_lanes(uint64_t lo, uint64_t hi)
{
    if (hi) return lo == ~0ull && (hi & (hi + 1)) == 0;
    return (lo & (lo + 1)) == 0;
}

/* The last reduction's value and index, for GetAccVal / GetReduceMaxMinCount. */
inline void record_acc(double v, uint32_t idx)
{
    arc_core *c = __arc_core();
    c->dev[SLOT_ACC_VAL] = __builtin_bit_cast(uint64_t, v);
    c->dev[SLOT_ACC_IDX] = idx;
}

/* Reduce count contiguous elements; *idx gets the first position of the
 * max/min. */
template <class T> inline T reduce_flat(const T *s, uint32_t n, int op, uint32_t *idx)
{
    const uint32_t L = 256 / sizeof(T);
    if (op != RED_SUM) {
        T best = s[0];
        uint32_t bi = 0;
        for (uint32_t i = 1; i < n; i++)
            if (op == RED_MAX ? s[i] > best : s[i] < best) { best = s[i]; bi = i; }
        if (idx) *idx = bi;
        return best;
    }
    /* Per repeat, then across repeat results. */
    T part[256];
    T acc = (T)0;
    bool first = true;
    for (uint32_t base = 0; base < n; base += L * 256) {
        uint32_t nr = 0;
        for (uint32_t r = base; r < n && r < base + L * 256; r += L) {
            T v[256 / sizeof(T)];
            uint32_t k = n - r < L ? n - r : L;
            for (uint32_t i = 0; i < k; i++) v[i] = s[r + i];
            part[nr++] = tree(v, k, RED_SUM);
        }
        T t = tree(part, nr, RED_SUM);
        acc = first ? t : (T)(acc + t);
        first = false;
    }
    return acc;
}
/* A reduction's results: written on PIPE_V, reported first (a vector call
 * names dst first) and clamped to the tensor, whose bound is checked after.
 * Results repStride apart are a strided footprint (ARC_RACE_SPARSE). */
template <class T>
inline void red_dst(const AscendC::LocalTensor<T> &dst, uint64_t n, bool strided, const char *api)
{
    uint64_t b = n * sizeof(T);
    if (b > dst.bytes_) b = dst.bytes_;
    cost_esize<T>();
    race(RP_V, strided ? 2 | ARC_RACE_SPARSE : 2, dst.addr_, b, api);
}
} // namespace __arc

namespace AscendC {
namespace __detail {
template <typename T>
inline void reduce2(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work, int32_t count,
                    int op, bool calIndex, const char *api)
{
    __arc::red_types<T>(api);
    __arc::red_dst(dst, calIndex ? 2 : 1, false, api);
    __arc::check_cnt(src, count, api, "src");
    ARC_CHECK(count > 0, api, "count %d must be positive", (int)count);
    ARC_CHECK(dst.bytes_ >= (calIndex ? 2 : 1) * sizeof(T), api, "dst has %u elements, %d needed", dst.GetSize(),
              calIndex ? 2 : 1);
    ARC_CHECK(((uintptr_t)dst.addr_ % sizeof(T)) == 0, api, "dst is not aligned to its element size");
    (void)work;
    uint32_t idx = 0;
    T r = __arc::reduce_flat(src.addr_, (uint32_t)count, op, &idx);
    dst.addr_[0] = r;
    if (calIndex) dst.addr_[1] = __arc::idx_bits<T>(idx);
    __arc::record_acc((double)(float)r, idx);
}
/* Level-0 form of level-2 reduce: mask/repeat over src, one result. */
template <typename T>
inline void reduce2_l0(const LocalTensor<T> &dst, const LocalTensor<T> &src, const __arc::Plan &p, int32_t srcRepStride,
                       int op, bool calIndex, const char *api)
{
    __arc::red_types<T>(api);
    __arc::red_dst(dst, calIndex ? 2 : 1, false, api);
    __arc::Opnd os = __arc::opnd<T>(1, (uint32_t)srcRepStride);
    __arc::check_l0(src, p, os, api, "src");
    T parts[256];
    uint32_t pidx[256];
    uint32_t nr = 0;
    for (uint32_t r = 0; r < p.repeat; r++) {
        T v[256];
        uint32_t li[256];
        uint32_t k = 0;
        __arc::Plan one = p;
        one.repeat = 1;
        if (p.counter) one.count = p.count - (uint64_t)r * p.L > p.L ? p.L : p.count - (uint64_t)r * p.L;
        __arc::lanes(one, [&](uint32_t, uint32_t l) { li[k] = l; v[k++] = src.addr_[__arc::off(os, r, l)]; });
        if (k == 0) continue;
        if (nr == 256) {  /* counter mode can exceed 255 repeats: fold */
            uint32_t bi = 0;
            if (op == __arc::RED_SUM) parts[0] = __arc::tree(parts, nr, op);
            else {
                for (uint32_t i = 1; i < nr; i++)
                    if (op == __arc::RED_MAX ? parts[i] > parts[bi] : parts[i] < parts[bi]) bi = i;
                parts[0] = parts[bi];
                pidx[0] = pidx[bi];
            }
            nr = 1;
        }
        if (op == __arc::RED_SUM) parts[nr] = __arc::tree(v, k, op);
        else {
            uint32_t bi = 0;
            for (uint32_t i = 1; i < k; i++)
                if (op == __arc::RED_MAX ? v[i] > v[bi] : v[i] < v[bi]) bi = i;
            parts[nr] = v[bi];
            pidx[nr] = r * p.L + li[bi];
        }
        nr++;
    }
    ARC_CHECK(nr > 0, api, "the mask selects no element");
    uint32_t idx = 0;
    T res;
    if (op == __arc::RED_SUM) res = __arc::tree(parts, nr, op);
    else {
        uint32_t bi = 0;
        for (uint32_t i = 1; i < nr; i++)
            if (op == __arc::RED_MAX ? parts[i] > parts[bi] : parts[i] < parts[bi]) bi = i;
        res = parts[bi];
        idx = pidx[bi];
    }
    dst.addr_[0] = res;
    if (calIndex) dst.addr_[1] = __arc::idx_bits<T>(idx);
    __arc::record_acc((double)(float)res, idx);
}
} // namespace __detail

#define ARC_REDUCE2(NAME, OP)                                                                                       \
    template <typename T>                                                                                           \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work,             \
                     const int32_t count)                                                                           \
    {                                                                                                               \
        __detail::reduce2(dst, src, work, count, OP, false, "AscendC::" #NAME);                                     \
    }                                                                                                               \
    template <typename T, bool isSetMask = true>                                                                    \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work,             \
                     const uint64_t mask, const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = false) \
    {                                                                                                               \
        (void)work;                                                                                                 \
        __detail::reduce2_l0(dst, src, __arc::plan_len(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::" #NAME), \
                             srcRepStride, OP, calIndex, "AscendC::" #NAME);                                        \
    }                                                                                                               \
    template <typename T, bool isSetMask = true>                                                                    \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work,             \
                     const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = false) \
    {                                                                                                               \
        (void)work;                                                                                                 \
        __detail::reduce2_l0(dst, src, __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::" #NAME), \
                             srcRepStride, OP, calIndex, "AscendC::" #NAME);                                        \
    }

ARC_REDUCE2(ReduceSum, __arc::RED_SUM)
template <typename T>
inline void ReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work, const int32_t count,
                      bool calIndex = false)
{
    __detail::reduce2(dst, src, work, count, __arc::RED_MAX, calIndex, "AscendC::ReduceMax");
}
template <typename T>
inline void ReduceMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work, const int32_t count,
                      bool calIndex = false)
{
    __detail::reduce2(dst, src, work, count, __arc::RED_MIN, calIndex, "AscendC::ReduceMin");
}
template <typename T, bool isSetMask = true>
inline void ReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &, const uint64_t mask,
                      const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = false)
{
    __detail::reduce2_l0(dst, src, __arc::plan_len(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::ReduceMax"),
                         srcRepStride, __arc::RED_MAX, calIndex, "AscendC::ReduceMax");
}
template <typename T, bool isSetMask = true>
inline void ReduceMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &, const uint64_t mask,
                      const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = false)
{
    __detail::reduce2_l0(dst, src, __arc::plan_len(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::ReduceMin"),
                         srcRepStride, __arc::RED_MIN, calIndex, "AscendC::ReduceMin");
}

template <typename T, bool isSetMask = true>
inline void ReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &, const uint64_t mask[],
                      const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = false)
{
    __detail::reduce2_l0(dst, src, __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::ReduceMax"),
                         srcRepStride, __arc::RED_MAX, calIndex, "AscendC::ReduceMax");
}
template <typename T, bool isSetMask = true>
inline void ReduceMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &, const uint64_t mask[],
                      const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = false)
{
    __detail::reduce2_l0(dst, src, __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::ReduceMin"),
                         srcRepStride, __arc::RED_MIN, calIndex, "AscendC::ReduceMin");
}

/* ---- WholeReduce: one result per repeat at dst[r * dstRepStride] (pairs for value+index) ---- */
namespace __detail {
template <typename T>
inline void whole(const LocalTensor<T> &dst, const LocalTensor<T> &src, const __arc::Plan &p, int32_t dstRepStride,
                  int32_t srcBlkStride, int32_t srcRepStride, int op, ReduceOrder order, const char *api)
{
    __arc::red_types<T>(api);
    bool pair = op != __arc::RED_SUM && (order == ReduceOrder::ORDER_VALUE_INDEX || order == ReduceOrder::ORDER_INDEX_VALUE);
    bool idx32 = op != __arc::RED_SUM && order == ReduceOrder::ORDER_ONLY_INDEX;
    uint32_t per = pair ? 2 : idx32 ? 4 / sizeof(T) : 1;
    if (per == 0) per = 1;
    if (p.repeat)
        __arc::red_dst(dst, (uint64_t)(p.repeat - 1) * dstRepStride * per + per, p.repeat > 1 && dstRepStride > 1, api);
#ifndef ASCENDRTC_NPU_SEMANTICS
    if constexpr (__arc::one_of<T, float>) {
        /* Compiled once in the runtime (rt/services/reduce_whole.c): same checks,
         * lane order and sum tree, so the same results. */
        __arc_whole_f32(dst.addr_, dst.bytes_, src.addr_, src.bytes_, reinterpret_cast<const arc_plan *>(&p),
                        dstRepStride, srcBlkStride, srcRepStride, op, (int)order, api);
        return;
    }
#endif
    __arc::Opnd os = __arc::opnd<T>((uint32_t)srcBlkStride, (uint32_t)srcRepStride);
    __arc::check_l0(src, p, os, api, "src");
    if (p.repeat)
        ARC_CHECK(((uint64_t)(p.repeat - 1) * dstRepStride * per + per) * sizeof(T) <= dst.bytes_, api,
                  "dst: %u repeats with dstRepStride %d need %llu elements, the tensor has %u", p.repeat,
                  (int)dstRepStride, (unsigned long long)((p.repeat - 1) * (uint64_t)dstRepStride * per + per),
                  dst.GetSize());
    /* Fast path (the common row-reduction shape): when each repeat's active
     * lanes are 0..k-1 and its blocks are adjacent (srcBlkStride 1), the
     * lanes are one contiguous run, read straight instead of lane by lane
     * (the same elements in the same order, so the same results). */
    const bool run = srcBlkStride == 1 && (p.counter || __arc::prefix_lanes(p.lo, p.hi));
    const uint32_t run_k = p.counter ? 0 : (uint32_t)(__builtin_popcountll(p.lo) + __builtin_popcountll(p.hi));
    for (uint32_t r = 0; r < p.repeat; r++) {
        T v[256];
        uint32_t li[256];
        uint32_t k = 0;
        if (run) {
            k = p.counter ? (uint32_t)(p.count - (uint64_t)r * p.L > p.L ? p.L : p.count - (uint64_t)r * p.L) : run_k;
            const T *s = src.addr_ + __arc::off(os, r, 0);
            for (uint32_t i = 0; i < k; i++) { v[i] = s[i]; li[i] = i; }
        } else {
            __arc::Plan one = p;
            one.repeat = 1;
            if (p.counter) one.count = p.count - (uint64_t)r * p.L > p.L ? p.L : p.count - (uint64_t)r * p.L;
            __arc::lanes(one, [&](uint32_t, uint32_t l) { li[k] = l; v[k++] = src.addr_[__arc::off(os, r, l)]; });
        }
        if (k == 0) continue;
        T *d = dst.addr_ + (uint64_t)r * dstRepStride * per;
        if (op == __arc::RED_SUM) {
            d[0] = __arc::tree(v, k, op);
            __arc::record_acc((double)(float)d[0], 0);
            continue;
        }
        uint32_t bi = 0;
        for (uint32_t i = 1; i < k; i++)
            if (op == __arc::RED_MAX ? v[i] > v[bi] : v[i] < v[bi]) bi = i;
        __arc::record_acc((double)(float)v[bi], li[bi]);
        switch (order) {
        case ReduceOrder::ORDER_VALUE_INDEX: d[0] = v[bi]; d[1] = __arc::idx_bits<T>(li[bi]); break;
        case ReduceOrder::ORDER_INDEX_VALUE: d[0] = __arc::idx_bits<T>(li[bi]); d[1] = v[bi]; break;
        case ReduceOrder::ORDER_ONLY_VALUE: d[0] = v[bi]; break;
        default: {
            uint32_t b = li[bi];
            __builtin_memcpy((void *)d, &b, 4);
        }
        }
    }
}
} // namespace __detail

template <typename T, bool isSetMask = true>
inline void WholeReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask, const int32_t repeatTime,
                           const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride)
{
    __detail::whole(dst, src, __arc::plan_len(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::WholeReduceSum"),
                    dstRepStride, srcBlkStride, srcRepStride, __arc::RED_SUM, ReduceOrder::ORDER_ONLY_VALUE,
                    "AscendC::WholeReduceSum");
}
template <typename T, bool isSetMask = true>
inline void WholeReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[], const int32_t repeatTime,
                           const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride)
{
    __detail::whole(dst, src, __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::WholeReduceSum"),
                    dstRepStride, srcBlkStride, srcRepStride, __arc::RED_SUM, ReduceOrder::ORDER_ONLY_VALUE,
                    "AscendC::WholeReduceSum");
}
/* RepeatReduceSum: one sum per repeat, like WholeReduceSum (assumption:
 * results at dst[r * dstRepStride]; dstBlkStride has no effect). */
template <typename T, bool isSetMask = true>
inline void RepeatReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,
                            const uint64_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                            const int32_t dstRepStride, const int32_t srcRepStride)
{
    (void)dstBlkStride;
    __detail::whole(dst, src, __arc::plan_len(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::RepeatReduceSum"),
                    dstRepStride, srcBlkStride, srcRepStride, __arc::RED_SUM, ReduceOrder::ORDER_ONLY_VALUE,
                    "AscendC::RepeatReduceSum");
}
#define ARC_WHOLE_MM(NAME, OP)                                                                                      \
    template <typename T, bool isSetMask = true>                                                                    \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask, const int32_t repeatTime, \
                     const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,            \
                     const ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)                                     \
    {                                                                                                               \
        __detail::whole(dst, src, __arc::plan_len(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::" #NAME), \
                        dstRepStride, srcBlkStride, srcRepStride, OP, order, "AscendC::" #NAME);                    \
    }                                                                                                               \
    template <typename T, bool isSetMask = true>                                                                    \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],                  \
                     const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,              \
                     const int32_t srcRepStride, const ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)         \
    {                                                                                                               \
        __detail::whole(dst, src, __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::" #NAME), \
                        dstRepStride, srcBlkStride, srcRepStride, OP, order, "AscendC::" #NAME);                    \
    }
ARC_WHOLE_MM(WholeReduceMax, __arc::RED_MAX)
ARC_WHOLE_MM(WholeReduceMin, __arc::RED_MIN)

/* ---- BlockReduce: 8 results per repeat (one per block), repeat r's at
 * dst[r * dstRepStride * 8]; PairReduce: L/2 per repeat. ---- */
namespace __detail {
template <typename T>
inline void blockred(const LocalTensor<T> &dst, const LocalTensor<T> &src, const __arc::Plan &p, int32_t dstRepStride,
                     int32_t srcBlkStride, int32_t srcRepStride, int op, bool pairs, const char *api)
{
    __arc::red_types<T>(api);
    const uint32_t epb = 32 / sizeof(T);
    const uint32_t g = pairs ? 2 : epb, nout = p.L / g;
    __arc::Opnd os = __arc::opnd<T>((uint32_t)srcBlkStride, (uint32_t)srcRepStride);
    if (p.repeat)
        __arc::red_dst(dst, (uint64_t)(p.repeat - 1) * dstRepStride * nout + nout, p.repeat > 1 && dstRepStride > 1,
                       api);
    __arc::check_l0(src, p, os, api, "src");
    if (p.repeat)
        ARC_CHECK(((uint64_t)(p.repeat - 1) * dstRepStride * nout + nout) * sizeof(T) <= dst.bytes_, api,
                  "dst: %u repeats need %llu elements, the tensor has %u", p.repeat,
                  (unsigned long long)((p.repeat - 1) * (uint64_t)dstRepStride * nout + nout), dst.GetSize());
    for (uint32_t r = 0; r < p.repeat; r++) {
        T v[256];
        bool on[256];
        for (uint32_t l = 0; l < p.L; l++) on[l] = false;
        __arc::Plan one = p;
        one.repeat = 1;
        if (p.counter) one.count = p.count - (uint64_t)r * p.L > p.L ? p.L : p.count - (uint64_t)r * p.L;
        __arc::lanes(one, [&](uint32_t, uint32_t l) { on[l] = true; v[l] = src.addr_[__arc::off(os, r, l)]; });
        T *d = dst.addr_ + (uint64_t)r * dstRepStride * nout;
        for (uint32_t b = 0; b < nout; b++) {
            T w[32];
            uint32_t k = 0;
            for (uint32_t i = 0; i < g; i++)
                if (on[b * g + i]) w[k++] = v[b * g + i];
            if (k) d[b] = __arc::tree(w, k, op);
        }
    }
}
} // namespace __detail
#define ARC_BLOCK_RED(NAME, OP, PAIRS)                                                                              \
    template <typename T, bool isSetMask = true>                                                                    \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime, const int32_t mask, \
                     const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride)            \
    {                                                                                                               \
        __detail::blockred(dst, src, __arc::plan_len(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::" #NAME), \
                           dstRepStride, srcBlkStride, srcRepStride, OP, PAIRS, "AscendC::" #NAME);                 \
    }                                                                                                               \
    template <typename T, bool isSetMask = true>                                                                    \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,                \
                     const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,                 \
                     const int32_t srcRepStride)                                                                    \
    {                                                                                                               \
        __detail::blockred(dst, src, __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::" #NAME), \
                           dstRepStride, srcBlkStride, srcRepStride, OP, PAIRS, "AscendC::" #NAME);                 \
    }
ARC_BLOCK_RED(BlockReduceSum, __arc::RED_SUM, false)
ARC_BLOCK_RED(BlockReduceMax, __arc::RED_MAX, false)
ARC_BLOCK_RED(BlockReduceMin, __arc::RED_MIN, false)
ARC_BLOCK_RED(PairReduceSum, __arc::RED_SUM, true)

/* The value (and index) of the last reduction on this core. */
template <typename T> inline T GetAccVal()
{
    return (T)__builtin_bit_cast(double, (uint64_t)__arc_core()->dev[__arc::SLOT_ACC_VAL]);
}
template <typename T> inline void GetReduceMaxMinCount(T &maxMinValue, T &maxMinIndex)
{
    maxMinValue = GetAccVal<T>();
    maxMinIndex = (T)__arc_core()->dev[__arc::SLOT_ACC_IDX];
}
template <typename T> inline void GetReduceMaxMinCount(T &maxMinValue) { maxMinValue = GetAccVal<T>(); }
} // namespace AscendC

#endif /* ARC_REDUCE_H_ */
