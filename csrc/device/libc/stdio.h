/* stdio.h - what libc++'s <cstdio> (which <string> includes) needs of the
 * C library on the device (see README.md): EOF, and remove/rename declared
 * unavailable (left undeclared, libc++'s `using ::remove` would clash with
 * its std::remove algorithm).  The device has no files or streams; printf
 * is the kernel API's (arc/sys.h). */
#ifndef ARC_LIBC_STDIO_H_
#define ARC_LIBC_STDIO_H_
#include <stddef.h>
#define EOF (-1)
#ifdef __cplusplus
extern "C" {
#endif
int remove(const char *) __attribute__((unavailable("the simulated NPU's device code has no C library")));
int rename(const char *, const char *) __attribute__((unavailable("the simulated NPU's device code has no C library")));
#ifdef __cplusplus
}
#endif
#endif
