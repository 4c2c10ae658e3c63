/* lib/matmul/bmm_tiling.h, host side - the batch-matmul tiling header's
 * older path: the Matmul host tiling API (matmul_tiling_api.h) and the
 * TCubeTiling struct it fills. */
#ifndef ARC_HOST_LIB_MATMUL_BMM_TILING_H_
#define ARC_HOST_LIB_MATMUL_BMM_TILING_H_
#include "kernel_tiling/kernel_tiling.h"
#include "lib/matmul/matmul_tiling_api.h"
#endif
