/* race_state.h - what the pipe race check (race.c) keeps per core thread:
 * the pipes' vector clocks, the flags and queues that order them, the
 * open instruction, the shadows of UB, L1, L0 and GM, a ring of recent
 * accesses for reports, and the whole-register loads of the running VF. */
#ifndef ARC_RT_RACE_STATE_H_
#define ARC_RT_RACE_STATE_H_

#include <stdint.h>

#include "rt/analysis/race_shadow.h"

#define EV_RING 4096u

typedef struct ev {
    const char *api;
    const char *site; /* kernel source line */
    uint64_t lo, hi; /* offsets in the space */
    int pipe, write;
} ev;

typedef struct qclock {
    const void *key; /* buffer address */
    int dst;
    uint32_t vc[NP];
} qclock;

typedef struct race_state {
    int mode; /* ARC_RACE_OFF/WARN/ERROR */
    uint32_t nev;
    unsigned warned, nq;
    uint32_t gen;                  /* blocks begun on this thread: flags of older blocks are stale */
    uint64_t launch;               /* the launch this block belongs to */
    uint32_t vc[NP][NP];           /* vc[p][q]: what pipe p knows of pipe q's epochs (one per instruction) */
    uint32_t done[NP];             /* done[q]: pipe q's own epochs it knows have finished their accesses */
    int cur_pipe;                  /* the open instruction: pipe (-1 none), api, what it reported so far */
    const char *cur_api;
    uint8_t cur_w, cur_l0c;
    uint8_t cur_local, cur_gm_first; /* it made a local access; its GM side came first */
    const void *gm_data;           /* the bytes the next GM store writes (NULL: not known) */
    /* A whole-register load (ARC_RACE_REG): races past its first block are
     * held (race_report.c) and its reads there recorded only as far as a
     * predicate uses them (__arc_race_reg_use), until its VF ends. */
    uint8_t hold, check_only, record_only;
    uint32_t reuse_ev;             /* record under this event, not a new one */
    uint64_t acc_lo;               /* the access's first byte in its space */
    struct {
        uint8_t si, q;
        uint32_t epoch, ev;
        uint64_t lo, hi, done; /* the load's bytes; recorded up to done */
    } rd[8];
    unsigned nrd, rd_next;
    uint32_t flag_gen[NP][NP][8];
    uint32_t flag[NP][NP][8][NP];  /* the source clock a SetFlag(src, dst, id) published */
    qclock q[128];
    /* the last UB range a raw-pointer access found clean (sim_race_scalar) */
    uint32_t raw_gen, raw_nev;
    uint64_t raw_lo, raw_hi;
    int raw_write;
    space sp[4]; /* UB, L1, L0 (L0A, L0B, L0C, BiasTable, Fixpipe buffer at their ARC_*_OFF), GM */
    ev ring[EV_RING];
} race_state;

#endif /* ARC_RT_RACE_STATE_H_ */
