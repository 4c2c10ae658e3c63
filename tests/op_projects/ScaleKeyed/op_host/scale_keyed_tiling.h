// Test op project (ascendrtc): one tiling key per dtype, a float attribute.
#ifndef SCALE_KEYED_TILING_H
#define SCALE_KEYED_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleKeyedTilingData)
TILING_DATA_FIELD_DEF(uint32_t, blockLength);
TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaleKeyed, ScaleKeyedTilingData)
} // namespace optiling
#endif
