// tiling/tiling_api.h - the host tiling APIs of the Ascend C libraries: the
// platform, the matmul tiling (matmul_tiling::MultiCoreMatmulTiling,
// TCubeTiling; lib/matmul/) and the advanced API's tiling functions (lib/).
#ifndef ARC_HOST_TILING_TILING_API_H
#define ARC_HOST_TILING_TILING_API_H

#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"  // the tiling DSL, as CANN's tiling_api.h brings it
#include "tiling/platform/platform_ascendc.h"
#if __has_include("lib/matmul/matmul_tiling_api.h")
#include "lib/matmul/matmul_tiling_api.h"
#endif
#include "exe_graph/runtime/shape.h"
#include "graph/types.h"
#include "lib/tiling/block_sizes.h"  // AscendC::BLOCK_CUBE, ONE_BLK_SIZE, as CANN's tiling_api.h brings them
namespace AscendC {
/* The shape the advanced API's host tiling functions take (built from a
 * std::vector<int64_t> of dims): ge::Shape's interface. */
using TensorShape = ge::Shape;
/* The data type the advanced API's host tiling functions take. */
using TensorDataType = ge::DataType;
} // namespace AscendC
#if __has_include("lib/adv_tiling_api.h")
#include "lib/adv_tiling_api.h"
#endif
#include "lib/adv_elem_tiling_api.h"
#include "lib/sort_tiling_api.h"
#include "lib/welford_tiling_api.h"
#include "lib/norm_grad_tiling_api.h"

#endif
