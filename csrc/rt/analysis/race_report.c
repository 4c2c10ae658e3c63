/* race_report.c - how a race race.c finds reaches the user: at once (an
 * error stops the block; a warning is printed, at most 2 per block and 8
 * per launch, so a racy kernel on 48 blocks does not bury the output), or,
 * for a whole-register load of dav-3510's Reg API (ARC_RACE_REG), when the
 * lanes that raced are used.  Such a load reads all VL bytes whatever lanes
 * the kernel then uses; a tile whose length is not a multiple of VL has its
 * last load run past its end, into the next buffer, which MTE2 may be
 * filling.  On the NPU those lanes are masked off and the result is right,
 * so a race on them counts only if a store or a reduction uses them (a
 * predicate covering the racing bytes).  Lane-wise code keeps lanes in
 * place, which is what this follows; a race at the load's first bytes is
 * reported at once.  Held reports last until the vector function ends
 * (asc_vf_call) or the block does.  ASCENDRTC_RACE_CHECK picks error,
 * warn or off. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rt_internal.h"

#define HELD 8

static atomic_ullong warn_launch; /* the launch warn_count counts for */
static atomic_uint warn_count;

typedef struct held {
    uint32_t from;   /* the first racing byte, from the load's start */
    char body[1200]; /* the report, as race.c wrote it at the load */
} held;
static __thread held pend[HELD];
static __thread unsigned npend;

void sim_race_emit(const char *body, int mode, uint64_t launch, unsigned *warned)
{
    if (mode == ARC_RACE_ERROR)
        __arc_trap("race check", "%s", body);
    if (atomic_exchange(&warn_launch, launch) != launch) atomic_store(&warn_count, 0);
    if ((*warned)++ < 2 && atomic_fetch_add(&warn_count, 1) < 8) {
        arc_core *k = __arc_core();
        int s = sim_core_service_begin();
        fprintf(stderr, "ascendrtc: warning: %s block %lld: %s\n", k->kernel_name ? k->kernel_name : "kernel",
                k->block_idx, body);
        sim_core_service_end(s);
    }
}

/* The last HELD: an older load's register has been used by now, as far as
 * its predicates reached (registers are reloaded in loops). */
static __thread unsigned next;

int sim_race_hold(uint32_t from, const char *body)
{
    unsigned j = npend < HELD ? npend++ : next++ % HELD;
    pend[j].from = from;
    snprintf(pend[j].body, sizeof pend[j].body, "%s", body);
    return 1;
}

void sim_race_held_use(uint32_t end, const char *api, int mode, uint64_t launch, unsigned *warned)
{
    for (unsigned i = 0; i < npend; i++) {
        if (pend[i].from >= end)
            continue;
        char msg[1400];
        const char *site = sim_site();
        snprintf(msg, sizeof msg, "%s (the register's lanes from byte %u on, which raced, are used by %s%s%s)",
                 pend[i].body, pend[i].from, api ? api : "?", site ? " at " : "", site ? site : "");
        npend = next = 0; /* one report: the error stops the block here */
        sim_race_emit(msg, mode, launch, warned);
        return;
    }
}

void sim_race_held_drop(void) { npend = next = 0; }

/* ASCENDRTC_RACE_CHECK: error (the default), warn or off; -1 for anything else. */
int sim_race_default_mode(int *mode)
{
    const char *e = getenv("ASCENDRTC_RACE_CHECK");
    if (!e || !*e || !strcmp(e, "error") || !strcmp(e, "1") || !strcmp(e, "on")) {
        *mode = ARC_RACE_ERROR;
        return 0;
    }
    if (!strcmp(e, "warn")) {
        *mode = ARC_RACE_WARN;
        return 0;
    }
    if (!strcmp(e, "off") || !strcmp(e, "0")) {
        *mode = ARC_RACE_OFF;
        return 0;
    }
    return -1;
}
