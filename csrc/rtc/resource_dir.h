/* resource_dir.h - where clang's own headers (stddef.h, stdint.h, ...) and
 * libc++'s are. */
#ifndef ARC_RTC_RESOURCE_DIR_H_
#define ARC_RTC_RESOURCE_DIR_H_

#ifdef __cplusplus
extern "C" {
#endif

/* The clang resource directory: <dir of libacl_rtc.so>/clang when the home
 * carries a copy (a self-contained wheel: `make home` copies it there), else
 * the build machine's LLVM (ARC_CLANG_RESOURCE_DIR).  Resolved once. */
const char *arc_resource_dir(void);

/* LLVM's libc++ headers (include/c++/v1), the device's C++ standard library:
 * <dir of libacl_rtc.so>/libcxx/v1 when the home carries a copy, else the
 * build machine's (ARC_LIBCXX_DIR); "" when neither exists (Debian's
 * libc++-19-dev is not installed).  Resolved once. */
const char *arc_libcxx_dir(void);

#ifdef __cplusplus
}
#endif
#endif
