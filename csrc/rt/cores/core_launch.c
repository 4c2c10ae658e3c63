/* core_launch.c - one launch on the core pool: its context, the threads
 * (or fibers) it wakes, its watches, and its end: waiting for its threads,
 * letting go of extra and abandoned ones (core_hang.c), the GM race check's
 * verdict and a late finish past the timeout. */
#include <stdio.h>
#include <string.h>

#include "rt/cores/core_internal.h"

/* Every thread of the launch has checked out (nthreads only grows while
 * blocks wait to start, so a stale read just spins on). */
static int all_done(const void *arg)
{
    const launch_ctx *c = arg;
    return __atomic_load_n(&c->threads_done, __ATOMIC_ACQUIRE) >= __atomic_load_n(&c->nthreads, __ATOMIC_ACQUIRE);
}

/* The end of a launch, once every block has started: wait for its
 * threads, stop watching it, let go of extra and abandoned threads. */
aclError core_launch_finish(launch_ctx *c, char *msg, size_t msglen)
{
    sim_corepool *p = c->pool;
    const sim_kernel_run *r = c->r;
    if (c->watch_stall) /* every block has started: more threads would not help */
        sim_watch_del(&c->stall);
    pthread_mutex_lock(&c->mu);
    sim_spin_until(&c->mu, all_done, c);
    while (c->threads_done < c->nthreads)
        pthread_cond_wait(&c->done_cv, &c->mu);
    pthread_mutex_unlock(&c->mu);
    /* Before the extra threads go: the timeout watch's kicks read c->cores. */
    pthread_mutex_lock(&p->mu);
    p->running = NULL;
    int watched = c->watched;
    pthread_mutex_unlock(&p->mu);
    if (watched)
        sim_watch_del(&c->watch);
    /* No callback runs now: abandoned is final.  Their threads keep their
     * cores (and may return and park); the pool gets new ones (grow). */
    unsigned nab = 0;
    for (unsigned i = 0; i < c->ncores; i++)
        nab += c->cores[i]->abandoned;
    if (nab && r->bin)
        sim_module_keep(r->bin);
    for (uint32_t i = 0; nab && r->km && i < r->km->nparams; i++) { /* and the memory it was given */
        const arc_param *pa = &r->km->params[i];
        uintptr_t v;
        if (pa->kind != ARC_PARAM_POINTER || (size_t)pa->offset + sizeof v > r->args_size)
            continue;
        memcpy(&v, r->args + pa->offset, sizeof v);
        if (v)
            sim_mem_keep((const void *)v);
    }
    core_thread *const *hosts = c->fibers ? c->hosts : c->cores;
    if (hosts[0]->abandoned)
        p->caller = NULL;
    pthread_mutex_lock(&p->mu);
    for (unsigned i = 1; i < c->nstart; i++)
        if (hosts[i]->abandoned)
            p->threads[hosts[i]->idx] = NULL;
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; nab && i < c->nfibers; i++) {
        core_thread *f = c->cores[i];
        if (f->abandoned) { /* its thread still runs on its stack */
            p->fibers[i] = NULL;
        } else if (f->handoff != FIB_DONE) { /* queued, no thread left to run it: its stack holds this launch */
            p->fibers[i] = NULL;
            sim_fiber_destroy(&f->fib);
            sim_race_state_free(f->race);
            core_free(f);
        }
    }
    for (unsigned i = 0; i < c->nextra; i++) {
        if (c->extra[i]->abandoned)
            continue;
        pthread_join(c->extra[i]->th, NULL);
        core_free(c->extra[i]);
    }
    for (unsigned i = 0; i < c->nfibers; i++)
        if (p->fibers[i])
            p->fibers[i]->ctx = NULL;
    /* Abandoned cores may still record GM accesses into c->gm: it leaks. */
    if (!nab && sim_race_gm_finish(c->gm, r, c->failed, c->msg, sizeof c->msg)) {
        c->failed = 1;
        c->code = ACL_ERROR_RT_AICORE_EXCEPTION;
    }
    if (r->timeout_ns) {
        uint64_t dt = sim_now_ns() - c->t0;
        if (!c->failed && dt > r->timeout_ns) { /* finished late, before the watchdog noticed */
            c->failed = 1;
            c->code = ACL_ERROR_RT_AICORE_TIMEOUT;
            snprintf(c->msg, sizeof c->msg, "%s (%u blocks) ran %.3f ms, beyond its launch timeout of %.3f ms "
                     "(every core finished)", r->kernel_name, r->nblocks, dt / 1e6, r->timeout_ns / 1e6);
        }
    }
    pthread_mutex_destroy(&c->mu);
    pthread_cond_destroy(&c->cv);
    pthread_cond_destroy(&c->done_cv);
    if (c->failed) {
        int n = snprintf(msg, msglen, "%s", c->msg);
        if (nab && n >= 0 && (size_t)n < msglen)
            snprintf(msg + n, msglen - (size_t)n, "; %u core thread%s still in kernel code %.0f ms after that "
                     "(it blocks the interrupt signal, or ended its thread) %s abandoned and replaced",
                     nab, nab == 1 ? "" : "s", ABANDON_NS / 1e6, nab == 1 ? "was" : "were");
        return c->code;
    }
    return ACL_SUCCESS;
}

