/* kscan_cond.c - the preprocessor conditions the kernel scan can decide
 * (see kscan_cond.h).  Three-valued: a macro is defined with a value,
 * undefined, or unknown (a header may define it); an expression that
 * depends on an unknown macro is unknown, unless an operator decides it
 * without that operand (`0 && X`, `1 || X`). */
#include "kscan_cond.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct kdef {
    char *name;
    int state;   /* KC_DEFINED, KC_UNDEFINED or KC_UNKNOWN */
    char *value; /* its replacement text, for KC_DEFINED */
} kdef;

struct kcond {
    int n, cap;
    kdef *defs;
};

static int is_id(int c) { return isalnum(c) || c == '_' || c == '$'; }

static kdef *find(const kcond *c, const char *name, size_t n)
{
    for (int i = c->n - 1; i >= 0; i--)
        if (strlen(c->defs[i].name) == n && !strncmp(c->defs[i].name, name, n))
            return &c->defs[i];
    return NULL;
}

int kcond_set(kcond *c, const char *name, size_t n, int state, const char *value, size_t vn)
{
    kdef *d = find(c, name, n);
    if (!d) {
        if (c->n == c->cap) {
            int cap = c->cap ? 2 * c->cap : 16;
            kdef *nd = realloc(c->defs, (size_t)cap * sizeof *nd);
            if (!nd)
                return -1;
            c->defs = nd;
            c->cap = cap;
        }
        d = &c->defs[c->n];
        d->name = strndup(name, n);
        d->value = NULL;
        if (!d->name)
            return -1;
        c->n++;
    }
    free(d->value);
    d->value = state == KC_DEFINED ? strndup(value ? value : "1", value ? vn : 1) : NULL;
    d->state = state == KC_DEFINED && !d->value ? KC_UNKNOWN : state;
    return 0;
}

kcond *kcond_new(int nopts, char *const *opts)
{
    kcond *c = calloc(1, sizeof *c);
    for (int i = 0; c && i < nopts; i++) {
        const char *m = opts[i];
        if (m[0] != '-' || (m[1] != 'D' && m[1] != 'U'))
            continue;
        const char *eq = strchr(m + 2, '=');
        size_t n = eq ? (size_t)(eq - m - 2) : strlen(m + 2);
        if (kcond_set(c, m + 2, n, m[1] == 'D' ? KC_DEFINED : KC_UNDEFINED, eq ? eq + 1 : NULL,
                      eq ? strlen(eq + 1) : 0)) {
            kcond_free(c);
            return NULL;
        }
    }
    return c;
}

void kcond_free(kcond *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n; i++) {
        free(c->defs[i].name);
        free(c->defs[i].value);
    }
    free(c->defs);
    free(c);
}

int kcond_defined(const kcond *c, const char *name, size_t n)
{
    const kdef *d = find(c, name, n);
    return d ? d->state : KC_UNKNOWN;
}

/* The evaluator: a value, or unknown (ok = 0). */
typedef struct val {
    long long v;
    int ok;
} val;

typedef struct ev {
    const kcond *c;
    const char *s;
    int depth; /* macro expansions in progress */
    int bad;   /* text it cannot read: the whole condition is unknown */
} ev;

static val expr(ev *e);

static void space(ev *e)
{
    for (;;) {
        while (*e->s == ' ' || *e->s == '\t' || *e->s == '\r' || (e->s[0] == '\\' && e->s[1] == '\n'))
            e->s += *e->s == '\\' ? 2 : 1;
        if (e->s[0] == '/' && e->s[1] == '*') {
            const char *end = strstr(e->s + 2, "*/");
            e->s = end ? end + 2 : e->s + strlen(e->s);
            continue;
        }
        return;
    }
}

static int eat(ev *e, const char *op)
{
    space(e);
    size_t n = strlen(op);
    if (strncmp(e->s, op, n))
        return 0;
    /* `<` is not `<<` or `<=`; `&` is not `&&`; `|` is not `||` */
    if (n == 1 && ((strchr("<>&|", op[0]) && e->s[1] == op[0]) || (strchr("<>!", op[0]) && e->s[1] == '=')))
        return 0;
    e->s += n;
    return 1;
}

static val unknown(void) { return (val){0, 0}; }
static val known(long long v) { return (val){v, 1}; }

/* A macro's value: its replacement text evaluated (object-like macros). */
static val macro(ev *e, const char *name, size_t n)
{
    const kdef *d = find(e->c, name, n);
    if (!d || d->state == KC_UNKNOWN || e->depth > 16)
        return unknown();
    if (d->state == KC_UNDEFINED)
        return known(0); /* the C rule: an undefined identifier in #if is 0 */
    ev sub = {e->c, d->value, e->depth + 1, 0};
    val v = expr(&sub);
    space(&sub);
    return sub.bad || *sub.s ? unknown() : v;
}

