/* cores.c - the simulated AI cores.  A launch of N blocks runs on the
 * launching stream's worker thread plus a pool of persistent core threads:
 * min(N, cores of the kernel's kind) threads run at once, each taking the
 * next block until none is left, so launches beyond the core count run in
 * waves.  Only the threads a launch needs are woken.  Each thread owns
 * its arc_core with UB and L1 arenas (32-byte aligned, reused between
 * launches and not zeroed, like on-chip memory).
 *
 * Every block starts under setjmp: __arc_trap records the launch's error,
 * releases blocks waiting in __arc_sync_all (they abort too) and longjmps
 * out of the block.  Blocks not yet started when a trap happens are
 * skipped.  Subnormals are never flushed (the seed adds float denormals).
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
 * binary.c), but its blocks may still wait for each other through GM
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
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "rt/rt_internal.h"

#define MAX_THREADS 64
#define STALL_NS 20000000ull
#define ALTSTACK_SIZE (64u << 10)
#define ABANDON_NS 250000000ull /* a stopped launch's core still in kernel code this long after is abandoned */
#define IN_KERNEL 1
#define ABANDONED 2 /* in_kernel of an abandoned core */

enum { WHERE_IDLE, WHERE_RUNNING, WHERE_SYNCALL, WHERE_NOT_STARTED };

typedef struct core_thread core_thread;

/* One AIC or AIV of a MIX block: its own arenas and flag counters, run as
 * a fiber of the block's thread (see run_mix). */
enum { SUB_RUN, SUB_WAIT, SUB_DONE };
typedef struct sub_core {
    arc_core core;
    sim_arenas ar;     /* its own UB/L1/L0, between guards like a core's */
    sim_fiber fib;     /* its stack, above a guard (fiber.c) */
    jmp_buf jb;
    int state;
    int wait_id;
    uint8_t cnt[16];   /* CrossCoreWaitFlag counters */
    uint8_t pend[16];  /* AIV sets of modes 1/2 not yet matched by the other AIV */
    void *race;        /* its pipe race check state (race.c): each AIC/AIV has its own pipes */
} sub_core;
#define MAX_SUBS 3

typedef struct launch_ctx {
    const sim_kernel_run *r;
    atomic_uint next;       /* next block to start */
    atomic_int aborted;     /* a block trapped */
    pthread_mutex_t mu;
    pthread_cond_t cv;      /* SyncAll waiters */
    pthread_cond_t done_cv; /* the launching thread */
    uint32_t waiting;       /* blocks inside the current SyncAll */
    uint32_t exited;        /* blocks that have returned */
    uint64_t gen;           /* SyncAll generation */
    uint32_t threads_done;
    int failed;
    aclError code;
    char msg[SIM_MSG_MAX];
    core_thread *cores[MAX_THREADS]; /* the cores of this launch */
    unsigned ncores;
    unsigned nthreads;      /* threads that will check out (ncores + extras being created) */
    unsigned limit;         /* most threads this launch may get */
    _Atomic uint64_t last_exit_ns; /* when a block last returned, or threads were added */
    sim_corepool *pool;
    sim_watch watch;        /* the timeout, or a cancel (sim_corepool_cancel) */
    int watched;            /* watch is added (pool->mu) */
    atomic_int interrupted; /* cancelled by sim_corepool_cancel (Ctrl-C) */
    atomic_int stopping;    /* timed out or cancelled: services leave kernel code at once */
    sim_watch stall;
    int watch_stall;        /* stall is added */
    unsigned nstart;        /* threads at the start: the caller and pool threads 0..nstart-2 */
    uint64_t t0;            /* start, when the launch has a timeout */
    uint64_t fired_ns;      /* when the timeout or cancel fired */
    uint64_t seq;          /* this launch's number in the process (race-check warnings count per launch) */
    core_thread *extra[MAX_THREADS]; /* threads on_stall added (joined at the end) */
    core_thread *hosts[MAX_THREADS]; /* fiber mode: the threads at the start (cores[] otherwise) */
    unsigned nextra;
    /* Fiber mode (a SyncAll kernel, see fiber_sched): cores[] are the
     * fiber cores; c->mu guards the queues.  rq_n and nparked are read
     * unlocked by spinners. */
    int fibers;
    unsigned nfibers, fibers_done;
    core_thread *rq[MAX_THREADS];     /* fibers ready to run (FIFO) */
    unsigned rq_head, rq_n;
    core_thread *parked[MAX_THREADS]; /* fibers waiting in SyncAll */
    unsigned nparked;
    sim_race_gm *gm;       /* the GM race check between its cores (NULL: off) */
} launch_ctx;

