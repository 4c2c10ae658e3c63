/* race_gm.c - the GM race check between the cores of a launch.
 *
 * On the NPU the blocks of a launch run at once on different cores (or in
 * waves in an order nobody promises), so a block that writes GM another
 * block reads or writes, with no SyncAll or cross-core flag between them,
 * is racy: the result depends on timing.  The simulated cores run such a
 * kernel to the right answer most of the time, so this finds it.
 *
 * Each core of the launch (a block, or an AIC/AIV of a MIX block) is an
 * agent.  The device API logs every GM access it makes (DataCopy,
 * DataCopyPad, GlobalTensor::GetValue/SetValue, the scalar atomics) into
 * its agent's log with the agent's position in the launch's happens-before
 * order: its SyncAll phase, its segment (bumped at every release) and a
 * vector clock of what it has acquired from other agents (IBSet/IBWait,
 * CrossCoreSetFlag/WaitFlag, GroupBarrier, scalar atomics on one address).
 * When the launch ends the logs are swept in address order: two accesses
 * of different agents to overlapping bytes, at least one a write, not both
 * atomic, neither ordered before the other, are a race.
 *
 * Logging is per agent (no locks); only the sync objects take the
 * launch's mutex. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/analysis/race_gm.h"

/* The last finished launch's log, kept for the next: a launch then costs
 * no allocation (its agents and record chunks are reused). */
static _Atomic(sim_race_gm *) spare;
static atomic_ullong serials; /* one per launch log: what a cached allocation is valid for */

static void agent_reset(gm_agent *a)
{
    free(a->vc);
    for (snap_blk *s = a->snaps, *nx; s; s = nx) {
        nx = s->next;
        free(s);
    }
    sim_zero(a, sizeof *a); /* per block agent: not inlined as rep stos (arena.c); its records are the chunks' */
}

static void gm_destroy(sim_race_gm *g)
{
    for (uint32_t i = 0; i < g->na; i++)
        agent_reset(&g->a[i]);
    sim_race_gm_arena_end(g, 1);
    sim_race_gm_sweep_end(g, 1);
    pthread_mutex_destroy(&g->mu);
    free(g->a);
    free(g);
}

sim_race_gm *sim_race_gm_new(uint32_t nagents, int mode)
{
    if (mode == ARC_RACE_OFF || nagents < 2)
        return NULL; /* one agent cannot race with itself across cores */
    sim_race_gm *g = atomic_exchange(&spare, NULL);
    if (g && g->na < nagents) {
        gm_agent *na = realloc(g->a, nagents * sizeof *na);
        if (!na) {
            gm_destroy(g);
            g = NULL;
        } else {
            memset(na + g->na, 0, (nagents - g->na) * sizeof *na);
            g->a = na;
            g->na = nagents;
        }
    }
    if (!g) {
        if (!(g = calloc(1, sizeof *g)) || !(g->a = calloc(nagents, sizeof *g->a))) {
            free(g);
            return NULL; /* no memory: run unchecked */
        }
        g->na = nagents;
        pthread_mutex_init(&g->mu, NULL);
    }
    g->mode = mode;
    g->n = nagents;
    g->serial = atomic_fetch_add(&serials, 1) + 1;
    if (sim_race_gm_budget(&g->budget)) /* refused before the launch (launch.c): not reached */
        g->budget = 0;
    g->inexact = 0;
    return g; /* its agents are set up as their blocks start (sim_race_gm_agent) */
}

void sim_race_gm_agent(sim_race_gm *g, arc_core *k, uint32_t agent, long long block, int sub)
{
    if (!g || agent >= g->n) { /* no log: GM accesses still reach the cost model and the core's own check */
        k->dev[ARC_RACE_GM_SLOT] = k->dev[ARC_COST_SLOT] || (k->dev[ARC_RACE_SLOT] & 3) != ARC_RACE_OFF
                                       ? ARC_GM_COST_ONLY : 0;
        return;
    }
    gm_agent *a = &g->a[agent];
    agent_reset(a); /* what an earlier launch left (on this block's thread, not one loop over them all) */
    a->g = g;
    a->serial = g->serial;
    a->id = agent;
    a->seg = 1;
    a->block = block;
    a->sub = sub;
    k->dev[ARC_RACE_GM_SLOT] = (unsigned long long)(uintptr_t)a;
}

