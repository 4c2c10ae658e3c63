/* static_ub.c - the UB base for SIMD code's static `__ubuf__` arrays, which
 * the rtc's SimdStaticUb pass lays out from offset 0 (rtc/simd_ub.cpp). */
#include "rt/rt_internal.h"

void *__arc_static_ub(unsigned long long bytes, const char *fn)
{
    arc_core *c = __arc_core();
    if (bytes > c->ub_size)
        __arc_trap("__ubuf__", "the static __ubuf__ arrays of %s (and of what it shares a kernel with) take %llu bytes, "
                   "more than this core's UB (%llu bytes)", fn, bytes, (unsigned long long)c->ub_size);
    return c->ub;
}