static val primary(ev *e)
{
    space(e);
    const char *s = e->s;
    if (eat(e, "(")) {
        val v = expr(e);
        if (!eat(e, ")"))
            e->bad = 1;
        return v;
    }
    if (isdigit((unsigned char)*s)) {
        char *end;
        long long v = strtoll(s, &end, 0);
        while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
            end++;
        e->s = end;
        return known(v);
    }
    if (is_id((unsigned char)*s)) {
        while (is_id((unsigned char)*e->s))
            e->s++;
        size_t n = (size_t)(e->s - s);
        if (n == 7 && !strncmp(s, "defined", 7)) {
            int paren = eat(e, "(");
            space(e);
            const char *id = e->s;
            while (is_id((unsigned char)*e->s))
                e->s++;
            size_t in = (size_t)(e->s - id);
            if (!in || (paren && !eat(e, ")")))
                e->bad = 1;
            int st = kcond_defined(e->c, id, in);
            return st == KC_UNKNOWN ? unknown() : known(st == KC_DEFINED);
        }
        space(e);
        if (*e->s == '(') /* a function-like macro: not followed */
            e->bad = 1;
        return macro(e, s, n);
    }
    e->bad = 1;
    return unknown();
}

static val unary(ev *e)
{
    if (eat(e, "!")) {
        val v = unary(e);
        return v.ok ? known(!v.v) : v;
    }
    if (eat(e, "~")) {
        val v = unary(e);
        return v.ok ? known(~v.v) : v;
    }
    if (eat(e, "-")) {
        val v = unary(e);
        return v.ok ? known(-v.v) : v;
    }
    if (eat(e, "+"))
        return unary(e);
    return primary(e);
}

/* Binary operators by precedence, lowest first; && and || decide on one
 * known operand where C would. */
static const char *const levels[][4] = {
    {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"}, {"+", "-"},
    {"*", "/", "%"},
};
#define NLEVELS ((int)(sizeof levels / sizeof levels[0]))

static long long apply(const char *op, long long a, long long b, int *ok)
{
    switch (op[0]) {
    case '|': return op[1] ? (a || b) : (a | b);
    case '&': return op[1] ? (a && b) : (a & b);
    case '^': return a ^ b;
    case '=': return a == b;
    case '!': return a != b;
    case '<': return op[1] == '=' ? a <= b : op[1] == '<' ? (long long)((unsigned long long)a << (b & 63)) : a < b;
    case '>': return op[1] == '=' ? a >= b : op[1] == '>' ? a >> (b & 63) : a > b;
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    default: /* / and %: by zero is an error in the real compile; leave it to that */
        if (b == 0 || (a == (-9223372036854775807LL - 1) && b == -1)) {
            *ok = 0;
            return 0;
        }
        return op[0] == '/' ? a / b : a % b;
    }
}

static val binary(ev *e, int level)
{
    if (level == NLEVELS)
        return unary(e);
    val a = binary(e, level + 1);
    for (;;) {
        const char *op = NULL;
        for (int i = 0; i < 4 && levels[level][i] && !op; i++)
            if (eat(e, levels[level][i]))
                op = levels[level][i];
        if (!op)
            return a;
        val b = binary(e, level + 1);
        if (!strcmp(op, "&&") && ((a.ok && !a.v) || (b.ok && !b.v)))
            a = known(0);
        else if (!strcmp(op, "||") && ((a.ok && a.v) || (b.ok && b.v)))
            a = known(1);
        else if (a.ok && b.ok) {
            int ok = 1;
            long long v = apply(op, a.v, b.v, &ok);
            a = ok ? known(v) : unknown();
        } else
            a = unknown();
    }
}

static val expr(ev *e)
{
    val c = binary(e, 0);
    if (!eat(e, "?"))
        return c;
    val t = expr(e);
    if (!eat(e, ":"))
        e->bad = 1;
    val f = expr(e);
    return !c.ok ? unknown() : c.v ? t : f;
}

int kcond_eval(const kcond *c, const char *text, size_t n)
{
    char *s = strndup(text, n);
    if (!s)
        return KC_UNKNOWN;
    char *cut = strstr(s, "//"); /* a line comment ends the condition */
    if (cut)
        *cut = '\0';
    ev e = {c, s, 0, 0};
    val v = expr(&e);
    space(&e);
    int r = e.bad || *e.s || !v.ok ? KC_UNKNOWN : v.v != 0;
    free(s);
    return r;
}
