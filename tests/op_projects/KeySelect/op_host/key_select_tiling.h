/* KeySelect: z = x (op) y, the op chosen by the tiling key
 * (1 add, 2 sub, 3 max); each core takes blockLength elements. */
#ifndef KEY_SELECT_TILING_H
#define KEY_SELECT_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(KeySelectTilingData)
TILING_DATA_FIELD_DEF(uint32_t, blockLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(KeySelect, KeySelectTilingData)

ge::graphStatus KeySelectTiling(gert::TilingContext *context);
} // namespace optiling
#endif
