// Test op project (ascendrtc): even split over a fixed number of cores.
#ifndef ADD_SPLIT_TILING_H
#define ADD_SPLIT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddSplitTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddSplit, AddSplitTilingData)
} // namespace optiling
#endif
