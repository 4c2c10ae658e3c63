/* core_pool.c - the simulated AI cores and their threads.  A launch of N
 * blocks runs on the launching stream's worker thread plus a pool of
 * persistent core threads: min(N, cores of the kernel's kind) threads run
 * at once, each taking the next block (or run of blocks, core_claim.c)
 * until none is left, so launches beyond the core count run in waves.
 * Only the threads a launch needs are woken.  Each thread owns its arc_core with UB and L1 arenas (32-byte
 * aligned, reused between launches and not zeroed, like on-chip memory).
 *
 * Every block starts under setjmp (a trap longjmps out of it, core_trap.c);
 * blocks not yet started when a trap happens are skipped.  Subnormals are
 * never flushed (the seed adds float denormals).  A launch's start and end
 * are core_launch.c's, its timeouts, stalls and abandoned cores
 * core_hang.c's, SyncAll core_syncall.c's, MIX blocks core_mix.c's and the
 * fibers of SyncAll kernels core_fibers.c's. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "rt/cores/core_internal.h"

#define ALTSTACK_SIZE (64u << 10)

__thread core_thread *core_self;
static __thread pid_t my_tid;

pid_t core_tid(void)
{
    if (!my_tid)
        my_tid = (pid_t)syscall(SYS_gettid);
    return my_tid;
}

/* An abandoned core came back from kernel code: its launch has moved on,
 * so it may touch nothing of it again. */
_Noreturn void core_park(void)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    for (;;)
        pause();
}

/* Leave kernel code; returns the state it had (parks an abandoned core). */
int core_leave_kernel(core_thread *ct)
{
    int v = atomic_exchange(&ct->in_kernel, 0);
    if (v == ABANDONED)
        core_park();
    return v;
}

void core_no_ftz(void)
{
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(_mm_getcsr() & ~(0x8000u | 0x0040u)); /* FTZ and DAZ off */
#endif
}

