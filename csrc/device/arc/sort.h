/* sort.h - sorting on dav-2201's (score, index) layout: Sort32, MrgSort
 * (both signatures), GetMrgSortResult, Concat / Sort / Extract and the
 * GetSortLen / GetSortOffset helpers.
 *
 * Layout (public API docs, "layout mode 1"): every sorted element is an
 * 8-byte (score, index) structure; the score sits in the low bytes (a half
 * score in bytes 0-1, bytes 2-3 reserved), the uint32 index in bytes 4-7.
 * Sorting is descending by score; equal scores keep their input order.
 * The region-proposal layout (mode 2) belongs to other SoCs and is not
 * modelled. */
#ifndef ARC_SORT_H_
#define ARC_SORT_H_

#include "arc/mask.h"

namespace __arc {

template <class T> struct SortPair {
    T score;
    uint32_t index;
};
template <class T> inline SortPair<T> sort_get(const uint8_t *p)
{
    SortPair<T> e;
    __builtin_memcpy(&e.score, p, sizeof(T));
    __builtin_memcpy(&e.index, p + 4, 4);
    return e;
}
template <class T> inline void sort_put(uint8_t *p, const SortPair<T> &e)
{
    __builtin_memset(p, 0, 8);
    __builtin_memcpy(p, &e.score, sizeof(T));
    __builtin_memcpy(p + 4, &e.index, 4);
}
/* Stable descending insertion/merge sort of n pairs (n is small per call
 * or merged in runs). */
template <class T> inline void sort_desc(SortPair<T> *v, uint32_t n, SortPair<T> *tmp)
{
    for (uint32_t w = 1; w < n; w *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * w) {
            uint32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = (float)v[j].score > (float)v[i].score ? v[j++] : v[i++];
            while (i < mid) tmp[k++] = v[i++];
            while (j < hi) tmp[k++] = v[j++];
        }
        for (uint32_t i = 0; i < n; i++) v[i] = tmp[i];
    }
}
template <class T> inline void sort_types(const char *api)
{
    if constexpr (!one_of<T, half, float>)
        __arc_trap(api, "supports half and float scores only, not %s", tname<T>());
}
/* Bytes a tensor may span from its address (the room left in its buffer). */
template <class T> inline void sort_room(const AscendC::LocalTensor<T> &t, uint64_t bytes, const char *api,
                                         const char *what)
{
    ARC_CHECK(bytes <= t.cap_ || t.cap_ == 0, api, "%s: %llu bytes needed, the tensor's buffer has %u", what,
              (unsigned long long)bytes, t.cap_);
}
} // namespace __arc