static void join(uint32_t *d, const uint32_t *s, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (s[i] > d[i]) d[i] = s[i];
}

static sync_obj *obj_of(sim_race_gm *g, int kind, uint64_t key, int create)
{
    uint64_t h = (key * 0x9e3779b97f4a7c15ull + (uint64_t)kind) >> 56;
    sync_obj **pp = &g->bucket[h % NBUCKET];
    for (sync_obj *o = *pp; o; o = o->next)
        if (o->kind == kind && o->key == key) return o;
    if (!create) return NULL;
    sync_obj *o = calloc(1, sizeof *o + g->n * sizeof(uint32_t));
    if (!o) return NULL;
    o->kind = kind;
    o->key = key;
    o->next = *pp;
    *pp = o;
    g->nobj++;
    return o;
}

static int vc_need(gm_agent *a)
{
    if (!a->vc && !(a->vc = calloc(a->g->n, sizeof *a->vc))) return -1;
    atomic_store_explicit(&a->g->clocks, 1, memory_order_relaxed);
    return 0;
}

/* What the agent did so far happens before what acquires (kind, key) later. */
static void release(gm_agent *a, int kind, uint64_t key)
{
    sim_race_gm *g = a->g;
    pthread_mutex_lock(&g->mu);
    sync_obj *o = obj_of(g, kind, key, 1);
    if (o) {
        if (a->vc) join(o->vc, a->vc, g->n);
        if (o->vc[a->id] < a->seg) o->vc[a->id] = a->seg;
    }
    pthread_mutex_unlock(&g->mu);
    a->seg++;
}

/* need: the ordering is required (a wait that did not really wait when
 * nothing was released yet), so without it the check cannot be exact. */
static void acquire(gm_agent *a, int kind, uint64_t key, int need)
{
    sim_race_gm *g = a->g;
    pthread_mutex_lock(&g->mu);
    sync_obj *o = obj_of(g, kind, key, 0);
    if (o && !vc_need(a)) {
        join(a->vc, o->vc, g->n);
        a->dirty = 1;
    } else if (need || o) {
        g->inexact = 1;
    }
    pthread_mutex_unlock(&g->mu);
}

/* The agent's clock as its records' snapshot: 0 when out of memory. */
static int snap_now(gm_agent *a)
{
    if (a->dirty) {
        snap_blk *s = malloc(sizeof *s + a->g->n * sizeof(uint32_t));
        if (!s) return 0;
        memcpy(s->vc, a->vc, a->g->n * sizeof(uint32_t));
        s->next = a->snaps;
        a->snaps = s;
        a->snap = s->vc;
        a->dirty = 0;
    }
    return 1;
}

/* Room for one more record: NULL past the launch's budget or memory. */
static inline gm_rec *push(gm_agent *a)
{
    return a->n < a->cap ? &a->r[a->n++] : sim_race_gm_grow(a);
}

