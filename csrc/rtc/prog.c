/* prog.c - the aclrtc C API: programs, name expressions, compile, results.
 * A program is an opaque handle validated against a registry of live
 * programs, so a stale or foreign handle is an error, not a crash. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_rt_compile.h"
#include "common/exports.h"
#include "compile.h"
#include "kscan.h"
#include "options.h"

#define PROG_MAGIC 0x52544350u /* "PCTR" */

typedef struct rtc_prog {
    unsigned magic;
    char *src;
    char *name;
    int nheaders;
    char **hnames, **htexts;
    int nexprs;
    char **exprs;
    int compiled;          /* a compile finished successfully */
    int nentries;          /* entries of the last compile */
    char **entry_names;    /* their names (source names, then name expressions) */
    rtc_result res;
    char *log;             /* the log of the last compile (or option error) */
    pthread_mutex_t lock;  /* one compile at a time per program */
    int cancel;            /* set by ascendrtc_compile_cancel (atomic) */
} rtc_prog;

/* ---- live-program registry ---- */
static pthread_mutex_t g_reg_lock = PTHREAD_MUTEX_INITIALIZER;
static rtc_prog **g_progs;
static size_t g_nprogs, g_cap;

static int reg_add(rtc_prog *p)
{
    pthread_mutex_lock(&g_reg_lock);
    if (g_nprogs == g_cap) {
        size_t cap = g_cap ? g_cap * 2 : 16;
        rtc_prog **np = realloc(g_progs, cap * sizeof *np);
        if (!np) {
            pthread_mutex_unlock(&g_reg_lock);
            return -1;
        }
        g_progs = np;
        g_cap = cap;
    }
    g_progs[g_nprogs++] = p;
    pthread_mutex_unlock(&g_reg_lock);
    return 0;
}

static int reg_remove(rtc_prog *p)
{
    int found = 0;
    pthread_mutex_lock(&g_reg_lock);
    for (size_t i = 0; i < g_nprogs; i++)
        if (g_progs[i] == p) {
            g_progs[i] = g_progs[--g_nprogs];
            found = 1;
            break;
        }
    pthread_mutex_unlock(&g_reg_lock);
    return found;
}

static rtc_prog *lookup(aclrtcProg h)
{
    rtc_prog *p = NULL;
    pthread_mutex_lock(&g_reg_lock);
    for (size_t i = 0; i < g_nprogs; i++)
        if (g_progs[i] == h) {
            p = g_progs[i];
            break;
        }
    pthread_mutex_unlock(&g_reg_lock);
    return p && p->magic == PROG_MAGIC ? p : NULL;
}

/* ---- error reporting through aclGetRecentErrMsg (libascendcl) ---- */

