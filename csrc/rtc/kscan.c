/* kscan.c - lexical scan for __global__ kernels (see kscan.h). */
#include "kscan.h"
#include "kscan_cond.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef enum { T_EOF, T_IDENT, T_PUNCT, T_OTHER } tkind;

typedef struct tok {
    tkind kind;
    const char *p;
    int len;
    int line;
} tok;

/* What the scan knows of a conditional opened in live text. */
enum { C_UNKNOWN, C_TAKEN, C_NOT_TAKEN };

typedef struct lexer {
    const char *s;
    int line;
    int bol;       /* at beginning of a line (only whitespace so far) */
    int skip_if;   /* depth inside a group the device compile leaves out */
    int depth;     /* conditionals open in live text */
    unsigned char cond[64]; /* C_*, for the innermost 64 of them */
    kcond *kc;              /* the macros it knows (kscan_cond.h) */
} lexer;

/* Macros the device compile defines only when an option does, so their
 * groups are known: __CCE_KT_TEST__ marks CANN's CPU-debug (tikicpulib)
 * build, which the NPU compile (and this simulator's) is not; kernels keep
 * a non-template twin of their entry under it (ops-nn's bnll.cpp). */
static const char *const never_defined[] = {"__CCE_KT_TEST__", NULL};

static int is_id(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* s points at a block comment's opening: the character after its end (or
 * the end of the text), counting the newlines it spans into *line. */
static const char *skip_block_comment(const char *s, int *line)
{
    s += 2;
    while (*s && !(s[0] == '*' && s[1] == '/')) {
        if (*s == '\n')
            (*line)++;
        s++;
    }
    return *s ? s + 2 : s;
}

/* The end of the directive line at q: its newline (continuations included). */
static const char *line_end(const char *q)
{
    while (*q && !(*q == '\n' && q[-1] != '\\'))
        q++;
    return q;
}

/* The value of the condition at q (after `#if`, `#elif`, `#ifdef`,
 * `#ifndef`; dl the directive's length) where the scan knows it. */
static int cond_value(const lexer *lx, size_t dl, const char *q)
{
    if (dl == 5 || dl == 6) { /* ifdef, ifndef */
        const char *id = q;
        while (is_id((unsigned char)*q))
            q++;
        int def = kcond_defined(lx->kc, id, (size_t)(q - id));
        return def == KC_UNKNOWN || !(q > id) ? C_UNKNOWN : (def == KC_DEFINED) != (dl == 6) ? C_TAKEN : C_NOT_TAKEN;
    }
    int v = kcond_eval(lx->kc, q, (size_t)(line_end(q) - q));
    return v == KC_UNKNOWN ? C_UNKNOWN : v ? C_TAKEN : C_NOT_TAKEN;
}

/* Whether every open group is one the compile is known to take: then a
 * #define or #undef there is known too. */
static int all_taken(const lexer *lx)
{
    for (int i = 0; i < lx->depth; i++)
        if (i >= 64 || lx->cond[i] != C_TAKEN)
            return 0;
    return 1;
}

/* #define / #undef at q (after the directive): the macro's state from here on. */
static void pp_define(lexer *lx, int undef, const char *q)
{
    const char *id = q;
    while (is_id((unsigned char)*q))
        q++;
    size_t n = (size_t)(q - id);
    if (!n || !lx->kc)
        return;
    const char *v = q, *e = line_end(q);
    int fn = *q == '('; /* function-like: defined, its value never read */
    while (v < e && (*v == ' ' || *v == '\t'))
        v++;
    int state = !all_taken(lx) ? KC_UNKNOWN : undef ? KC_UNDEFINED : KC_DEFINED;
    /* out of memory: a new name stays unknown, a known one is updated in place */
    (void)kcond_set(lx->kc, id, n, state, fn ? "" : v, fn ? 0 : (size_t)(e - v));
}

/* Skip a preprocessor line (with continuations); track the groups the
 * device compile leaves out (#if 0, #ifdef of a macro it does not define,
 * the #else of its #ifndef, and the converse) and skip their text. */
