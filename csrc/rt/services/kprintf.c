/* kprintf.c - kernel printf that cannot crash the process.
 *
 * AscendC::printf passes each argument with its kind (arc_printf_arg), so
 * the format is checked against what the kernel really passed: a missing
 * argument, a kind the conversion cannot print (%s given an int), %n (it
 * writes memory) or an unknown conversion trap with the format and the
 * argument's position instead of letting vfprintf read garbage.  %s
 * strings are read with process_vm_readv, which reports an unreadable
 * address (EFAULT) rather than faulting.  The text is built first and
 * written under the printf lock, so a trap never leaves the lock held. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "rt/rt_internal.h"

#define OUT_MAX (64u << 10) /* longest text one call prints */
#define STR_MAX 4096u       /* longest %s argument */
#define FIELD_MAX 4096      /* largest width or precision, written or '*' (else one %s could ask for gigabytes) */

static pthread_mutex_t printf_mu = PTHREAD_MUTEX_INITIALIZER;

typedef struct {
    char *buf;
    size_t len, cap;
} text;

static void put(text *t, const char *s, size_t n)
{
    if (t->len + n > OUT_MAX)
        n = OUT_MAX - t->len;
    if (t->len + n + 1 > t->cap) {
        size_t c = t->cap ? t->cap : 256;
        while (c < t->len + n + 1)
            c *= 2;
        char *nb = realloc(t->buf, c);
        if (!nb)
            return;
        t->buf = nb;
        t->cap = c;
    }
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = 0;
}

static const char *kind_name(char k)
{
    return k == 'i' ? "a signed integer" : k == 'u' ? "an unsigned integer" : k == 'f' ? "a floating-point value"
         : k == 's' ? "a string (char pointer)" : k == 'p' ? "a pointer" : "an unknown kind";
}

/* Copies the NUL-terminated string at p (at most STR_MAX bytes) into out;
 * -1 when the first byte cannot be read. */
static long read_string(uintptr_t p, char *out)
{
    size_t got = 0;
    while (got < STR_MAX) {
        /* Never across a page boundary: the next page may be unmapped. */
        size_t chunk = 4096 - ((p + got) & 4095);
        if (chunk > STR_MAX - got)
            chunk = STR_MAX - got;
        struct iovec local = {out + got, chunk}, remote = {(void *)(p + got), chunk};
        ssize_t r = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
        if (r <= 0)
            return got ? (long)got : -1;
        void *z = memchr(out + got, 0, (size_t)r);
        if (z)
            return (char *)z - out;
        got += (size_t)r;
    }
    return (long)got;
}

/* Stops the calling block: fmt, the position and what went wrong. */
#define BAD(...) (free(t.buf), __arc_trap("AscendC::printf", __VA_ARGS__))

