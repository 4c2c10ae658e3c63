// tiling/tiling_api.h - the host tiling APIs of the Ascend C libraries.  The
// platform is here; the matmul tiling (matmul_tiling::MultiCoreMatmulTiling,
// TCubeTiling) belongs under lib/matmul/ and is included here once it exists.
#ifndef ARC_HOST_TILING_TILING_API_H
#define ARC_HOST_TILING_TILING_API_H

#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#if __has_include("lib/matmul/matmul_tiling.h")
#include "lib/matmul/matmul_tiling.h"
#endif

#endif
