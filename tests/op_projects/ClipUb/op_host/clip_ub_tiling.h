// Test op project (ascendrtc): tile size from the platform's UB size, a
// list attribute, an array field.
#ifndef CLIP_UB_TILING_H
#define CLIP_UB_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ClipUbTilingData)
TILING_DATA_FIELD_DEF(uint32_t, blockLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF_ARR(float, 2, bounds);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ClipUb, ClipUbTilingData)
} // namespace optiling
#endif