struct core_thread {
    sim_corepool *pool;
    unsigned idx;
    pthread_t th;      /* the thread running this core (the stream worker for the caller's core) */
    pthread_cond_t cv; /* wakes this thread for a launch */
    arc_core core;
    arc_core *cur;     /* what __arc_core() returns: core, or a MIX sub-core's */
    launch_ctx *ctx;
    jmp_buf jb;
    jmp_buf *jbp;      /* where a trap returns: jb, or the running sub-core's */
    sub_core *subs[MAX_SUBS];
    int nsub, cur_sub; /* sub-cores of the running MIX block, and the one running */
    sim_fiber sched;   /* the thread's own context while a MIX sub-core runs */
    atomic_int in_kernel; /* IN_KERNEL while in kernel code: signals may longjmp out; ABANDONED */
    int abandoned;        /* set by the watchdog (in_kernel ABANDONED), read by the launch's end */
    pid_t tid;            /* its thread's id, for sched_setscheduler */
    uint64_t gen0;        /* the pool's gen when the thread was made: launches before it are not its own */
    atomic_int where;     /* WHERE_* */
    atomic_uint block;    /* the block it runs */
    void *altstack;       /* signal stack (a kernel may overflow its stack) */
    sim_arenas ar;        /* its UB/L1/L0 between guards (arena.c) */
    /* Fiber mode.  A fiber core is a simulated core run as a fiber: th is
     * the thread running it now.  A thread saves its own context in fib
     * while it runs one. */
    sim_fiber fib;
    core_thread *host;   /* a fiber core: the thread running it */
    int handoff;         /* a fiber core: why it switched back (FIB_PARK, FIB_DONE) */
    uint64_t park_gen;   /* the SyncAll generation it waits to end */
    const char *site;    /* its kernel source line (site.c) while switched out */
    void *race;          /* its race detector state (race.c) */
};

enum { FIB_PARK = 1, FIB_DONE };

struct sim_corepool {
    pthread_mutex_t mu;
    core_thread *caller; /* the stream worker's own core (no thread) */
    core_thread *threads[MAX_THREADS - 1];
    unsigned nthreads;
    uint64_t gen;    /* bumped per launch */
    launch_ctx *ctx;
    unsigned want;   /* pool threads with idx < want take part */
    int stop;
    int spin;        /* idle threads may spin: the last launch had at most 4 threads per CPU */
    core_thread *fibers[MAX_THREADS]; /* fiber cores, made on first use */
    unsigned nfibers;
    launch_ctx *running; /* the launch in sim_cores_run, for sim_corepool_cancel */
    uint64_t cancel_upto; /* launches with a seq up to this one are cancelled */
};

static __thread core_thread *self;
static __thread pid_t my_tid;

static pid_t tid_of_self(void)
{
    if (!my_tid)
        my_tid = (pid_t)syscall(SYS_gettid);
    return my_tid;
}

/* An abandoned core came back from kernel code: its launch has moved on,
 * so it may touch nothing of it again. */
static _Noreturn void park(void)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    for (;;)
        pause();
}

/* Leave kernel code; returns the state it had (parks an abandoned core). */
static int leave_kernel(core_thread *ct)
{
    int v = atomic_exchange(&ct->in_kernel, 0);
    if (v == ABANDONED)
        park();
    return v;
}

static void no_flush_to_zero(void)
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

static void fail(launch_ctx *c, const char *msg)
{
    fail_code(c, ACL_ERROR_RT_AICORE_EXCEPTION, msg);
}

