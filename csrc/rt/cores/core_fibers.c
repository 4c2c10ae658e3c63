/* core_fibers.c - fiber mode: the blocks of a SyncAll kernel as fibers.
 *
 * Every block of a SyncAll launch must be live at once (min(N, cores) of
 * them), but a thread each costs a wake-up and a context switch per block
 * and barrier.  Instead each simulated core is a fiber (fiber.c) with its
 * own stack, arenas, jump buffer, race state and position, and min(N,
 * host CPUs) threads run them: a thread takes a ready fiber from the
 * launch's queue and runs it until it returns from its blocks or waits in
 * SyncAll (it parks); the last block to reach the barrier queues the parked
 * ones again.  `core_self` is the running fiber core, so traps, faults, the
 * timeout's interrupt and __arc_core() see the block, not the thread.
 *
 * Blocks that wait for each other through GM flags instead spin on their
 * thread; the stall watch (core_on_stall) sees no fiber park or finish for
 * STALL_NS while fibers wait in the queue and adds threads, up to one per
 * fiber, so every block runs at once as on the NPU (and a real deadlock
 * runs into the launch timeout, reporting every block's position). */
#include <stdio.h>

#include "rt/cores/core_internal.h"

/* A fiber core runs blocks of its launch until none is left, then switches
 * back to its thread; it is resumed again for the next launch. */
static void fiber_main(void *arg)
{
    core_thread *f = arg;
    for (;;) {
        core_no_ftz();
        core_run_blocks(f, f->ctx, f->idx); /* fiber i starts with block i; waves take the rest in turn */
        atomic_store(&f->where, WHERE_IDLE);
        f->handoff = FIB_DONE;
        sim_fiber_switch(&f->fib, &f->host->fib);
    }
}

/* Give the pool n fiber cores (new ones in place of abandoned ones). */
int core_fibers_grow(sim_corepool *p, unsigned n, char *msg, size_t msglen)
{
    for (unsigned i = 0; i < n; i++) {
        if (i < p->nfibers && p->fibers[i])
            continue;
        core_thread *f = core_new(p, i);
        if (f && !(f->race = sim_race_state_new())) {
            core_free(f);
            f = NULL;
        }
        if (f && sim_fiber_init(&f->fib, SIM_CORE_STACK, fiber_main, f)) {
            sim_race_state_free(f->race);
            core_free(f);
            f = NULL;
        }
        if (!f) {
            snprintf(msg, msglen, "out of host memory for core %u (a fiber's stack, UB/L1 arenas)", i + 1);
            return -1;
        }
        p->fibers[i] = f;
        if (i == p->nfibers)
            p->nfibers++;
    }
    return 0;
}

void core_fibers_free(sim_corepool *p)
{
    for (unsigned i = 0; i < p->nfibers; i++) {
        if (!p->fibers[i]) /* abandoned, not replaced yet */
            continue;
        sim_fiber_destroy(&p->fibers[i]->fib);
        sim_race_state_free(p->fibers[i]->race);
        core_free(p->fibers[i]);
    }
}

/* Queue f to run (c->mu held). */
static void rq_push(launch_ctx *c, core_thread *f)
{
    c->rq[(c->rq_head + c->rq_n) % MAX_THREADS] = f;
    __atomic_store_n(&c->rq_n, c->rq_n + 1, __ATOMIC_RELEASE);
}

static core_thread *rq_pop(launch_ctx *c)
{
    core_thread *f = c->rq[c->rq_head];
    c->rq_head = (c->rq_head + 1) % MAX_THREADS;
    __atomic_store_n(&c->rq_n, c->rq_n - 1, __ATOMIC_RELEASE);
    return f;
}

/* Queue every parked fiber (c->mu held): the barrier was passed, or the
 * launch failed (they leave SyncAll). */
void core_unpark_all(launch_ctx *c)
{
    for (unsigned i = 0; i < c->nparked; i++) {
        atomic_store(&c->parked[i]->where, WHERE_RUNNING);
        rq_push(c, c->parked[i]);
    }
    __atomic_store_n(&c->nparked, 0, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&c->cv);
}