static void pp_line(lexer *lx)
{
    const char *q = lx->s + 1;
    while (*q == ' ' || *q == '\t')
        q++;
    const char *d = q;
    while (isalpha((unsigned char)*q))
        q++;
    size_t dl = (size_t)(q - d);
    while (*q == ' ' || *q == '\t')
        q++;
    int opens = (dl == 2 && !strncmp(d, "if", 2)) || (dl == 5 && !strncmp(d, "ifdef", 5)) ||
                (dl == 6 && !strncmp(d, "ifndef", 6));
    int branch = dl == 4 && (!strncmp(d, "else", 4) || !strncmp(d, "elif", 4));
    int elif = branch && d[2] == 'i';
    int closes = dl == 5 && !strncmp(d, "endif", 5);
    unsigned char *top = lx->depth > 0 && lx->depth <= 64 ? &lx->cond[lx->depth - 1] : NULL;
    if (lx->skip_if) {
        if (opens) {
            lx->skip_if++;
        } else if (closes && --lx->skip_if == 0) {
            lx->depth--;                           /* the group's own #endif */
        } else if (lx->skip_if == 1 && branch && top && *top == C_NOT_TAKEN) {
            int v = elif && lx->kc ? cond_value(lx, 2, q) : elif ? C_UNKNOWN : C_TAKEN;
            if (v != C_NOT_TAKEN) {                /* the #else (#elif) after the groups left out */
                lx->skip_if = 0;
                *top = (unsigned char)v;
            }
        }
    } else if (opens) {
        int v = lx->depth < 64 && lx->kc ? cond_value(lx, dl, q) : C_UNKNOWN;
        if (lx->depth < 64)
            lx->cond[lx->depth] = (unsigned char)v;
        lx->depth++;
        lx->skip_if = v == C_NOT_TAKEN;
    } else if (branch && top && *top == C_TAKEN) {
        lx->skip_if = 1;                           /* the rest after a group the compile takes */
    } else if (closes && lx->depth > 0) {
        lx->depth--;
    } else if ((dl == 6 && !strncmp(d, "define", 6)) || (dl == 5 && !strncmp(d, "undef", 5))) {
        pp_define(lx, dl == 5, q);
    }
    const char *s = lx->s;
    while (*s && *s != '\n') {
        if (s[0] == '\\' && s[1] == '\n') {
            s += 2;
            lx->line++;
            continue;
        }
        if (s[0] == '/' && s[1] == '*') {
            s = skip_block_comment(s, &lx->line);
            continue;
        }
        s++;
    }
    lx->s = s;
}

static tok next(lexer *lx)
{
    for (;;) {
        const char *s = lx->s;
        tok t = {T_EOF, s, 0, lx->line};
        if (!*s)
            return t;
        if (*s == '\n') {
            lx->line++;
            lx->bol = 1;
            lx->s++;
            continue;
        }
        if (isspace((unsigned char)*s)) {
            lx->s++;
            continue;
        }
        if (s[0] == '/' && s[1] == '/') {
            while (*s && *s != '\n')
                s++;
            lx->s = s;
            continue;
        }
        if (s[0] == '/' && s[1] == '*') {
            lx->s = skip_block_comment(s, &lx->line);
            continue;
        }
        if (*s == '#' && lx->bol) {
            pp_line(lx);
            continue;
        }
        lx->bol = 0;
        if (lx->skip_if) {
            /* inside #if 0: skip to the next line, only directives count */
            while (*s && *s != '\n')
                s++;
            lx->s = s;
            continue;
        }
        /* raw string R"delim( ... )delim" */
        if ((s[0] == 'R' && s[1] == '"') || ((s[0] == 'u' || s[0] == 'U' || s[0] == 'L') && s[1] == 'R' && s[2] == '"') ||
            (s[0] == 'u' && s[1] == '8' && s[2] == 'R' && s[3] == '"')) {
            const char *q = strchr(s, '"') + 1;
            const char *dstart = q;
            while (*q && *q != '(' && q - dstart < 16)
                q++;
            size_t dl = (size_t)(q - dstart);
            if (*q == '(') {
                q++;
                for (; *q; q++) {
                    if (*q == '\n')
                        lx->line++;
                    if (*q == ')' && !strncmp(q + 1, dstart, dl) && q[1 + dl] == '"') {
                        q += dl + 2;
                        break;
                    }
                }
                lx->s = q;
                t.kind = T_OTHER;
                return t;
            }
        }
        if (*s == '"' || *s == '\'') {
            char quote = *s++;
            while (*s && *s != quote && *s != '\n') {
                if (*s == '\\' && s[1])
                    s++;
                s++;
            }
            if (*s == quote)
                s++;
            lx->s = s;
            t.kind = T_OTHER;
            return t;
        }
        if (is_id((unsigned char)*s)) {
            while (is_id((unsigned char)*s))
                s++;
            t.kind = isdigit((unsigned char)*t.p) ? T_OTHER : T_IDENT;
            t.len = (int)(s - t.p);
            lx->s = s;
            return t;
        }
        if (s[0] == ':' && s[1] == ':') {
            t.kind = T_PUNCT;
            t.len = 2;
            lx->s = s + 2;
            return t;
        }
        t.kind = T_PUNCT;
        t.len = 1;
        lx->s = s + 1;
        return t;
    }
}

