/* sort_tiling_api.h - the host side of the sort family (host code of op
 * projects and single-source programs): GetSortMaxMinTmpSize (the Sort
 * forms taking a SortConfig), GetTopKMaxMinTmpSize and TopKTilingFunc, with
 * the configs from the device headers' one definition
 * (lib/sort/sort_config.h, lib/sort/topk_config.h).
 *
 * The NPU's scratch figures are not public and the simulated kernels need
 * none, so the sizes are a conservative estimate: two copies of every
 * value and index (a radix sort's ping-pong buffers; the 8-byte (value,
 * index) structures of a merge sort fit the same room), 32-byte aligned,
 * at least 256 bytes, min = max.  A bad shape or type leaves both zero and
 * says why on stderr. */
#ifndef ARC_HOST_SORT_TILING_API_H_
#define ARC_HOST_SORT_TILING_API_H_

#include <stdint.h>
#include <stdio.h>

#include "graph/types.h"
#include "lib/adv_elem_tiling_api.h" /* elem_count */

#if __has_include("../../device/lib/sort/sort_config.h")
#include "../../device/lib/sort/sort_config.h"
#include "../../device/lib/sort/topk_config.h"
#else
#include "lib/sort/sort_config.h"
#include "lib/sort/topk_config.h"
#endif
#include "lib/adv_tiling_api.h" /* optiling::TopkTiling */

namespace AscendC {
namespace arc_detail {
/* n elements of vs value bytes and is index bytes (merge: 8-byte structures at least). */
inline bool sort_scratch(uint64_t n, int vs, int is, bool merge, const char *api, uint32_t &maxValue, uint32_t &minValue)
{
    maxValue = minValue = 0;
    if (vs <= 0 || vs > 8 || n == 0) {
        fprintf(stderr, "ascendrtc: %s: %s\n", api, n == 0 ? "the shape has no elements" : "the value type has no size");
        return false;
    }
    const uint64_t per = (uint64_t)vs + (uint64_t)is;
    uint64_t bytes = (2 * n * (merge && per < 8 ? 8 : per) + 31) / 32 * 32;
    bytes = bytes < 256 ? 256 : bytes > 0xffffffffu ? 0xffffffffu : bytes;
    maxValue = minValue = (uint32_t)bytes;
    return true;
}
} // namespace arc_detail

template <class Shape>
inline void GetSortMaxMinTmpSize(const Shape &srcShape, ge::DataType valueType, ge::DataType indexType,
                                 bool isReuseSource, const SortConfig &config, uint32_t &maxValue, uint32_t &minValue)
{
    (void)isReuseSource;
    const int vs = ge::GetSizeByDataType(valueType), is = ge::GetSizeByDataType(indexType);
    arc_detail::sort_scratch(arc_detail::elem_count(srcShape), vs, is > 0 ? is : 4,
                             config.type == SortType::MERGE_SORT, "GetSortMaxMinTmpSize", maxValue, minValue);
}

/* TopK: outter rows of inner values with int32_t indices. */
template <class Platform>
inline bool GetTopKMaxMinTmpSize(const Platform &, const int32_t inner, const int32_t outter, const bool isReuseSource,
                                 const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                                 const uint32_t dataTypeSize, uint32_t &maxValue, uint32_t &minValue)
{
    (void)isReuseSource, (void)isInitIndex, (void)mode, (void)isLargest;
    const uint64_t n = inner > 0 && outter > 0 ? (uint64_t)inner * (uint64_t)outter : 0;
    return arc_detail::sort_scratch(n, (int)dataTypeSize, 4, true, "GetTopKMaxMinTmpSize", maxValue, minValue);
}
inline bool GetTopKMaxMinTmpSize(const int32_t inner, const int32_t outter, const int32_t k, const bool isReuseSource,
                                 const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                                 ge::DataType dataType, const TopKConfig &config, uint32_t &maxValue,
                                 uint32_t &minValue)
{
    (void)k, (void)isReuseSource, (void)isInitIndex, (void)mode, (void)isLargest;
    const uint64_t n = inner > 0 && outter > 0 ? (uint64_t)inner * (uint64_t)outter : 0;
    return arc_detail::sort_scratch(n, ge::GetSizeByDataType(dataType), 4, config.algo == TopKAlgo::MERGE_SORT,
                                    "GetTopKMaxMinTmpSize", maxValue, minValue);
}
/* The TopkTiling fields ascendrtc defines (lib/tiling/adv_tiling_data.h);
 * false (and a message) for a shape or k the kernel would refuse. */
template <class Platform>
inline bool TopKTilingFunc(const Platform &, const int32_t inner, const int32_t outter, const int32_t k,
                           const uint32_t dataTypeSize, const bool isInitIndex, enum TopKMode mode,
                           const bool isLargest, ::TopkTiling &topKTiling)
{
    (void)isInitIndex, (void)isLargest;
    topKTiling = ::TopkTiling{};
    uint32_t mx = 0, mn = 0;
    if (inner <= 0 || inner % 32 || (mode == TopKMode::TOPK_NSMALL && inner != 32) || inner > 4096 || outter <= 0 ||
        k < 1 || k > inner || (dataTypeSize != 2 && dataTypeSize != 4)) {
        fprintf(stderr, "ascendrtc: TopKTilingFunc: inner %d, outter %d, k %d or dataTypeSize %u is out of range\n",
                inner, outter, k, dataTypeSize);
        return false;
    }
    arc_detail::sort_scratch((uint64_t)inner * (uint64_t)outter, (int)dataTypeSize, 4, true, "TopKTilingFunc", mx, mn);
    topKTiling.tmpLocalSize = (int32_t)mn;
    topKTiling.allDataSize = inner * outter;
    topKTiling.innerDataSize = inner;
    topKTiling.kAlignFourBytes = (k + 7) / 8 * 8;
    topKTiling.kAlignTwoBytes = (k + 15) / 16 * 16;
    return true;
}
} // namespace AscendC

#endif
