/* tikicpulib.h - CANN's CPU-twin library header.  Kernels include it under
 * ASCENDC_CPU_DEBUG; on the simulated core the device API is all there is. */
#ifndef ARC_TIKICPULIB_H_
#define ARC_TIKICPULIB_H_
#include "kernel_operator.h"
#endif