int __arc_printf_v(const char *fmt, unsigned n, const arc_printf_arg *args)
{
    int k = sim_core_service_begin();
    text t = {0};
    char fmtcopy[512], raw[STR_MAX + 1];
    long fl = fmt ? read_string((uintptr_t)fmt, raw) : -1;
    if (fl < 0)
        __arc_trap("AscendC::printf", "the format string at %p is not readable", (const void *)fmt);
    /* For messages: the format with control characters escaped (\n). */
    {
        size_t o = 0;
        for (long i = 0; i < fl && o + 5 < sizeof fmtcopy; i++) {
            unsigned char c = (unsigned char)raw[i];
            if (c == '\n' || c == '\t' || c == '"' || c == '\\') {
                fmtcopy[o++] = '\\';
                fmtcopy[o++] = c == '\n' ? 'n' : c == '\t' ? 't' : (char)c;
            } else if (c < 32 || c == 127) {
                o += (size_t)snprintf(fmtcopy + o, sizeof fmtcopy - o, "\\x%02x", c);
            } else {
                fmtcopy[o++] = (char)c;
            }
        }
        fmtcopy[o] = 0;
        raw[fl] = 0;
    }
    const char *f = raw; /* parsed from the copy: at most STR_MAX bytes */
    unsigned ai = 0;
    char sbuf[STR_MAX + 1];
    while (*f) {
        const char *pct = strchr(f, '%');
        if (!pct) {
            put(&t, f, strlen(f));
            break;
        }
        put(&t, f, (size_t)(pct - f));
        const char *s = pct + 1;
        if (*s == '%') {
            put(&t, "%", 1);
            f = s + 1;
            continue;
        }
        char spec[64];
        size_t sl = 0;
        spec[sl++] = '%';
        while (*s && strchr("-+ #0'", *s) && sl < 40)
            spec[sl++] = *s++;
        int nstar = 0;
        long long starv[2] = {0, 0};
        for (int part = 0; part < 2; part++) { /* the width, then the precision after a '.' */
            if (part == 1) {
                if (*s != '.')
                    break;
                spec[sl++] = *s++;
            }
            if (*s == '*') {
                nstar++;
                spec[sl++] = *s++;
                continue;
            }
            long v = 0;
            while (*s >= '0' && *s <= '9') {
                v = v * 10 + (*s - '0');
                if (v > FIELD_MAX) {
                    BAD("format \"%s\": a %s above %d is out of range", fmtcopy, part ? "precision" : "width",
                        FIELD_MAX);
                }
                spec[sl++] = *s++; /* a precision's leading zeros stop at the length check */
                if (sl > 56) {
                    BAD("format \"%s\": a conversion specification longer than 56 characters", fmtcopy);
                }
            }
        }
        while (*s && strchr("hlLqjzt", *s)) /* the kind travels with the value: length modifiers are moot */
            s++;
        char conv = *s;
        if (!conv) {
            BAD("format \"%s\" ends inside a conversion (a lone '%%'; write %%%% for a percent sign)", fmtcopy);
        }
        for (int i = 0; i < nstar; i++) {
            if (ai >= n) {
                    BAD("format \"%s\": a '*' width or precision needs argument %u but only %u %s passed", fmtcopy,
                    ai + 1, n, n == 1 ? "was" : "were");
            }
            if (args[ai].kind != 'i' && args[ai].kind != 'u') {
                    BAD("format \"%s\": a '*' width or precision needs an integer but argument %u is %s", fmtcopy,
                    ai + 1, kind_name(args[ai].kind));
            }
            starv[i] = (long long)args[ai++].v;
            if (starv[i] > FIELD_MAX || starv[i] < -FIELD_MAX) {
                    BAD("format \"%s\": a '*' width or precision of %lld is out of range (at most %d)", fmtcopy,
                    starv[i], FIELD_MAX);
            }
        }
        if (conv == 'n') {
            BAD("format \"%s\": %%n is not supported (it writes to memory)", fmtcopy);
        }
        if (!strchr("diouxXcfFeEgGaAsp", conv)) {
            BAD("format \"%s\": unknown conversion '%%%c'", fmtcopy, conv);
        }
        if (ai >= n) {
            BAD("format \"%s\": conversion %.*s needs argument %u but only %u %s passed", fmtcopy,
                (int)(s + 1 - pct), pct, ai + 1, n, n == 1 ? "was" : "were");
        }
        const arc_printf_arg *a = &args[ai++];
        const char *want = strchr("diouxXc", conv) ? "iu" : strchr("fFeEgGaA", conv) ? "f" : conv == 's' ? "s" : "ps";
        if (!strchr(want, a->kind)) {
            BAD("format \"%s\": conversion %.*s expects %s but argument %u is %s", fmtcopy, (int)(s + 1 - pct), pct,
                kind_name(want[0]), ai, kind_name(a->kind));
        }
        char piece[FIELD_MAX + 512]; /* the widest field, or the longest %f of a double at full precision */
        int m = 0;
        if (conv == 's') {
            long len = read_string((uintptr_t)a->v, sbuf);
            if (len < 0) {
                    BAD("format \"%s\": the string of argument %u (%p) is not readable", fmtcopy, ai, (void *)a->v);
            }
            sbuf[len] = 0;
            spec[sl++] = 's';
            spec[sl] = 0;
            /* A string may be longer than piece: print it alone. */
            char *big = NULL;
            int need = nstar == 2 ? snprintf(NULL, 0, spec, (int)starv[0], (int)starv[1], sbuf)
                     : nstar == 1 ? snprintf(NULL, 0, spec, (int)starv[0], sbuf) : snprintf(NULL, 0, spec, sbuf);
            if (need > 0 && (big = malloc((size_t)need + 1))) {
                if (nstar == 2)
                    snprintf(big, (size_t)need + 1, spec, (int)starv[0], (int)starv[1], sbuf);
                else if (nstar == 1)
                    snprintf(big, (size_t)need + 1, spec, (int)starv[0], sbuf);
                else
                    snprintf(big, (size_t)need + 1, spec, sbuf);
                put(&t, big, (size_t)need);
                free(big);
            }
            f = s + 1;
            continue;
        }
        if (conv == 'p' || conv == 'c' || strchr("fFeEgGaA", conv)) {
            spec[sl++] = conv;
        } else {
            spec[sl++] = 'l';
            spec[sl++] = 'l';
            spec[sl++] = conv;
        }
        spec[sl] = 0;
        double d;
        memcpy(&d, &a->v, sizeof d);
#define EMIT(V)                                                                                           \
    (nstar == 2   ? snprintf(piece, sizeof piece, spec, (int)starv[0], (int)starv[1], V)                  \
     : nstar == 1 ? snprintf(piece, sizeof piece, spec, (int)starv[0], V)                                 \
                  : snprintf(piece, sizeof piece, spec, V))
        if (conv == 'p')
            m = EMIT((void *)a->v);
        else if (strchr("fFeEgGaA", conv))
            m = EMIT(d);
        else if (conv == 'c')
            m = EMIT((int)a->v);
        else
            m = EMIT((long long)a->v);
#undef EMIT
        if (m > 0)
            put(&t, piece, (size_t)m < sizeof piece ? (size_t)m : sizeof piece - 1);
        f = s + 1;
    }
    pthread_mutex_lock(&printf_mu);
    if (t.len)
        fwrite(t.buf, 1, t.len, stdout);
    fflush(stdout);
    pthread_mutex_unlock(&printf_mu);
    sim_core_service_end(k);
    int len = (int)t.len;
    free(t.buf);
    return len;
}

/* The untyped printf (DumpTensor and C-style callers in the device API,
 * whose formats are fixed); serialised with the typed one. */
int __arc_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = sim_core_service_begin();
    pthread_mutex_lock(&printf_mu);
    int n = vprintf(fmt, ap);
    fflush(stdout);
    pthread_mutex_unlock(&printf_mu);
    sim_core_service_end(k);
    va_end(ap);
    return n;
}
