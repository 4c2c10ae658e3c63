// Test op project (ascendrtc): rows split over cores, an output shape from
// InferShape.
#ifndef ROW_SUM_TILING_H
#define ROW_SUM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowSumTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF(uint32_t, cols);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RowSum, RowSumTilingData)
} // namespace optiling
#endif
