/* utils/debug/asc_printf.h - printf for kernels (SIMD, VF): the device
 * API's kernel printf (arc/sys.h), formatted and checked by the runtime. */
#ifndef ARC_UTILS_DEBUG_ASC_PRINTF_H_
#define ARC_UTILS_DEBUG_ASC_PRINTF_H_
#include "kernel_operator.h"
#endif
