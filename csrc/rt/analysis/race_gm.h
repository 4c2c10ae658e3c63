/* race_gm.h - the GM race check between cores (race_gm.c logs, race_gm_sweep.c
 * sweeps the logs at the end of the launch): its records and agents. */
#ifndef ARC_RT_RACE_GM_H_
#define ARC_RT_RACE_GM_H_

#include <pthread.h>

#include "rt/rt_internal.h"

#define NBUCKET 256

typedef struct gm_rec {
    uintptr_t lo, hi;
    const char *api, *site;
    const uint32_t *snap; /* the agent's clock when it made the access (NULL: knows nobody) */
    uint32_t phase, seg, agent;
    /* where other agents can see it from: phase/seg, except for a scalar
     * write, which sits in the core's data cache until a DCCI (NOT_YET) */
    uint32_t vphase, vseg;
    uint8_t kind, pipe;
    uint8_t fill_size;   /* ARC_GM_FILL: the element size of the value */
    uint8_t summed;      /* ARC_GM_WRITE: sum is the content sum of all of [lo, hi) */
    uint64_t fill;       /* ARC_GM_FILL: the value's bytes */
    uint64_t sum;        /* summed: __arc_gm_mix over the elements written */
    /* step != 0: the bytes are pieces of pw bytes, step apart, from lo to hi
     * (a loop's accesses, rt/analysis/race_stream.c); else all of [lo, hi) */
    uintptr_t pw, step;
} gm_rec;
#define NOT_YET UINT32_MAX

typedef struct snap_blk {
    struct snap_blk *next;
    uint32_t vc[];
} snap_blk;

typedef struct gm_agent {
    sim_race_gm *g;
    unsigned long long serial; /* the launch it ran in (g->serial): else its fields are an earlier launch's */
    uint32_t id;
    long long block;
    int sub; /* -1 plain block, 0 AIC, 1/2 AIV of a MIX block */
    uint32_t phase, seg;
    uint32_t *vc; /* what it knows of other agents' segments (NULL: nothing) */
    int dirty;    /* vc changed since snap was taken */
    const uint32_t *snap;
    snap_blk *snaps;
    gm_rec *r; /* its records, in the launch's chunks (race_gm_arena.c) */
    size_t n, cap;
    uintptr_t gm_lo, gm_hi; /* the device allocation a raw pointer last hit (sim_race_gm_scalar) */
    uintptr_t not_gm_page;  /* the last page it found outside every device allocation */
    size_t dcci_from;       /* records before it hold no scalar write still in the data cache */
    /* The record the last write went into (index + 1; 0: none) and whether a
     * content sum for that write (__arc_race_gm_sum) keeps it summed: it was
     * new, or summed and joined at one end without overlap. */
    size_t last;
    uintptr_t last_lo, last_hi;
    int last_ok;
} gm_agent;

typedef struct sync_obj {
    struct sync_obj *next;
    int kind;
    uint64_t key;
    uint32_t vc[];
} sync_obj;

struct sim_race_gm {
    int mode;
    uint32_t n, na; /* agents in this launch, agents allocated */
    gm_agent *a;
    /* this launch's, unique in the process (race_gm.c's allocation cache):
     * read by every block, so not in nrec's cache line, which they bump */
    unsigned long long serial;
    pthread_mutex_t mu;
    sync_obj *bucket[NBUCKET];
    /* the records' memory (race_gm_arena.c), handed out under mu */
    struct rec_chunk *chunks, *spare_chunks; /* this launch's; kept from earlier ones */
    size_t taken, budget;                    /* records handed out; how many may be */
    _Atomic int over;                        /* the budget ran out: later accesses went unchecked */
    unsigned nobj; /* sync objects in bucket (most launches have none) */
    int inexact; /* an ordering the check could not see (IBWait before its IBSet) */
    _Atomic int clocks; /* some agent allocated a vector clock or snapshots: freed at the end */
#define SWEEP_BUFS 5
    void *sweep_buf[SWEEP_BUFS]; /* the sweep's arrays (race_gm_sweep.c), kept for the next launch */
    size_t sweep_cap[SWEEP_BUFS];
};

/* Room for one more record of a (its array is full): NULL past the
 * launch's budget or memory (race_gm_arena.c). */
gm_rec *sim_race_gm_grow(gm_agent *a);
/* At the end of a launch: its chunks kept for the next (up to a limit) or
 * freed; all = 1: every chunk freed. */
void sim_race_gm_arena_end(sim_race_gm *g, int all);

/* At the end of a launch: the sweep's arrays freed (all = 1) or kept up to a limit. */
void sim_race_gm_sweep_end(sim_race_gm *g, int all);

/* The sweep (race_gm_sweep.c): the first race among the agents' records,
 * reported into msg (error mode) or on stderr; 1 when it fails the launch. */
int sim_race_gm_sweep(sim_race_gm *g, const sim_kernel_run *r, char *msg, size_t n);

#endif /* ARC_RT_RACE_GM_H_ */
