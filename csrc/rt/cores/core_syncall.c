/* core_syncall.c - SyncAll: a barrier across every block of a launch,
 * which needs them all live at once (at most the arch's cores of the
 * kernel's kind).  Blocks on threads wait here; blocks run as fibers park
 * (core_fibers.c). */
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

void __arc_sync_all(void)
{
    core_thread *ct = core_self;
    if (!ct || !ct->ctx)
        return;
    if (ct->nsub) /* the block's cores are fibers of one thread: a barrier across blocks would count them wrong */
        __arc_trap("SyncAll", "SyncAll in a MIX kernel is not modelled by the simulator; synchronise the AIC and its "
                   "AIVs with CrossCoreSetFlag/CrossCoreWaitFlag (modes 1 and 2)");
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
    c->waiting++;
    if (c->waiting + c->exited == r->nblocks) {
        if (c->exited) {
            uint32_t w = c->waiting;
            pthread_mutex_unlock(&c->mu);
            __arc_trap("SyncAll",
                       "%u of %u blocks reached SyncAll but %u returned without reaching it (the kernel would "
                       "hang on hardware)", w, r->nblocks, r->nblocks - w);
        }
        c->waiting = 0;
        __atomic_store_n(&c->gen, c->gen + 1, __ATOMIC_RELEASE); /* read unlocked by barrier_moved */
        if (c->fibers)
            core_unpark_all(c);
        pthread_cond_broadcast(&c->cv);
        pthread_mutex_unlock(&c->mu);
        sim_core_service_end(k);
        return;
    }
    if (c->fibers) {
        core_fiber_park(ct, c, k);
        return;
    }
    uint64_t g = c->gen;
    atomic_store(&ct->where, WHERE_SYNCALL);
    barrier_wait w = {c, g}; /* the last blocks are often moments away */
    sim_spin_until(&c->mu, barrier_moved, &w);
    while (c->gen == g && !atomic_load(&c->aborted))
        pthread_cond_wait(&c->cv, &c->mu);
    int released = c->gen != g;
    atomic_store(&ct->where, WHERE_RUNNING);
    pthread_mutex_unlock(&c->mu);
    if (!released)
        longjmp(*ct->jbp, 1); /* another block trapped, or the launch timed out */
    sim_core_service_end(k);
}