static int is(tok t, const char *w)
{
    return (int)strlen(w) == t.len && !strncmp(t.p, w, (size_t)t.len);
}

static char *dupn(const char *p, size_t n)
{
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, p, n);
        s[n] = '\0';
    }
    return s;
}

/* Collapse whitespace runs to one space and trim. */
static char *squash(const char *p, size_t n)
{
    char *s = malloc(n + 1);
    if (!s)
        return NULL;
    size_t o = 0;
    int sp = 0;
    for (size_t i = 0; i < n; i++) {
        if (isspace((unsigned char)p[i])) {
            sp = o > 0;
            continue;
        }
        if (sp)
            s[o++] = ' ';
        sp = 0;
        s[o++] = p[i];
    }
    s[o] = '\0';
    return s;
}

static int is_type_word(const char *w, size_t n)
{
    static const char *const words[] = {"int", "char", "short", "long", "float", "double", "bool",
                                        "void", "unsigned", "signed", "half", "auto", "const", NULL};
    for (int i = 0; words[i]; i++)
        if (strlen(words[i]) == n && !strncmp(w, words[i], n))
            return 1;
    return 0;
}

/* Split the text between the parentheses into parameters. */
static int parse_params(const char *p, size_t n, kscan_kernel *k)
{
    int cap = 4;
    k->params = calloc((size_t)cap, sizeof *k->params);
    if (!k->params)
        return -1;
    size_t start = 0;
    int depth = 0;
    for (size_t i = 0; i <= n; i++) {
        char c = i < n ? p[i] : ',';
        if (c == '(' || c == '<' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == '>' || c == ']' || c == '}') && depth > 0)
            depth--;
        if (c != ',' || depth > 0)
            continue;
        const char *a = p + start;
        size_t al = i - start;
        start = i + 1;
        /* drop a default argument */
        for (size_t j = 0; j < al; j++)
            if (a[j] == '=') {
                al = j;
                break;
            }
        while (al && isspace((unsigned char)a[al - 1]))
            al--;
        while (al && isspace((unsigned char)*a))
            a++, al--;
        if (al == 0 || (al == 4 && !strncmp(a, "void", 4)))
            continue;
        size_t e = al;
        while (e && (is_id((unsigned char)a[e - 1])))
            e--;
        /* `T name` is named; a lone type (`int`, `unsigned int`, `GM_ADDR`) is not */
        int named = e < al && e > 0 && !isdigit((unsigned char)a[e]) && !is_type_word(a + e, al - e);
        if (k->nparams == cap) {
            cap *= 2;
            kscan_param *np = realloc(k->params, (size_t)cap * sizeof *np);
            if (!np)
                return -1;
            k->params = np;
        }
        kscan_param *kp = &k->params[k->nparams++];
        kp->name = named ? dupn(a + e, al - e) : dupn("", 0);
        kp->type = squash(a, named ? e : al);
        if (!kp->name || !kp->type)
            return -1;
    }
    return 0;
}

/* Qualifiers of SIMD kernels: a __global__ kernel without any is a SIMT one. */
static int simd_qualifier(tok t)
{
    return is(t, "__aicore__") || is(t, "__vector__") || is(t, "__cube__") || is(t, "__mix__");
}

