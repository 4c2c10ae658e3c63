/* sort.h - the Sort forms taking a SortConfig (Ascend 950 only), as the
 * Sort page defines them: values (and, when asked, their indices) sorted
 * ascending or, with isDescend, descending; both algorithms are stable
 * (equal values keep their input order).  Without srcIndexTensor the
 * indices are the input positions 0..n-1 (uint32_t).
 * - Values order as their bits do in a radix sort: integers by value;
 *   floats by the usual order-preserving key (sign set: all bits flipped,
 *   else the sign bit), so -0.0 comes before +0.0 ascending and NaNs sit
 *   at the ends by their sign bit.  MERGE_SORT orders the same (our
 *   choice: the page is silent on zeros and NaN).
 * - RADIX_SORT: 8- to 64-bit integers, half, bfloat16_t, float; indices
 *   uint32_t, int32_t, uint64_t, int64_t.  MERGE_SORT: half and float,
 *   uint32_t indices, calCount a multiple of 32, and dst room for 8 bytes
 *   per element (the page).
 * No source may overlap a destination; the sharedTmpBuffer forms check
 * its alignment.  The dav-2201 Sort (Concat / Sort / Extract) is
 * arc/sort.h's. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_SORT_SORT_H_
#define ARC_LIB_SORT_SORT_H_

#include "lib/adv/common.h"
#include "lib/sort/sort_config.h"

namespace __arc {
/* The radix key of a value: unsigned, ordered as the values. */
template <class T> inline uint64_t sort_key(T v)
{
    typedef typename uint_of<sizeof(T)>::type U;
    U b;
    __builtin_memcpy(&b, &v, sizeof(T));
    constexpr U top = (U)((U)1 << (sizeof(T) * 8 - 1));
    if constexpr (is_float_v<T>)
        return (b & top) ? (U)~b : (U)(b | top);
    else if constexpr (__is_signed(T))
        return (U)(b ^ top);
    else
        return b;
}
/* An in-place heap sort of n items by before(i, j) ("item i goes first"),
 * exchanging items with swap(i, j): no scratch. */
template <class Before, class Swap> inline void heap_sort(uint32_t n, Before before, Swap swap)
{
    auto sift = [&](uint32_t root, uint32_t end) {
        for (;;) {
            uint32_t c = 2 * root + 1;
            if (c >= end) return;
            if (c + 1 < end && before(c, c + 1)) c++;
            if (!before(root, c)) return;
            swap(root, c);
            root = c;
        }
    };
    for (uint32_t i = n / 2; i-- > 0;) sift(i, n);
    for (uint32_t end = n; end-- > 1;) {
        swap(0, end);
        sift(0, end);
    }
}
template <class T> inline bool key_before(T a, T b, bool desc)
{
    const uint64_t ka = sort_key(a), kb = sort_key(b);
    return desc ? ka > kb : ka < kb;
}
/* Values alone: equal keys are equal bits, so any order of them is the stable one. */
template <class T> inline void sort_values(T *d, uint32_t n, bool desc)
{
    heap_sort(n, [&](uint32_t i, uint32_t j) { return key_before(d[i], d[j], desc); },
              [&](uint32_t i, uint32_t j) { T t = d[i]; d[i] = d[j]; d[j] = t; });
}
/* The positions perm[0..n) of v in the stable order: by key, then by
 * position (unique, so the heap sort's order is the stable one). */
template <class T, class P> inline void sort_positions(const T *v, P *perm, uint32_t n, bool desc)
{
    for (uint32_t i = 0; i < n; i++) perm[i] = (P)i;
    auto before = [&](uint32_t i, uint32_t j) {
        const T a = v[(uint64_t)perm[i]], b = v[(uint64_t)perm[j]];
        if (sort_key(a) != sort_key(b)) return key_before(a, b, desc);
        return (uint64_t)perm[i] < (uint64_t)perm[j];
    };
    heap_sort(n, before, [&](uint32_t i, uint32_t j) { P t = perm[i]; perm[i] = perm[j]; perm[j] = t; });
}