static void block_exit(launch_ctx *c)
{
    const sim_kernel_run *r = c->r;
    atomic_store(&c->last_exit_ns, sim_now_ns());
    pthread_mutex_lock(&c->mu);
    c->exited++;
    int stuck = c->waiting && c->waiting + c->exited == r->nblocks && !atomic_load(&c->aborted);
    uint32_t waiting = c->waiting;
    pthread_mutex_unlock(&c->mu);
    if (stuck) {
        char m[512];
        snprintf(m, sizeof m,
                 "%s: SyncAll: %u of %u blocks wait in SyncAll but the other blocks returned without reaching "
                 "it (the kernel would hang on hardware)", r->kernel_name, waiting, r->nblocks);
        fail(c, m);
    }
}

static void run_mix(core_thread *ct, launch_ctx *c, uint32_t b, int naiv);
static void fiber_sched(core_thread *t, launch_ctx *c);
static void fiber_park(core_thread *ct, launch_ctx *c, int k);
static void unpark_all(launch_ctx *c);
static int fibers_grow(sim_corepool *p, unsigned n, char *msg, size_t msglen);
static void fibers_free(sim_corepool *p);

/* AIVs per block of a MIX kernel type (KERNEL_TYPE_MIX_AIC_1_1 / 1_2), else 0. */
static int mix_aivs(const sim_kernel_run *r)
{
    uint32_t t = r->km ? r->km->ktype : 0;
    return t == 5 ? 2 : t == 4 ? 1 : 0;
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
    k->tiling_key = r->tiling_key;
    k->workspace = NULL;
    k->arch = r->arch->num;
    k->core_type = r->core_type;
    k->kernel_name = r->kernel_name;
    memset(k->dev, 0, sizeof k->dev);
    memset(k->l0 + ARC_L0_META_OFF, 0, ARC_L0_META_BYTES);
    sim_race_block_begin(k, r->race_mode, c->seq);
    if (r->cost) sim_cost_block_begin(k, r);
    int naiv = mix_aivs(r);
    if (!naiv) /* a MIX block's AIC and AIVs are agents of their own (run_mix): agent b is another block's */
        sim_race_gm_agent(c->gm, k, b, b, -1);
    ct->ctx = c;
    atomic_store(&ct->block, b);
    atomic_store(&ct->where, WHERE_RUNNING);
    if (naiv) {
        run_mix(ct, c, b, naiv);
    } else if (setjmp(ct->jb) == 0) {
        atomic_store(&ct->in_kernel, IN_KERNEL);
        r->entry(r->args);
    }
    leave_kernel(ct);
    atomic_store(&ct->where, WHERE_IDLE);
    block_exit(c);
}

