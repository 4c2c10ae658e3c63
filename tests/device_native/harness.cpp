// Native test harness for device headers (test-only): implements the
// core ABI with one pthread per block, so kernels compiled separately with
// `clang++-19 -nostdinc++ -nostdlibinc -I csrc/device` can be run quickly
// before the real runtime is available.
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arc/core_abi.h"

static __thread arc_core *g_core;
static pthread_barrier_t g_bar;
static int g_trapped;
static char g_msg[1024];

extern "C" arc_core *__arc_core(void) { return g_core; }
extern "C" void __arc_sync_all(void) { pthread_barrier_wait(&g_bar); }
extern "C" void __arc_trap(const char *api, const char *fmt, ...)
{
    char buf[800];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    snprintf(g_msg, sizeof g_msg, "kernel %s block %lld: %s: %s", g_core->kernel_name, g_core->block_idx, api, buf);
    fprintf(stderr, "TRAP %s\n", g_msg);
    __atomic_store_n(&g_trapped, 1, __ATOMIC_SEQ_CST);
    pthread_exit(nullptr);
}
extern "C" int __arc_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}

struct Launch {
    void (*fn)(void *);
    void *ctx;
    arc_core core;
};
static void *run_block(void *p)
{
    Launch *l = (Launch *)p;
    g_core = &l->core;
    l->fn(l->ctx);
    return nullptr;
}

// Runs fn(ctx) on n blocks; returns 0, or 1 if a block trapped.
int arc_run(const char *name, int n, void (*fn)(void *), void *ctx, unsigned arch = 2201, unsigned long long key = 0)
{
    static unsigned char *ubs[64];
    pthread_t th[64];
    Launch ls[64];
    g_trapped = 0;
    pthread_barrier_init(&g_bar, nullptr, n);
    for (int i = 0; i < n; i++) {
        if (!ubs[i]) ubs[i] = (unsigned char *)aligned_alloc(64, 512 * 1024 + 256 * 1024);
        memset(&ls[i], 0, sizeof ls[i]);
        ls[i].fn = fn;
        ls[i].ctx = ctx;
        arc_core &c = ls[i].core;
        c.block_idx = i;
        c.block_num = n;
        c.sub_block_num = 1;
        c.ub = ubs[i];
        c.ub_size = arch == 3510 ? 256 * 1024 : 192 * 1024;
        c.l1 = ubs[i] + 256 * 1024;
        c.l1_size = 512 * 1024;
        c.tiling_key = key;
        c.arch = arch;
        c.kernel_name = name;
        pthread_create(&th[i], nullptr, run_block, &ls[i]);
    }
    for (int i = 0; i < n; i++) pthread_join(th[i], nullptr);
    pthread_barrier_destroy(&g_bar);
    return g_trapped;
}
const char *arc_last_msg() { return g_msg; }