aclError sim_cores_run(sim_corepool *p, const sim_kernel_run *r, char *msg, size_t msglen)
{
    unsigned conc = r->threads ? r->threads : r->max_concurrent ? r->max_concurrent : 1;
    if (conc > MAX_THREADS)
        conc = MAX_THREADS;
    unsigned t = r->nblocks < conc ? r->nblocks : conc;
    if (core_pool_grow(p, t - 1, msg, msglen))
        return ACL_ERROR_RT_AICORE_EXCEPTION;
    /* A SyncAll kernel's blocks run as fibers, one per core they occupy. */
    unsigned nf = 0;
    if (r->fibers && !core_mix_aivs(r)) {
        nf = r->nblocks < r->max_concurrent ? r->nblocks : r->max_concurrent;
        if (nf > MAX_THREADS)
            nf = MAX_THREADS;
        if (core_fibers_grow(p, nf, msg, msglen))
            return ACL_ERROR_RT_AICORE_EXCEPTION;
    }
    sim_fault_install();
    static _Atomic uint64_t launches;
    launch_ctx c;
    memset(&c, 0, sizeof c);
    c.r = r;
    c.seq = atomic_fetch_add(&launches, 1) + 1;
    c.gm = sim_race_gm_new(r->nblocks * (uint32_t)(1 + core_mix_aivs(r)), r->race_mode);
    atomic_init(&c.next, 0);
    atomic_init(&c.aborted, 0);
    pthread_mutex_init(&c.mu, NULL);
    pthread_cond_init(&c.cv, NULL);
    pthread_cond_init(&c.done_cv, NULL);
    p->caller->th = pthread_self();
    c.ncores = c.nthreads = t;
    c.pool = p;
    c.limit = r->nblocks < r->max_concurrent ? r->nblocks : r->max_concurrent;
    if (c.limit > MAX_THREADS)
        c.limit = MAX_THREADS;
    if (nf) {
        c.fibers = 1;
        c.ncores = c.nfibers = nf;
        for (unsigned i = 0; i < nf; i++) {
            c.cores[i] = p->fibers[i];
            c.cores[i]->ctx = &c;
            c.cores[i]->handoff = 0;
            c.rq[i] = c.cores[i];
        }
        c.hosts[0] = p->caller;
        for (unsigned i = 0; i + 1 < t; i++)
            c.hosts[i + 1] = p->threads[i];
        c.rq_n = nf;
        atomic_store(&c.next, nf);
    } else {
        c.cores[0] = p->caller;
        for (unsigned i = 0; i + 1 < t; i++)
            c.cores[i + 1] = p->threads[i];
    }
    for (unsigned i = 0; i < c.ncores; i++) {
        atomic_store(&c.cores[i]->where, WHERE_NOT_STARTED);
        atomic_store(&c.cores[i]->exits, 0);
    }
    core_claim_init(&c);
    uint64_t t0 = r->timeout_ns ? sim_now_ns() : 0;
    c.watch.fire = core_on_timeout;
    c.watch.kick = core_kick;
    c.watch.arg = &c;
    /* Published for sim_corepool_cancel, which may add the watch too. */
    pthread_mutex_lock(&p->mu);
    int cancelled = r->seq && r->seq <= p->cancel_upto;
    if (!cancelled) {
        p->running = &c;
        if (r->timeout_ns) {
            c.watch.deadline = t0 + r->timeout_ns;
            c.watched = 1;
            sim_watch_add(&c.watch);
        }
    }
    pthread_mutex_unlock(&p->mu);
    if (cancelled) {
        for (unsigned i = 0; i < c.nfibers; i++)
            c.cores[i]->ctx = NULL;
        sim_race_gm_finish(c.gm, r, 1, msg, msglen); /* frees it */
        pthread_mutex_destroy(&c.mu);
        pthread_cond_destroy(&c.cv);
        pthread_cond_destroy(&c.done_cv);
        snprintf(msg, msglen, "%s (%u blocks) was cancelled by an interrupt (Ctrl-C, KeyboardInterrupt) before it "
                 "ran", r->kernel_name, r->nblocks);
        return ACL_ERROR_RT_AICORE_EXCEPTION;
    }
    c.nstart = t;
    c.t0 = t0;
    c.watch_stall = t < c.limit;
    if (c.watch_stall) {
        atomic_store(&c.progress_ns, sim_now_ns());
        c.stall.deadline = sim_now_ns() + STALL_NS;
        c.stall.fire = c.stall.kick = core_on_stall;
        c.stall.arg = &c;
        sim_watch_add(&c.stall);
    }

    pthread_mutex_lock(&p->mu);
    p->ctx = &c;
    p->want = t - 1;
    p->spin = t <= 4 * sim_spin_cpus(); /* a few yielding spinners per CPU still pay off */
    __atomic_store_n(&p->gen, p->gen + 1, __ATOMIC_RELEASE);
    for (unsigned i = 0; i < t - 1; i++)
        pthread_cond_signal(&p->threads[i]->cv);
    pthread_mutex_unlock(&p->mu);

    /* The calling (stream worker) thread is one of the cores. */
    core_thread *saved = core_self;
    core_self = p->caller;
    __atomic_store_n(&p->caller->tid, core_tid(), __ATOMIC_RELAXED);
    core_take_blocks(p->caller, &c);
    core_self = saved;
    return core_launch_finish(&c, msg, msglen);
}