static void record_fill(gm_agent *a, int kind, int pipe, uintptr_t lo, uintptr_t hi, const char *api,
                        uint64_t fill, unsigned fill_size, const char *site)
{
    a->last = 0;
    if (!snap_now(a)) return;
    /* Scalar GM writes go through the core's write-back data cache: other
     * cores (and the DMA) see them after DataCacheCleanAndInvalid
     * (docs/simulated_npu.md, "GM races between cores"). */
    int cached = kind == ARC_GM_WRITE && pipe == 0;
    uint32_t vphase = cached ? NOT_YET : a->phase, vseg = cached ? NOT_YET : a->seg;
    /* A run of accesses from one line in one state is one record (a loop
     * over tiles, a strided copy's rows). */
    for (size_t i = a->n, k = 0; i > 0 && k < 4; i--, k++) {
        gm_rec *p = &a->r[i - 1];
        if (p->kind == kind && p->pipe == pipe && p->phase == a->phase && p->seg == a->seg && p->snap == a->snap &&
            p->vphase == vphase && p->fill == fill && p->fill_size == fill_size &&
            p->api == api && p->site == site && !p->step && lo <= p->hi && hi >= p->lo) {
            if (kind == ARC_GM_WRITE) { /* its sum, if one comes, adds only to a sum of disjoint bytes */
                a->last = i;
                a->last_ok = p->summed && (hi == p->lo || lo == p->hi);
                a->last_lo = lo;
                a->last_hi = hi;
                p->summed = 0;
            }
            if (lo < p->lo) p->lo = lo;
            if (hi > p->hi) p->hi = hi;
            return;
        }
    }
    /* Reads of one line in one state, each as wide as the last and one
     * stride further on (a strided copy's rows: an ND2NZ tile is 128), are
     * one record of pieces, as a loop's pattern is (sim_race_gm_pattern):
     * the same bytes and clock, and one entry for the sweep to sort, not
     * one per row.  Writes stay whole: their content sums are per record. */
    gm_rec *p = a->n ? &a->r[a->n - 1] : NULL;
    if (p && kind == ARC_GM_READ && p->kind == kind && p->pipe == pipe && p->phase == a->phase &&
        p->seg == a->seg && p->snap == a->snap && p->vphase == vphase && p->api == api && p->site == site) {
        uintptr_t w = p->step ? p->pw : p->hi - p->lo, last = p->hi - w;
        if (hi - lo == w && lo > p->hi && (!p->step || lo - last == p->step)) {
            if (!p->step) {
                p->step = lo - last;
                p->pw = w;
            }
            p->hi = hi;
            return;
        }
    }
    gm_rec *r = push(a);
    if (!r) return;
    *r = (gm_rec){lo, hi, api, site, a->snap, a->phase, a->seg, a->id, vphase, vseg, (uint8_t)kind,
                  (uint8_t)pipe, (uint8_t)fill_size, 0, fill, 0, 0, 0};
    if (kind == ARC_GM_WRITE) {
        a->last = a->n;
        a->last_ok = 1;
        a->last_lo = lo;
        a->last_hi = hi;
    }
}

static void record(gm_agent *a, int kind, int pipe, uintptr_t lo, uintptr_t hi, const char *api)
{
    record_fill(a, kind, pipe, lo, hi, api, 0, 0, sim_site());
}

static gm_agent *agent_of(arc_core *k, const void *p, unsigned long long bytes, int op, int pipe);

void __arc_race_gm_fill(const void *p, unsigned long long bytes, unsigned long long value, unsigned esize,
                        const char *api)
{
    gm_agent *a = agent_of(__arc_core(), p, bytes, ARC_GM_WRITE, 5 /* PIPE_MTE3 */);
    if (!a || !bytes) return;
    record_fill(a, ARC_GM_FILL, 5, (uintptr_t)p, (uintptr_t)p + bytes, api, value, esize, sim_site());
}

void __arc_race_gm_sum(const void *p, unsigned long long bytes, unsigned long long sum)
{
    arc_core *k = __arc_core();
    unsigned long long v = k ? k->dev[ARC_RACE_GM_SLOT] : 0;
    if (v <= ARC_GM_COST_ONLY) return;
    gm_agent *a = (gm_agent *)(uintptr_t)v;
    if (a->last && a->last_ok && a->last_lo == (uintptr_t)p && a->last_hi == (uintptr_t)p + bytes) {
        gm_rec *r = &a->r[a->last - 1];
        r->sum += sum;
        r->summed = 1;
    }
    a->last = 0;
}

/* The core's log (NULL: none; a profiled core without one calls the cost
 * model alone). */
static gm_agent *agent_of(arc_core *k, const void *p, unsigned long long bytes, int op, int pipe)
{
    if (!k) return NULL;
    if (__builtin_expect(k->dev[ARC_COST_SLOT] != 0, 0)) {
        if (pipe >= 0) sim_cost_gm(op, pipe, p, bytes);
        else sim_cost_gm_raw(p, bytes, op == ARC_GM_WRITE);
    }
    unsigned long long v = k->dev[ARC_RACE_GM_SLOT];
    return v == ARC_GM_COST_ONLY ? NULL : (gm_agent *)(uintptr_t)v;
}