/* Record the launch's first failure and release every waiter. */
static void fail_code(launch_ctx *c, aclError code, const char *msg)
{
    pthread_mutex_lock(&c->mu);
    if (!c->failed) {
        c->failed = 1;
        c->code = code;
        snprintf(c->msg, sizeof c->msg, "%s", msg);
    }
    atomic_store(&c->aborted, 1);
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

void core_fail(launch_ctx *c, const char *msg)
{
    fail_code(c, ACL_ERROR_RT_AICORE_EXCEPTION, msg);
}

/* A block has returned.  When no block waits in SyncAll or for a mode-0
 * round, that is all (no lock: blocks of most kernels only ever return).
 * The order matters: count this block out, then read the waiters; a
 * waiter counts itself in, then reads the returned (seq_cst both), so a
 * waiter this misses has seen this block return (barrier_arrive,
 * x0_block_wait).  Else, under the lock, whether the waiters can never be
 * joined now. */
static void block_exit(core_thread *ct, launch_ctx *c)
{
    const sim_kernel_run *r = c->r;
    atomic_store(&ct->exits, atomic_load_explicit(&ct->exits, memory_order_relaxed) + 1); /* only ct writes it */
    if (!atomic_load(&c->waiting) && !atomic_load(&c->x0_blocked))
        return;
    pthread_mutex_lock(&c->mu);
    uint32_t waiting = c->waiting, x0 = c->x0_blocked, gone = core_exited(c);
    int x0_stuck = core_barrier_stuck(c, x0, gone, r->nblocks); /* reported first, as before */
    int stuck = core_barrier_stuck(c, waiting, gone, r->nblocks);
    pthread_mutex_unlock(&c->mu);
    if (x0_stuck) {
        char m[SIM_MSG_MAX]; /* CATLASS's kernel names run to kilobytes */
        snprintf(m, sizeof m,
                 "%s: CrossCoreWaitFlag: the cores of %u of %u blocks wait for a mode-0 CrossCoreSetFlag round that "
                 "the other blocks returned without finishing (the kernel would hang on the NPU)",
                 r->kernel_name, x0, r->nblocks);
        core_fail(c, m);
    }
    if (stuck) {
        char m[SIM_MSG_MAX];
        snprintf(m, sizeof m,
                 "%s: SyncAll: %u of %u blocks wait in SyncAll but the other blocks returned without reaching "
                 "it (the kernel would hang on hardware)", r->kernel_name, waiting, r->nblocks);
        core_fail(c, m);
    }
}

/* Blocks of c that have returned, over its cores (c->ncores is changed
 * under c->mu, by the watchdog: read under either). */
uint32_t core_exited(const launch_ctx *c)
{
    uint32_t n = 0;
    for (unsigned i = 0; i < c->ncores; i++)
        n += atomic_load(&c->cores[i]->exits);
    return n;
}

/* AIVs per block of a MIX kernel type (KERNEL_TYPE_MIX_AIC_1_1 / 1_2), else 0. */
int core_mix_aivs(const sim_kernel_run *r)
{
    return r->km ? sim_ktype_aivs(r->km->ktype) : 0;
}

static void run_block(core_thread *ct, launch_ctx *c, uint32_t b)
{
    const sim_kernel_run *r = c->r;
    arc_core *k = &ct->core;
    ct->cur = k;
    ct->jbp = &ct->jb;
    ct->nsub = 0;
    k->block_idx = b;
    k->block_num = r->nblocks;
    k->sub_block_idx = 0;
    k->sub_block_num = 1;
    sim_arenas_enter(&ct->ar, k, r->arch);
    if (r->poison_ub)
        sim_arenas_poison(k);
    k->tiling_key = r->tiling_key;
    k->workspace = NULL;
    k->arch = r->arch->num;
    k->core_type = r->core_type;
    k->ktype = r->km ? r->km->ktype : 0;
    k->kernel_name = r->kernel_name;
    sim_zero(k->dev, sizeof k->dev);
    sim_zero(k->l0 + ARC_L0_META_OFF, ARC_L0_META_BYTES);
    sim_race_block_begin(k, r->race_mode, c->seq);
    sim_simt_vf_reset();
    if (r->cost && !r->simt) sim_cost_block_begin(k, r); /* SIMT blocks are not priced */
    int naiv = core_mix_aivs(r);
    if (naiv && r->cost) sim_cost_mark_mix(r->cost);
    if (!naiv) /* a MIX block's AIC and AIVs are agents of their own (core_run_mix): agent b is another block's */
        sim_race_gm_agent(c->gm, k, b, b, -1);
    ct->ctx = c;
    /* Release stores (no fence): where and block only feed the watchdog's
     * report of positions, and in_kernel's signals come again every kick
     * (core_kick); leaving takes the exchange core_leave_kernel needs. */
    atomic_store_explicit(&ct->block, b, memory_order_release);
    atomic_store_explicit(&ct->where, WHERE_RUNNING, memory_order_release);
    if (naiv) {
        core_run_mix(ct, c, b, naiv);
    } else if (setjmp(ct->jb) == 0) {
        atomic_store_explicit(&ct->in_kernel, IN_KERNEL, memory_order_release);
        r->entry(r->args);
        if (k->dev[ARC_RACE_SLOT] & ARC_VF_PENDING) /* a hybrid kernel's VF in flight (simt_vf.c) */
            sim_simt_vf_finish();
    }
    core_leave_kernel(ct);
    atomic_store_explicit(&ct->where, WHERE_IDLE, memory_order_release);
    block_exit(ct, c);
}

/* Run block b of c on this thread, then more until none is left. */
void core_run_blocks(core_thread *ct, launch_ctx *c, uint32_t b)
{
    for (; b < c->r->nblocks; b = core_claim(ct, c)) {
        if (atomic_load(&c->aborted)) { /* skip blocks after a trap */
            block_exit(ct, c);
            continue;
        }
        run_block(ct, c, b);
    }
}

static sigset_t kernel_signals;

static void kernel_signals_init(void)
{
    sigemptyset(&kernel_signals);
    int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, sim_interrupt_signal()};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaddset(&kernel_signals, sigs[i]);
}