/* Run block b of c on this thread, then more until none is left. */
static void run_blocks(core_thread *ct, launch_ctx *c, uint32_t b)
{
    for (; b < c->r->nblocks; b = atomic_fetch_add(&c->next, 1)) {
        if (atomic_load(&c->aborted)) { /* skip blocks after a trap */
            block_exit(c);
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
static void take_blocks(core_thread *ct, launch_ctx *c)
{
    no_flush_to_zero();
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
        fiber_sched(ct, c);
    else
        run_blocks(ct, c, atomic_fetch_add(&c->next, 1));
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
    self = ct;
    __atomic_store_n(&ct->tid, tid_of_self(), __ATOMIC_RELAXED);
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
            take_blocks(ct, c);
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* A thread added to a stalled launch: runs blocks until none is left. */
static void *extra_main(void *arg)
{
    core_thread *ct = arg;
    self = ct;
    __atomic_store_n(&ct->tid, tid_of_self(), __ATOMIC_RELAXED);
    take_blocks(ct, ct->ctx);
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

static void thread_free(core_thread *ct)
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
static core_thread *core_new(sim_corepool *p, unsigned idx)
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
            thread_free(p->threads[i]);
        }
    thread_free(p->caller);
    fibers_free(p);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

/* Give the caller a core and the pool n threads (only the stream worker
 * calls this). */
static int grow(sim_corepool *p, unsigned n, char *msg, size_t msglen)
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
            thread_free(ct);
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
    uint32_t next = atomic_load(&c->next);
    uint32_t left = next < c->r->nblocks ? c->r->nblocks - next : 0;
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

static void *rescue_main(void *arg);

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
        if (pthread_create(&th, &at, rescue_main, c))
            fprintf(stderr, "ascendrtc: cannot start a thread to replace a stuck stream worker; the stream hangs\n");
        pthread_attr_destroy(&at);
    }
}

/* Every KICK_NS after a timeout or cancel: interrupt the cores still in
 * kernel code; after ABANDON_NS abandon those that ignore it. */
static void kick(sim_watch *w)
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

static void on_timeout(sim_watch *w)
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
    kick(w);
}

/* Watchdog callback of a launch on fewer threads than it could have: no
 * block finished for STALL_NS while blocks wait to start, so the running
 * ones may be waiting for those; double the threads. */
static void on_stall(sim_watch *w)
{
    launch_ctx *c = w->arg;
    if (atomic_load(&c->aborted) || sim_now_ns() - atomic_load(&c->last_exit_ns) < STALL_NS)
        return;
    pthread_mutex_lock(&c->mu);
    uint32_t next = atomic_load(&c->next);
    unsigned add = 0;
    /* blocks waiting to start; in fiber mode, fibers waiting for a thread */
    unsigned left = c->fibers ? c->rq_n : next < c->r->nblocks ? c->r->nblocks - next : 0;
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
            pthread_attr_t at;
            pthread_attr_init(&at);
            pthread_attr_setstacksize(&at, SIM_CORE_STACK);
            e = pthread_create(&ct->th, &at, extra_main, ct);
            pthread_attr_destroy(&at);
        }
        pthread_mutex_lock(&c->mu);
        if (e) { /* run on with the threads it has: un-count this one and the rest */
            __atomic_store_n(&c->nthreads, c->nthreads - (add - i), __ATOMIC_RELEASE);
            pthread_cond_signal(&c->done_cv);
        } else {
            c->extra[c->nextra++] = ct;
            if (!c->fibers) /* a fiber launch's cores are its fibers */
                c->cores[c->ncores++] = ct;
        }
        pthread_mutex_unlock(&c->mu);
        if (e) {
            thread_free(ct);
            break;
        }
    }
    atomic_store(&c->last_exit_ns, sim_now_ns());
}

/* Every thread of the launch has checked out (nthreads only grows while
 * blocks wait to start, so a stale read just spins on). */
static int all_done(const void *arg)
{
    const launch_ctx *c = arg;
    return __atomic_load_n(&c->threads_done, __ATOMIC_ACQUIRE) >= __atomic_load_n(&c->nthreads, __ATOMIC_ACQUIRE);
}

/* The end of a launch, once every block has started: wait for its
 * threads, stop watching it, let go of extra and abandoned threads. */
static aclError finish(launch_ctx *c, char *msg, size_t msglen)
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
        sim_bin_keep(r->bin);
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
            thread_free(f);
        }
    }
    for (unsigned i = 0; i < c->nextra; i++) {
        if (c->extra[i]->abandoned)
            continue;
        pthread_join(c->extra[i]->th, NULL);
        thread_free(c->extra[i]);
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
    if (grow(p, t - 1, msg, msglen))
        return ACL_ERROR_RT_AICORE_EXCEPTION;
    /* A SyncAll kernel's blocks run as fibers, one per core they occupy. */
    unsigned nf = 0;
    if (r->fibers && !mix_aivs(r)) {
        nf = r->nblocks < r->max_concurrent ? r->nblocks : r->max_concurrent;
        if (nf > MAX_THREADS)
            nf = MAX_THREADS;
        if (fibers_grow(p, nf, msg, msglen))
            return ACL_ERROR_RT_AICORE_EXCEPTION;
    }
    sim_fault_install();
    static _Atomic uint64_t launches;
    launch_ctx c;
    memset(&c, 0, sizeof c);
    c.r = r;
    c.seq = atomic_fetch_add(&launches, 1) + 1;
    c.gm = sim_race_gm_new(r->nblocks * (uint32_t)(1 + mix_aivs(r)), r->race_mode);
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
    for (unsigned i = 0; i < c.ncores; i++)
        atomic_store(&c.cores[i]->where, WHERE_NOT_STARTED);
    uint64_t t0 = r->timeout_ns ? sim_now_ns() : 0;
    c.watch.fire = on_timeout;
    c.watch.kick = kick;
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
        atomic_store(&c.last_exit_ns, sim_now_ns());
        c.stall.deadline = sim_now_ns() + STALL_NS;
        c.stall.fire = c.stall.kick = on_stall;
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
    core_thread *saved = self;
    self = p->caller;
    __atomic_store_n(&p->caller->tid, tid_of_self(), __ATOMIC_RELAXED);
    take_blocks(p->caller, &c);
    self = saved;
    return finish(&c, msg, msglen);
}