void __arc_race_gm(int op, int pipe, const void *p, unsigned long long bytes, const char *api)
{
    arc_core *k = __arc_core();
    if (op <= ARC_GM_ATOMIC && k && (k->dev[ARC_RACE_SLOT] & 3) != ARC_RACE_OFF)
        sim_race_gm_local(op, pipe, p, bytes, api); /* within the core */
    gm_agent *a = agent_of(k, p, bytes, op, pipe);
    if (!a) return;
    switch (op) {
    case ARC_GM_READ:
    case ARC_GM_WRITE:
    case ARC_GM_ATOMIC:
        if (bytes) record(a, op, pipe, (uintptr_t)p, (uintptr_t)p + bytes, api);
        return;
    case ARC_GM_ATOMIC_RMW: /* a scalar atomic: its old value may order what follows */
        acquire(a, ARC_GM_ATOMIC_RMW, (uintptr_t)p, 0);
        record(a, ARC_GM_ATOMIC, pipe, (uintptr_t)p, (uintptr_t)p + bytes, api);
        release(a, ARC_GM_ATOMIC_RMW, (uintptr_t)p);
        return;
    case ARC_GM_SYNCALL:
        a->phase++;
        a->seg++;
        return;
    case ARC_GM_RELEASE:
        release(a, (int)bytes, (uintptr_t)p);
        return;
    case ARC_GM_ACQUIRE:
        acquire(a, (int)bytes, (uintptr_t)p, 0);
        return;
    case ARC_GM_ACQUIRE_NEED:
        acquire(a, (int)bytes, (uintptr_t)p, 1);
        return;
    case ARC_GM_DCCI: /* every scalar write so far leaves the data cache (taken as the whole cache) */
        for (size_t i = a->dcci_from; i < a->n; i++)
            if (a->r[i].vphase == NOT_YET) {
                a->r[i].vphase = a->phase;
                a->r[i].vseg = a->seg;
            }
        a->dcci_from = a->n;
        return;
    default:
        return;
    }
}

/* Whether [u, hi) lies in one device allocation; a's gm_lo/gm_hi become it.
 * Each block is a new agent, so the allocations found are kept per worker
 * thread too, for this launch (none is freed while it runs): a block's
 * first access then takes no lock. */
static int in_device_alloc(gm_agent *a, uintptr_t u, uintptr_t hi)
{
    enum { NCACHE = 4 };
    static _Thread_local struct {
        unsigned long long serial;
        uintptr_t lo, hi;
    } seen[NCACHE];
    static _Thread_local unsigned next;
    for (unsigned i = 0; i < NCACHE; i++)
        if (seen[i].serial == a->g->serial && u >= seen[i].lo && hi <= seen[i].hi) {
            a->gm_lo = seen[i].lo;
            a->gm_hi = seen[i].hi;
            return 1;
        }
    sim_alloc al;
    if (!sim_mem_find((const void *)u, &al) || !al.device)
        return 0;
    a->gm_lo = al.base;
    a->gm_hi = al.base + al.size;
    seen[next % NCACHE].serial = a->g->serial;
    seen[next % NCACHE].lo = a->gm_lo;
    seen[next % NCACHE].hi = a->gm_hi;
    next++;
    return hi <= a->gm_hi;
}

/* A load or store the kernel's own code makes through a GM pointer
 * (race_raw.c): logged as the scalar unit's (PIPE_S) access when p lies in a
 * device allocation.  Stack and host addresses are not GM: they are skipped
 * (the instrumented code cannot tell them apart). */
