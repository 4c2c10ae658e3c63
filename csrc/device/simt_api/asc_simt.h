/* asc_simt.h - ascendrtc's clean-room SIMT API (Ascend C's thread-level
 * model, dav-3510): `__global__` kernels compiled with --enable-simt run as
 * a grid of blocks of threads.  This aggregator includes the families as
 * CANN's header of the same name does:
 *   device_types.h            qualifiers, dim3, threadIdx/blockIdx/..., warpSize
 *   device_sync_functions.h   asc_syncthreads, asc_threadfence*
 *   device_atomic_functions.h asc_atomic_*
 *   device_warp_functions.h   asc_shfl*, vote, asc_reduce_*, lane functions
 *   device_memory_functions.h cache hints (asc_ldcg, asc_stcg, asc_dcci_*)
 *   device_functions.h        float <-> integer conversions, integer intrinsics
 *   math_functions.h          the per-thread math library
 *   vector_functions.h        short vectors and make_*
 *   vf_call.h                 asc_vf_call<f>(dim3, ...) of a __simt_vf__ from a SIMD kernel
 * The last three are the per-thread library (helper "simtlib" owns them and
 * the separate asc_fp16.h, asc_bf16.h, asc_fp8.h, math_constants.h). */
#ifndef ASC_SIMT_H_
#define ASC_SIMT_H_

#include "simt_api/device_types.h"
#include "simt_api/device_sync_functions.h"
#include "simt_api/device_atomic_functions.h"
#include "simt_api/device_warp_functions.h"
#include "simt_api/device_memory_functions.h"
#include "simt_api/device_functions.h"
#include "simt_api/math_functions.h"
#include "simt_api/math_constants.h" /* ASCRT_PI_F etc.: the examples use them with this header alone */
#include "simt_api/vector_functions.h"
#include "simt_api/vf_call.h"
#include "utils/debug/asc_time.h" /* clock() */

#endif
