/* lib/matmul/matmul_tilingdata.h - TCubeTiling (kernel_tiling/kernel_tiling.h). */
#ifndef ARC_LIB_MATMUL_TILINGDATA_H_
#define ARC_LIB_MATMUL_TILINGDATA_H_
#include "kernel_tiling/kernel_tiling.h"
#endif
