/* core_trap.c - a block's failure: __arc_trap (a device API's check) and
 * a signal in kernel code (fault.c) record the launch's error, release
 * blocks waiting in __arc_sync_all (they abort too) and longjmp out of the
 * block, or out of the MIX sub-core that failed. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/cores/core_internal.h"

/* "block B/N (AIV s)": B is the AI core's block as the launch counts them
 * (blockDim counts AI cores); an AIV of a 1:2 MIX block also names its own
 * GetBlockIdx() (2B + s), which runs to 2N - 1. */
static void block_label(const core_thread *ct, char *out, size_t n)
{
    static const char *names[2][MAX_SUBS] = {{" (AIC)", " (AIV)", ""}, {" (AIC)", " (AIV 0)", " (AIV 1)"}};
    const arc_core *k = ct->cur;
    if (ct->nsub == 3 && ct->cur_sub > 0)
        snprintf(out, n, "block %lld/%lld (AIV %d: GetBlockIdx() = %lld)", k->block_idx / 2, k->block_num,
                 ct->cur_sub - 1, k->block_idx);
    else
        snprintf(out, n, "block %lld/%lld%s", k->block_idx, k->block_num, ct->nsub ? names[ct->nsub == 3][ct->cur_sub] : "");
}

int sim_core_signal_abort(const char *api, const char *body)
{
    core_thread *ct = core_self;
    if (!ct)
        return 0;
    /* Out of kernel code first: from then on it cannot be abandoned. */
    int in = IN_KERNEL;
    if (!atomic_compare_exchange_strong(&ct->in_kernel, &in, 0)) {
        if (in == ABANDONED)
            core_park(); /* its launch is gone */
        return 0;
    }
    if (!ct->ctx || (!body && !atomic_load(&ct->ctx->aborted))) {
        atomic_store(&ct->in_kernel, IN_KERNEL);
        return 0; /* a late interrupt meant for an earlier launch */
    }
    if (body) {
        char m[SIM_MSG_MAX];
        char blk[96];
        block_label(ct, blk, sizeof blk);
        snprintf(m, sizeof m, "%s %s: %s: %s", ct->cur->kernel_name, blk, api, body);
        core_fail(ct->ctx, m);
    }
    longjmp(*ct->jbp, 1);
}

void __arc_trap(const char *api, const char *fmt, ...)
{
    sim_core_service_begin();
    char body[SIM_MSG_MAX / 2], m[SIM_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    const char *where = sim_site();
    if (where && n >= 0 && (size_t)n < sizeof body && !strstr(body, "(failed at ")) /* ASSERT names its own */
        snprintf(body + n, sizeof body - (size_t)n, " (at %s)", where);
    core_thread *ct = core_self;
    if (!ct || !ct->ctx) {
        /* Only loaded kernels can reach these hidden symbols, and they run
         * on core threads; anything else is a runtime bug. */
        fprintf(stderr, "ascendrtc: __arc_trap outside a simulated core: %s: %s\n", api ? api : "?", body);
        abort();
    }
    char blk[96];
    block_label(ct, blk, sizeof blk);
    snprintf(m, sizeof m, "%s %s: %s: %s", ct->cur->kernel_name, blk, api ? api : "?", body);
    core_fail(ct->ctx, m);
    longjmp(*ct->jbp, 1);
}