namespace AscendC {

template <typename T> struct MrgSortSrcList {
    MrgSortSrcList() {}
    MrgSortSrcList(const LocalTensor<T> &a, const LocalTensor<T> &b, const LocalTensor<T> &c, const LocalTensor<T> &d)
        : src1(a), src2(b), src3(c), src4(d) {}
    MrgSortSrcList(const LocalTensor<T> &a, const LocalTensor<T> &b) : src1(a), src2(b) {}
    MrgSortSrcList(const LocalTensor<T> &a, const LocalTensor<T> &b, const LocalTensor<T> &c)
        : src1(a), src2(b), src3(c) {}
    LocalTensor<T> src1, src2, src3, src4;
};

struct MrgSort4Info {
    MrgSort4Info() {}
    MrgSort4Info(const uint16_t lens[4], bool exhausted, uint16_t valid, uint16_t repeat)
        : ifExhaustedSuspension(exhausted), validBit(valid), repeatTimes(repeat)
    {
        for (int i = 0; i < 4; i++) elementLengths[i] = lens[i];
    }
    uint16_t elementLengths[4] = {0, 0, 0, 0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint16_t repeatTimes = 1;
};

/* Elements of T that n sorted structures occupy (8 bytes each). */
template <typename T> inline constexpr uint32_t GetSortLen(const uint32_t n) { return n * 8u / (uint32_t)sizeof(T); }
template <typename T> inline constexpr uint32_t GetSortOffset(const uint32_t n) { return n * 8u / (uint32_t)sizeof(T); }

/* Each repeat sorts 32 scores of src0 with their uint32 indices from
 * src1 into 32 (score, index) structures of dst. */
template <typename T>
inline void Sort32(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<uint32_t> &src1,
                   const int32_t repeatTime)
{
    const char *api = "AscendC::Sort32";
    __arc::sort_types<T>(api);
    ARC_CHECK(repeatTime >= 0 && repeatTime <= 255, api, "repeatTime %d is outside 0..255", (int)repeatTime);
    uint32_t n = (uint32_t)repeatTime * 32;
    __arc::check_cnt(src0, n, api, "src0");
    __arc::check_cnt(src1, n, api, "src1");
    __arc::check_cnt(dst, GetSortLen<T>(n), api, "dst");
    /* no overlap rule on Sort32's page: none allowed (the general note) */
    __arc::check_overlap(dst, GetSortLen<T>(n), src0, n, ARC_OVERLAP_NONE, api, "src0");
    __arc::check_overlap(dst, GetSortLen<T>(n), src1, n, ARC_OVERLAP_NONE, api, "src1");
    __arc::SortPair<T> v[32], tmp[32];
    for (int32_t r = 0; r < repeatTime; r++) {
        for (uint32_t i = 0; i < 32; i++) v[i] = {src0.addr_[r * 32 + i], src1.addr_[r * 32 + i]};
        __arc::sort_desc(v, 32, tmp);
        uint8_t *o = (uint8_t *)(void *)dst.addr_ + (uint64_t)r * 256;
        for (uint32_t i = 0; i < 32; i++) __arc::sort_put(o + 8 * i, v[i]);
    }
}

namespace __detail {
/* Merges the lists selected by validBit (2-4 of them, each sorted
 * descending) into dst.  With `exhausted`, stops when one list runs out.
 * Returns the structures written; counts[k] gets what list k gave. */
template <typename T>
inline uint32_t mrg(uint8_t *dst, const uint8_t *const src[4], const uint16_t lens[4], uint16_t validBit,
                    bool exhausted, uint16_t counts[4])
{
    uint32_t pos[4] = {0, 0, 0, 0}, out = 0;
    for (;;) {
        int best = -1;
        __arc::SortPair<T> be{};
        bool any_done = false;
        for (int k = 0; k < 4; k++) {
            if (!(validBit >> k & 1)) continue;
            if (pos[k] >= lens[k]) { any_done = true; continue; }
            __arc::SortPair<T> e = __arc::sort_get<T>(src[k] + 8 * pos[k]);
            if (best < 0 || (float)e.score > (float)be.score) { best = k; be = e; }
        }
        if (best < 0 || (exhausted && any_done)) break;
        __arc::sort_put(dst + 8 * (uint64_t)out++, be);
        pos[best]++;
    }
    for (int k = 0; k < 4; k++) counts[k] = (uint16_t)pos[k];
    return out;
}
template <typename T>
inline void mrg_check(const LocalTensor<T> &dst, const MrgSortSrcList<T> &l, const uint16_t lens[4], uint16_t validBit,
                      int32_t repeat, const char *api)
{
    __arc::sort_types<T>(api);
    ARC_CHECK(validBit == 3 || validBit == 7 || validBit == 15, api,
              "validBit %u must select 2, 3 or 4 lists (0b11, 0b111 or 0b1111)", (unsigned)validBit);
    ARC_CHECK(repeat >= 1 && repeat <= 255, api, "repeatTime %d is outside 1..255", (int)repeat);
    const LocalTensor<T> *s[4] = {&l.src1, &l.src2, &l.src3, &l.src4};
    uint64_t total = 0;
    for (int k = 0; k < 4; k++) {
        if (!(validBit >> k & 1)) continue;
        ARC_CHECK(lens[k] <= 4095, api, "list %d has %u structures, at most 4095", k + 1, (unsigned)lens[k]);
        ARC_CHECK(s[k]->addr_ != nullptr, api, "list %d is selected by validBit but empty", k + 1);
        ARC_CHECK(((uintptr_t)s[k]->addr_ & 7u) == 0, api, "list %d is not 8-byte aligned", k + 1);
        __arc::sort_room(*s[k], (uint64_t)lens[k] * 8 * (uint64_t)repeat, api, "a source list");
        total += lens[k];
    }
    ARC_CHECK_ALIGN32(dst.addr_, api, "dst");
    __arc::sort_room(dst, total * 8 * (uint64_t)repeat, api, "dst");
    static const char *const names[4] = {"src1 (list 1)", "src2 (list 2)", "src3 (list 3)", "src4 (list 4)"};
    for (int k = 0; k < 4; k++) /* MrgSort's page: source and destination may not overlap */
        if (validBit >> k & 1)
            __arc::check_overlap(dst, total * 8 * (uint64_t)repeat / sizeof(T), *s[k],
                                 (uint64_t)lens[k] * 8 * (uint64_t)repeat / sizeof(T), ARC_OVERLAP_NONE, api, names[k]);
}
template <typename T>
inline void mrg_run(const LocalTensor<T> &dst, const MrgSortSrcList<T> &l, const uint16_t lens[4], uint16_t validBit,
                    bool exhausted, int32_t repeat, uint32_t sortedNum[4], const char *api)
{
    mrg_check(dst, l, lens, validBit, repeat, api);
    /* Repeats > 1 (assumption): the lists lie back to back and every
     * repeat moves all of them, and dst, past the structures one repeat
     * reads. */
    uint64_t step = 0;
    for (int k = 0; k < 4; k++)
        if (validBit >> k & 1) step += (uint64_t)lens[k] * 8;
    uint16_t counts[4] = {0, 0, 0, 0};
    for (int32_t r = 0; r < repeat; r++) {
        const uint8_t *src[4] = {(const uint8_t *)(void *)l.src1.addr_, (const uint8_t *)(void *)l.src2.addr_,
                                 (const uint8_t *)(void *)l.src3.addr_, (const uint8_t *)(void *)l.src4.addr_};
        for (int k = 0; k < 4; k++)
            if (src[k]) src[k] += r * step;
        mrg<T>((uint8_t *)(void *)dst.addr_ + r * step, src, lens, validBit, exhausted, counts);
    }
    uint64_t packed = 0;
    for (int k = 0; k < 4; k++) {
        packed |= (uint64_t)counts[k] << (16 * k);
        if (sortedNum) sortedNum[k] = counts[k];
    }
    __arc_core()->dev[__arc::SLOT_MRGSORT_COUNTS] = packed;
}
} // namespace __detail

/* Basic form: the MrgSort4Info parameter block. */
template <typename T>
inline void MrgSort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &src, const MrgSort4Info &params)
{
    __detail::mrg_run(dst, src, params.elementLengths, params.validBit, params.ifExhaustedSuspension,
                      params.repeatTimes, (uint32_t *)nullptr, "AscendC::MrgSort");
}
/* Sort-family form: counts per list, sortedNum receives what each gave. */
template <typename T, bool isExhaustedSuspension = false>
inline void MrgSort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &sortList, const uint16_t elementCountList[4],
                    uint32_t sortedNum[4], uint16_t validBit, const int32_t repeatTime)
{
    __detail::mrg_run(dst, sortList, elementCountList, validBit, isExhaustedSuspension, repeatTime, sortedNum,
                      "AscendC::MrgSort");
}
/* Structures each list gave to the last MrgSort (exhausted mode). */
inline void GetMrgSortResult(uint16_t &n1, uint16_t &n2, uint16_t &n3, uint16_t &n4)
{
    uint64_t p = __arc_core()->dev[__arc::SLOT_MRGSORT_COUNTS];
    n1 = (uint16_t)p;
    n2 = (uint16_t)(p >> 16);
    n3 = (uint16_t)(p >> 32);
    n4 = (uint16_t)(p >> 48);
}

