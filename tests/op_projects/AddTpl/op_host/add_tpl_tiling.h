// Test op project (ascendrtc): template tiling.
#ifndef ADD_TPL_TILING_H
#define ADD_TPL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddTplTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddTpl, AddTplTilingData)
} // namespace optiling
#endif
