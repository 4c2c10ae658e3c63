/* core_hang.c - launches that do not finish.
 *
 * Faults and hangs: each core tracks whether it is in kernel code
 * (in_kernel: set around the entry call, cleared while a runtime service
 * holds locks) and where it is (running, in SyncAll).  fault.c's signal
 * handlers longjmp out of kernel code like a trap; a launch with a
 * timeout is watched (watchdog.c), and at its deadline the launch fails
 * with every core's position, SyncAll waiters are released, and cores
 * still in kernel code get the interrupt signal until they leave it.
 *
 * Stalls: a kernel without SyncAll runs on fewer threads than blocks (see
 * module.c), but its blocks may still wait for each other through GM
 * flags or atomics, which needs them to run at once (as on the NPU).  When
 * no block of such a launch has finished for STALL_NS and blocks are still
 * waiting to start, the watchdog doubles the launch's threads (extra
 * threads that live for this launch only), up to one per block or core.
 *
 * Abandoned cores: a kernel may block the interrupt signal or end its own
 * thread (a raw exit syscall).  A core still in kernel code ABANDON_NS
 * after its launch timed out or was cancelled is abandoned: its in_kernel
 * becomes ABANDONED, the launch counts it as checked out, its thread gets
 * the idle scheduling class, and a new thread takes its place in the pool
 * (the launching stream worker's place: a rescue thread finishes the launch
 * and serves the stream from then on, sim_stream_takeover).  If it ever
 * comes back from kernel code it parks forever; nothing it used (its core,
 * the launch's task, the binary's code) is freed.  In a fiber launch (a
 * SyncAll kernel) the core is a fiber: it is abandoned with the thread
 * running it, the pool gets a new fiber and a new thread, and the launch's
 * fibers that never got a thread again are dropped (their stacks hold the
 * dead launch). */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt/cores/core_internal.h"

static const char *where_name(int w)
{
    return w == WHERE_SYNCALL ? "waiting in SyncAll" : w == WHERE_RUNNING ? "running"
           : w == WHERE_IDLE  ? "finished" : "not started";
}

/* List cores [0, n) at buf ("core 0: block 3 running; ..."); with `runs`,
 * neighbours in the same state (and on consecutive blocks) as one item
 * ("cores 1-47: blocks 1-47 waiting in SyncAll").  Returns the length the
 * whole list needs. */
static size_t list_cores(const int *where, const unsigned *block, const char *const *site, unsigned n, int runs,
                         char *buf, size_t len)
{
    size_t o = 0;
    for (unsigned i = 0, j; i < n; i = j + 1) {
        int w = where[i], on_block = w == WHERE_RUNNING || w == WHERE_SYNCALL;
        for (j = i; runs && j + 1 < n && where[j + 1] == w && (!on_block || block[j + 1] == block[j] + 1); j++)
            ;
        char item[320];
        if (j == i && on_block && site[i])
            snprintf(item, sizeof item, "core %u: block %u %s (last device-API call at %s)", i, block[i],
                     where_name(w), site[i]);
        else if (j == i && on_block)
            snprintf(item, sizeof item, "core %u: block %u %s", i, block[i], where_name(w));
        else if (j == i)
            snprintf(item, sizeof item, "core %u: %s", i, where_name(w));
        else if (on_block)
            snprintf(item, sizeof item, "cores %u-%u: blocks %u-%u %s", i, j, block[i], block[j], where_name(w));
        else
            snprintf(item, sizeof item, "cores %u-%u: %s", i, j, where_name(w));
        int k = snprintf(buf + (o < len ? o : len), o < len ? len - o : 0, "%s%s", i ? "; " : "", item);
        o += k > 0 ? (size_t)k : 0;
    }
    return o;
}

/* Where every core of c is, for a timeout message.  c->mu held.  When a
 * core each does not fit (48 blocks do not), runs of cores in the same
 * state are named together, so the summary at the end always fits. */
