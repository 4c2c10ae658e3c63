/* <assert.h> for kernels (no libc here): a failed assert() stops the block
 * through __arc_trap with the condition, file and line; -DNDEBUG drops it.
 * Re-included like the standard header, so NDEBUG may change between. */
#include "arc/core_abi.h"
#undef assert
/* CANN's kernel assert also takes a printf-style message: assert(cond, fmt, ...). */
#ifdef NDEBUG
#define assert(...) ((void)0)
#else
#define assert(cond, ...) \
    (__builtin_expect(!!(cond), 1) ? (void)0 : __arc_trap("assert", "%s (failed at %s:%d)", #cond, __FILE__, __LINE__))
#endif
