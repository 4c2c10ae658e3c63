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
/* What libc++'s <cstdlib> imports and the device does not have: declared
 * unavailable, so a call is a compile error naming the function (left
 * undeclared, clang would declare the library builtin itself and the
 * kernel would fail only when loaded, or not at all where it folds). */
#define ARC_NO_DEVICE_LIBC(decl) decl __attribute__((unavailable("the simulated NPU's device code has no C library")));
ARC_NO_DEVICE_LIBC(void *malloc(size_t))
ARC_NO_DEVICE_LIBC(void *calloc(size_t, size_t))
ARC_NO_DEVICE_LIBC(void *realloc(void *, size_t))
ARC_NO_DEVICE_LIBC(void *aligned_alloc(size_t, size_t))
ARC_NO_DEVICE_LIBC(void free(void *))
ARC_NO_DEVICE_LIBC(double atof(const char *))
ARC_NO_DEVICE_LIBC(int atoi(const char *))
ARC_NO_DEVICE_LIBC(long atol(const char *))
ARC_NO_DEVICE_LIBC(long long atoll(const char *))
ARC_NO_DEVICE_LIBC(double strtod(const char *, char **))
ARC_NO_DEVICE_LIBC(float strtof(const char *, char **))
ARC_NO_DEVICE_LIBC(long double strtold(const char *, char **))
ARC_NO_DEVICE_LIBC(long strtol(const char *, char **, int))
ARC_NO_DEVICE_LIBC(long long strtoll(const char *, char **, int))
ARC_NO_DEVICE_LIBC(unsigned long strtoul(const char *, char **, int))
ARC_NO_DEVICE_LIBC(unsigned long long strtoull(const char *, char **, int))
ARC_NO_DEVICE_LIBC(int rand(void))
ARC_NO_DEVICE_LIBC(void srand(unsigned))
ARC_NO_DEVICE_LIBC(void abort(void))
ARC_NO_DEVICE_LIBC(void exit(int))
ARC_NO_DEVICE_LIBC(void _Exit(int))
ARC_NO_DEVICE_LIBC(int atexit(void (*)(void)))
ARC_NO_DEVICE_LIBC(char *getenv(const char *))
ARC_NO_DEVICE_LIBC(int system(const char *))
ARC_NO_DEVICE_LIBC(void qsort(void *, size_t, size_t, int (*)(const void *, const void *)))
ARC_NO_DEVICE_LIBC(void *bsearch(const void *, const void *, size_t, size_t, int (*)(const void *, const void *)))
#undef ARC_NO_DEVICE_LIBC
#ifdef __cplusplus
}
#endif
#endif
