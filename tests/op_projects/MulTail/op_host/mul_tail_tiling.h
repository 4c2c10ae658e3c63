// Test op project (ascendrtc): former/tail cores for a length that does
// not split evenly.
#ifndef MUL_TAIL_TILING_H
#define MUL_TAIL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MulTailTilingData)
TILING_DATA_FIELD_DEF(uint32_t, formerNum);
TILING_DATA_FIELD_DEF(uint32_t, formerLength);
TILING_DATA_FIELD_DEF(uint32_t, tailLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MulTail, MulTailTilingData)
} // namespace optiling
#endif
