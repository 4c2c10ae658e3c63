/* core_internal.h - what the core files (core_*.c) share: a core thread,
 * a MIX block's sub-cores, a launch's context and the pool, and the
 * functions one core file calls in another.  Only core_*.c include it. */
#ifndef ARC_RT_CORE_INTERNAL_H
#define ARC_RT_CORE_INTERNAL_H

#include <setjmp.h>

#include "rt/rt_internal.h"

#define MAX_THREADS 64
#define STALL_NS 20000000ull
#define ABANDON_NS 250000000ull /* a stopped launch's core still in kernel code this long after is abandoned */
#define IN_KERNEL 1
#define ABANDONED 2 /* in_kernel of an abandoned core */

enum { WHERE_IDLE, WHERE_RUNNING, WHERE_SYNCALL, WHERE_NOT_STARTED };

typedef struct core_thread core_thread;

/* One AIC or AIV of a MIX block: its own arenas and flag counters, run as
 * a fiber of the block's thread (see core_run_mix, core_mix.c). */
enum { SUB_RUN, SUB_WAIT, SUB_SYNC, SUB_DONE };
typedef struct sub_core {
    arc_core core;
    sim_arenas ar;     /* its own UB/L1/L0, between guards like a core's */
    sim_fiber fib;     /* its stack, above a guard (fiber.c) */
    jmp_buf jb;
    int state;
    int wait_id;
    uint64_t sync_gen; /* SUB_SYNC: the SyncAll generation it waits to end */
    uint8_t cnt[16];   /* CrossCoreWaitFlag counters */
    uint8_t pend[16];  /* AIV sets of modes 1/2 not yet matched by the other AIV */
    uint32_t x0_sets[16], x0_used[16]; /* its mode-0 sets, and the mode-0 rounds its waits took */
    void *race;        /* its pipe race check state (race.c): each AIC/AIV has its own pipes */
} sub_core;
#define MAX_SUBS 3

