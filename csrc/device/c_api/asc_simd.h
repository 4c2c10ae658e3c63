/* c_api/asc_simd.h - the SIMD C API (asc_*): system variables,
 * synchronisation and data moves (arc/capi.h), dav-2201's memory-vector
 * compute (arc/capi_vec.h) and, on dav-3510, the Reg
 * families on vector_<type> registers (arc/capi_reg.h) and the cube's
 * moves and multiply (arc/capi_cube.h). */
#ifndef ARC_C_API_ASC_SIMD_H_
#define ARC_C_API_ASC_SIMD_H_
#include "kernel_operator.h"
#include "arc/capi.h"
#include "arc/capi_vec.h"
#include "arc/capi_reg.h"
#include "arc/capi_cvt.h" /* the register conversions asc_<src>2<dst>... */
#include "arc/capi_scalar.h"
#include "arc/capi_cube.h" /* dav-3510: the cube's data moves, asc_mmad, L0C -> GM */
#endif
