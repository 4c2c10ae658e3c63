/* utils/debug/asc_assert.h - assert(expr) for kernels: a failed assert
 * stops the launch with the condition, file and line (assert.h). */
#ifndef ARC_UTILS_DEBUG_ASC_ASSERT_H_
#define ARC_UTILS_DEBUG_ASC_ASSERT_H_
#include "kernel_operator.h"
#endif
#include "assert.h"
