/* device_sync_functions.h - the block barrier and the memory fences.
 * asc_syncthreads must be reached by every thread of the block (a barrier
 * in divergent flow is undefined on the NPU; the driver reports it). */
#ifndef ASC_SIMT_DEVICE_SYNC_FUNCTIONS_H_
#define ASC_SIMT_DEVICE_SYNC_FUNCTIONS_H_

#include "simt_api/device_types.h"

extern "C" void __arc_simt_sync(void) __attribute__((convergent, nothrow));

__attribute__((always_inline)) inline void asc_syncthreads() { __arc_simt_sync(); }
/* A block's threads run on one host thread between barriers, so ordering
 * within the block needs only the compiler's; the device-wide fence orders
 * against other blocks' cores. */
__attribute__((always_inline)) inline void asc_threadfence_block() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
__attribute__((always_inline)) inline void asc_threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

#endif
