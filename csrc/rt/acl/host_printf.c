/* host_printf.c - ascendrtc_host_printf_v: printf called from the host part
 * of a single-source program (`ascendrtc cc`); ascendrtc_host_trap: the
 * device API's trap (assert() included) called from it.  Such a program is compiled
 * as one translation unit with the device API, whose global printf (the
 * kernels') then also catches the host's calls; the rtc points those at
 * this function (host_split.cpp), which prints as the C library's printf
 * would, on stdout, from the typed arguments. */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "arc/core_abi.h"
#include "common/exports.h"

int ascendrtc_host_printf_v(const char *fmt, unsigned n, const arc_printf_arg *args)
{
    int total = 0;
    unsigned ai = 0;
    const char *f = fmt;
    while (*f) {
        const char *pct = strchr(f, '%');
        if (!pct) {
            total += printf("%s", f);
            break;
        }
        total += printf("%.*s", (int)(pct - f), f);
        if (pct[1] == '%') {
            total += printf("%%");
            f = pct + 2;
            continue;
        }
        /* flags, width, precision (no '*'), then length modifiers, then the conversion */
        const char *p = pct + 1;
        p += strspn(p, "-+ #0");
        p += strspn(p, "0123456789");
        if (*p == '.')
            p++, p += strspn(p, "0123456789");
        const char *len = p;
        p += strspn(p, "hlLqjzt");
        char conv = *p;
        if (!conv)
            break;
        char spec[64];
        int head = (int)(len - pct);
        if (head > 40)
            head = 40;
        const arc_printf_arg *a = ai < n ? &args[ai++] : NULL;
        unsigned long long v = a ? a->v : 0;
        if (strchr("diouxXc", conv)) {
            snprintf(spec, sizeof spec, "%.*sll%c", head, pct, conv == 'c' ? 'd' : conv);
            if (conv == 'c')
                total += printf("%c", (int)v);
            else if (conv == 'd' || conv == 'i')
                total += printf(spec, (long long)v);
            else
                total += printf(spec, v);
        } else if (strchr("fFeEgGaA", conv)) {
            double d = 0;
            if (a && a->kind == 'f')
                memcpy(&d, &v, sizeof d);
            else if (a)
                d = a->kind == 'i' ? (double)(long long)v : (double)v;
            snprintf(spec, sizeof spec, "%.*s%c", head, pct, conv);
            total += printf(spec, d);
        } else if (conv == 's') {
            snprintf(spec, sizeof spec, "%.*ss", head, pct);
            total += printf(spec, a && a->kind == 's' && v ? (const char *)(uintptr_t)v : "(null)");
        } else if (conv == 'p') {
            total += printf("%p", (void *)(uintptr_t)v);
        } else {
            total += printf("%.*s", (int)(p + 1 - pct), pct);
        }
        f = p + 1;
    }
    return total;
}

void ascendrtc_host_trap(const char *api, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "%s: ", api);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}
