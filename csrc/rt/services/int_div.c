/* int_div.c - __arc_int_div: a kernel's integer division by zero or
 * INT_MIN / -1 (csrc/rtc/int_div.cpp rewrites every division that could
 * be one so it cannot trap, and calls this only when it is).  The NPU's
 * result is not documented; the simulator's is (all ones / the dividend
 * for a zero divisor, INT_MIN / 0 for INT_MIN / -1), so by default this
 * warns once per kernel line and the kernel goes on; ASCENDRTC_INT_DIV=trap
 * fails the launch there instead. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rt_internal.h"

#define MAX_SITES 256

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *sites[MAX_SITES]; /* "kernel\nfile:line" warned about (copies: modules unload) */
static int nsites;

/* 1 when ASCENDRTC_INT_DIV=trap; an unknown value warns (once per value) and means warn. */
static int trap_mode(void)
{
    const char *e = getenv("ASCENDRTC_INT_DIV");
    if (!e || !*e || !strcmp(e, "warn"))
        return 0;
    if (!strcmp(e, "trap"))
        return 1;
    static _Atomic(const char *) warned;
    if (atomic_exchange(&warned, e) != e)
        fprintf(stderr, "ascendrtc: warning: ASCENDRTC_INT_DIV=%s is not 'warn' or 'trap'; integer divisions "
                        "by zero warn\n", e);
    return 0;
}

/* 1 the first time this kernel line is seen (or the table is full: 0). */
static int first_time(const char *kernel, const char *where)
{
    size_t nk = strlen(kernel), nw = strlen(where);
    int fresh = 0;
    pthread_mutex_lock(&lock);
    int i = 0;
    for (; i < nsites; i++)
        if (!strncmp(sites[i], kernel, nk) && sites[i][nk] == '\n' && !strcmp(sites[i] + nk + 1, where))
            break;
    if (i == nsites && nsites < MAX_SITES && (sites[nsites] = malloc(nk + nw + 2))) {
        memcpy(sites[nsites], kernel, nk);
        sites[nsites][nk] = '\n';
        memcpy(sites[nsites] + nk + 1, where, nw + 1);
        nsites++;
        fresh = 1;
    }
    pthread_mutex_unlock(&lock);
    return fresh;
}

void __arc_int_div(int kind)
{
    const char *what = kind == 2 ? "integer overflow in a division (INT_MIN / -1: the quotient does not fit)"
                                 : "integer division by zero";
    if (trap_mode())
        __arc_trap("kernel code", "%s", what);
    const sim_kernel_run *r = sim_core_launch();
    const char *kernel = r && r->kernel_name ? r->kernel_name : "kernel";
    const char *where = sim_site();
    int state = sim_core_service_begin();
    if (first_time(kernel, where ? where : "?"))
        fprintf(stderr, "ascendrtc: warning: %s: %s at %s: the NPU's result is not documented; the simulator "
                        "gives %s and goes on (warned once per line; ASCENDRTC_INT_DIV=trap stops here)\n",
                kernel, what, where ? where : "an unknown line",
                kind == 2 ? "INT_MIN, and a remainder of 0" : "a quotient of all ones (-1, or the unsigned "
                                                              "maximum) and a remainder equal to the dividend");
    sim_core_service_end(state);
}
