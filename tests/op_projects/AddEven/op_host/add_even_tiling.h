/* AddEven: z = x + y, the length split evenly over the cores. */
#ifndef ADD_EVEN_TILING_H
#define ADD_EVEN_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddEvenTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddEven, AddEvenTilingData)
} // namespace optiling
#endif
