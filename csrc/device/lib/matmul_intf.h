/* lib/matmul_intf.h - the high-level Matmul API (arc/matmul_api.h) and
 * TCubeTiling (kernel_tiling/kernel_tiling.h) for kernels. */
#ifndef ARC_LIB_MATMUL_INTF_H_
#define ARC_LIB_MATMUL_INTF_H_

#include "kernel_operator.h"
#include "arc/matmul_api.h"

#endif
