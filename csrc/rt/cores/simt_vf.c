/* simt_vf.c - a SIMD+SIMT hybrid kernel's SIMT VFs (asc_vf_call).
 *
 * On the NPU the scalar puts a VF on its AIV's VF queue and goes on: VFs
 * run one after another, asynchronously to the scalar and the MTEs
 * (research: the hybrid programming guide).  Here a VF runs at its call,
 * as one block of threads on this core, until it returns or every live
 * thread of it spins (a loop waiting on a volatile or atomic read, which
 * the rtc marks: rtc/simt_spin.cpp): then it waits for the SIMD side,
 * which alone can change what it waits on, and the call returns with the
 * VF still in flight.  The VF goes on
 *   - at the SIMD side's spin loops (each back edge calls __arc_vf_poll),
 *     as long as it runs;
 *   - to its end at what waits for PIPE_V on the NPU: a WaitFlag/
 *     asc_sync_wait whose source is PIPE_V, a barrier on PIPE_V or
 *     PIPE_ALL (rt/analysis/race.c calls sim_simt_vf_sync), the next
 *     asc_vf_call (VFs run in order), and the end of the kernel.
 * A VF that waits forever there waits on the NPU too (the launch's timeout
 * reports it). */
#include <stdlib.h>
#include <string.h>

#include "rt/rt_internal.h"

/* The shape of the SIMT VF a hybrid kernel's asc_vf_call runs on this
 * core now (__arc_simt_vf), else NULL: the launch's shape applies. */
static _Thread_local const arc_simt_dims *t_vf;

/* A VF in flight: its block, own frames and stop points, and a copy of its
 * arguments (the call's are gone once it returns).  One per core; a thread
 * runs one core at a time, or a MIX block's few as fibers. */
typedef struct vf_flight {
    arc_core *core; /* NULL: free */
    const arc_simt_desc *d;
    arc_simt_block_ctx b;
    arc_simt_dims dims;
    unsigned char *args;
} vf_flight;
#define VF_FLIGHTS 4
static _Thread_local vf_flight t_fl[VF_FLIGHTS];

const arc_simt_dims *sim_simt_vf_dims(void) { return t_vf; }

int sim_simt_in_vf(void) { return t_vf != NULL; }

static void land(vf_flight *v)
{
    v->core->dev[ARC_RACE_SLOT] &= ~ARC_VF_PENDING;
    free(v->b.frames);
    free(v->b.pend);
    free(v->args);
    memset(v, 0, sizeof *v);
}

void sim_simt_vf_reset(void)
{
    for (int i = 0; i < VF_FLIGHTS; i++)
        if (t_fl[i].core) {
            /* the block's core state is reset anyway: just let go */
            free(t_fl[i].b.frames);
            free(t_fl[i].b.pend);
            free(t_fl[i].args);
            memset(&t_fl[i], 0, sizeof t_fl[i]);
        }
    t_vf = NULL;
}

void sim_simt_vf_suspend(const arc_simt_desc *d, const arc_simt_block_ctx *b, const unsigned char *args)
{
    arc_core *c = __arc_core();
    vf_flight *v = NULL;
    for (int i = 0; i < VF_FLIGHTS && !v; i++)
        if (!t_fl[i].core)
            v = &t_fl[i];
    if (!v)
        __arc_trap("asc_vf_call", "more than %d cores of one thread have a SIMT VF in flight", VF_FLIGHTS);
    v->d = d;
    v->b = *b;
    v->dims = *t_vf;
    v->b.frames = sim_simt_take_frames();
    v->b.pend = malloc(b->nthreads * sizeof *v->b.pend);
    v->args = malloc(d->args_size ? d->args_size : 1);
    if (!v->b.pend || !v->args)
        __arc_trap("asc_vf_call", "out of host memory for a SIMT VF in flight");
    memcpy(v->b.pend, b->pend, b->nthreads * sizeof *v->b.pend);
    memcpy(v->args, args, d->args_size);
    v->core = c;
    c->dev[ARC_RACE_SLOT] |= ARC_VF_PENDING;
}

static vf_flight *flight_of(arc_core *c)
{
    for (int i = 0; i < VF_FLIGHTS; i++)
        if (t_fl[i].core == c)
            return &t_fl[i];
    return NULL;
}

/* Runs this core's VF in flight on: to its end (to_end), else until it
 * ends or waits again. */
static void go_on(vf_flight *v, int to_end)
{
    const arc_simt_dims *prev = t_vf;
    t_vf = &v->dims;
    int done = sim_simt_drive(v->d, &v->b, v->args, !to_end);
    t_vf = prev;
    if (done)
        land(v);
}

void __arc_vf_poll(void)
{
    vf_flight *v = flight_of(__arc_core());
    if (v)
        go_on(v, 0);
}

void sim_simt_vf_finish(void)
{
    vf_flight *v = flight_of(__arc_core());
    if (v)
        go_on(v, 1);
}

void sim_simt_vf_sync(int kind, int src_pipe)
{
    if (kind == ARC_RACE_ALL || ((kind == ARC_RACE_WAIT || kind == ARC_RACE_QWAIT || kind == ARC_RACE_BARRIER) &&
                                 src_pipe == ARC_PIPE_V))
        sim_simt_vf_finish();
}

void __arc_simt_vf(const void *site, unsigned x, unsigned y, unsigned z, const unsigned char *args)
{
    struct rec {
        const char *lowered;
        void (*entry)(const unsigned char *);
    };
    const struct rec *r = site;
    unsigned long long n = (unsigned long long)x * y * z;
    if (!n || n > ARC_SIMT_MAX_THREADS)
        __arc_trap("asc_vf_call", "dim3(%u, %u, %u) has %llu threads; a SIMT VF runs 1 to %u threads per AIV", x, y,
                   z, n, ARC_SIMT_MAX_THREADS);
    sim_simt_vf_finish(); /* the one before, in flight */
    arc_core *c = __arc_core();
    arc_simt_dims d = {{(unsigned)c->block_num, 1, 1}, {x, y, z}, 0};
    const arc_simt_dims *prev = t_vf;
    t_vf = &d;
    r->entry(args);
    t_vf = prev;
}
