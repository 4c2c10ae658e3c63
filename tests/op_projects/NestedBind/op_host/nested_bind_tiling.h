// Test op project (ascendrtc): a tiling class whose first field is another
// tiling class (nested with TILING_DATA_FIELD_DEF_STRUCT), int64 fields
// after an int32 one, filled through SetDataPtr (no SaveToBuffer).
#ifndef NESTED_BIND_TILING_H
#define NESTED_BIND_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(NbInner)
TILING_DATA_FIELD_DEF(int64_t, a);
TILING_DATA_FIELD_DEF(int64_t, b);
TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(NbInnerOp, NbInner)

BEGIN_TILING_DATA_DEF(NbMid)
TILING_DATA_FIELD_DEF(int32_t, c);
TILING_DATA_FIELD_DEF(int64_t, d);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(NbMidOp, NbMid)

BEGIN_TILING_DATA_DEF(NestedBindTilingData)
TILING_DATA_FIELD_DEF_STRUCT(NbInner, inner);
TILING_DATA_FIELD_DEF_STRUCT(NbMid, mid);
TILING_DATA_FIELD_DEF(int32_t, e);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(NestedBind, NestedBindTilingData)
} // namespace optiling
#endif
