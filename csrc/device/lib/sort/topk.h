/* topk.h - TopK (advanced API, sort) and TopKInfo, as the TopK page
 * defines them: per row of an [outter, inner] src (inner a multiple of 32,
 * the row's first n elements real), the k largest (or smallest) values and
 * their indices, in order: NaN first whichever the order (the page), inf
 * the largest, equal values by position (the earlier first), -0.0 equal to
 * +0.0.  Only the n real elements take part (the padding is the
 * developer's and never chosen).
 * - Indices: the position in the row, or with isInitIndex srcIndexLocal's
 *   (TOPK_NORMAL: one row of inner shared by every row; TOPK_NSMALL:
 *   outter x inner).
 * - Output rows: TOPK_NORMAL writes values k_pad apart (k rounded up to 32
 *   bytes of T) and indices (k + 7) / 8 * 8 apart; TOPK_NSMALL k apart.
 *   The padding elements are left alone (the page: not filled).
 * - isHasfinish: a row whose finishLocal is true gets index n for all k.
 * - TOPK_NSMALL needs inner 32; TOPK_NORMAL inner <= 4096; 1 <= k <= n <=
 *   inner.  MERGE_SORT (every SoC) takes half and float; the TopKConfig
 *   forms (Ascend 950) also RADIX_SELECT on 8- to 64-bit integers and
 *   bfloat16_t, config.order overriding isLargest unless UNSET.  sorted =
 *   false leaves the order undefined on the NPU: the sorted order here.
 * The TopkTiling is the host's (it describes the NPU's split); the
 * simulated core needs none of it, and no scratch (tmpLocal is checked for
 * alignment). */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_SORT_TOPK_H_
#define ARC_LIB_SORT_TOPK_H_

#include "lib/sort/sort.h"
#include "lib/sort/topk_config.h"

namespace AscendC {
struct TopKInfo {
    int32_t outter = 1;
    int32_t inner;
    int32_t n;
};
} // namespace AscendC

