/* sort_tiling_api.h - GetSortMaxMinTmpSize, the scratch of the Sort forms
 * taking a SortConfig (host code of op projects and single-source
 * programs), with SortType/SortConfig from the device headers' one
 * definition (lib/sort/sort_config.h).
 *
 * The NPU's figure is not public and the simulated Sort needs no scratch,
 * so both sizes are a conservative estimate: two copies of every value and
 * index (a radix sort's ping-pong buffers; MERGE_SORT's 8-byte structures
 * fit the same room), 32-byte aligned, at least 256 bytes.  A bad shape or
 * value type leaves both zero and says why on stderr. */
#ifndef ARC_HOST_SORT_TILING_API_H_
#define ARC_HOST_SORT_TILING_API_H_

#include <stdint.h>
#include <stdio.h>

#include "graph/types.h"
#include "lib/adv_elem_tiling_api.h" /* elem_count */

#if __has_include("../../device/lib/sort/sort_config.h")
#include "../../device/lib/sort/sort_config.h"
#else
#include "lib/sort/sort_config.h"
#endif

namespace AscendC {
template <class Shape>
inline void GetSortMaxMinTmpSize(const Shape &srcShape, ge::DataType valueType, ge::DataType indexType,
                                 bool isReuseSource, const SortConfig &config, uint32_t &maxValue, uint32_t &minValue)
{
    (void)isReuseSource;
    maxValue = minValue = 0;
    const int vs = ge::GetSizeByDataType(valueType), is = ge::GetSizeByDataType(indexType);
    const uint64_t n = arc_detail::elem_count(srcShape);
    if (vs <= 0 || vs > 8 || n == 0) {
        fprintf(stderr, "ascendrtc: GetSortMaxMinTmpSize: %s\n", n == 0 ? "the shape has no elements"
                                                                       : "valueType has no element size");
        return;
    }
    const uint64_t per = (uint64_t)vs + (uint64_t)(is > 0 ? is : 4);
    uint64_t bytes = (2 * n * (config.type == SortType::MERGE_SORT && per < 8 ? 8 : per) + 31) / 32 * 32;
    bytes = bytes < 256 ? 256 : bytes > 0xffffffffu ? 0xffffffffu : bytes;
    maxValue = minValue = (uint32_t)bytes;
}
} // namespace AscendC

#endif
