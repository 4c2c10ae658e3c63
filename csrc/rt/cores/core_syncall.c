/* core_syncall.c - SyncAll: a barrier across every block of a launch,
 * which needs them all live at once (at most the arch's cores of the
 * kernel's kind).  Blocks on threads wait here; blocks run as fibers park
 * (core_fibers.c).  In a MIX kernel the barrier counts sub-cores: every
 * AIV of the launch (SyncAll<true>, the default), or every AIC and AIV
 * (SyncAll<false>); a sub-core that arrives switches back to its block's
 * scheduler (core_mix.c), which sleeps in core_mix_sync_wait when none of
 * the block's sub-cores can run.  __arc_block_poll serves blocks that
 * spin waiting for another block (WaitPreBlock). */
#include <sched.h>
#include <stdio.h>

#include "rt/cores/core_internal.h"

typedef struct {
    const launch_ctx *c;
    uint64_t gen;
} barrier_wait;

static int barrier_moved(const void *arg)
{
    const barrier_wait *w = arg;
    return __atomic_load_n(&w->c->gen, __ATOMIC_ACQUIRE) != w->gen || atomic_load(&w->c->aborted);
}

int core_barrier_stuck(launch_ctx *c, uint32_t waiting, uint32_t gone, uint32_t parts)
{
    if (!waiting || waiting + gone != parts || atomic_load(&c->aborted) || c->hang_told)
        return 0;
    c->hang_told = 1;
    return 1;
}

/* Cores of the kind a MIX SyncAll counts that have returned. */
static uint32_t mix_exited(const launch_ctx *c)
{
    return c->mix_done[1] + (c->mix_aiv_only ? 0 : c->mix_done[0]);
}

/* One arrival at the SyncAll barrier of `parts` participants (c->mu
 * held): 1 when it opens the barrier (the generation moves, every waiter
 * is woken), 0 when the caller waits, -1 when it never can open (the
 * caller traps; *waiting says how many came, *gone how many returned).
 * The arrival is counted before the returned are read: a block returning
 * meanwhile without the lock either is read here or sees this arrival
 * (block_exit, core_pool.c). */
static int barrier_arrive(launch_ctx *c, uint32_t parts, int mix, uint32_t *waiting, uint32_t *gone)
{
    *waiting = atomic_fetch_add(&c->waiting, 1) + 1;
    *gone = mix ? mix_exited(c) : core_exited(c);
    if (*waiting + *gone < parts)
        return 0;
    if (*gone) {
        c->hang_told = 1; /* the caller reports it, not a block returning now */
        return -1;
    }
    atomic_store(&c->waiting, 0);
    __atomic_store_n(&c->gen, c->gen + 1, __ATOMIC_RELEASE); /* read unlocked (barrier_moved, MIX schedulers) */
    if (c->fibers)
        core_unpark_all(c);
    pthread_cond_broadcast(&c->cv);
    return 1;
}

/* Sub-core `sub` of a MIX block that may call SyncAll has returned; if
 * the cores waiting in SyncAll can now never be joined, the launch fails. */
void core_mix_sub_done(core_thread *ct, int sub)
{
    launch_ctx *c = ct->ctx;
    pthread_mutex_lock(&c->mu);
    c->mix_done[sub > 0]++;
    uint32_t waiting = c->waiting, parts = c->mix_parts;
    int stuck = core_barrier_stuck(c, waiting, mix_exited(c), parts);
    pthread_mutex_unlock(&c->mu);
    if (stuck) {
        char m[512];
        snprintf(m, sizeof m, "%s: SyncAll: %u of the %u %s wait in SyncAll but the others returned without "
                 "reaching it (the kernel would hang on the NPU)", c->r->kernel_name, waiting, parts,
                 c->mix_aiv_only ? "AIVs" : "AICs and AIVs");
        core_fail(c, m);
    }
}

/* The block's thread while its sub-cores wait in SyncAll and none other
 * can run: until the barrier opens, a mode-0 flag round ends (another
 * sub-core may go on) or the launch fails. */
void core_mix_sync_wait(core_thread *ct, launch_ctx *c)
{
    uint64_t g = 0;
    for (int i = 0; i < ct->nsub; i++)
        if (ct->subs[i]->state == SUB_SYNC)
            g = ct->subs[i]->sync_gen;
    pthread_mutex_lock(&c->mu);
    atomic_store(&ct->where, WHERE_SYNCALL);
    uint64_t x0 = c->x0_gen; /* a mode-0 round's end may release a sub-core of this block waiting on a flag */
    while (c->gen == g && c->x0_gen == x0 && !atomic_load(&c->aborted))
        pthread_cond_wait(&c->cv, &c->mu);
    atomic_store(&ct->where, WHERE_RUNNING);
    pthread_mutex_unlock(&c->mu);
}

