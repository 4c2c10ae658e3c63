/* lib/matmul_intf.h - the high-level Matmul API (arc/matmul_api.h) and
 * TCubeTiling (kernel_tiling/kernel_tiling.h) for kernels, and the cube
 * resource groups (arc/cube_group.h, declared; running them is an error). */
#ifndef ARC_LIB_MATMUL_INTF_H_
#define ARC_LIB_MATMUL_INTF_H_

#include "kernel_operator.h"
#include "arc/matmul_api.h"
#include "arc/cube_group.h"

#endif
