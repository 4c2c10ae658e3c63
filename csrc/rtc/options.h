/* options.h - validate aclrtcCompileProg options (BiSheng spelling) and
 * turn them into settings the clang bridge understands. */
#ifndef ARC_RTC_OPTIONS_H_
#define ARC_RTC_OPTIONS_H_

#include <stddef.h>

typedef struct rtc_opts {
    const char *arch;     /* "dav-2201" or "dav-3510" */
    unsigned arch_num;    /* 2201, 3510: __NPU_ARCH__ */
    const char *soc;      /* --npu-soc's SoC (a static string), or NULL */
    int opt_level;        /* 0..3 */
    int debug;            /* -g */
    char std[16];         /* "c++17" */
    int nmacros;          /* -D/-U in order; each "-DX=1" or "-UX" */
    char **macros;
    int nincludes;
    char **includes;      /* -I directories, in order */
    int nwarnings;
    char **warnings;      /* -W... / -w, passed through */
    int sanitizer;        /* --sanitizer: extra device-API checks */
    int simt;             /* --enable-simt: bare __global__ kernels are SIMT kernels */
    int host_object;      /* --host-object: a single-source program's host part, as an
                             object embedding the device binary (ascendrtc cc) */
    int rdc;              /* -dc: relocatable device code (with host_object): the file's
                             __aicore__ functions kept for kernels of other files */
    char *joined;         /* normalised options, for the metadata */
} rtc_opts;

/* Parse n options.  Returns ACL_SUCCESS, or ACL_ERROR_RTC_INVALID_OPTION /
 * ACL_ERROR_RTC_COMPILATION (for -xaicpu) with a message naming the option. */
int rtc_opts_parse(int n, const char *const *opts, rtc_opts *o, char *err, size_t errlen);
void rtc_opts_free(rtc_opts *o);

#endif