/* Qualifier macros with arguments between __global__ and the kernel's name. */
static int paren_qualifier(tok t)
{
    return is(t, "__launch_bounds__") || is(t, "__mix__") || is(t, "__maxnreg__") || is(t, "__schedmode__") ||
           is(t, "__attribute__") || is(t, "__declspec") || is(t, "alignas");
}

static int add_kernel(kscan_result *r, int *cap, const char *ns, tok name, int is_tmpl,
                      const char *params, size_t plen)
{
    for (int i = 0; i < r->nkernels; i++) {
        kscan_kernel *k = &r->kernels[i];
        if ((int)strlen(k->base) == name.len && !strncmp(k->base, name.p, (size_t)name.len)) {
            size_t nl = strlen(ns);
            if (!strncmp(k->name, ns, nl) && !strcmp(k->name + nl, k->base))
                return 0; /* a declaration and its definition */
        }
    }
    if (r->nkernels == *cap) {
        *cap = *cap ? *cap * 2 : 4;
        kscan_kernel *nk = realloc(r->kernels, (size_t)*cap * sizeof *nk);
        if (!nk)
            return -1;
        r->kernels = nk;
    }
    kscan_kernel *k = &r->kernels[r->nkernels++];
    memset(k, 0, sizeof *k);
    size_t nl = strlen(ns);
    k->name = malloc(nl + (size_t)name.len + 1);
    k->base = dupn(name.p, (size_t)name.len);
    if (!k->name || !k->base)
        return -1;
    memcpy(k->name, ns, nl);
    memcpy(k->name + nl, name.p, (size_t)name.len);
    k->name[nl + (size_t)name.len] = '\0';
    k->is_template = is_tmpl;
    k->line = name.line;
    return parse_params(params, plen, k);
}

/* The parameter list after a kernel's name (lx just past its '('): the
 * kernel added to out. */
static int take_kernel(lexer *lx, kscan_result *out, int *cap, const char *ns, tok name, int is_tmpl, int simd)
{
    const char *pstart = lx->s;
    int pd = 1;
    tok v;
    const char *pend = pstart;
    while (pd > 0 && (v = next(lx)).kind != T_EOF) {
        if (is(v, "("))
            pd++;
        else if (is(v, ")"))
            pd--;
        pend = v.p;
    }
    int before = out->nkernels;
    if (add_kernel(out, cap, ns, name, is_tmpl, pstart, (size_t)(pend - pstart)) != 0)
        return -1;
    if (out->nkernels > before)
        out->kernels[out->nkernels - 1].simd = simd;
    return 0;
}

static int named(tok t, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (is(t, names[i]))
            return 1;
    return 0;
}

int kscan(const char *src, const kscan_macros *macros, kscan_result *out)
{
    return kscan_launched(src, macros, NULL, 0, out);
}

