/* resource_dir.h - where clang's own headers (stddef.h, stdint.h, ...) are. */
#ifndef ARC_RTC_RESOURCE_DIR_H_
#define ARC_RTC_RESOURCE_DIR_H_

#ifdef __cplusplus
extern "C" {
#endif

/* The clang resource directory: <dir of libacl_rtc.so>/clang when the home
 * carries a copy (a self-contained wheel: `make home` copies it there), else
 * the build machine's LLVM (ARC_CLANG_RESOURCE_DIR).  Resolved once. */
const char *arc_resource_dir(void);

#ifdef __cplusplus
}
#endif
#endif
