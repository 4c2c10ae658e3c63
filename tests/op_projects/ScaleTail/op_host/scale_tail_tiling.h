/* ScaleTail: y = x * scale + offset[core % 4], the length split into
 * formerNum cores of formerLength and the rest of tailLength (elements). */
#ifndef SCALE_TAIL_TILING_H
#define SCALE_TAIL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleTailSplit)
TILING_DATA_FIELD_DEF(uint8_t, formerNum);
TILING_DATA_FIELD_DEF(uint64_t, formerLength);
TILING_DATA_FIELD_DEF(uint32_t, tailLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleTailSplitOp, ScaleTailSplit)

BEGIN_TILING_DATA_DEF(ScaleTailTilingData)
TILING_DATA_FIELD_DEF(int16_t, flags);
TILING_DATA_FIELD_DEF_STRUCT(ScaleTailSplit, split);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF_ARR(float, 4, offset);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleTail, ScaleTailTilingData)

// registered last, so GET_TILING_DATA must find the op's struct by name
BEGIN_TILING_DATA_DEF(ScaleTailDebug)
TILING_DATA_FIELD_DEF(uint32_t, level);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleTailDebugOp, ScaleTailDebug)
} // namespace optiling
#endif