/* dav-2201: Concat prepares the scores for Sort; in layout mode 1 that is
 * a copy of 16 elements per repeat (assumption: no reordering).  A default
 * LocalTensor as concat (the asc-devkit sort example passes one) is UB
 * offset 0 on the NPU: when src lies there the copy is onto itself and
 * concat becomes src; elsewhere the NPU would overwrite UB offset 0, which
 * stops the kernel. */
template <typename T>
inline void Concat(LocalTensor<T> &concat, const LocalTensor<T> &src, const LocalTensor<T> &tmp, const int32_t repeatTime)
{
    const char *api = "AscendC::Concat";
    __arc::sort_types<T>(api);
    (void)tmp;
    ARC_CHECK(repeatTime >= 0 && repeatTime <= 255, api, "repeatTime %d is outside 0..255", (int)repeatTime);
    uint32_t n = (uint32_t)repeatTime * 16;
    if (concat.addr_ == nullptr) {
        const unsigned long long at = (unsigned long long)((const uint8_t *)src.addr_ - __arc_core()->ub);
        ARC_CHECK(at == 0, api,
                  "concat is a default LocalTensor, which is UB offset 0 on the NPU, and src is at UB offset %llu: "
                  "the copy would overwrite UB offset 0; give concat a buffer", at);
        __arc::check_cnt(src, n, api, "src");
        concat = src;
        return;
    }
    __arc::check_cnt(concat, n, api, "dst concat"); /* written: "dst" (arc/race.h), first as vector dsts are */
    __arc::check_cnt(src, n, api, "src");
    if (concat.addr_ != src.addr_) __builtin_memmove(concat.addr_, src.addr_, n * sizeof(T));
}

