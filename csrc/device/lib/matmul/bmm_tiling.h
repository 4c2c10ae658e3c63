/* lib/matmul/bmm_tiling.h, kernel side - the batch-matmul host tiling
 * header's older path, included by op_host tiling headers a kernel compile
 * reads for their structs: the host classes (matmul_tiling::*Tiling) have
 * no kernel side, so this gives the struct they fill, TCubeTiling. */
#ifndef ARC_LIB_MATMUL_BMM_TILING_H_
#define ARC_LIB_MATMUL_BMM_TILING_H_
#include "kernel_tiling/kernel_tiling.h"
/* Host tiling classes declared in these headers take optiling::TCubeTiling. */
namespace optiling {
using ::TCubeTiling;
} // namespace optiling
#endif
