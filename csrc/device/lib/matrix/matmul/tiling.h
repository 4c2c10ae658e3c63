/* lib/matrix/matmul/tiling.h - the matmul tiling header's older path (kernels
 * written for earlier CANN releases include it beside lib/matmul_intf.h):
 * the kernel's TCubeTiling (kernel_tiling/kernel_tiling.h) and the Matmul
 * API's configuration types (arc/matmul_api.h). */
#ifndef ARC_LIB_MATRIX_MATMUL_TILING_H_
#define ARC_LIB_MATRIX_MATMUL_TILING_H_
#include "kernel_tiling/kernel_tiling.h"
#include "lib/matmul_intf.h"
#endif