void sim_race_gm_scalar(arc_core *k, const void *p, unsigned long long bytes, int write, const char *api,
                        const char *site)
{
    uintptr_t u = (uintptr_t)p;
    gm_agent *a = agent_of(k, p, bytes, write ? ARC_GM_WRITE : ARC_GM_READ, -1);
    if (!a || !bytes) return;
    /* A loop's next access from the same line, right after the last one
     * in the same allocation and state: the record grows (what record()
     * would do, without its look-ups). */
    if (u >= a->gm_lo && u + bytes <= a->gm_hi && !a->dirty)
        for (size_t i = a->n, k2 = 0; i > 0 && k2 < 4; i--, k2++) { /* streams interleave: the last few */
            gm_rec *last = &a->r[i - 1];
            if (last->site == site && last->api == api && !last->step && last->lo <= u && u <= last->hi &&
                last->snap == a->snap && last->phase == a->phase && last->seg == a->seg && last->pipe == 0 &&
                last->kind == (write ? ARC_GM_WRITE : ARC_GM_READ) && last->vphase == (write ? NOT_YET : a->phase)) {
                if (u + bytes > last->hi) last->hi = u + bytes;
                return;
            }
        }
    sim_site_mark(k, site);
    if (u < a->gm_lo || u + bytes > a->gm_hi) {
        if (u >> 12 == a->not_gm_page) return; /* a stack or host page, seen before */
        if (!in_device_alloc(a, u, u + bytes)) {
            if (u < a->gm_lo || u >= a->gm_hi) /* not GM (past the end: the fault or GM check reports it) */
                a->not_gm_page = u >> 12;
            return;
        }
    }
    record_fill(a, write ? ARC_GM_WRITE : ARC_GM_READ, 0, u, u + bytes, api, 0, 0, site);
}

/* cnt pieces of pw bytes, step apart, from p, of one line's loop
 * (race_stream.c): one record when they lie in one device allocation. */
void sim_race_gm_pattern(const void *p, unsigned long long pw, unsigned long long step, unsigned long long cnt,
                         int write, const char *site)
{
    uintptr_t u = (uintptr_t)p, hi = u + (cnt - 1) * step + pw;
    const char *api = write ? "a store through a pointer" : "a load through a pointer";
    arc_core *k = __arc_core();
    unsigned long long v = k ? k->dev[ARC_RACE_GM_SLOT] : 0;
    gm_agent *a = v > ARC_GM_COST_ONLY ? (gm_agent *)(uintptr_t)v : NULL;
    int whole = a && cnt > 1 && step > pw && !k->dev[ARC_COST_SLOT]; /* the cost model takes pieces */
    if (whole && (u < a->gm_lo || hi > a->gm_hi))
        whole = in_device_alloc(a, u, hi);
    if (!whole) { /* piece by piece (not one allocation's, or not GM at all) */
        for (unsigned long long i = 0; i < cnt; i++)
            sim_race_gm_scalar(k, (const void *)(u + i * step), pw, write, api, site);
        return;
    }
    a->last = 0;
    gm_rec *r;
    if (!snap_now(a) || !(r = push(a))) return;
    /* a scalar write: in the core's data cache until a DCCI (record_fill) */
    *r = (gm_rec){u, hi, api, site, a->snap, a->phase, a->seg, a->id, write ? NOT_YET : a->phase,
                  write ? NOT_YET : a->seg, (uint8_t)(write ? ARC_GM_WRITE : ARC_GM_READ), 0, 0, 0, 0, 0, pw, step};
}

int sim_race_gm_finish(sim_race_gm *g, const sim_kernel_run *r, int failed, char *msg, size_t n)
{
    int raced = 0;
    if (!g) return 0;
    if (!failed && !g->inexact) raced = sim_race_gm_sweep(g, r, msg, n);
    if (!failed && atomic_load(&g->over))
        fprintf(stderr, "ascendrtc: warning: %s: the GM race check between blocks reached its budget of %zu access "
                "records (ASCENDRTC_RACE_RECORDS) in this launch: the GM accesses after that went unchecked\n",
                r->kernel_name, g->budget);
    for (uint32_t i = 0; atomic_load(&g->clocks) && i < g->n; i++)
        if (g->a[i].serial == g->serial)
            agent_reset(&g->a[i]); /* their clocks are big (one entry per agent): not kept */
    atomic_store(&g->clocks, 0);
    sim_race_gm_arena_end(g, 0); /* the other agents are reset as the next launch's blocks start */
    sim_race_gm_sweep_end(g, 0);
    for (int b = 0; g->nobj && b < NBUCKET; b++) {
        for (sync_obj *o = g->bucket[b], *nx; o; o = nx) {
            nx = o->next;
            free(o);
        }
        g->bucket[b] = NULL;
    }
    g->nobj = 0;
    if ((g = atomic_exchange(&spare, g))) /* another launch's log was kept meanwhile */
        gm_destroy(g);
    return raced;
}
