/* securec.h - the bounds-checked memory functions on the device (opbase's
 * atvoss headers include it in CANN's CPU-debug build, __CCE_KT_TEST__;
 * kernels may include it too).  The memory ones check the destination size as
 * the host's (csrc/host_api/securec.h) do; the string-formatting ones need
 * the C library the device lacks, so a call is a compile error naming it. */
#ifndef ARC_LIBC_SECUREC_H_
#define ARC_LIBC_SECUREC_H_
#include <stddef.h>
#include <string.h>
#ifndef EOK
#define EOK 0
#endif
typedef int errno_t;
#ifdef __cplusplus
extern "C" {
#endif
static inline errno_t memcpy_s(void *dst, size_t dmax, const void *src, size_t n)
{
    if (!dst || (!src && n))
        return 22; /* EINVAL */
    if (n > dmax)
        return 34; /* ERANGE */
    memmove(dst, src, n);
    return EOK;
}
static inline errno_t memmove_s(void *dst, size_t dmax, const void *src, size_t n) { return memcpy_s(dst, dmax, src, n); }
static inline errno_t memset_s(void *dst, size_t dmax, int c, size_t n)
{
    if (!dst)
        return 22;
    memset(dst, c, n < dmax ? n : dmax);
    return n > dmax ? 34 : EOK;
}
#define ARC_NO_SECUREC(decl) decl __attribute__((unavailable("the simulated NPU's device code has no C library")));
ARC_NO_SECUREC(int snprintf_s(char *, size_t, size_t, const char *, ...))
ARC_NO_SECUREC(int sprintf_s(char *, size_t, const char *, ...))
ARC_NO_SECUREC(errno_t strcpy_s(char *, size_t, const char *))
ARC_NO_SECUREC(errno_t strncpy_s(char *, size_t, const char *, size_t))
ARC_NO_SECUREC(errno_t strcat_s(char *, size_t, const char *))
#undef ARC_NO_SECUREC
#ifdef __cplusplus
}
#endif
#endif
