// Test op project (ascendrtc): two outputs.
#ifndef MIN_MAX_TILING_H
#define MIN_MAX_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MinMaxTilingData)
TILING_DATA_FIELD_DEF(uint64_t, blockLength);
TILING_DATA_FIELD_DEF(uint16_t, cores);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MinMax, MinMaxTilingData)
} // namespace optiling
#endif
