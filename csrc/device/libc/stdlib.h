/* stdlib.h - what libc++'s <cstdlib>/<stdlib.h> wrapper needs of the C
 * library on the device: the div result types and the long divisions
 * (see README.md).  Nothing allocates or exits on the device. */
#ifndef ARC_LIBC_STDLIB_H_
#define ARC_LIBC_STDLIB_H_
#include <stddef.h>
typedef struct { int quot, rem; } div_t;
typedef struct { long quot, rem; } ldiv_t;
typedef struct { long long quot, rem; } lldiv_t;
#ifdef __cplusplus
extern "C" {
#endif
static inline div_t div(int a, int b) { div_t r = {a / b, a % b}; return r; }
static inline ldiv_t ldiv(long a, long b) { ldiv_t r = {a / b, a % b}; return r; }
static inline lldiv_t lldiv(long long a, long long b) { lldiv_t r = {a / b, a % b}; return r; }
static inline int abs(int a) { return a < 0 ? -a : a; }
static inline long labs(long a) { return a < 0 ? -a : a; }
static inline long long llabs(long long a) { return a < 0 ? -a : a; }
#ifdef __cplusplus
}
#endif
#endif