/* Run blocks of c (or, in fiber mode, its fibers) until none is left,
 * then check out of the launch. */
void core_take_blocks(core_thread *ct, launch_ctx *c)
{
    core_no_ftz();
    /* A kernel of an earlier launch may have blocked the signals faults and
     * timeouts need (a synchronous fault with its signal blocked would end
     * the process). */
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, kernel_signals_init);
    pthread_sigmask(SIG_UNBLOCK, &kernel_signals, NULL);
    stack_t cur;
    /* Keep a signal stack someone set up already (ASan does, per thread). */
    if (!ct->altstack && sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE) &&
        (ct->altstack = malloc(ALTSTACK_SIZE))) {
        stack_t ss = {.ss_sp = ct->altstack, .ss_flags = 0, .ss_size = ALTSTACK_SIZE};
        if (sigaltstack(&ss, NULL)) {
            free(ct->altstack);
            ct->altstack = NULL;
        }
    }
    if (c->fibers)
        core_fiber_sched(ct, c);
    else
        core_run_blocks(ct, c, core_claim(ct, c));
    atomic_store(&ct->where, WHERE_IDLE);
    ct->ctx = NULL;
    pthread_mutex_lock(&c->mu);
    __atomic_store_n(&c->threads_done, c->threads_done + 1, __ATOMIC_RELEASE);
    pthread_cond_signal(&c->done_cv);
    pthread_mutex_unlock(&c->mu);
}

typedef struct {
    const sim_corepool *p;
    uint64_t seen;
} gen_wait;

static int new_launch(const void *arg)
{
    const gen_wait *w = arg;
    return __atomic_load_n(&w->p->gen, __ATOMIC_ACQUIRE) != w->seen || __atomic_load_n(&w->p->stop, __ATOMIC_ACQUIRE);
}

static void *core_main(void *arg)
{
    core_thread *ct = arg;
    sim_corepool *p = ct->pool;
    core_self = ct;
    __atomic_store_n(&ct->tid, core_tid(), __ATOMIC_RELAXED);
    uint64_t seen = ct->gen0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        if (p->gen == seen && !p->stop && p->spin) { /* launches often come back to back */
            gen_wait w = {p, seen};
            sim_spin_until(&p->mu, new_launch, &w);
        }
        while (p->gen == seen && !p->stop)
            pthread_cond_wait(&ct->cv, &p->mu);
        if (p->stop)
            break;
        seen = p->gen;
        launch_ctx *c = p->ctx;
        int mine = ct->idx < p->want;
        pthread_mutex_unlock(&p->mu);
        if (mine)
            core_take_blocks(ct, c);
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* A thread added to a stalled launch: runs blocks until none is left. */
void *core_extra_main(void *arg)
{
    core_thread *ct = arg;
    core_self = ct;
    __atomic_store_n(&ct->tid, core_tid(), __ATOMIC_RELAXED);
    core_take_blocks(ct, ct->ctx);
    return NULL;
}

sim_corepool *sim_corepool_new(void)
{
    sim_corepool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->mu, NULL);
    return p;
}

void core_free(core_thread *ct)
{
    if (!ct)
        return;
    sim_arenas_free(&ct->ar);
    for (int i = 0; i < MAX_SUBS; i++)
        if (ct->subs[i]) {
            sim_arenas_free(&ct->subs[i]->ar);
            sim_race_state_free(ct->subs[i]->race);
            sim_fiber_destroy(&ct->subs[i]->fib);
            free(ct->subs[i]);
        }
    free(ct->altstack); /* its thread has exited */
    pthread_cond_destroy(&ct->cv);
    free(ct);
}