/* Something for an idle thread of a fiber launch to do (read unlocked). */
static int fiber_work(const void *arg)
{
    const launch_ctx *c = arg;
    return __atomic_load_n(&c->rq_n, __ATOMIC_ACQUIRE) ||
           __atomic_load_n(&c->fibers_done, __ATOMIC_ACQUIRE) == c->nfibers ||
           (atomic_load(&c->aborted) && __atomic_load_n(&c->nparked, __ATOMIC_ACQUIRE));
}

/* Run fiber core f on thread t until it parks or finishes. */
static void fiber_run(core_thread *t, launch_ctx *c, core_thread *f)
{
    __atomic_store_n(&f->host, t, __ATOMIC_RELEASE); /* abandon() reads it */
    __atomic_store_n(&f->th, pthread_self(), __ATOMIC_RELEASE); /* core_kick() signals it there */
    const char *site = sim_site();
    __arc_site(f->site);
    void *race = sim_race_swap(f->race);
    core_self = f;
    sim_fiber_switch(&t->fib, &f->fib);
    core_self = t;
    f->race = sim_race_swap(race);
    f->site = sim_site();
    __arc_site(site);
    atomic_store(&c->progress_ns, sim_now_ns()); /* progress, for the stall watch */
    pthread_mutex_lock(&c->mu);
    if (f->handoff == FIB_DONE) {
        __atomic_store_n(&c->fibers_done, c->fibers_done + 1, __ATOMIC_RELEASE);
        if (c->fibers_done == c->nfibers)
            pthread_cond_broadcast(&c->cv);
    } else if (c->gen != f->park_gen || atomic_load(&c->aborted)) { /* released while switching out */
        atomic_store(&f->where, WHERE_RUNNING);
        rq_push(c, f);
        pthread_cond_broadcast(&c->cv);
    } else {
        c->parked[c->nparked] = f;
        __atomic_store_n(&c->nparked, c->nparked + 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&c->mu);
}

/* Thread t runs c's ready fibers until every fiber has finished. */
void core_fiber_sched(core_thread *t, launch_ctx *c)
{
    sim_fiber_thread(&t->fib);
    pthread_mutex_lock(&c->mu);
    for (int spun = 0;;) {
        if (atomic_load(&c->aborted) && c->nparked)
            core_unpark_all(c);
        if (c->rq_n) {
            core_thread *f = rq_pop(c);
            pthread_mutex_unlock(&c->mu);
            fiber_run(t, c, f);
            pthread_mutex_lock(&c->mu);
            spun = 0;
            continue;
        }
        if (c->fibers_done == c->nfibers)
            break;
        if (!spun) { /* a barrier's last block is often moments away */
            spun = 1;
            sim_spin_until(&c->mu, fiber_work, c);
            continue;
        }
        pthread_cond_wait(&c->cv, &c->mu);
    }
    pthread_mutex_unlock(&c->mu);
}

/* __arc_sync_all of fiber core ct, not the last to arrive (c->mu held;
 * released here): park until the barrier is passed; a failed launch longjmps
 * out.  ct may come back on another thread: nothing here reads a
 * thread-local after the switch. */
void core_fiber_park(core_thread *ct, launch_ctx *c, int k)
{
    uint64_t g = c->gen;
    atomic_store(&ct->where, WHERE_SYNCALL);
    ct->park_gen = g;
    ct->handoff = FIB_PARK;
    pthread_mutex_unlock(&c->mu);
    sim_fiber_switch(&ct->fib, &ct->host->fib);
    if (__atomic_load_n(&c->gen, __ATOMIC_ACQUIRE) == g)
        longjmp(*ct->jbp, 1); /* another block trapped, or the launch timed out */
    atomic_store(&ct->where, WHERE_RUNNING);
    atomic_store(&ct->in_kernel, k);
}