static void positions(launch_ctx *c, char *buf, size_t n)
{
    int where[MAX_THREADS];
    unsigned block[MAX_THREADS], run = 0, sync = 0, idle = 0;
    const char *site[MAX_THREADS];
    for (unsigned i = 0; i < c->ncores; i++) {
        where[i] = atomic_load(&c->cores[i]->where);
        block[i] = atomic_load(&c->cores[i]->block);
        site[i] = sim_core_site(c->cores[i]->cur);
        run += where[i] == WHERE_RUNNING;
        sync += where[i] == WHERE_SYNCALL;
        idle += where[i] == WHERE_NOT_STARTED;
    }
    uint32_t left = core_unstarted(c);
    if (c->fibers)
        left += idle; /* a fiber not started yet holds its first block */
    char sum[160];
    int k = snprintf(sum, sizeof sum, " (%u running, %u waiting in SyncAll, %u %s not started; WaitFlag never blocks "
                     "in the simulator)", run, sync, left, left == 1 ? "block" : "blocks");
    size_t room = n > (size_t)k + 1 ? n - (size_t)k - 1 : 0;
    size_t o = list_cores(where, block, site, c->ncores, 0, buf, room + 1);
    if (o > room)
        o = list_cores(where, block, site, c->ncores, 1, buf, room + 1);
    if (o > room)
        o = room;
    snprintf(buf + o, n - o, "%s", sum);
}


/* Give up on core ct of c (see the file comment); watchdog thread.  A
 * fiber core in kernel code is running on its host thread, which goes
 * with it. */
static void abandon(launch_ctx *c, core_thread *ct)
{
    core_thread *host = c->fibers ? __atomic_load_n(&ct->host, __ATOMIC_ACQUIRE) : ct;
    ct->abandoned = 1;
    host->abandoned = 1;
    struct sched_param sp = {0};
    pid_t tid = __atomic_load_n(&host->tid, __ATOMIC_RELAXED);
    if (tid)
        sched_setscheduler(tid, SCHED_IDLE, &sp); /* it may spin forever: let it only use idle time */
    pthread_mutex_lock(&c->mu);
    __atomic_store_n(&c->threads_done, c->threads_done + 1, __ATOMIC_RELEASE); /* it never checks out */
    if (c->fibers) { /* nor does its fiber finish: the other threads stop waiting for it */
        __atomic_store_n(&c->fibers_done, c->fibers_done + 1, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&c->cv);
    }
    pthread_cond_signal(&c->done_cv);
    pthread_mutex_unlock(&c->mu);
    if (host == (c->fibers ? c->hosts[0] : c->cores[0])) { /* the stream worker: a new thread finishes the launch */
        pthread_t th;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setstacksize(&at, SIM_CORE_STACK);
        if (pthread_create(&th, &at, core_rescue_main, c))
            fprintf(stderr, "ascendrtc: cannot start a thread to replace a stuck stream worker; the stream hangs\n");
        pthread_attr_destroy(&at);
    }
}

/* Every KICK_NS after a timeout or cancel: interrupt the cores still in
 * kernel code; after ABANDON_NS abandon those that ignore it. */
void core_kick(sim_watch *w)
{
    launch_ctx *c = w->arg;
    int sig = sim_interrupt_signal();
    int late = sim_now_ns() - c->fired_ns >= ABANDON_NS;
    for (unsigned i = 0; i < c->ncores; i++) {
        core_thread *ct = c->cores[i];
        int in = IN_KERNEL;
        if (late && atomic_compare_exchange_strong(&ct->in_kernel, &in, ABANDONED))
            abandon(c, ct);
        else if (atomic_load(&ct->in_kernel) == IN_KERNEL)
            pthread_kill(__atomic_load_n(&ct->th, __ATOMIC_ACQUIRE), sig);
    }
}

void core_on_timeout(sim_watch *w)
{
    launch_ctx *c = w->arg;
    const sim_kernel_run *r = c->r;
    pthread_mutex_lock(&c->mu);
    if (!c->failed) {
        char where[SIM_MSG_MAX / 2];
        positions(c, where, sizeof where);
        c->failed = 1;
        if (atomic_load(&c->interrupted)) {
            c->code = ACL_ERROR_RT_AICORE_EXCEPTION;
            snprintf(c->msg, sizeof c->msg, "%s (%u blocks) was cancelled by an interrupt (Ctrl-C, "
                     "KeyboardInterrupt): %s", r->kernel_name, r->nblocks, where);
        } else {
            c->code = ACL_ERROR_RT_AICORE_TIMEOUT;
            snprintf(c->msg, sizeof c->msg, "%s (%u blocks) did not finish within its launch timeout of %.3f s: %s",
                     r->kernel_name, r->nblocks, r->timeout_ns / 1e9, where);
        }
    }
    atomic_store(&c->aborted, 1);
    atomic_store(&c->stopping, 1);
    c->fired_ns = sim_now_ns();
    pthread_cond_broadcast(&c->cv); /* SyncAll waiters leave */
    pthread_mutex_unlock(&c->mu);
    core_kick(w);
}

