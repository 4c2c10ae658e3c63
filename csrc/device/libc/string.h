/* string.h - the memory functions of the device's C library, which clang
 * compiles as builtins (see README.md). */
#ifndef ARC_LIBC_STRING_H_
#define ARC_LIBC_STRING_H_
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
void *memcpy(void *__restrict, const void *__restrict, size_t);
void *memmove(void *, const void *, size_t);
void *memset(void *, int, size_t);
int memcmp(const void *, const void *, size_t);
size_t strlen(const char *);
#ifdef __cplusplus
}
#endif
#endif
