/* tiling/tiling_api.h, kernel side - op_host tiling headers include it for
 * the library tiling structs they nest (TCubeTiling, SoftMaxTiling, ...);
 * in a kernel compile those are the kernel structs of
 * kernel_tiling/kernel_tiling.h. */
#ifndef ARC_TILING_TILING_API_H_
#define ARC_TILING_TILING_API_H_

#include "register/tilingdata_base.h"
#include "kernel_tiling/kernel_tiling.h"

#endif
