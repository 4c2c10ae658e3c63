/* compile.h - the C face of the clang bridge (compile.cpp): one in-process
 * clang 19 compile of a prepared translation unit to an ELF object that
 * carries the .arc_meta section. */
#ifndef ARC_RTC_COMPILE_H_
#define ARC_RTC_COMPILE_H_

#include <stddef.h>

#include "kscan.h"
#include "options.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rtc_entry {
    const char *name;           /* source name or name expression */
    const kscan_kernel *hint;   /* scanned declaration (param names), or NULL */
} rtc_entry;

typedef struct rtc_request {
    const char *text;           /* the user's source followed by the entry trailer */
    size_t len;
    const char *file_name;      /* where the source lives, for includes */
    int nheaders;               /* in-memory headers */
    const char *const *header_names;
    const char *const *header_texts;
    const rtc_opts *opts;
    int nentries;               /* __ARC_ENTRY(0..nentries-1, ...) in the trailer */
    const rtc_entry *entries;
    const int *cancel;          /* nonzero (read atomically): stop the compile (Ctrl-C); may be NULL */
} rtc_request;

typedef struct rtc_result {
    char *log;                  /* malloc'd diagnostics, never NULL after rtc_compile */
    unsigned char *bin;         /* malloc'd ELF object, NULL on failure */
    size_t bin_size;
    char **lowered;             /* nentries malloc'd symbol names, or NULL */
    char *deps;                 /* malloc'd "sha256<TAB>path\n" per real file the
                                   compile read (see rtc_deps_*), or NULL */
} rtc_result;

/* Compile; returns ACL_SUCCESS or an ACL_ERROR_RTC_* code, with the
 * reason in res->log. */
int rtc_compile(const rtc_request *req, rtc_result *res);
void rtc_result_free(rtc_result *res, int nentries);
/* The CPU kernels are built for ("znver3", "skylake-avx512", ...). */
const char *rtc_target_cpu(void);
/* "clang 19.1.7" — part of every cache key. */
const char *rtc_compiler_version(void);

#ifdef __cplusplus
}
#endif
#endif