typedef struct launch_ctx {
    const sim_kernel_run *r;
    atomic_uint next;       /* next block to claim (core_claim.c) */
    uint32_t run_max;       /* most blocks a thread claims at once (1: one at a time) */
    atomic_int in_order;    /* a stall was seen: threads take the lowest block not started */
    atomic_int aborted;     /* a block trapped */
    pthread_mutex_t mu;
    pthread_cond_t cv;      /* SyncAll waiters */
    pthread_cond_t done_cv; /* the launching thread */
    /* Blocks inside the current SyncAll (changed under mu).  A block
     * returns without the lock when nobody waits (block_exit, core_pool.c),
     * so a waiter counts itself in before it reads how many returned
     * (core_exited) and a returning block counts itself out before it reads
     * waiting and x0_blocked (seq_cst: one of them sees the other). */
    _Atomic uint32_t waiting;
    int hang_told;          /* a SyncAll or mode-0 hang is reported (under mu): reported once */
    uint64_t gen;           /* SyncAll generation */
    /* SyncAll in a MIX kernel (core_syncall.c): the AIC and AIV sub-cores
     * that have returned, and the sub-cores each barrier needs (0: none
     * reached one yet) -- every AIV, or with isAIVOnly false every core. */
    uint32_t mix_done[2];   /* [0] AICs, [1] AIVs */
    uint32_t mix_parts;
    int mix_aiv_only;
    uint32_t threads_done;
    int failed;
    aclError code;
    char msg[SIM_MSG_MAX];
    core_thread *cores[MAX_THREADS]; /* the cores of this launch (an extra one before its thread runs) */
    unsigned ncores;
    unsigned nthreads;      /* threads that will check out (ncores + extras being created) */
    unsigned limit;         /* most threads this launch may get */
    /* Progress for the stall watch (core_on_stall): when fibers last
     * switched or threads were added; block returns it reads from
     * core_exited (seen_exited, seen_ns: the watch's own, under the
     * watchdog's lock). */
    _Atomic uint64_t progress_ns;
    uint32_t seen_exited;
    uint64_t seen_ns;
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
    core_thread *extra[MAX_THREADS]; /* threads core_on_stall added (joined at the end) */
    core_thread *hosts[MAX_THREADS]; /* fiber mode: the threads at the start (cores[] otherwise) */
    unsigned nextra;
    /* Fiber mode (a SyncAll kernel, see core_fibers.c): cores[] are the
     * fiber cores; c->mu guards the queues.  rq_n and nparked are read
     * unlocked by spinners. */
    int fibers;
    unsigned nfibers, fibers_done;
    core_thread *rq[MAX_THREADS];     /* fibers ready to run (FIFO) */
    unsigned rq_head, rq_n;
    core_thread *parked[MAX_THREADS]; /* fibers waiting in SyncAll */
    unsigned nparked;
    sim_race_gm *gm;       /* the GM race check between its cores (NULL: off) */
    /* CrossCoreSetFlag mode 0 (core_mix.c; c->mu), per side (0: the AIVs,
     * 1: the AICs) and flag id: the sets of the round under way and the
     * rounds done (read unlocked); x0_gen counts rounds, x0_blocked the
     * blocks whose cores all wait for the next one to end (on cv). */
    uint32_t x0_sets[2][16], x0_rounds[2][16];
    uint64_t x0_gen;
    _Atomic uint32_t x0_blocked; /* changed under mu; read by block_exit without it (see waiting) */
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
    /* Blocks of its launch it has returned (block_exit; core_exited sums
     * them): one counter per core, so returning blocks share no line. */
    _Atomic uint32_t exits;
    /* Blocks it has claimed and not started: next | end << 32 (core_claim.c). */
    _Atomic uint64_t run;
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

/* The core (or fiber core) this thread runs now; NULL off the cores. */
extern __thread core_thread *core_self;

/* core_pool.c */
pid_t core_tid(void);
_Noreturn void core_park(void);
int core_leave_kernel(core_thread *ct);
void core_no_ftz(void);
void core_fail(launch_ctx *c, const char *msg);
int core_mix_aivs(const sim_kernel_run *r);
void core_run_blocks(core_thread *ct, launch_ctx *c, uint32_t b);
uint32_t core_exited(const launch_ctx *c);
void core_take_blocks(core_thread *ct, launch_ctx *c);
void *core_extra_main(void *arg);
core_thread *core_new(sim_corepool *p, unsigned idx);
void core_free(core_thread *ct);
int core_pool_grow(sim_corepool *p, unsigned n, char *msg, size_t msglen);
/* core_claim.c */
/* Set c's claiming up for its launch (c->fibers, limit, nthreads, cores set). */
void core_claim_init(launch_ctx *c);
/* The next block ct runs; nblocks or more when none is left. */
uint32_t core_claim(core_thread *ct, launch_ctx *c);
/* Blocks of c no thread has started (claimed in a run or not). */
uint32_t core_unstarted(launch_ctx *c);
/* core_launch.c */
aclError core_launch_finish(launch_ctx *c, char *msg, size_t msglen);
/* core_hang.c */
void *core_rescue_main(void *arg);
void core_on_timeout(sim_watch *w);
void core_kick(sim_watch *w);
void core_on_stall(sim_watch *w);
/* core_mix.c */
void core_run_mix(core_thread *ct, launch_ctx *c, uint32_t b, int naiv);
/* core_syncall.c */
void core_mix_sub_done(core_thread *ct, int sub);
/* Whether `waiting` participants of a barrier of `parts` (SyncAll's
 * blocks or sub-cores, a mode-0 round's blocks) can never be joined now
 * that `gone` have returned, and no hang was reported yet: then the
 * caller reports it (c->hang_told is set); c->mu held (core_syncall.c). */
int core_barrier_stuck(launch_ctx *c, uint32_t waiting, uint32_t gone, uint32_t parts);
void core_mix_sync_wait(core_thread *ct, launch_ctx *c);
/* core_fibers.c */
void core_fiber_sched(core_thread *t, launch_ctx *c);
void core_fiber_park(core_thread *ct, launch_ctx *c, int k);
void core_unpark_all(launch_ctx *c);
int core_fibers_grow(sim_corepool *p, unsigned n, char *msg, size_t msglen);
void core_fibers_free(sim_corepool *p);

#endif
