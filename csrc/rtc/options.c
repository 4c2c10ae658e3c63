/* options.c - aclrtcCompileProg option parsing (see options.h).
 * Everything is validated here so that nothing unexpected reaches clang's
 * cc1 layer, where a bad flag can end in report_fatal_error -> exit(). */
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_rt_compile.h"
#include "common/exports.h"
#include "common/socs.h"

static int push(char ***v, int *n, const char *prefix, const char *s)
{
    char **nv = realloc(*v, (size_t)(*n + 1) * sizeof *nv);
    if (!nv)
        return -1;
    *v = nv;
    size_t pl = strlen(prefix), sl = strlen(s);
    char *e = malloc(pl + sl + 1);
    if (!e)
        return -1;
    memcpy(e, prefix, pl);
    memcpy(e + pl, s, sl + 1);
    nv[(*n)++] = e;
    return 0;
}

/* The architectures and SoCs: common/socs.h's rows. */
static const struct { const char *arch; unsigned num; } archs[] = {
#define ARCH_ROW(a, n, ub, l1, l0a, l0b, l0c, bt, vl, warp, thr, soc) {a, n},
    ARC_ARCHS(ARCH_ROW)
#undef ARCH_ROW
};
static const char *const unsimulated[] = {
#define NOT_SIM(a) a,
    ARC_ARCHS_NOT_SIMULATED(NOT_SIM)
#undef NOT_SIM
};
static const struct { const char *soc; unsigned num; } socs[] = {
#define SOC_ROW(name, n, short, aic, aiv, aicpu, mhz, l2, hbm, gm, l2bw) {name, n},
    ARC_SOCS(SOC_ROW)
#undef SOC_ROW
};
#define N(a) (sizeof a / sizeof a[0])