/* A core with its arenas; NULL on OOM. */
core_thread *core_new(sim_corepool *p, unsigned idx)
{
    core_thread *ct = calloc(1, sizeof *ct);
    if (!ct || sim_arenas_new(&ct->ar)) {
        free(ct);
        return NULL;
    }
    ct->pool = p;
    ct->idx = idx;
    ct->core.l0 = ct->ar.l0;
    ct->cur = &ct->core;
    ct->jbp = &ct->jb;
    pthread_cond_init(&ct->cv, NULL);
    return ct;
}

void sim_corepool_free(sim_corepool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    __atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
    for (unsigned i = 0; i < p->nthreads; i++)
        if (p->threads[i]) /* NULL: abandoned, not replaced yet */
            pthread_cond_signal(&p->threads[i]->cv);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->nthreads; i++)
        if (p->threads[i]) {
            pthread_join(p->threads[i]->th, NULL);
            core_free(p->threads[i]);
        }
    core_free(p->caller);
    core_fibers_free(p);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

/* Give the caller a core and the pool n threads (only the stream worker
 * calls this). */
int core_pool_grow(sim_corepool *p, unsigned n, char *msg, size_t msglen)
{
    if (!p->caller && !(p->caller = core_new(p, 0))) {
        snprintf(msg, msglen, "out of host memory for a core's UB/L1 arenas");
        return -1;
    }
    for (unsigned i = 0; i < n; i++) {
        if (i < p->nthreads && p->threads[i])
            continue;
        /* a new core, or one in place of an abandoned core */
        core_thread *ct = core_new(p, i);
        if (!ct) {
            snprintf(msg, msglen, "out of host memory for core %u's UB/L1 arenas", i + 1);
            return -1;
        }
        ct->gen0 = p->gen; /* only this thread changes gen */
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setstacksize(&at, SIM_CORE_STACK);
        int e = pthread_create(&ct->th, &at, core_main, ct);
        pthread_attr_destroy(&at);
        if (e) {
            core_free(ct);
            snprintf(msg, msglen, "cannot start core thread %u: %s", i + 1, strerror(e));
            return -1;
        }
        pthread_mutex_lock(&p->mu);
        p->threads[i] = ct;
        if (i == p->nthreads)
            p->nthreads++;
        pthread_mutex_unlock(&p->mu);
    }
    return 0;
}

const sim_kernel_run *sim_core_launch_on(arc_core **k)
{
    core_thread *ct = core_self;
    if (ct && atomic_load(&ct->in_kernel) == ABANDONED)
        core_park(); /* its launch is gone */
    *k = ct ? ct->cur : NULL;
    return ct && ct->ctx ? ct->ctx->r : NULL;
}

const sim_kernel_run *sim_core_launch(void)
{
    arc_core *k;
    return sim_core_launch_on(&k);
}

int sim_core_describe_local(uintptr_t a, char *buf, size_t n)
{
    core_thread *ct = core_self;
    if (!ct || !ct->ctx || !ct->cur)
        return 0;
    /* The running core's, or MIX sub-core's, arenas. */
    return sim_arenas_describe(ct->cur, ct->ctx->r->arch, a, buf, n);
}

int sim_core_service_begin(void)
{
    core_thread *ct = core_self;
    return ct ? core_leave_kernel(ct) : 0;
}

void sim_core_service_end(int state)
{
    core_thread *ct = core_self;
    if (!ct)
        return;
    atomic_store(&ct->in_kernel, state);
    /* A timed-out or cancelled launch: leave now, as an interrupt landing
     * here would (a kernel calling services in a loop may dodge them). */
    if (state == IN_KERNEL && ct->ctx && atomic_load(&ct->ctx->stopping) && core_leave_kernel(ct))
        longjmp(*ct->jbp, 1);
}

/* ---- services loaded kernels call (ARC_KERNEL_SYMBOLS) ---- */

arc_core *__arc_core(void)
{
    return core_self ? core_self->cur : NULL;
}