/* A launch whose stream worker (core 0) was abandoned: finish it on a new
 * thread, which then serves the stream (r->orphaned). */
static void *rescue_main(void *arg)
{
    launch_ctx *c = arg;
    const sim_kernel_run *r = c->r;
    char msg[SIM_MSG_MAX];
    aclError code = finish(c, msg, sizeof msg);
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

const sim_kernel_run *sim_core_launch(void)
{
    core_thread *ct = self;
    if (ct && atomic_load(&ct->in_kernel) == ABANDONED)
        park(); /* its launch is gone */
    return ct && ct->ctx ? ct->ctx->r : NULL;
}

int sim_core_describe_local(uintptr_t a, char *buf, size_t n)
{
    core_thread *ct = self;
    if (!ct || !ct->ctx || !ct->cur)
        return 0;
    /* The running core's, or MIX sub-core's, arenas. */
    return sim_arenas_describe(ct->cur, ct->ctx->r->arch, a, buf, n);
}

int sim_core_service_begin(void)
{
    core_thread *ct = self;
    return ct ? leave_kernel(ct) : 0;
}

void sim_core_service_end(int state)
{
    core_thread *ct = self;
    if (!ct)
        return;
    atomic_store(&ct->in_kernel, state);
    /* A timed-out or cancelled launch: leave now, as an interrupt landing
     * here would (a kernel calling services in a loop may dodge them). */
    if (state == IN_KERNEL && ct->ctx && atomic_load(&ct->ctx->stopping) && leave_kernel(ct))
        longjmp(*ct->jbp, 1);
}

/* ---- services loaded kernels call (ARC_KERNEL_SYMBOLS) ---- */

arc_core *__arc_core(void)
{
    return self ? self->cur : NULL;
}

/* " (AIC)", " (AIV 1)" for a MIX sub-core, else "". */
static const char *sub_label(const core_thread *ct)
{
    static const char *names[2][MAX_SUBS] = {{" (AIC)", " (AIV)", ""}, {" (AIC)", " (AIV 0)", " (AIV 1)"}};
    if (!ct->nsub)
        return "";
    return names[ct->nsub == 3][ct->cur_sub];
}

int sim_core_signal_abort(const char *api, const char *body)
{
    core_thread *ct = self;
    if (!ct)
        return 0;
    /* Out of kernel code first: from then on it cannot be abandoned. */
    int in = IN_KERNEL;
    if (!atomic_compare_exchange_strong(&ct->in_kernel, &in, 0)) {
        if (in == ABANDONED)
            park(); /* its launch is gone */
        return 0;
    }
    if (!ct->ctx || (!body && !atomic_load(&ct->ctx->aborted))) {
        atomic_store(&ct->in_kernel, IN_KERNEL);
        return 0; /* a late interrupt meant for an earlier launch */
    }
    if (body) {
        char m[SIM_MSG_MAX];
        snprintf(m, sizeof m, "%s block %lld/%lld%s: %s: %s", ct->cur->kernel_name, ct->cur->block_idx,
                 ct->cur->block_num, sub_label(ct), api, body);
        fail(ct->ctx, m);
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
    core_thread *ct = self;
    if (!ct || !ct->ctx) {
        /* Only loaded kernels can reach these hidden symbols, and they run
         * on core threads; anything else is a runtime bug. */
        fprintf(stderr, "ascendrtc: __arc_trap outside a simulated core: %s: %s\n", api ? api : "?", body);
        abort();
    }
    snprintf(m, sizeof m, "%s block %lld/%lld%s: %s: %s", ct->cur->kernel_name, ct->cur->block_idx,
             ct->cur->block_num, sub_label(ct), api ? api : "?", body);
    fail(ct->ctx, m);
    longjmp(*ct->jbp, 1);
}

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
    core_thread *ct = self;
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
            unpark_all(c);
        pthread_cond_broadcast(&c->cv);
        pthread_mutex_unlock(&c->mu);
        sim_core_service_end(k);
        return;
    }
    if (c->fibers) {
        fiber_park(ct, c, k);
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

/* ---- MIX blocks: one AIC and its AIVs as fibers of the block's thread ----
 *
 * A KERNEL_TYPE_MIX_AIC_1_2 block runs the kernel three times (AIC, AIV 0,
 * AIV 1; 1_1: AIC and one AIV), each with its own arc_core and arenas, as
 * the NPU's cores of one AI core do.  A sub-core runs until it returns or
 * waits in CrossCoreWaitFlag on a counter at 0; then the next runnable one
 * runs.  When every unfinished sub-core waits and none can be released,
 * the block fails with each one's position (the NPU would hang).  Each
 * sub-core is a fiber (fiber.c: a guard page below its stack, the
 * sanitizers told of every switch) that never leaves its thread. */

static void sub_main(void *arg);

static sub_core *sub_get(core_thread *ct, int i)
{
    if (ct->subs[i])
        return ct->subs[i];
    sub_core *s = calloc(1, sizeof *s);
    if (!s || sim_arenas_new(&s->ar)) {
        free(s);
        return NULL;
    }
    if (sim_fiber_init(&s->fib, SIM_CORE_STACK, sub_main, s) || !(s->race = sim_race_state_new())) {
        sim_fiber_destroy(&s->fib);
        sim_arenas_free(&s->ar);
        free(s);
        return NULL;
    }
    s->state = SUB_DONE;
    ct->subs[i] = s;
    return s;
}

/* A sub-core's fiber: one run of the kernel per block, until the block
 * needs it no more (SUB_DONE), then back to the block's thread.  A block
 * that failed resumes its waiting sub-cores so they unwind here. */
static void sub_main(void *arg)
{
    sub_core *s = arg;
    for (;;) {
        core_thread *ct = self; /* read after each switch (fiber.c); always the same thread */
        if (setjmp(s->jb) == 0 && !atomic_load(&ct->ctx->aborted)) {
            atomic_store(&ct->in_kernel, IN_KERNEL);
            ct->ctx->r->entry(ct->ctx->r->args);
        }
        leave_kernel(self);
        s->state = SUB_DONE;
        sim_fiber_switch(&s->fib, &self->sched);
    }
}

/* Run sub-core i until it returns or waits. */
static void sub_run(core_thread *ct, int i)
{
    sub_core *s = ct->subs[i];
    ct->cur_sub = i;
    ct->cur = &s->core;
    ct->jbp = &s->jb;
    void *race = sim_race_swap(s->race); /* its own pipes */
    sim_fiber_switch(&ct->sched, &s->fib);
    s->race = sim_race_swap(race);
}

static void run_mix(core_thread *ct, launch_ctx *c, uint32_t b, int naiv)
{
    const sim_kernel_run *r = c->r;
    int n = 1 + naiv;
    for (int i = 0; i < n; i++) {
        sub_core *s = sub_get(ct, i);
        if (!s) {
            fail(c, "out of host memory for a MIX block's sub-core (its arenas and stack)");
            return;
        }
        arc_core *k = &s->core;
        k->block_idx = i == 0 ? b : naiv == 2 ? 2 * (long long)b + (i - 1) : b;
        k->block_num = r->nblocks;
        k->sub_block_idx = i == 0 ? 0 : i - 1;
        k->sub_block_num = i == 0 ? 1 : naiv;
        sim_arenas_enter(&s->ar, k, r->arch);
        k->tiling_key = r->tiling_key;
        k->workspace = NULL;
        k->arch = r->arch->num;
        k->core_type = i == 0;
        k->kernel_name = r->kernel_name;
        memset(k->dev, 0, sizeof k->dev);
        memset(k->l0 + ARC_L0_META_OFF, 0, ARC_L0_META_BYTES);
        void *race = sim_race_swap(s->race); /* the sub-core's pipes start unsynchronised, as a block's */
        sim_race_block_begin(k, r->race_mode, c->seq);
        s->race = sim_race_swap(race);
        sim_race_gm_agent(c->gm, k, b * (uint32_t)n + (uint32_t)i, b, i == 0 ? 0 : naiv == 1 ? 3 : i);
        s->state = SUB_RUN; /* its fiber waits at the top of sub_main's loop */
        memset(s->cnt, 0, sizeof s->cnt);
        memset(s->pend, 0, sizeof s->pend);
    }
    sim_fiber_thread(&ct->sched);
    ct->nsub = n;
    for (;;) {
        int done = 0, ran = 0;
        for (int i = 0; i < n && !atomic_load(&c->aborted); i++) {
            sub_core *s = ct->subs[i];
            if (s->state == SUB_DONE) {
                done++;
                continue;
            }
            if (s->state == SUB_WAIT && s->cnt[s->wait_id] == 0)
                continue;
            sub_run(ct, i);
            ran = 1;
        }
        if (atomic_load(&c->aborted) || done == n)
            break;
        if (!ran) {
            char m[SIM_MSG_MAX];
            size_t o = (size_t)snprintf(m, sizeof m, "%s block %u/%u: CrossCoreWaitFlag: the block's cores wait for "
                                        "flags no core will set (the kernel would hang on the NPU):",
                                        r->kernel_name, b, r->nblocks);
            for (int i = 0; i < n && o < sizeof m; i++) {
                sub_core *s = ct->subs[i];
                const char *who = i == 0 ? "AIC" : naiv == 1 ? "AIV" : i == 1 ? "AIV 0" : "AIV 1";
                const char *at = sim_core_site(&s->core);
                if (s->state == SUB_WAIT)
                    o += (size_t)snprintf(m + o, sizeof m - o, " %s waits in CrossCoreWaitFlag(%d)%s%s;", who,
                                          s->wait_id, at ? " at " : "", at ? at : "");
                else
                    o += (size_t)snprintf(m + o, sizeof m - o, " %s returned;", who);
            }
            fail(c, m);
            break;
        }
    }
    /* A failed block: the sub-cores still waiting (or not started) unwind
     * to the top of their loop, ready for the next block. */
    for (int i = 0; i < n; i++)
        if (ct->subs[i]->state != SUB_DONE)
            sub_run(ct, i);
    ct->cur = &ct->core;
    ct->jbp = &ct->jb;
    ct->nsub = 0;
}

/* Raise sub-core s's counter for id; 15 outstanding sets is the limit. */
static void flag_add(core_thread *ct, sub_core *s, int id)
{
    if (s->cnt[id] >= 15)
        __arc_trap("CrossCoreSetFlag", "flag %d was set 15 times without a CrossCoreWaitFlag: the counter "
                   "overflows (the NPU traps or hangs)", id);
    (void)ct;
    s->cnt[id]++;
}

int __arc_cross_core(int op, int mode, int flag)
{
    core_thread *ct = self;
    if (!ct || !ct->ctx || !ct->nsub)
        return 0; /* not a MIX launch: no cross-core scheduler, the flags order nothing */
    int id = flag & 15, me = ct->cur_sub, naiv = ct->nsub - 1;
    sub_core *s = ct->subs[me];
    if (op == 0) { /* CrossCoreSetFlag<mode> */
        if (mode == 2 && me == 0) {
            for (int i = 1; i <= naiv; i++)
                flag_add(ct, ct->subs[i], id);
        } else if ((mode == 2 || mode == 1) && me > 0) {
            s->pend[id]++;
            int all = 1;
            for (int i = 1; i <= naiv; i++)
                all &= ct->subs[i]->pend[id] > 0;
            if (all) {
                for (int i = 1; i <= naiv; i++)
                    ct->subs[i]->pend[id]--;
                if (mode == 2)
                    flag_add(ct, ct->subs[0], id);
                else
                    for (int i = 1; i <= naiv; i++)
                        flag_add(ct, ct->subs[i], id);
            }
        } else if (mode == 1) {
            __arc_trap("CrossCoreSetFlag", "mode 1 synchronises the AIVs of one AI core; the AIC set flag %d", id);
        } else {
            __arc_trap("CrossCoreSetFlag", "mode %d (flag %d) is not modelled by the simulator: modes 1 (AIV <-> AIV) "
                       "and 2 (AIC <-> AIV) are; mode 0 synchronises every core of a type across blocks", mode, id);
        }
        return 1;
    }
    if (op == 1) { /* CrossCoreWaitFlag */
        int k = sim_core_service_begin();
        while (s->cnt[id] == 0) {
            s->state = SUB_WAIT;
            s->wait_id = id;
            sim_fiber_switch(&s->fib, &ct->sched);
            if (atomic_load(&ct->ctx->aborted))
                longjmp(s->jb, 1);
        }
        s->state = SUB_RUN;
        s->cnt[id]--;
        sim_core_service_end(k);
        return 1;
    }
    /* op 2: this AIC only serves its AIVs' Matmul requests (REGIST_MATMUL_OBJ
     * in a MIX kernel without ASCENDC_CUBE_ONLY): it is done. */
    if (me == 0) {
        sim_core_service_begin();
        longjmp(s->jb, 1);
    }
    return 1;
}

/* ---- fiber mode: the blocks of a SyncAll kernel as fibers ----
 *
 * Every block of a SyncAll launch must be live at once (min(N, cores) of
 * them), but a thread each costs a wake-up and a context switch per block
 * and barrier.  Instead each simulated core is a fiber (fiber.c) with its
 * own stack, arenas, jump buffer, race state and position, and min(N,
 * host CPUs) threads run them: a thread takes a ready fiber from the
 * launch's queue and runs it until it returns from its blocks or waits in
 * SyncAll (it parks); the last block to reach the barrier queues the parked
 * ones again.  `self` is the running fiber core, so traps, faults, the
 * timeout's interrupt and __arc_core() see the block, not the thread.
 *
 * Blocks that wait for each other through GM flags instead spin on their
 * thread; the stall watch (on_stall) sees no fiber park or finish for
 * STALL_NS while fibers wait in the queue and adds threads, up to one per
 * fiber, so every block runs at once as on the NPU (and a real deadlock
 * runs into the launch timeout, reporting every block's position). */

/* A fiber core runs blocks of its launch until none is left, then switches
 * back to its thread; it is resumed again for the next launch. */
static void fiber_main(void *arg)
{
    core_thread *f = arg;
    for (;;) {
        no_flush_to_zero();
        run_blocks(f, f->ctx, f->idx); /* fiber i starts with block i; waves take the rest in turn */
        atomic_store(&f->where, WHERE_IDLE);
        f->handoff = FIB_DONE;
        sim_fiber_switch(&f->fib, &f->host->fib);
    }
}

/* Give the pool n fiber cores (new ones in place of abandoned ones). */
static int fibers_grow(sim_corepool *p, unsigned n, char *msg, size_t msglen)
{
    for (unsigned i = 0; i < n; i++) {
        if (i < p->nfibers && p->fibers[i])
            continue;
        core_thread *f = core_new(p, i);
        if (f && !(f->race = sim_race_state_new())) {
            thread_free(f);
            f = NULL;
        }
        if (f && sim_fiber_init(&f->fib, SIM_CORE_STACK, fiber_main, f)) {
            sim_race_state_free(f->race);
            thread_free(f);
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

static void fibers_free(sim_corepool *p)
{
    for (unsigned i = 0; i < p->nfibers; i++) {
        if (!p->fibers[i]) /* abandoned, not replaced yet */
            continue;
        sim_fiber_destroy(&p->fibers[i]->fib);
        sim_race_state_free(p->fibers[i]->race);
        thread_free(p->fibers[i]);
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
static void unpark_all(launch_ctx *c)
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
    __atomic_store_n(&f->th, pthread_self(), __ATOMIC_RELEASE); /* kick() signals it there */
    const char *site = sim_site();
    __arc_site(f->site);
    void *race = sim_race_swap(f->race);
    self = f;
    sim_fiber_switch(&t->fib, &f->fib);
    self = t;
    f->race = sim_race_swap(race);
    f->site = sim_site();
    __arc_site(site);
    atomic_store(&c->last_exit_ns, sim_now_ns()); /* progress, for the stall watch */
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
static void fiber_sched(core_thread *t, launch_ctx *c)
{
    sim_fiber_thread(&t->fib);
    pthread_mutex_lock(&c->mu);
    for (int spun = 0;;) {
        if (atomic_load(&c->aborted) && c->nparked)
            unpark_all(c);
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
static void fiber_park(core_thread *ct, launch_ctx *c, int k)
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