/* Watchdog callback of a launch on fewer threads than it could have: no
 * block finished for STALL_NS while blocks wait to start, so the running
 * ones may be waiting for those; double the threads. */
void core_on_stall(sim_watch *w)
{
    launch_ctx *c = w->arg;
    /* Returning blocks take no clock (a clock read per block is a good part
     * of a small block's cost): the watch notes when it first sees the count
     * move, so a return is timed to within a kick (watchdog.c's 10 ms). */
    uint64_t now = sim_now_ns(), last = atomic_load(&c->progress_ns);
    uint32_t e = core_exited(c);
    if (e != c->seen_exited) {
        c->seen_exited = e;
        c->seen_ns = now;
    }
    if (c->seen_ns > last)
        last = c->seen_ns;
    if (atomic_load(&c->aborted) || now - last < STALL_NS)
        return;
    pthread_mutex_lock(&c->mu);
    unsigned add = 0;
    /* blocks waiting to start; in fiber mode, fibers waiting for a thread */
    unsigned left = c->fibers ? c->rq_n : core_unstarted(c);
    if (left && !c->fibers) /* from now on blocks start in order, one at a time (core_claim.c) */
        atomic_store(&c->in_order, 1);
    if (left && c->nthreads < c->limit) {
        add = c->nthreads;
        if (add > left)
            add = left;
        if (add > c->limit - c->nthreads)
            add = c->limit - c->nthreads;
    }
    __atomic_store_n(&c->nthreads, c->nthreads + add, __ATOMIC_RELEASE); /* counted before they exist */
    pthread_mutex_unlock(&c->mu);
    for (unsigned i = 0; i < add; i++) {
        core_thread *ct = core_new(c->pool, MAX_THREADS); /* idx: not a pool thread */
        int e = ENOMEM;
        if (ct) {
            ct->ctx = c;
            atomic_store(&ct->where, WHERE_NOT_STARTED);
            /* A core of the launch before it returns a block (core_exited
             * counts its returns); a fiber launch's cores are its fibers. */
            pthread_mutex_lock(&c->mu);
            if (!c->fibers) { /* core_claim.c reads cores[] up to ncores unlocked */
                c->cores[c->ncores] = ct;
                __atomic_store_n(&c->ncores, c->ncores + 1, __ATOMIC_RELEASE);
            }
            pthread_mutex_unlock(&c->mu);
            pthread_attr_t at;
            pthread_attr_init(&at);
            pthread_attr_setstacksize(&at, SIM_CORE_STACK);
            e = pthread_create(&ct->th, &at, core_extra_main, ct);
            pthread_attr_destroy(&at);
        }
        pthread_mutex_lock(&c->mu);
        if (e) { /* run on with the threads it has: un-count this one and the rest */
            if (ct && !c->fibers)
                c->ncores--; /* the last one: only this watch adds cores */
            __atomic_store_n(&c->nthreads, c->nthreads - (add - i), __ATOMIC_RELEASE);
            pthread_cond_signal(&c->done_cv);
        } else {
            c->extra[c->nextra++] = ct;
        }
        pthread_mutex_unlock(&c->mu);
        if (e) {
            core_free(ct);
            break;
        }
    }
    atomic_store(&c->progress_ns, sim_now_ns());
}

/* A launch whose stream worker (core 0) was abandoned: finish it on a new
 * thread, which then serves the stream (r->orphaned). */
void *core_rescue_main(void *arg)
{
    launch_ctx *c = arg;
    const sim_kernel_run *r = c->r;
    char msg[SIM_MSG_MAX];
    aclError code = core_launch_finish(c, msg, sizeof msg);
    if (r->orphaned)
        r->orphaned(r->orphan_arg, code, msg);
    return NULL;
}

void sim_corepool_cancel(sim_corepool *p, uint64_t upto)
{
    pthread_mutex_lock(&p->mu);
    if (upto > p->cancel_upto)
        p->cancel_upto = upto;
    launch_ctx *c = p->running;
    if (c && (!c->r->seq || c->r->seq <= upto)) {
        atomic_store(&c->interrupted, 1);
        if (c->watched) {
            sim_watch_expire(&c->watch);
        } else {
            c->watch.deadline = 0;
            c->watched = 1;
            sim_watch_add(&c->watch);
        }
    }
    pthread_mutex_unlock(&p->mu);
}
