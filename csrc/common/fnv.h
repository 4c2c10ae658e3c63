/* fnv.h - FNV-1a, 64-bit: the one hash the compiler uses for fingerprints
 * and content checks (not for security).  Chain calls by passing the
 * previous result as h; start from ARC_FNV1A64_INIT. */
#ifndef ARC_FNV_H_
#define ARC_FNV_H_

#include <stddef.h>
#include <stdint.h>

#define ARC_FNV1A64_INIT 1469598103934665603ull

static inline uint64_t arc_fnv1a64(const void *data, size_t n, uint64_t h)
{
    const unsigned char *p = (const unsigned char *)data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

#endif /* ARC_FNV_H_ */
