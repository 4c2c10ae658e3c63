/* kscan.h - find the __global__ kernels of a source text without a full
 * parse, so the rtc can append an entry trampoline for each before the one
 * real compile.  A lexical scan: comments, strings, raw strings,
 * preprocessor lines and the groups the device compile leaves out, where
 * the -D/-U options and the source's own #defines decide them
 * (kscan_cond.h), are skipped; namespaces qualify names; templates are
 * reported but need a name expression. */
#ifndef ARC_KSCAN_H_
#define ARC_KSCAN_H_

typedef struct kscan_param {
    char *name;  /* "" when the parameter is unnamed */
    char *type;  /* spelled type, whitespace normalised */
} kscan_param;

typedef struct kscan_kernel {
    char *name;       /* qualified: ns::kernel */
    char *base;       /* unqualified name */
    int is_template;
    int simd;         /* declared __aicore__/__vector__/__cube__/__mix__ (else a bare, SIMT-style __global__) */
    int line;         /* 1-based line of the name */
    int nparams;
    kscan_param *params;
} kscan_kernel;

typedef struct kscan_result {
    int nkernels;
    kscan_kernel *kernels;
} kscan_result;

/* The compile's -D/-U options ("-DX=1", "-UX"), which can define a macro
 * the scan otherwise knows to be undefined. */
typedef struct kscan_macros {
    int n;
    char *const *items;
} kscan_macros;

/* Scan src (macros may be NULL); returns 0, or -1 on out-of-memory. */
int kscan(const char *src, const kscan_macros *macros, kscan_result *out);
/* The same, also taking as a kernel the declaration `void name(` of each of
 * `names` (kernels a <<<>>> launch names, whose __global__ may hide in a
 * macro such as CATLASS's CATLASS_GLOBAL). */
int kscan_launched(const char *src, const kscan_macros *macros, const char *const *names, int nnames,
                   kscan_result *out);
void kscan_free(kscan_result *r);

#endif
