/* rt_internal.h - internal structures and prototypes of the simulated NPU
 * runtime (libascendcl.so).  Everything here is hidden (the library is
 * built with -fvisibility=hidden); only the aclrt* / acl* entry points of
 * the public headers are exported.
 *
 * Object model: every handle the API hands out (stream, event, binary,
 * function, args) points to a struct whose first field is a per-kind magic,
 * and is also recorded in a registry (handle.c), so a freed or foreign
 * pointer is rejected with ACL_ERROR_RT_INVALID_HANDLE before it is ever
 * dereferenced. */
#ifndef SIM_RT_INTERNAL_H_
#define SIM_RT_INTERNAL_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
/* Fibers switch with ucontext where fiber.c has no register switch (or when asked to, to test it). */
#if !defined(__x86_64__) || defined(ARC_FIBER_UCONTEXT)
#define SIM_FIBER_UCONTEXT 1
#include <ucontext.h>
#endif

#include "acl/acl.h"
#include "arc/core_abi.h"
#include "arc/simt_abi.h"
#include "common/exports.h"
#include "common/meta.h"
#include "rt/loader/orc_loader.h"

#define SIM_MSG_MAX 2048

/* ---- error.c: the thread-local text behind aclGetRecentErrMsg ---- */

/* Record "<api>: <message>" for this thread and return code. */
aclError sim_err(aclError code, const char *api, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Record msg verbatim (already formatted) and return code. */
aclError sim_err_raw(aclError code, const char *msg);

/* ---- handle.c: registry of live handles ---- */
enum sim_kind { SIM_K_STREAM = 1, SIM_K_EVENT, SIM_K_BIN, SIM_K_FUNC, SIM_K_ARGS, SIM_K_CONTEXT };
#define SIM_MAGIC_STREAM 0x5354524du /* "STRM" */
#define SIM_MAGIC_EVENT 0x45564e54u  /* "EVNT" */
#define SIM_MAGIC_BIN 0x42494e41u    /* "BINA" */
#define SIM_MAGIC_FUNC 0x46554e43u   /* "FUNC" */
#define SIM_MAGIC_ARGS 0x41524753u   /* "ARGS" */
#define SIM_MAGIC_CONTEXT 0x43545854u /* "CTXT" */

void sim_handle_add(const void *p, int kind);
void sim_handle_del(const void *p);
/* 1 when p is a live handle of `kind` whose first word is `magic`. */
int sim_handle_ok(const void *p, int kind, uint32_t magic);

/* ---- device.c ---- */
/* ACL_SUCCESS for the one simulated device (id 0), else
 * ACL_ERROR_RT_INVALID_DEVICEID with a message naming api. */
aclError sim_check_device(int64_t id, const char *api);

/* ---- init.c ---- */
/* Implicit initialisation for every runtime entry point; fails (with a
 * message naming api) only in a child process after fork(). */
aclError sim_rt_enter(const char *api);

/* ---- soc.c: the simulated SoCs (common/socs.h's rows) ---- */
typedef struct sim_arch {
    const char *arch;        /* --npu-arch value, "dav-2201" */
    const char *soc;         /* aclrtGetSocName(), "Ascend910B1" */
    unsigned num;            /* 2201 */
    unsigned cube_cores;     /* AIC count */
    unsigned vector_cores;   /* AIV count */
    unsigned aicpu_cores;
    unsigned mhz;            /* the AI cores' clock */
    size_t ub_size, l1_size; /* per core */
    size_t l0a_size, l0b_size, l0c_size;
    int64_t hbm_bytes, l2_bytes;
    int64_t ubuf_attr;       /* ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE (0 = unsupported) */
    int64_t warp_size, max_threads_per_vector_core; /* SIMT (3510 only) */
} sim_arch;

/* The SoC named `arch`: an --npu-arch ("dav-2201", as its arch's SoC of
 * common/socs.h) or a SoC ("Ascend910B4"); NULL for neither. */
const sim_arch *sim_arch_find(const char *arch);
/* The SoC the simulated device reports (ASCENDRTC_SIM_SOC or Ascend910B1). */
const sim_arch *sim_arch_device(void);
/* "dav-2201, dav-3510" for messages. */
const char *sim_arch_names(void);
/* The largest value over all SoCs of the size_t member at offset `field`
 * (offsetof(sim_arch, ub_size)): core arenas are sized once. */
size_t sim_arch_max(size_t field);
#define SIM_ARCH_MAX(member) sim_arch_max(offsetof(sim_arch, member))

/* ---- arena.c: a core's local memories between guards ---- */
typedef struct sim_arenas {
    unsigned char *ub_end, *l1_end; /* ends of the UB/L1 arenas (sized for the largest arch) */
    unsigned char *l0;              /* the cube buffers' slots (core_abi.h ARC_L0_*) */
    const sim_arch *arch;           /* the arch whose sizes the guards are set for */
} sim_arenas;
/* Map a core's arenas; 0, or -1 when out of memory or mappings. */
int sim_arenas_new(sim_arenas *a);
void sim_arenas_free(sim_arenas *a);
/* Fit the guards to arch's real sizes and point k's ub/l1/l0 (and their
 * sizes) at the windows. */
void sim_arenas_enter(sim_arenas *a, arc_core *k, const sim_arch *arch);
/* 1 under ASCENDRTC_POISON=1: each block's UB starts as 0xFF bytes (a NaN
 * in every float type), so what a kernel copies out of UB it never wrote
 * is seen by check_written instead of reading as the zeros of a fresh
 * arena.  On the NPU UB holds whatever the last kernel left there. */
int sim_poison_ub(void);
/* Fill k's UB with the poison bytes (sim_poison_ub). */
void sim_arenas_poison(arc_core *k);
/* memset(p, 0, n) for what each block zeroes (a call: see arena.c). */
void sim_zero(void *p, size_t n);
/* Describes address a when it lies in a guard of k's arenas ("N bytes past
 * the end of this core's L0A buffer of 64 KiB (Ascend910B1)"): 1, else 0.
 * No locks (fault.c calls it from a signal handler). */
int sim_arenas_describe(const arc_core *k, const sim_arch *arch, uintptr_t a, char *buf, size_t n);

/* ---- mem.c ---- */
typedef struct sim_alloc {
    uintptr_t base;
    size_t size;   /* bytes the caller asked for */
    size_t span;   /* bytes reserved (rounded up) */
    int device;    /* 1 = aclrtMalloc, 0 = aclrtMallocHost */
    uintptr_t map; /* mmap'd region (with the guard page), 0 = malloc'd */
    size_t maplen;
} sim_alloc;
/* The allocation containing p stays mapped when freed (an abandoned core,
 * core_hang.c, may still use it); up to 256 such allocations. */
void sim_mem_keep(const void *p);
/* Find the live allocation containing p (within its span); 1 when found. */
int sim_mem_find(const void *p, sim_alloc *out);
/* 1 when p lay in a recently freed device allocation (*out: it). */
int sim_mem_was_freed(const void *p, sim_alloc *out);
/* 1 when p lies in the guard below the device allocation *out, 2 when in
 * the guard (or canary bytes) after it, else 0. */
int sim_mem_guard_hit(const void *p, sim_alloc *out);
/* ACL_SUCCESS, or ACL_ERROR_RT_AICORE_EXCEPTION with msg when a raw store
 * overwrote the canary between the end of the allocation holding p and
 * its guard page (the canary is restored). */
aclError sim_mem_check_canary(const void *p, char *msg, size_t msglen);

/* ---- clock.c ---- */
/* The device API's clock() (utils/debug/asc_time.h, SIMT's too): cycles of
 * the simulated device's clock since the runtime started, from the host's
 * monotonic time (the simulated core has no cycle counter of its own). */
long sim_kernel_clock(void);

/* ---- elf_check.c ---- */
/* 0 when the ELF object's tables (sections, symbols, relocations) stay
 * inside it; else -1 with the reason in err. */
int sim_elf_check(const void *data, size_t len, char *err, size_t n);
/* rdc.c: when data is a registered -dc device binary of the program, link
 * img against the program's other ones (loaded once); 0, or -1 with err. */
int sim_rdc_link(const void *data, sim_orc_image *img, const sim_orc_symbol *syms, char *err, size_t errlen);

/* ---- fault.c: GM checks, fault signals, the launch watchdog ---- */
/* 0 when ASCENDRTC_GM_CHECKS=0 turned GM checks and guard pages off. */
int sim_gm_checks(void);

/* ---- core_*.c: the simulated AI cores ---- */
typedef struct sim_corepool sim_corepool;
typedef void (*sim_entry_fn)(const unsigned char *args);

typedef struct sim_kernel_run {
    sim_entry_fn entry;
    const unsigned char *args;
    size_t args_size;            /* bytes at args (parameters + placeholder data) */
    const arc_kernel_meta *km;   /* parameter names and kinds, for messages */
    uint64_t timeout_ns;         /* 0 = none */
    const char *kernel_name;
    const sim_arch *arch;
    uint32_t nblocks;
    uint32_t max_concurrent; /* cores of the kind this kernel runs on */
    uint32_t core_type;      /* 0 AIV, 1 AIC */
    uint64_t tiling_key;     /* what TILING_KEY_IS() compares against */
    uint32_t threads;        /* core threads to use, <= max_concurrent */
    uint32_t fibers;         /* 1: blocks may wait in SyncAll, run them as fibers (core_fibers.c) */
    int race_mode;           /* ARC_RACE_OFF/WARN/ERROR (race.c) */
    int poison_ub;           /* sim_poison_ub() when queued: blocks start with a poisoned UB */
    struct sim_cost_launch *cost; /* the cost model's record when profiled (cost.c), else NULL */
    uint64_t seq;            /* the launch task's number on its stream (sim_corepool_cancel); 0: none */
    /* When the launching thread is stuck in kernel code and abandoned, a new
     * thread finishes the launch and calls this with its result instead of
     * sim_cores_run returning (core_hang.c, "Abandoned cores"). */
    void (*orphaned)(void *arg, aclError code, const char *msg);
    void *orphan_arg;
    struct sim_module *bin;     /* kept loaded when a core is abandoned in its code */
    const arc_simt_dims *simt; /* a SIMT kernel's grid and block (simt.c), else NULL */
    unsigned long long gm[ARC_GM_PARAMS][2]; /* its pointer parameters' GM bounds (gm_bounds.c) */
} sim_kernel_run;

/* Stack of core threads and stream workers: kernels may keep large
 * arrays on the stack. */
#define SIM_CORE_STACK (16u << 20)

sim_corepool *sim_corepool_new(void);
void sim_corepool_free(sim_corepool *p);
/* Run every block of r to completion on p's threads.  Returns 0, or the
 * failure's code (ACL_ERROR_RT_AICORE_EXCEPTION for a trap or fault,
 * ACL_ERROR_RT_AICORE_TIMEOUT past r->timeout_ns) with its message in msg. */
aclError sim_cores_run(sim_corepool *p, const sim_kernel_run *r, char *msg, size_t msglen);
/* Cancel p's launches whose seq is at most upto, as a timeout would end
 * them: the running one at once (its cores are interrupted), later ones
 * before they start; both fail with a message saying so. */
void sim_corepool_cancel(sim_corepool *p, uint64_t upto);

/* For runtime services and signal handlers on core threads. */
/* The launch this thread runs a block of (NULL when none). */
const sim_kernel_run *sim_core_launch(void);
/* The same, and into *k the core running (__arc_core()), in one look-up. */
const sim_kernel_run *sim_core_launch_on(arc_core **k);
/* Leave "kernel code" state for a service that takes locks (a signal
 * must not longjmp out of it); returns the state for sim_core_service_end. */
int sim_core_service_begin(void);
/* Describes address a when it lies in a guard of the calling core's (or
 * MIX sub-core's) UB, L1 or cube buffers ("N bytes past the end of this
 * core's unified buffer ...", sim_arenas_describe): 1, else 0.  Async-signal-safe enough for fault.c (no locks). */
int sim_core_describe_local(uintptr_t a, char *buf, size_t n);
void sim_core_service_end(int state);
/* From a signal handler: when this thread is in kernel code of a block,
 * fail the launch with "<kernel> block i/n: <api>: <body>" (body NULL:
 * an interrupt after a timeout, which already recorded the failure) and
 * longjmp out of the block.  Returns 0 (does nothing) otherwise. */
int sim_core_signal_abort(const char *api, const char *body);

/* ---- fiber.c: stackful fibers (the blocks of SyncAll kernels) ---- */
typedef struct sim_fiber {
    void *sp;                /* saved stack pointer (x86-64) */
#ifdef SIM_FIBER_UCONTEXT
    ucontext_t uc;
#endif
    void *map;               /* the stack's mapping, with a guard below (NULL: a thread's own stack) */
    void *stack_lo;
    size_t stack_size;
    void *tsan;              /* ThreadSanitizer's fiber */
    void (*fn)(void *arg);
    void *arg;
} sim_fiber;
/* A fiber that will run fn(arg) (which must never return) on a stack of
 * `stack` bytes; 0, or -1 when out of memory. */
int sim_fiber_init(sim_fiber *f, size_t stack, void (*fn)(void *arg), void *arg);
void sim_fiber_destroy(sim_fiber *f);
/* f describes the calling thread's own context, to switch away from and back to. */
void sim_fiber_thread(sim_fiber *f);
/* Save the running context in from and continue to; returns when some
 * thread switches back to from. */
void sim_fiber_switch(sim_fiber *from, sim_fiber *to);

/* ---- site.c ---- */
/* "file:line" of the kernel code making the current service call, or NULL. */
const char *sim_site(void);
/* __arc_site(where) for the core k this thread runs (one look-up fewer). */
void sim_site_mark(arc_core *k, const char *where);
/* The last marked device-API call core k passed in its block, or NULL;
 * readable from other threads (a hang report). */
const char *sim_core_site(const arc_core *k);

/* ---- race.c ---- */
/* Reset this thread's race detector for a block of launch number `seq` in `mode`. */
void sim_race_block_begin(arc_core *k, int mode, uint64_t seq);
/* The mode of launches that do not set one: $ASCENDRTC_RACE_CHECK
 * (error, the default; warn; off).  -1 when the variable holds anything else. */
int sim_race_default_mode(int *mode);
/* A kernel's own load (write 0) or store (1) through a pointer into UB, as
 * the scalar unit's access at kernel source line `site`: checked against
 * the other pipes (race_raw.c). */
void sim_race_scalar(const void *p, unsigned long long bytes, int write, const char *api, const char *site);
/* A GM access (op ARC_GM_READ/WRITE/ATOMIC) of a device-API call on
 * pipe_t `pipe`, checked against this core's other pipes (race.c); the
 * bytes a store is about to write, for the next such call, when known
 * (sim_race_gm_data: a store that leaves GM as it is races with nothing). */
void sim_race_gm_local(int op, int pipe, const void *p, unsigned long long bytes, const char *api);
void sim_race_gm_data(const void *src);
/* A fiber's own detector state (core_fibers.c, core_mix.c): new, swapped in for the calling
 * thread's (returns the one it replaces), freed. */
/* race_report.c: a report now (an error traps; warnings are rate-limited
 * per block and launch), or held for a whole-register load until its
 * racing lanes, from byte `from`, are used (a predicate reaching `end`). */
void sim_race_emit(const char *body, int mode, uint64_t launch, unsigned *warned);
int sim_race_hold(uint32_t from, const char *body);
void sim_race_held_use(uint32_t end, const char *api, int mode, uint64_t launch, unsigned *warned);
void sim_race_held_drop(void);
void *sim_race_state_new(void);
void *sim_race_swap(void *state);
void sim_race_state_free(void *state);

/* ---- cost.c, cost_rates.c: the estimated NPU time (docs/performance_model.md) ---- */
typedef struct sim_cost_soc {
    const char *name;
    unsigned aic, aiv; /* cube and vector cores */
    double mhz;        /* clock */
    double gm_Bps;     /* HBM bandwidth shared by all cores and pipes, bytes/s */
    double l2_Bps;     /* L2 bandwidth (hits), bytes/s */
    double l2_bytes;   /* L2 capacity */
} sim_cost_soc;
typedef struct sim_cost_launch sim_cost_launch;
enum { SIM_COST_GM_UB, SIM_COST_UB_GM, SIM_COST_GM_L1, SIM_COST_GM_L0, SIM_COST_L0C_GM };
/* The cost row named `name` ("Ascend910B4"), or NULL; all of them (*n). */
const sim_cost_soc *sim_cost_soc_find(const char *name);
const sim_cost_soc *sim_cost_soc_names(size_t *n);
/* Vector cycles per 256-byte repeat of `api` on esize-byte elements;
 * *assumed = 1 when no rate is published for it. */
double sim_cost_vec_cpr(const char *api, unsigned esize, int *assumed);
/* Seconds one DMA instruction moving `bytes` on path SIM_COST_* takes on
 * one core by itself (the chip's GM budget is cost_gm.c's). */
double sim_cost_dma_seconds(int path, double bytes);
/* Nonzero while a profiling session records launches (launches check it
 * as they are queued). */
int sim_cost_session_on(void);
/* A record for one launch of `kernel` (NULL when not profiling or out of
 * memory); sim_cost_launch_end prices it, appends it to the session and
 * frees it (code != 0: the launch failed, nothing is appended). */
sim_cost_launch *sim_cost_launch_new(const sim_arch *arch, const char *kernel, uint32_t nblocks, uint32_t cores,
                                     uint32_t core_type);
void sim_cost_launch_end(sim_cost_launch *c, aclError code);
/* A block of r starts on core k: bind k to its record (core_pool.c, core_mix.c). */
void sim_cost_block_begin(arc_core *k, const sim_kernel_run *r);
/* The launch runs MIX blocks (an AIC and its AIVs each), which the model
 * does not price: the report says so (core_pool.c). */
void sim_cost_mark_mix(sim_cost_launch *c);
/* A SIMT launch: the model has no SIMT costs, so its blocks are not priced
 * and the report says so (acl/launch.c; core_pool.c leaves its blocks
 * out). */
void sim_cost_mark_simt(sim_cost_launch *c);
/* Sub-core i (0 the AIC, 1.. the AIVs) of MIX block b starts on core k
 * (core_mix.c); a cross-core flag id set by core `from` for core `to`, and
 * waited for by core k (cost_mix.c). */
void sim_cost_sub_begin(arc_core *k, const sim_kernel_run *r, uint32_t b, int i);
void sim_cost_xset(arc_core *from, arc_core *to, int id);
void sim_cost_xwait(arc_core *k, int id);
/* The race hooks' inputs, priced (race.c calls these first). */
void sim_cost_access(int pipe, int write, const void *p, unsigned long long bytes, const char *api);
void sim_cost_sync(int kind, int src, int dst, unsigned long long key);
/* A GM access (op ARC_GM_*) of a device-API call or the kernel's own code
 * on pipe_t `pipe`, priced against the chip's GM budget (cost_gm.c). */
void sim_cost_gm(int op, int pipe, const void *p, unsigned long long bytes);
/* A load or store through a pointer: priced as the scalar unit's when p
 * lies in a device allocation. */
void sim_cost_gm_raw(const void *p, unsigned long long bytes, int write);

/* ---- race_gm.c: GM races between the cores of a launch ---- */
/* (fault.c) " (kernel parameter 2 'z')" when a pointer parameter of r
 * points into the allocation at base, else "". */
void sim_gm_param(const sim_kernel_run *r, uintptr_t base, char *buf, size_t n);
typedef struct sim_race_gm sim_race_gm;
/* The check of a launch of nagents cores (blocks, or MIX sub-cores) in
 * mode; NULL when off (or one core, or no memory). */
sim_race_gm *sim_race_gm_new(uint32_t nagents, int mode);
/* Core k runs agent `agent` (block `block`, MIX sub-core `sub` or -1). */
void sim_race_gm_agent(sim_race_gm *g, arc_core *k, uint32_t agent, long long block, int sub);
/* ASCENDRTC_RACE_RECORDS: the records the check keeps per launch (unset:
 * 4,194,304); -1 when it is not a count from 1 to 2^30. */
int sim_race_gm_budget(size_t *records);
/* A kernel's own load or store through a pointer, logged as a PIPE_S GM
 * access when p is in a device allocation (race_raw.c). */
void sim_race_gm_scalar(arc_core *k, const void *p, unsigned long long bytes, int write, const char *api,
                        const char *site);
/* cnt pieces of pw bytes, step apart, from p: one record when they lie in
 * one device allocation, else piece by piece as sim_race_gm_scalar's. */
void sim_race_gm_pattern(const void *p, unsigned long long pw, unsigned long long step, unsigned long long cnt,
                         int write, const char *site);
/* A loop's raw accesses from one line, cnt pieces of pw bytes step apart
 * (race_stream.c), as __arc_race_raw would take them piece by piece. */
void sim_race_raw_pattern(const void *p, unsigned long long pw, unsigned long long step, unsigned long long cnt,
                          int write, const char *site);
/* After every core of the launch returned: look for races (not when the
 * launch failed), report the first (warn: on stderr), free g.  1 with the
 * launch's error in msg when the launch fails for it. */
int sim_race_gm_finish(sim_race_gm *g, const sim_kernel_run *r, int failed, char *msg, size_t n);

/* ---- spin.c ---- */
/* With mu held, before a caller blocks on a condition variable: let mu go,
 * poll ready(arg) for up to ASCENDRTC_SPIN_US (default 50 us), take mu
 * again; returns 1 when ready() held, else 0.  ready() reads shared state
 * with atomics only (it runs without mu). */
int sim_spin_until(pthread_mutex_t *mu, int (*ready)(const void *arg), const void *arg);
/* With mu held: let it go, spin until *counter >= target (a counter
 * written with atomic stores under mu) or the spin ends, take mu again. */
void sim_spin_counter(pthread_mutex_t *mu, const uint64_t *counter, uint64_t target);
/* Online host CPUs: threads beyond them should block, not spin. */
unsigned sim_spin_cpus(void);

/* ---- watchdog.c: deadlines for launches ---- */
typedef struct sim_watch sim_watch;
struct sim_watch {
    sim_watch *next;
    uint64_t deadline;             /* CLOCK_MONOTONIC ns */
    uint64_t next_kick;
    int fired;
    void (*fire)(sim_watch *w);    /* once, at the deadline */
    void (*kick)(sim_watch *w);    /* every 10 ms after firing, until removed */
    void *arg;
};
/* Watch w until sim_watch_del; fire/kick run on the watchdog thread. */
void sim_watch_add(sim_watch *w);
/* Stop watching w; no callback runs on it once this returns. */
void sim_watch_del(sim_watch *w);
/* Move w's deadline to now (a cancel); nothing when it fired already. */
void sim_watch_expire(sim_watch *w);
uint64_t sim_now_ns(void);
/* ASCENDRTC_LAUNCH_TIMEOUT (seconds, fractions allowed) in ns; 0 = none. */
uint64_t sim_default_launch_timeout_ns(void);
/* Install the fault handlers (SIGSEGV/SIGBUS/SIGFPE/SIGILL) and the
 * interrupt signal, unless already ours; chains to earlier handlers. */
void sim_fault_install(void);
/* The signal the watchdog sends to a core spinning in kernel code. */
int sim_interrupt_signal(void);

/* ---- stream.c ---- */
typedef struct sim_stream sim_stream;
typedef struct sim_task sim_task;
struct sim_task {
    sim_task *next;
    void (*run)(sim_task *t, sim_stream *s);  /* on the stream's worker */
    void (*release)(sim_task *t);             /* frees t (after run) */
    uint64_t seq;                             /* set by sim_stream_push */
};

/* stream NULL -> the default stream; else validate the handle. */
aclError sim_stream_resolve(aclrtStream stream, const char *api, sim_stream **out);
/* Queue t (FIFO); returns its sequence number via t->seq. */
aclError sim_stream_push(sim_stream *s, sim_task *t, const char *api);
/* Block until task `seq` of s has run (no error reporting). */
void sim_stream_wait_seq(sim_stream *s, uint64_t seq);
/* Record a failure of a task; reported at the next synchronize. */
void sim_stream_fail(sim_stream *s, aclError code, const char *msg);
/* Wait (timeout_ms < 0: forever) for everything queued so far, then report
 * and clear any recorded failure. */
aclError sim_stream_sync(sim_stream *s, int64_t timeout_ms, const char *api);
/* Report and clear a recorded failure without waiting. */
aclError sim_stream_take_error(sim_stream *s, const char *api);
/* Called on a new thread when s's worker was abandoned stuck in task t
 * (a launch, see sim_kernel_run.orphaned): marks t done without releasing
 * it and serves s from then on; returns when s is destroyed. */
void sim_stream_takeover(sim_stream *s, sim_task *t);
/* Synchronize every stream (aclrtSynchronizeDevice). */
aclError sim_stream_sync_all(const char *api);
/* Ctrl-C during a wait that is not a stream's (an event's): cancel the
 * launches queued so far on every stream, wait until they have stopped and
 * drop the failures they recorded, as an interrupted device synchronize. */
void sim_stream_interrupt_all(const char *api);
sim_corepool *sim_stream_pool(sim_stream *s);
/* 1 while s is the default stream or a live created stream. */
int sim_stream_alive(const sim_stream *s);

/* ---- event.c ---- */
typedef struct sim_event sim_event;

/* ---- module.c ---- */
typedef struct sim_module sim_module;
typedef struct sim_func {
    uint32_t magic;
    sim_module *bin;
    const arc_kernel_meta *km;
    sim_entry_fn entry;
    const sim_arch *arch;
    uint32_t core_type;      /* 0 AIV, 1 AIC */
    uint32_t max_concurrent; /* blocks that can run at once */
    uint32_t threads;        /* core threads a launch uses (see place()) */
    uint32_t fibers;         /* its blocks run as fibers (it may call SyncAll) */
} sim_func;

aclError sim_func_resolve(aclrtFuncHandle f, const char *api, sim_func **out);
/* AIVs per block of a MIX kernel type (KERNEL_TYPE_MIX_AIC_1_1 / 1_2), else 0. */
static inline int sim_ktype_aivs(uint32_t ktype)
{
    return ktype == 5 ? 2 : ktype == 4 ? 1 : 0;
}
/* "KERNEL_TYPE_MIX_AIC_1_2, inferred from its use of the Matmul API": a
 * kernel's type and where it came from, for messages (module.c). */
const char *sim_ktype_describe(const arc_kernel_meta *km, char *buf, size_t n);
/* sim_rt_enter(api) then sim_func_resolve: the prologue of every entry
 * point that takes a function handle. */
aclError sim_func_enter(aclrtFuncHandle f, const char *api, sim_func **out);
/* Keep the binary's code alive while a launch is queued or running. */
void sim_module_hold(sim_module *b);
void sim_module_release(sim_module *b);
/* Abandoned cores (core_hang.c) may run b's code for ever: never free it
 * (aclrtBinaryUnLoad then returns without waiting for its launches). */
void sim_module_keep(sim_module *b);

/* ---- args.c ---- */
#define SIM_MAX_PARAMS 128
#define SIM_ARGS_BUF 65536

typedef struct sim_param_slot {
    uint32_t off, size;     /* where Append put it in buf */
    uint32_t placeholder;   /* 1 = AppendPlaceHolder */
    uint32_t ph_off, ph_size; /* its data in buf (after GetPlaceHolderBuffer) */
} sim_param_slot;

typedef struct sim_args {
    uint32_t magic;
    uint32_t owned;          /* 1 = thread-local handle of aclrtKernelArgsInit */
    sim_func *func;
    unsigned char *buf;      /* argument bytes */
    size_t cap;
    size_t used;             /* end of the parameter area */
    size_t ph_used;          /* end of placeholder data (0 = none yet) */
    uint32_t nparams;
    uint32_t finalized;
    sim_param_slot params[SIM_MAX_PARAMS];
} sim_args;

aclError sim_args_resolve(aclrtArgsHandle h, const char *api, sim_args **out);

/* ---- cores/simt.c, cores/simt_vf.c ---- */
/* Runs block b's threads from their stop points until all returned (1),
 * or, may_wait, until every live one spins (0: a VF waiting). */
int sim_simt_drive(const arc_simt_desc *d, arc_simt_block_ctx *b, const unsigned char *args, int may_wait);
/* The GM bounds of r's pointer parameters (gm_bounds.c); r->km NULL: all
 * unchecked. */
void sim_gm_bounds(const sim_kernel_run *r, unsigned long long gm[ARC_GM_PARAMS][2]);
/* "thread (x,y,z) of block (x,y,z)" for thread t of block b */
void sim_simt_thread_name(const arc_simt_block_ctx *b, unsigned t, char *buf, size_t n);
/* The shared-UB race check of a pure SIMT block (analysis/race_simt.c):
 * its shadow and first epoch (ub_bytes: the core's UB), a barrier's new
 * epoch. */
void sim_simt_ub_begin(arc_simt_block_ctx *b, const arc_simt_desc *d, unsigned long long ub_bytes);
void sim_simt_ub_barrier(arc_simt_block_ctx *b);
/* Stamps the last run's affine accesses (__arc_simt_ub_affine) into the
 * shadow, as its checked run would have, before anything else of the epoch. */
void sim_simt_ub_settle(arc_simt_block_ctx *b);
/* The thread's frame buffer, now the caller's (a VF going in flight). */
unsigned char *sim_simt_take_frames(void);
/* Whether this core is running a hybrid kernel's SIMT VF (asc_vf_call),
 * and its shape (NULL: none); reset at each block start (a trap may
 * leave a VF without returning). */
int sim_simt_in_vf(void);
const arc_simt_dims *sim_simt_vf_dims(void);
void sim_simt_vf_reset(void);
/* A VF whose threads all wait on the SIMD side stays in flight
 * (simt_vf.c): suspend keeps it; finish runs this core's to its end (the
 * kernel's end, the next VF); sync does so for a wait on PIPE_V. */
void sim_simt_vf_suspend(const arc_simt_desc *d, const arc_simt_block_ctx *b, const unsigned char *args);
void sim_simt_vf_finish(void);
void sim_simt_vf_sync(int kind, int src_pipe);

/* ---- launch.c ---- */
/* The <<<...>>> site (launch_site.c) of the launches this thread queues
 * until the next call, file NULL for none: a kernel launched there that
 * fails as it runs is reported on stderr at once, naming the site. */
void sim_launch_site(const char *file, unsigned line);

/* ---- simt_launch.c ---- */
/* A SIMT kernel's launch shape (grid, block, dynamic UB) against its
 * metadata and the arch; fills d's grid when SIMT_GRID was not given. */
aclError sim_simt_check_launch(const char *api, const sim_func *f, uint32_t numBlocks, int has_block, int has_grid,
                               arc_simt_dims *d);

/* ---- fp16.c: half/bf16 conversion builtins for loaded kernels ---- */
float sim_extendhfsf2(_Float16 h);
_Float16 sim_truncsfhf2(float f);
_Float16 sim_truncdfhf2(double d);
double sim_extendhfdf2(_Float16 h);
_Float16 sim_truncsfbf2(float f);   /* bf16 bits returned in a half register */
_Float16 sim_truncdfbf2(double d);
float sim_extendbfsf2(_Float16 b);

/* ---- small helpers ---- */
static inline size_t sim_align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

#endif /* SIM_RT_INTERNAL_H_ */
