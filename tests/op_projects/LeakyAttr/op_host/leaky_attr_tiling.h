// Test op project (ascendrtc): an attribute copied into the tiling data.
#ifndef LEAKY_ATTR_TILING_H
#define LEAKY_ATTR_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LeakyAttrTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileNum);
TILING_DATA_FIELD_DEF(float, negativeSlope);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LeakyAttr, LeakyAttrTilingData)
} // namespace optiling
#endif