int kscan_launched(const char *src, const kscan_macros *macros, const char *const *names, int nnames,
                   kscan_result *out)
{
    lexer lx = {src, 1, 1, 0, 0, {0}, kcond_new(macros ? macros->n : 0, macros ? macros->items : NULL)};
    for (int i = 0; lx.kc && never_defined[i]; i++) {
        size_t n = strlen(never_defined[i]);
        if (kcond_defined(lx.kc, never_defined[i], n) == KC_UNKNOWN &&
            kcond_set(lx.kc, never_defined[i], n, KC_UNDEFINED, NULL, 0) != 0) {
            kcond_free(lx.kc);
            lx.kc = NULL;
        }
    }
    int cap = 0;
    memset(out, 0, sizeof *out);
    /* brace stack: for each open brace, the length of ns it added (-1: not a namespace) */
    int stack[256];
    int depth = 0;
    char ns[1024] = "";
    size_t nslen = 0;
    int pending_ns = 0;          /* saw `namespace X` awaiting `{` */
    char pending_name[256] = "";
    int stmt_template = 0;       /* `template` seen in the current declaration */
    int stmt_simd = 0;           /* a SIMD qualifier seen in it (before __global__) */
    tok prev = {T_EOF, 0, 0, 0};
    for (;;) {
        tok t = next(&lx), last = prev;
        prev = t;
        if (t.kind == T_EOF)
            break;
        if (t.kind == T_IDENT && is(t, "namespace")) {
            pending_ns = 1;
            pending_name[0] = '\0';
        } else if (pending_ns && t.kind == T_IDENT) {
            size_t l = strlen(pending_name);
            if (l + (size_t)t.len + 3 < sizeof pending_name) {
                memcpy(pending_name + l, t.p, (size_t)t.len);
                pending_name[l + (size_t)t.len] = '\0';
            }
        } else if (pending_ns && is(t, "::")) {
            size_t l = strlen(pending_name);
            if (l + 3 < sizeof pending_name)
                strcpy(pending_name + l, "::");
        } else if (is(t, "{")) {
            int added = -1;
            if (pending_ns && depth < 256) {
                size_t l = strlen(pending_name);
                if (l && nslen + l + 3 < sizeof ns) {
                    memcpy(ns + nslen, pending_name, l);
                    memcpy(ns + nslen + l, "::", 3);
                    added = (int)(l + 2);
                    nslen += (size_t)added;
                } else {
                    added = 0; /* anonymous namespace */
                }
            }
            if (depth < 256)
                stack[depth] = added;
            depth++;
            pending_ns = 0;
            stmt_template = 0;
            stmt_simd = 0;
        } else if (is(t, "}")) {
            if (depth > 0) {
                depth--;
                if (depth < 256 && stack[depth] > 0) {
                    nslen -= (size_t)stack[depth];
                    ns[nslen] = '\0';
                }
            }
            stmt_template = 0;
            stmt_simd = 0;
        } else if (is(t, ";")) {
            pending_ns = 0;
            stmt_template = 0;
            stmt_simd = 0;
        } else if (t.kind == T_IDENT && simd_qualifier(t)) {
            stmt_simd = 1;
        } else if (t.kind == T_IDENT && is(t, "template")) {
            stmt_template = 1;
        } else if (t.kind == T_IDENT && is(t, "__global__")) {
            /* the kernel name is the identifier just before the first '(' */
            tok name = {T_EOF, 0, 0, 0}, u;
            int angle = 0, simd = stmt_simd;
            while ((u = next(&lx)).kind != T_EOF) {
                if (u.kind == T_IDENT && simd_qualifier(u))
                    simd = 1;
                if (u.kind == T_IDENT && paren_qualifier(u)) {
                    /* __launch_bounds__(n), __mix__(1, 2), ...: skip the arguments */
                    tok v = next(&lx);
                    for (int d = is(v, "(") ? 1 : 0; d > 0 && (v = next(&lx)).kind != T_EOF;)
                        d += is(v, "(") ? 1 : is(v, ")") ? -1 : 0;
                    continue;
                }
                if (is(u, "<"))
                    angle++;
                else if (is(u, ">") && angle)
                    angle--;
                else if (is(u, "(") && !angle)
                    break;
                else if (is(u, ";") || is(u, "{"))
                    break;
                if (u.kind == T_IDENT)
                    name = u;
            }
            if (!is(u, "(") || name.kind != T_IDENT)
                continue;
            /* attribute macros such as __attribute__((x)) are followed by '(' too */
            if (is(name, "__attribute__") || is(name, "__declspec"))
                continue;
            if (take_kernel(&lx, out, &cap, ns, name, stmt_template, simd) != 0) {
                kscan_free(out);
                kcond_free(lx.kc);
                return -1;
            }
        } else if (t.kind == T_IDENT && nnames && last.kind == T_IDENT && is(last, "void") &&
                   named(t, names, nnames)) {
            /* `void k(` of a kernel launched with <<<>>>, marked by a macro
             * (CATLASS_GLOBAL) the scan does not expand */
            lexer at = lx;
            if (!is(next(&at), "("))
                continue;
            lx = at;
            if (take_kernel(&lx, out, &cap, ns, t, stmt_template, 1) != 0) {
                kscan_free(out);
                kcond_free(lx.kc);
                return -1;
            }
        }
    }
    kcond_free(lx.kc);
    return 0;
}

void kscan_free(kscan_result *r)
{
    for (int i = 0; i < r->nkernels; i++) {
        kscan_kernel *k = &r->kernels[i];
        for (int j = 0; j < k->nparams; j++) {
            free(k->params[j].name);
            free(k->params[j].type);
        }
        free(k->params);
        free(k->name);
        free(k->base);
    }
    free(r->kernels);
    memset(r, 0, sizeof *r);
}