/* dst (and dstIndex when DI) from src (and srcIndex when SI). */
template <const AscendC::SortConfig &config, bool DI, bool SI, class T, class U>
inline void sort_cfg(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<U> *dstIndex,
                     const AscendC::LocalTensor<T> &src, const AscendC::LocalTensor<U> *srcIndex, uint32_t n)
{
    const char *api = "AscendC::Sort";
    static_assert(__NPU_ARCH__ != 2201, "AscendC::Sort: the SortConfig forms are Ascend 950 (dav-3510) only");
    constexpr bool merge = config.type == AscendC::SortType::MERGE_SORT;
    static_assert(merge ? one_of<T, half, float> : (one_of<T, half, bfloat16_t, float> || one_of<T, int8_t, uint8_t,
                  int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>),
                  "AscendC::Sort: RADIX_SORT sorts 8- to 64-bit integers, half, bfloat16_t and float; MERGE_SORT half "
                  "and float");
    static_assert(merge ? is_same<U, uint32_t>::value : one_of<U, uint32_t, int32_t, uint64_t, int64_t>,
                  "AscendC::Sort: indices are uint32_t (MERGE_SORT), or uint32_t, int32_t, uint64_t, int64_t (RADIX_SORT)");
    if (merge)
        ARC_CHECK(n % 32 == 0, api, "MERGE_SORT: calCount %u is not a multiple of 32 (pad the data)", n);
    /* MERGE_SORT's dst holds 8-byte structures on the way (the page) */
    adv_need(dst, merge ? (uint64_t)n * 8 / sizeof(T) : n, api, "dst");
    if (DI) adv_need(*dstIndex, n, api, "dst dstIndexTensor");
    adv_need(src, n, api, "src");
    if (SI) adv_need(*srcIndex, n, api, "srcIndexTensor");
    check_overlap(dst, n, src, n, ARC_OVERLAP_NONE, api, "src");
    if (DI) {
        check_overlap(*dstIndex, n, src, n, ARC_OVERLAP_NONE, api, "src");
        if (SI) check_overlap(*dstIndex, n, *srcIndex, n, ARC_OVERLAP_NONE, api, "srcIndexTensor");
    }
    const T *s = src.addr_;
    T *d = dst.addr_;
    if constexpr (!DI) {
        for (uint32_t i = 0; i < n; i++) d[i] = s[i];
        sort_values(d, n, config.isDescend);
    } else {
        U *perm = dstIndex->addr_;
        sort_positions(s, perm, n, config.isDescend);
        for (uint32_t i = 0; i < n; i++) {
            const uint64_t p = (uint64_t)perm[i];
            d[i] = s[p];
            if constexpr (SI) perm[i] = srcIndex->addr_[p];
        }
    }
}
} // namespace __arc

namespace AscendC {
template <typename T, bool isReuseSource = false, const SortConfig &config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount)
{
    __arc::sort_cfg<config, false, false, T, uint32_t>(dstTensor, nullptr, srcTensor, nullptr, calCount);
}
template <typename T, bool isReuseSource = false, const SortConfig &config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T> &dstTensor, LocalTensor<uint32_t> &dstIndexTensor, const LocalTensor<T> &srcTensor,
                 const uint32_t calCount)
{
    __arc::sort_cfg<config, true, false, T, uint32_t>(dstTensor, &dstIndexTensor, srcTensor, nullptr, calCount);
}
template <typename T, typename U, bool isReuseSource = false, const SortConfig &config = DEFAULT_SORT_CONFIG>
inline void Sort(const LocalTensor<T> &dstTensor, const LocalTensor<U> &dstIndexTensor, const LocalTensor<T> &srcTensor,
                 const LocalTensor<U> &srcIndexTensor, const uint32_t calCount)
{
    __arc::sort_cfg<config, true, true, T, U>(dstTensor, &dstIndexTensor, srcTensor, &srcIndexTensor, calCount);
}
template <typename T, bool isReuseSource = false, const SortConfig &config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                 const uint32_t calCount)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::Sort");
    Sort<T, isReuseSource, config>(dstTensor, srcTensor, calCount);
}
template <typename T, bool isReuseSource = false, const SortConfig &config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T> &dstTensor, LocalTensor<uint32_t> &dstIndexTensor, const LocalTensor<T> &srcTensor,
                 const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::Sort");
    Sort<T, isReuseSource, config>(dstTensor, dstIndexTensor, srcTensor, calCount);
}
template <typename T, typename U, bool isReuseSource = false, const SortConfig &config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T> &dstTensor, LocalTensor<U> &dstIndexTensor, const LocalTensor<T> &srcTensor,
                 const LocalTensor<U> &srcIndexTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                 const uint32_t calCount)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::Sort");
    Sort<T, U, isReuseSource, config>(dstTensor, dstIndexTensor, srcTensor, srcIndexTensor, calCount);
}
} // namespace AscendC

#endif /* ARC_LIB_SORT_SORT_H_ */