/* SyncAll from a sub-core of a MIX block. */
static void mix_sync_all(core_thread *ct, int aiv_only)
{
    launch_ctx *c = ct->ctx;
    const sim_kernel_run *r = c->r;
    int me = ct->cur_sub, naiv = ct->nsub - 1;
    sub_core *s = ct->subs[me];
    if (aiv_only && me == 0)
        __arc_trap("SyncAll", "the AIC of a MIX kernel called SyncAll<true>() (isAIVOnly, the default), which "
                   "synchronises the AIVs only; a barrier of every core is SyncAll<false>() on the AIC and its AIVs");
    int k = sim_core_service_begin();
    /* every block is live at once: a MIX launch has at most the AI cores (acl/launch.c) */
    uint32_t parts = r->nblocks * (uint32_t)(aiv_only ? naiv : 1 + naiv);
    pthread_mutex_lock(&c->mu);
    if (atomic_load(&c->aborted)) {
        pthread_mutex_unlock(&c->mu);
        longjmp(*ct->jbp, 1);
    }
    if (c->mix_parts && c->mix_aiv_only != aiv_only) {
        pthread_mutex_unlock(&c->mu);
        __arc_trap("SyncAll", "SyncAll<%s>() here, SyncAll<%s>() elsewhere in the launch: the AIVs-only barrier "
                   "and the every-core barrier cannot meet (the kernel would hang on the NPU)",
                   aiv_only ? "true" : "false", aiv_only ? "false" : "true");
    }
    c->mix_parts = parts;
    c->mix_aiv_only = aiv_only;
    uint32_t w, gone;
    int open = barrier_arrive(c, parts, 1, &w, &gone);
    if (open) {
        pthread_mutex_unlock(&c->mu);
        if (open < 0)
            __arc_trap("SyncAll", "%u of the %u %s reached SyncAll but %u returned without reaching it (the "
                       "kernel would hang on the NPU)", w, parts, aiv_only ? "AIVs" : "AICs and AIVs", gone);
        sim_core_service_end(k);
        return;
    }
    s->sync_gen = c->gen;
    s->state = SUB_SYNC;
    pthread_mutex_unlock(&c->mu);
    sim_fiber_switch(&s->fib, &ct->sched); /* back when the generation moved, or the launch failed */
    if (atomic_load(&c->aborted))
        longjmp(s->jb, 1);
    s->state = SUB_RUN;
    sim_core_service_end(k);
}

void __arc_sync_all(int aiv_only)
{
    core_thread *ct = core_self;
    if (!ct || !ct->ctx)
        return;
    if (ct->nsub) {
        mix_sync_all(ct, aiv_only);
        return;
    }
    int k = sim_core_service_begin();
    launch_ctx *c = ct->ctx;
    const sim_kernel_run *r = c->r;
    unsigned conc = r->max_concurrent < MAX_THREADS ? r->max_concurrent : MAX_THREADS;
    if (r->nblocks > conc)
        __arc_trap("SyncAll",
                   "the launch has %u blocks but only %u %s cores of %s can run at once, so SyncAll would wait "
                   "forever (it hangs on hardware); launch at most %u blocks",
                   r->nblocks, conc, r->core_type ? "cube" : "vector", r->arch->soc, conc);
    pthread_mutex_lock(&c->mu);
    if (atomic_load(&c->aborted)) {
        pthread_mutex_unlock(&c->mu);
        longjmp(*ct->jbp, 1);
    }
    uint32_t w, gone;
    int open = barrier_arrive(c, r->nblocks, 0, &w, &gone);
    if (open) {
        pthread_mutex_unlock(&c->mu);
        if (open < 0)
            __arc_trap("SyncAll",
                       "%u of %u blocks reached SyncAll but %u returned without reaching it (the kernel would "
                       "hang on hardware)", w, r->nblocks, gone);
        sim_core_service_end(k);
        return;
    }
    if (c->fibers) {
        core_fiber_park(ct, c, k);
        return;
    }
    uint64_t g = c->gen;
    atomic_store(&ct->where, WHERE_SYNCALL);
    barrier_wait bw = {c, g}; /* the last blocks are often moments away */
    sim_spin_until(&c->mu, barrier_moved, &bw);
    while (c->gen == g && !atomic_load(&c->aborted))
        pthread_cond_wait(&c->cv, &c->mu);
    int released = c->gen != g;
    atomic_store(&ct->where, WHERE_RUNNING);
    pthread_mutex_unlock(&c->mu);
    if (!released)
        longjmp(*ct->jbp, 1); /* another block trapped, or the launch timed out */
    sim_core_service_end(k);
}

void __arc_block_poll(void)
{
    core_thread *ct = core_self;
    if (!ct || !ct->ctx)
        return;
    int k = sim_core_service_begin();
    if (atomic_load(&ct->ctx->aborted))
        longjmp(*ct->jbp, 1); /* another block trapped: this one would wait forever */
    sched_yield();            /* the block it waits for may need this CPU */
    sim_core_service_end(k);  /* leaves a timed-out or cancelled launch */
}
