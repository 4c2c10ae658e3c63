/* cpu_debug_launch.h - the header CANN's CPU-debug build includes under
 * ASCENDC_CPU_DEBUG: there it defines what the compiler turns a `<<<>>>`
 * kernel launch into, so that the kernel runs in the CPU domain.  On the
 * simulated NPU the compiler itself handles `<<<>>>` (the device compile
 * sets the host launches aside; `ascendrtc cc` lowers them to launches on
 * the simulated device), so the header only has to exist and bring in the
 * kernel API a CPU-debug file expects beside it. */
#ifndef ARC_CPU_DEBUG_LAUNCH_H_
#define ARC_CPU_DEBUG_LAUNCH_H_
#include "kernel_operator.h"
#endif
