/* host_op.h - compiling an op project's host code (the op_host sources, with the
 * clean-room host tiling API of csrc/host_api) in process and loading it
 * with its own LLVM ORC JIT.  The loaded code answers through the C entry
 * points of csrc/host_api/arc/host_driver.h (arc_host_describe,
 * arc_host_call, arc_host_free) and the op factories OP_ADD makes
 * (arc_op_new_<Type>).  Exported from libacl_rtc.so; the extension reaches
 * it through its function table (csrc/ext/op_host_code.c). */
#ifndef ARC_RTC_HOST_OP_H_
#define ARC_RTC_HOST_OP_H_

/* ascendrtc_host_op_compile, _symbol, _free and ascendrtc_host_free_string
 * are declared, with the other exports, in common/exports.h. */
#include "common/exports.h"

#endif
