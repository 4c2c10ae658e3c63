/* features.h - libc++ includes it on Linux to detect glibc; the device has
 * no C library, so it defines nothing (see README.md). */