namespace __arc {
constexpr int32_t TOPK_INNER_MAX = 4096;
/* a goes before b in the largest-first (desc) or smallest-first order. */
template <class T> inline bool topk_before(T a, T b, bool desc)
{
    if constexpr (is_float_v<T>) {
        const float x = (float)a, y = (float)b;
        if (x != x || y != y) return x != x && y == y; /* NaN first */
        return desc ? x > y : x < y;
    } else {
        return desc ? a > b : a < b;
    }
}
template <class T, bool isInitIndex, bool isHasfinish, AscendC::TopKMode mode>
inline void topk(const AscendC::LocalTensor<T> &dv, const AscendC::LocalTensor<int32_t> &di,
                 const AscendC::LocalTensor<T> &src, const AscendC::LocalTensor<int32_t> &si,
                 const AscendC::LocalTensor<bool> &finish, int32_t k, const AscendC::TopKInfo &info, bool desc)
{
    const char *api = "AscendC::TopK";
    constexpr bool small = mode == AscendC::TopKMode::TOPK_NSMALL;
    const int32_t rows = info.outter, inner = info.inner, n = info.n;
    ARC_CHECK(rows >= 1 && inner > 0 && inner % 32 == 0 && (small ? inner == 32 : inner <= TOPK_INNER_MAX), api,
              "topKInfo {outter %d, inner %d}: outter >= 1 and inner a multiple of 32, %s", rows, inner,
              small ? "32 in TOPK_NSMALL" : "at most 4096 in TOPK_NORMAL");
    ARC_CHECK(n >= 1 && n <= inner && k >= 1 && k <= n, api, "k %d and topKInfo.n %d: 1 <= k <= n <= inner %d", k, n,
              inner);
    const int32_t kv = small ? k : (int32_t)((k * sizeof(T) + 31) / 32 * 32 / sizeof(T));
    const int32_t ki = small ? k : (k + 7) / 8 * 8;
    adv_need(dv, (uint64_t)(rows - 1) * kv + k, api, "dst dstValueLocal");
    adv_need(di, (uint64_t)(rows - 1) * ki + k, api, "dst dstIndexLocal");
    adv_need(src, (uint64_t)rows * inner, api, "src");
    if (isInitIndex) adv_need(si, small ? (uint64_t)rows * inner : (uint64_t)inner, api, "srcIndexLocal");
    if (isHasfinish) adv_need(finish, (uint64_t)rows, api, "finishLocal");
    check_overlap(dv, (uint64_t)rows * kv, src, (uint64_t)rows * inner, ARC_OVERLAP_NONE, api, "src");
    check_overlap(di, (uint64_t)rows * ki, src, (uint64_t)rows * inner, ARC_OVERLAP_NONE, api, "src");
    int32_t pos[TOPK_INNER_MAX];
    for (int32_t r = 0; r < rows; r++) {
        const T *v = src.addr_ + (uint64_t)r * inner;
        for (int32_t c = 0; c < n; c++) pos[c] = c;
        auto before = [&](uint32_t i, uint32_t j) {
            const T a = v[pos[i]], b = v[pos[j]];
            if (topk_before(a, b, desc)) return true;
            if (topk_before(b, a, desc)) return false;
            return pos[i] < pos[j];
        };
        heap_sort((uint32_t)n, before, [&](uint32_t i, uint32_t j) {
            int32_t t = pos[i];
            pos[i] = pos[j];
            pos[j] = t;
        });
        const bool done = isHasfinish && elem_raw(finish.addr_, (uint64_t)r);
        for (int32_t j = 0; j < k; j++) {
            const int32_t p = pos[j];
            dv.addr_[(uint64_t)r * kv + j] = v[p];
            int32_t idx = p;
            if (isInitIndex) idx = si.addr_[small ? (uint64_t)r * inner + p : (uint64_t)p];
            di.addr_[(uint64_t)r * ki + j] = done ? n : idx;
        }
    }
}
template <class T, const AscendC::TopKConfig &config> constexpr void topk_types()
{
    static_assert(config.algo == AscendC::TopKAlgo::MERGE_SORT || __NPU_ARCH__ != 2201,
                  "AscendC::TopK: RADIX_SELECT is Ascend 950 (dav-3510) only");
    static_assert(config.algo == AscendC::TopKAlgo::RADIX_SELECT
                      ? (one_of<T, half, bfloat16_t, float> ||
                         one_of<T, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>)
                      : one_of<T, half, float>,
                  "AscendC::TopK: MERGE_SORT takes half and float; RADIX_SELECT 8- to 64-bit integers, half, "
                  "bfloat16_t and float");
}
} // namespace __arc

namespace AscendC {
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig &config = defaultTopKConfig>
inline void TopK(const LocalTensor<T> &dstValueLocal, const LocalTensor<int32_t> &dstIndexLocal,
                 const LocalTensor<T> &srcLocal, const LocalTensor<int32_t> &srcIndexLocal,
                 const LocalTensor<bool> &finishLocal, const int32_t k, const TopkTiling &tilling,
                 const TopKInfo &topKInfo, const bool isLargest = true)
{
    (void)tilling;
    __arc::topk_types<T, config>();
    const bool desc = config.order == TopKOrder::UNSET ? isLargest : config.order == TopKOrder::LARGEST;
    __arc::topk<T, isInitIndex, isHasfinish, topkMode>(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
                                                      finishLocal, k, topKInfo, desc);
}
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig &config = defaultTopKConfig>
inline void TopK(const LocalTensor<T> &dstValueLocal, const LocalTensor<int32_t> &dstIndexLocal,
                 const LocalTensor<T> &srcLocal, const LocalTensor<int32_t> &srcIndexLocal,
                 const LocalTensor<bool> &finishLocal, const LocalTensor<uint8_t> &tmpLocal, const int32_t k,
                 const TopkTiling &tilling, const TopKInfo &topKInfo, const bool isLargest = true)
{
    __arc::adv_tmp(tmpLocal, "AscendC::TopK");
    TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode, config>(dstValueLocal, dstIndexLocal, srcLocal,
                                                                     srcIndexLocal, finishLocal, k, tilling, topKInfo,
                                                                     isLargest);
}
} // namespace AscendC

#endif /* ARC_LIB_SORT_TOPK_H_ */
