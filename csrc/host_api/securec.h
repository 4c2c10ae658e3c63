// securec.h - the bounds-checked memory and string functions host code
// calls (memcpy_s, memset_s, memmove_s, strcpy_s, strncpy_s, strcat_s,
// snprintf_s/vsnprintf_s, sprintf_s): each checks the destination size
// first and answers EOK (0) or a non-zero error without writing past it.
#ifndef ARC_HOST_SECUREC_H
#define ARC_HOST_SECUREC_H

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif
using errno_t = int;

namespace arc_host {
constexpr errno_t kSecInvalid = 22, kSecRange = 34;  // EINVAL, ERANGE
}

inline errno_t memcpy_s(void *dst, size_t dmax, const void *src, size_t n)
{
    if (!dst || (!src && n))
        return arc_host::kSecInvalid;
    if (n > dmax)
        return arc_host::kSecRange;
    if (n)
        std::memmove(dst, src, n);
    return EOK;
}
inline errno_t memmove_s(void *dst, size_t dmax, const void *src, size_t n) { return memcpy_s(dst, dmax, src, n); }
inline errno_t memset_s(void *dst, size_t dmax, int c, size_t n)
{
    if (!dst)
        return arc_host::kSecInvalid;
    std::memset(dst, c, n < dmax ? n : dmax);
    return n > dmax ? arc_host::kSecRange : EOK;
}
inline errno_t strncpy_s(char *dst, size_t dmax, const char *src, size_t n)
{
    if (!dst || !src || dmax == 0)
        return arc_host::kSecInvalid;
    size_t len = strnlen(src, n);
    if (len >= dmax) {
        dst[0] = '\0';
        return arc_host::kSecRange;
    }
    std::memcpy(dst, src, len);
    dst[len] = '\0';
    return EOK;
}
inline errno_t strcpy_s(char *dst, size_t dmax, const char *src) { return strncpy_s(dst, dmax, src, (size_t)-1); }
inline errno_t strcat_s(char *dst, size_t dmax, const char *src)
{
    if (!dst || !src)
        return arc_host::kSecInvalid;
    size_t have = strnlen(dst, dmax);
    if (have == dmax)
        return arc_host::kSecInvalid;
    return strcpy_s(dst + have, dmax - have, src);
}
inline int vsnprintf_s(char *dst, size_t dmax, size_t n, const char *fmt, va_list ap)
{
    if (!dst || !fmt || dmax == 0)
        return -1;
    size_t lim = n < dmax - 1 ? n + 1 : dmax;
    int r = std::vsnprintf(dst, lim, fmt, ap);
    return r < 0 || (size_t)r >= lim ? -1 : r;
}
inline int snprintf_s(char *dst, size_t dmax, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf_s(dst, dmax, n, fmt, ap);
    va_end(ap);
    return r;
}
inline int sprintf_s(char *dst, size_t dmax, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf_s(dst, dmax, dmax ? dmax - 1 : 0, fmt, ap);
    va_end(ap);
    return r;
}

#endif