/* "dav-2201, dav-3510" */
static const char *arch_list(void)
{
    static _Thread_local char list[128];
    list[0] = 0;
    for (size_t i = 0; i < N(archs); i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", archs[i].arch);
    return list;
}

static int set_arch(rtc_opts *o, const char *a, char *err, size_t errlen)
{
    for (size_t i = 0; i < N(archs); i++)
        if (!strcmp(a, archs[i].arch)) {
            o->arch = archs[i].arch;
            o->arch_num = archs[i].num;
            return ACL_SUCCESS;
        }
    for (size_t i = 0; i < N(unsimulated); i++)
        if (!strcmp(a, unsimulated[i])) {
            snprintf(err, errlen, "--npu-arch=%s: this NPU architecture does not support runtime compilation "
                     "(supported: %s)", a, arch_list());
            return ACL_ERROR_RTC_INVALID_OPTION;
        }
    snprintf(err, errlen, "--npu-arch=%s: unknown NPU architecture (supported: %s)", a, arch_list());
    return ACL_ERROR_RTC_INVALID_OPTION;
}

/* The arch these options target, for cache keys: the option parser itself
 * answers, so no caller re-implements --npu-arch/--npu-soc precedence. */
const char *ascendrtc_rtc_resolve_arch(int n, const char *const *options)
{
    rtc_opts o;
    char err[512];
    if (rtc_opts_parse(n, options, &o, err, sizeof err) != ACL_SUCCESS)
        return NULL;
    const char *arch = o.arch; /* a static string */
    rtc_opts_free(&o);
    return arch;
}

int rtc_opts_parse(int n, const char *const *opts, rtc_opts *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->arch = "dav-2201";
    o->arch_num = 2201;
    o->opt_level = 2;
    strcpy(o->std, "c++17");
    int arch_given = 0, rc = ACL_SUCCESS;
    const char *soc = NULL;
    size_t jl = 1;
    for (int i = 0; i < n; i++)
        jl += strlen(opts[i]) + 1;
    o->joined = calloc(jl, 1);
    if (!o->joined)
        goto oom;
    for (int i = 0; i < n; i++) {
        const char *a = opts[i];
        if (*o->joined)
            strcat(o->joined, " ");
        strcat(o->joined, a);
        if (!*a) {
            snprintf(err, errlen, "option %d is an empty string", i);
            rc = ACL_ERROR_RTC_INVALID_OPTION;
            break;
        }
        if (!strncmp(a, "--npu-arch=", 11)) {
            if ((rc = set_arch(o, a + 11, err, errlen)) != ACL_SUCCESS)
                break;
            arch_given = 1;
        } else if (!strncmp(a, "--npu-soc=", 10)) {
            soc = a + 10;
        } else if (!strcmp(a, "-O0") || !strcmp(a, "-O1") || !strcmp(a, "-O2") || !strcmp(a, "-O3")) {
            o->opt_level = a[2] - '0';
        } else if (!strcmp(a, "-g")) {
            o->debug = 1;
        } else if (!strncmp(a, "-std=", 5)) {
            const char *s = a + 5;
            if (strcmp(s, "c++11") && strcmp(s, "c++14") && strcmp(s, "c++17") && strcmp(s, "c++20") &&
                strcmp(s, "gnu++14") && strcmp(s, "gnu++17") && strcmp(s, "gnu++20")) {
                snprintf(err, errlen, "%s: unsupported language standard (use c++11, c++14, c++17 or c++20)", a);
                rc = ACL_ERROR_RTC_INVALID_OPTION;
                break;
            }
            snprintf(o->std, sizeof o->std, "%s", s);
        } else if (!strncmp(a, "-D", 2) || !strncmp(a, "-U", 2) || !strncmp(a, "-I", 2)) {
            const char *v = a + 2;
            if (!*v) {
                if (i + 1 >= n || !*opts[i + 1]) {
                    snprintf(err, errlen, "%s needs a value (e.g. %sNAME)", a, a);
                    rc = ACL_ERROR_RTC_INVALID_OPTION;
                    break;
                }
                v = opts[++i];
                strcat(o->joined, v);
            }
            if (a[1] == 'I') {
                if (push(&o->includes, &o->nincludes, "", v))
                    goto oom;
            } else {
                if (!((v[0] >= 'A' && v[0] <= 'Z') || (v[0] >= 'a' && v[0] <= 'z') || v[0] == '_')) {
                    snprintf(err, errlen, "%s: '%s' is not a valid macro name", a, v);
                    rc = ACL_ERROR_RTC_INVALID_OPTION;
                    break;
                }
                if (push(&o->macros, &o->nmacros, a[1] == 'D' ? "-D" : "-U", v))
                    goto oom;
            }
        } else if (!strcmp(a, "-xasc") || !strcmp(a, "-x") || !strcmp(a, "-xcce")) {
            if (!strcmp(a, "-x")) {
                const char *lang = i + 1 < n ? opts[i + 1] : "";
                if (!strcmp(lang, "aicpu")) {
                    snprintf(err, errlen, "[ERROR] aicpu compile is not supported yet\n");
                    rc = ACL_ERROR_RTC_COMPILATION;
                    break;
                }
                if (strcmp(lang, "asc") && strcmp(lang, "cce")) {
                    snprintf(err, errlen, "-x %s: unknown language (use -x asc)", lang);
                    rc = ACL_ERROR_RTC_INVALID_OPTION;
                    break;
                }
                i++;
            }
        } else if (!strcmp(a, "-xaicpu")) {
            snprintf(err, errlen, "[ERROR] aicpu compile is not supported yet\n");
            rc = ACL_ERROR_RTC_COMPILATION;
            break;
        } else if (!strcmp(a, "--sanitizer")) {
            o->sanitizer = 1;
        } else if (!strcmp(a, "--host-object")) {
            o->host_object = 1;
        } else if (!strcmp(a, "-dc") || !strcmp(a, "-rdc") || !strcmp(a, "--relocatable-device-code")) {
            o->rdc = 1;
        } else if (!strcmp(a, "--cce-auto-sync") || !strcmp(a, "--cce-disable-asc-reserved-ubuf") ||
                   !strcmp(a, "--cce-disable-vf-stack-reserved-ubuf")) {
            /* accepted: the simulated core is always in sync and reserves no UB */
        } else if (!strcmp(a, "--enable-simt")) {
            o->simt = 1;
        } else if (!strcmp(a, "-w") || (!strncmp(a, "-W", 2) && a[2] && strncmp(a, "-Wl,", 4) &&
                                        strncmp(a, "-Wa,", 4) && strncmp(a, "-Wp,", 4))) {
            if (push(&o->warnings, &o->nwarnings, "", a))
                goto oom;
        } else if (!strcmp(a, "-mllvm") || !strcmp(a, "-Xclang")) {
            snprintf(err, errlen, "%s: passing options to LLVM or cc1 is not allowed", a);
            rc = ACL_ERROR_RTC_INVALID_OPTION;
            break;
        } else {
            snprintf(err, errlen, "unknown option '%s' (supported: --npu-arch=dav-2201|dav-3510, --npu-soc=, "
                     "-O0..-O3, -g, -std=, -D, -U, -I, -W..., -w, -x asc, --sanitizer, --enable-simt, --host-object, -dc)", a);
            rc = ACL_ERROR_RTC_INVALID_OPTION;
            break;
        }
    }
    if (rc == ACL_SUCCESS && soc && !arch_given) {
        size_t k = 0;
        while (k < N(socs) && strcmp(socs[k].soc, soc))
            k++;
        if (k < N(socs)) {
            for (size_t i = 0; i < N(archs); i++)
                if (archs[i].num == socs[k].num) {
                    o->arch = archs[i].arch;
                    o->arch_num = archs[i].num;
                    o->soc = socs[k].soc;
                }
        } else {
            snprintf(err, errlen, "--npu-soc=%s: unknown SoC (known: Ascend910B1..B4, Ascend910_9391/9392, "
                     "Ascend950PR_9599 and the other Ascend950PR_*/Ascend950DT_* of _C.SOCS)", soc);
            rc = ACL_ERROR_RTC_INVALID_OPTION;
        }
    }
    if (rc == ACL_SUCCESS && o->rdc && !o->host_object) {
        snprintf(err, errlen, "-dc: relocatable device code is linked into a program by its link (ascendrtc cc, "
                 "bisheng, CMake's ASC language); a runtime compile builds a whole kernel file (drop -dc)");
        rc = ACL_ERROR_RTC_INVALID_OPTION;
    }
    if (rc == ACL_SUCCESS && o->simt && o->arch_num != 3510) {
        snprintf(err, errlen, "--enable-simt: SIMT kernels run on dav-3510 only (Ascend 950); this compile is for %s "
                 "(add --npu-arch=dav-3510)", o->arch);
        rc = ACL_ERROR_RTC_INVALID_OPTION;
    }
    if (rc != ACL_SUCCESS)
        rtc_opts_free(o);
    return rc;
oom:
    snprintf(err, errlen, "out of memory while parsing options");
    rtc_opts_free(o);
    return ACL_ERROR_RTC_OUT_OF_MEMORY;
}

void rtc_opts_free(rtc_opts *o)
{
    for (int i = 0; i < o->nmacros; i++)
        free(o->macros[i]);
    for (int i = 0; i < o->nincludes; i++)
        free(o->includes[i]);
    for (int i = 0; i < o->nwarnings; i++)
        free(o->warnings[i]);
    free(o->macros);
    free(o->includes);
    free(o->warnings);
    free(o->joined);
    o->macros = o->includes = o->warnings = NULL;
    o->joined = NULL;
    o->nmacros = o->nincludes = o->nwarnings = 0;
}
