// Test op project (ascendrtc): a user workspace in global memory.
#ifndef WORKSPACE_ADD_TILING_H
#define WORKSPACE_ADD_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(WorkspaceAddTilingData)
TILING_DATA_FIELD_DEF(uint32_t, blockLength);
TILING_DATA_FIELD_DEF(uint32_t, rounds);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(WorkspaceAdd, WorkspaceAddTilingData)
} // namespace optiling
#endif