/* Sorts repeatTime x 32 scores with their indices into (score, index)
 * structures: each group of 32 on its own, or all of them with isFullSort. */
template <typename T, bool isFullSort>
inline void Sort(const LocalTensor<T> &dst, const LocalTensor<T> &concat, const LocalTensor<uint32_t> &index,
                 LocalTensor<T> &tmp, const int32_t repeatTime)
{
    const char *api = "AscendC::Sort";
    __arc::sort_types<T>(api);
    (void)tmp;
    ARC_CHECK(repeatTime >= 0 && repeatTime <= 255, api, "repeatTime %d is outside 0..255", (int)repeatTime);
    uint32_t n = (uint32_t)repeatTime * 32;
    __arc::check_cnt(concat, n, api, "concat");
    __arc::check_cnt(index, n, api, "index");
    __arc::check_cnt(dst, GetSortLen<T>(n), api, "dst");
    if (!isFullSort) {
        Sort32(dst, concat, index, repeatTime);
        return;
    }
    __arc::SortPair<T> v[255 * 32], w[255 * 32];  /* 128 KiB of the core's 16 MiB stack */
    for (uint32_t i = 0; i < n; i++) v[i] = {concat.addr_[i], index.addr_[i]};
    __arc::sort_desc(v, n, w);
    for (uint32_t i = 0; i < n; i++) __arc::sort_put((uint8_t *)(void *)dst.addr_ + 8 * i, v[i]);
}

/* Splits repeatTime x 32 sorted structures into scores and indices. */
template <typename T>
inline void Extract(const LocalTensor<T> &dstValue, const LocalTensor<uint32_t> &dstIndex, const LocalTensor<T> &sorted,
                    const int32_t repeatTime)
{
    const char *api = "AscendC::Extract";
    __arc::sort_types<T>(api);
    ARC_CHECK(repeatTime >= 0 && repeatTime <= 255, api, "repeatTime %d is outside 0..255", (int)repeatTime);
    uint32_t n = (uint32_t)repeatTime * 32;
    __arc::check_cnt(sorted, GetSortLen<T>(n), api, "sorted");
    __arc::check_cnt(dstValue, n, api, "dstValue");
    __arc::check_cnt(dstIndex, n, api, "dstIndex");
    for (uint32_t i = 0; i < n; i++) {
        __arc::SortPair<T> e = __arc::sort_get<T>((const uint8_t *)(void *)sorted.addr_ + 8 * i);
        dstValue.addr_[i] = e.score;
        dstIndex.addr_[i] = e.index;
    }
}
} // namespace AscendC

#endif /* ARC_SORT_H_ */