static aclError err(aclError code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static aclError err(aclError code, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ascendrtc_set_recent_error(buf);
    return code;
}

static char *sdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static void free_results(rtc_prog *p)
{
    rtc_result_free(&p->res, p->nentries);
    for (int i = 0; i < p->nentries; i++)
        free(p->entry_names[i]);
    free(p->entry_names);
    p->entry_names = NULL;
    p->nentries = 0;
    free(p->log);
    p->log = NULL;
    p->compiled = 0;
}

static void free_prog(rtc_prog *p)
{
    free_results(p);
    for (int i = 0; i < p->nheaders; i++) {
        free(p->hnames[i]);
        free(p->htexts[i]);
    }
    for (int i = 0; i < p->nexprs; i++)
        free(p->exprs[i]);
    free(p->hnames);
    free(p->htexts);
    free(p->exprs);
    free(p->src);
    free(p->name);
    pthread_mutex_destroy(&p->lock);
    p->magic = 0;
    free(p);
}

aclError aclrtcCreateProg(aclrtcProg *prog, const char *src, const char *name, int numHeaders,
                          const char **headers, const char **includeNames)
{
    if (!prog)
        return err(ACL_ERROR_RTC_INVALID_INPUT, "aclrtcCreateProg: prog is NULL");
    *prog = NULL;
    if (!src)
        return err(ACL_ERROR_RTC_INVALID_INPUT, "aclrtcCreateProg: src is NULL");
    if (!name)
        return err(ACL_ERROR_RTC_INVALID_INPUT, "aclrtcCreateProg: name is NULL");
    if (numHeaders < 0 || (numHeaders > 0 && (!headers || !includeNames)))
        return err(ACL_ERROR_RTC_INVALID_INPUT,
                   "aclrtcCreateProg: numHeaders is %d but headers or includeNames is NULL", numHeaders);
    for (int i = 0; i < numHeaders; i++) {
        if (!headers[i] || !includeNames[i] || !*includeNames[i])
            return err(ACL_ERROR_RTC_INVALID_INPUT,
                       "aclrtcCreateProg: in-memory header %d has a NULL text or an empty include name", i);
        if (strstr(includeNames[i], ".."))
            return err(ACL_ERROR_RTC_INVALID_INPUT,
                       "aclrtcCreateProg: include name '%s' must not contain '..'", includeNames[i]);
    }
    if (strchr(name, '"') || strchr(name, '\n') || strchr(name, '/'))
        return err(ACL_ERROR_RTC_INVALID_INPUT,
                   "aclrtcCreateProg: name '%s' must not contain '\"', '/' or a newline", name);
    rtc_prog *p = calloc(1, sizeof *p);
    if (!p)
        return err(ACL_ERROR_RTC_OUT_OF_MEMORY, "aclrtcCreateProg: out of memory");
    p->magic = PROG_MAGIC;
    pthread_mutex_init(&p->lock, NULL);
    p->src = sdup(src);
    p->name = sdup(*name ? name : "default_program");
    p->nheaders = numHeaders;
    p->hnames = calloc((size_t)numHeaders + 1, sizeof(char *));
    p->htexts = calloc((size_t)numHeaders + 1, sizeof(char *));
    int oom = !p->src || !p->name || !p->hnames || !p->htexts;
    for (int i = 0; !oom && i < numHeaders; i++) {
        p->hnames[i] = sdup(includeNames[i]);
        p->htexts[i] = sdup(headers[i]);
        oom = !p->hnames[i] || !p->htexts[i];
    }
    if (oom || reg_add(p) != 0) {
        free_prog(p);
        return err(ACL_ERROR_RTC_OUT_OF_MEMORY, "aclrtcCreateProg: out of memory");
    }
    *prog = p;
    return ACL_SUCCESS;
}

aclError aclrtcDestroyProg(aclrtcProg *prog)
{
    if (!prog)
        return err(ACL_ERROR_RTC_INVALID_INPUT, "aclrtcDestroyProg: prog is NULL");
    if (!*prog)
        return err(ACL_ERROR_RTC_INVALID_PROG, "aclrtcDestroyProg: *prog is NULL");
    rtc_prog *p = lookup(*prog);
    if (!p || !reg_remove(p))
        return err(ACL_ERROR_RTC_INVALID_PROG, "aclrtcDestroyProg: %p is not a live program", *prog);
    pthread_mutex_lock(&p->lock); /* wait for a compile in another thread */
    pthread_mutex_unlock(&p->lock);
    free_prog(p);
    *prog = NULL;
    return ACL_SUCCESS;
}

/* A name expression names one function: no statements, strings or blocks. */
static int expr_ok(const char *e)
{
    int depth = 0;
    if (!*e)
        return 0;
    for (const char *c = e; *c; c++) {
        if (strchr(";{}#\"\n\\", *c))
            return 0;
        if (*c == '<' || *c == '(' || *c == '[')
            depth++;
        else if (*c == '>' || *c == ')' || *c == ']')
            depth--;
        if (depth < 0)
            return 0;
    }
    return depth == 0;
}

aclError aclrtcAddNameExpr(aclrtcProg prog, const char *const nameExpression)
{
    rtc_prog *p = lookup(prog);
    if (!p)
        return err(ACL_ERROR_RTC_INVALID_PROG, "aclrtcAddNameExpr: %p is not a live program", prog);
    if (!nameExpression)
        return err(ACL_ERROR_RTC_INVALID_INPUT, "aclrtcAddNameExpr: nameExpression is NULL");
    if (!expr_ok(nameExpression))
        return err(ACL_ERROR_RTC_NAME_EXPR_NOT_VALID,
                   "aclrtcAddNameExpr: '%s' is not a valid name expression (expected a kernel name such as "
                   "\"add_custom<float>\")", nameExpression);
    pthread_mutex_lock(&p->lock);
    for (int i = 0; i < p->nexprs; i++)
        if (!strcmp(p->exprs[i], nameExpression)) {
            pthread_mutex_unlock(&p->lock);
            return ACL_SUCCESS;
        }
    char **ne = realloc(p->exprs, (size_t)(p->nexprs + 1) * sizeof *ne);
    char *copy = sdup(nameExpression);
    if (!ne || !copy) {
        free(copy);
        if (ne)
            p->exprs = ne;
        pthread_mutex_unlock(&p->lock);
        return err(ACL_ERROR_RTC_OUT_OF_MEMORY, "aclrtcAddNameExpr: out of memory");
    }
    p->exprs = ne;
    p->exprs[p->nexprs++] = copy;
    pthread_mutex_unlock(&p->lock);
    return ACL_SUCCESS;
}

/* The unqualified template name of an expression: "ns::k<float>" -> "k". */
static const kscan_kernel *hint_for(const kscan_result *ks, const char *expr)
{
    const char *end = strchr(expr, '<');
    size_t n = end ? (size_t)(end - expr) : strlen(expr);
    while (n && expr[n - 1] == ' ')
        n--;
    const char *start = expr;
    for (size_t i = 0; i + 1 < n; i++)
        if (expr[i] == ':' && expr[i + 1] == ':')
            start = expr + i + 2;
    if (*start == '&')
        start++;
    size_t bl = n - (size_t)(start - expr);
    for (int i = 0; i < ks->nkernels; i++)
        if (strlen(ks->kernels[i].base) == bl && !strncmp(ks->kernels[i].base, start, bl))
            return &ks->kernels[i];
    return NULL;
}

typedef struct sbuf {
    char *p;
    size_t len, cap;
    int oom;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0 || b->oom) {
            b->oom = 1;
            return;
        }
        if (b->p && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap ? b->cap : 256) * 2;
        while (cap <= b->len + (size_t)n)
            cap *= 2;
        char *np = realloc(b->p, cap);
        if (!np) {
            b->oom = 1;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
}

/* A non-template kernel's function: its name, or, at file scope, the name
 * cast to the kernel's type (spelled as declared), since a kernel named like
 * a C library function (ops-math's floor, acosh) is otherwise an overload
 * set that holds <cmath>'s templates, which deduces nothing. */
static void entry_expr(sbuf *b, const kscan_kernel *k)
{
    int plain = strstr(k->name, "::") == NULL && k->nparams > 0;
    for (int i = 0; plain && i < k->nparams; i++)
        plain = k->params[i].type[0] && !strpbrk(k->params[i].type, "[(");
    if (!plain) {
        sb_add(b, "%s", k->name);
        return;
    }
    sb_add(b, "static_cast<void (*)(");
    for (int i = 0; i < k->nparams; i++) sb_add(b, "%s%s", i ? ", " : "", k->params[i].type);
    sb_add(b, ")>(%s)", k->name);
}

aclError aclrtcCompileProg(aclrtcProg prog, int numOptions, const char **options)
{
    rtc_prog *p = lookup(prog);
    if (!p)
        return err(ACL_ERROR_RTC_INVALID_PROG, "aclrtcCompileProg: %p is not a live program", prog);
    if (numOptions < 0 || (numOptions > 0 && !options))
        return err(ACL_ERROR_RTC_INVALID_INPUT, "aclrtcCompileProg: numOptions is %d but options is %s",
                   numOptions, options ? "set" : "NULL");
    for (int i = 0; i < numOptions; i++)
        if (!options[i])
            return err(ACL_ERROR_RTC_INVALID_INPUT, "aclrtcCompileProg: options[%d] is NULL", i);

    pthread_mutex_lock(&p->lock);
    free_results(p);
    char msg[1024] = "";
    rtc_opts opts;
    aclError rc = rtc_opts_parse(numOptions, options, &opts, msg, sizeof msg);
    if (rc != ACL_SUCCESS) {
        p->log = sdup(msg);
        pthread_mutex_unlock(&p->lock);
        return err(rc, "aclrtcCompileProg: %s", msg);
    }
    /* a SIMD+SIMT hybrid source (__simt_vf__ functions a __vector__ kernel
     * calls with asc_vf_call) compiles as SIMT without --enable-simt, as the
     * asc-devkit's hybrid examples are built */
    if (!opts.simt && opts.arch_num == 3510 && strstr(p->src, "__simt_vf__"))
        opts.simt = 1;

    kscan_result ks;
    const kscan_macros km = {opts.nmacros, opts.macros};
    if (kscan(p->src, &km, &ks) != 0) {
        rtc_opts_free(&opts);
        pthread_mutex_unlock(&p->lock);
        return err(ACL_ERROR_RTC_OUT_OF_MEMORY, "aclrtcCompileProg: out of memory");
    }
    /* entries: every non-template kernel, then every name expression */
    sbuf text = {0}, notes = {0};
    rtc_entry *entries = calloc((size_t)(ks.nkernels + p->nexprs) + 1, sizeof *entries);
    p->entry_names = calloc((size_t)(ks.nkernels + p->nexprs) + 1, sizeof(char *));
    /* #line makes diagnostics name the program, not the in-memory path */
    sb_add(&text, "#line 1 \"%s\"\n%s\n#line 1 \"<ascendrtc kernel entries>\"\n#include \"arc/entry.h\"\n",
           p->name, p->src);
    int n = 0;
    for (int i = 0; entries && p->entry_names && i < ks.nkernels; i++) {
        const kscan_kernel *k = &ks.kernels[i];
        if (k->is_template) {
            int named = 0;
            for (int e = 0; e < p->nexprs; e++)
                named |= hint_for(&ks, p->exprs[e]) == k;
            if (!named && !opts.host_object) /* ascendrtc cc: its launches instantiate it */
                sb_add(&notes, "%s:%d: note: template kernel '%s' is not instantiated; add a name expression "
                       "such as aclrtcAddNameExpr(prog, \"%s<...>\")\n", p->name, k->line, k->name, k->name);
            continue;
        }
        /* ascendrtc cc: a SIMT kernel comes with its <<<...>>> launches
         * (arc/launch.h), so one that #if leaves out is not named here */
        if (opts.host_object && opts.simt && !k->simd)
            continue;
        entries[n].name = k->name;
        entries[n].hint = k;
        p->entry_names[n] = sdup(k->name);
        /* with --enable-simt a bare __global__ kernel is a SIMT kernel */
        sb_add(&text, "%s(%d, ", opts.simt && !k->simd ? "__ARC_SIMT_ENTRY" : "__ARC_ENTRY", n);
        entry_expr(&text, k);
        sb_add(&text, ")\n");
        n++;
    }
    for (int e = 0; entries && p->entry_names && e < p->nexprs; e++) {
        entries[n].name = p->exprs[e];
        entries[n].hint = hint_for(&ks, p->exprs[e]);
        p->entry_names[n] = sdup(p->exprs[e]);
        const kscan_kernel *h = entries[n].hint;
        sb_add(&text, "#line 1 \"name expression '%s'\"\n%s(%d, %s)\n", p->exprs[e],
               opts.simt && h && !h->simd ? "__ARC_SIMT_ENTRY" : "__ARC_ENTRY", n, p->exprs[e]);
        n++;
    }
    p->nentries = n;
    if (n == 0 && !opts.host_object)
        sb_add(&notes, "%s: warning: no __global__ kernel found\n", p->name);
    if (!entries || !p->entry_names || text.oom || notes.oom) {
        rc = err(ACL_ERROR_RTC_OUT_OF_MEMORY, "aclrtcCompileProg: out of memory");
    } else {
        rtc_request req = {text.p, text.len, p->name, p->nheaders, (const char *const *)p->hnames,
                           (const char *const *)p->htexts, &opts, n, entries, &p->cancel};
        rc = rtc_compile(&req, &p->res);
        sbuf log = {0};
        sb_add(&log, "%s%s", notes.p ? notes.p : "", p->res.log ? p->res.log : "");
        p->log = log.p;
        p->compiled = rc == ACL_SUCCESS;
        if (rc != ACL_SUCCESS) {
            /* the first line of the log is the first diagnostic */
            const char *first = p->res.log ? p->res.log : "";
            size_t fl = strcspn(first, "\n");
            err(rc, "aclrtcCompileProg: %s failed to compile: %.*s", p->name, (int)(fl > 800 ? 800 : fl), first);
        }
    }
    free(entries);
    free(text.p);
    free(notes.p);
    kscan_free(&ks);
    rtc_opts_free(&opts);
    pthread_mutex_unlock(&p->lock);
    return rc;
}

/* Declared in common/exports.h.  Unlocked: the compile holds the lock.  A
 * cancelled program stays cancelled (its next compile stops at once). */
void ascendrtc_compile_cancel(aclrtcProg prog)
{
    rtc_prog *p = lookup(prog);
    if (p)
        __atomic_store_n(&p->cancel, 1, __ATOMIC_RELAXED);
}

/* Getters lock the program so they never race a compile in another thread. */
#define WITH_PROG(fn, out)                                                                   \
    rtc_prog *p = lookup(prog);                                                            \
    if (!p)                                                                                \
        return err(ACL_ERROR_RTC_INVALID_PROG, fn ": %p is not a live program", prog);      \
    if (!(out))                                                                            \
        return err(ACL_ERROR_RTC_INVALID_INPUT, fn ": " #out " is NULL");                   \
    pthread_mutex_lock(&p->lock)

aclError aclrtcGetBinDataSize(aclrtcProg prog, size_t *binDataSizeRet)
{
    WITH_PROG("aclrtcGetBinDataSize", binDataSizeRet);
    aclError rc = ACL_SUCCESS;
    if (!p->compiled)
        rc = err(ACL_ERROR_RTC_INVALID_PROG, "aclrtcGetBinDataSize: program '%s' has not compiled successfully",
                 p->name);
    else
        *binDataSizeRet = p->res.bin_size;
    pthread_mutex_unlock(&p->lock);
    return rc;
}

aclError aclrtcGetBinData(aclrtcProg prog, char *binData)
{
    WITH_PROG("aclrtcGetBinData", binData);
    aclError rc = ACL_SUCCESS;
    if (!p->compiled)
        rc = err(ACL_ERROR_RTC_INVALID_PROG, "aclrtcGetBinData: program '%s' has not compiled successfully",
                 p->name);
    else
        memcpy(binData, p->res.bin, p->res.bin_size);
    pthread_mutex_unlock(&p->lock);
    return rc;
}

aclError aclrtcGetCompileLogSize(aclrtcProg prog, size_t *logSizeRet)
{
    WITH_PROG("aclrtcGetCompileLogSize", logSizeRet);
    *logSizeRet = (p->log ? strlen(p->log) : 0) + 1; /* with the NUL */
    pthread_mutex_unlock(&p->lock);
    return ACL_SUCCESS;
}

aclError aclrtcGetCompileLog(aclrtcProg prog, char *log)
{
    WITH_PROG("aclrtcGetCompileLog", log);
    const char *s = p->log ? p->log : "";
    memcpy(log, s, strlen(s) + 1);
    pthread_mutex_unlock(&p->lock);
    return ACL_SUCCESS;
}

const char *ascendrtc_rtc_dependencies(void *prog)
{
    rtc_prog *p = lookup(prog);
    if (!p)
        return NULL;
    pthread_mutex_lock(&p->lock);
    const char *d = p->compiled ? p->res.deps : NULL;
    pthread_mutex_unlock(&p->lock);
    return d;
}

aclError aclrtcGetLoweredName(aclrtcProg prog, const char *nameExpression, const char **loweredName)
{
    WITH_PROG("aclrtcGetLoweredName", loweredName);
    aclError rc;
    if (!nameExpression) {
        rc = err(ACL_ERROR_RTC_INVALID_INPUT, "aclrtcGetLoweredName: nameExpression is NULL");
    } else if (!p->compiled) {
        rc = err(ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION,
                 "aclrtcGetLoweredName: program '%s' has not compiled successfully yet", p->name);
    } else {
        rc = err(ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION,
                 "aclrtcGetLoweredName: '%s' was not added with aclrtcAddNameExpr before compiling '%s'",
                 nameExpression, p->name);
        for (int i = 0; i < p->nentries; i++)
            if (!strcmp(p->entry_names[i], nameExpression)) {
                *loweredName = p->res.lowered[i];
                rc = ACL_SUCCESS;
                break;
            }
    }
    pthread_mutex_unlock(&p->lock);
    return rc;
}
