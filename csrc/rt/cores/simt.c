/* simt.c - the block driver of SIMT kernels (__arc_simt_block).
 *
 * The rtc's SIMT pass (rtc/simt_pass.cpp) gives each kernel run functions:
 * run[s] takes every thread of the block stopped at point s (a barrier or
 * a warp function; 0 = the kernel's start) to its next point, as a loop
 * over the threads.  The driver alternates: run, then look where the
 * threads stopped.
 *   - Threads at warp functions: pick one such point; in each warp the lanes
 *     stopped there are its active lanes (COX's collapsed warp): compute
 *     the function over them into each lane's exchange slot, resume them.
 *     A warp with a lane still spinning (at a yield) waits for it: the
 *     lanes would reconverge there on the NPU (not for a lane held at a
 *     yield ahead of them, below).
 *   - Else threads at yields (the back edges of spin loops, rtc/simt_spin.cpp)
 *     go on, so the threads they wait for get to run between their tries;
 *     a VF whose live threads all spin waits for its SIMD side (simt_vf.c).
 *     Lanes of a warp ahead in a spin loop wait for those behind
 *     (hold_ahead).
 *   - Otherwise every live thread is at a barrier: all of them must be at
 *     the same one, and none may have returned (a barrier in divergent code
 *     is undefined on the NPU): then resume them all.
 * A shuffle reading a lane that is not active, a barrier not reached by
 * every thread, and a width that is not a power of two <= 32 fail the
 * launch naming the kernel line, the block and the threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt/rt_internal.h"

/* Per core thread: the frames and stop points of the block it runs. */
static _Thread_local unsigned char *t_frames;
static _Thread_local size_t t_frames_cap;
static _Thread_local int t_pend[ARC_SIMT_MAX_THREADS];

static unsigned char *frames_for(size_t bytes)
{
    if (bytes > t_frames_cap) {
        free(t_frames);
        t_frames_cap = 0;
        t_frames = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
        if (!t_frames)
            __arc_trap("SIMT", "out of host memory for %zu bytes of thread frames", bytes);
        t_frames_cap = bytes;
    }
    return t_frames;
}

void sim_simt_thread_name(const arc_simt_block_ctx *b, unsigned t, char *buf, size_t n)
{
    unsigned bx = b->get[ARC_SIMT_BDIM], by = b->get[ARC_SIMT_BDIM + 1];
    snprintf(buf, n, "thread (%u,%u,%u) of block (%u,%u,%u)", t % bx, t / bx % by, t / bx / by,
             b->get[ARC_SIMT_BID], b->get[ARC_SIMT_BID + 1], b->get[ARC_SIMT_BID + 2]);
}

static arc_simt_xch *xch(const arc_simt_block_ctx *b, unsigned t)
{
    return (arc_simt_xch *)b->frames + t; /* the frames' first array (rtc/simt_frame.h) */
}

static const char *warp_api(int op)
{
    static const char *n[] = {"?", "asc_shfl", "asc_shfl_up", "asc_shfl_down", "asc_shfl_xor", "asc_all", "asc_any",
                              "asc_ballot", "asc_activemask", "asc_reduce_add", "asc_reduce_max", "asc_reduce_min",
                              "thread_block_tile::sync"};
    return op > 0 && op <= ARC_WARP_SYNC ? n[op] : "warp function";
}

/* One reduction step of type ty on bit patterns. */
static uint64_t combine(int op, int ty, uint64_t a, uint64_t b)
{
    switch (ty) {
    case ARC_WT_I32: case ARC_WT_U32: case ARC_WT_I64: case ARC_WT_U64: {
        int sig = ty == ARC_WT_I32 || ty == ARC_WT_I64;
        if (ty == ARC_WT_I32 || ty == ARC_WT_U32) {
            uint32_t x = (uint32_t)a, y = (uint32_t)b;
            if (op == ARC_WARP_RED_ADD)
                return (uint32_t)(x + y);
            int lt = sig ? (int32_t)x < (int32_t)y : x < y;
            return op == ARC_WARP_RED_MAX ? (lt ? y : x) : (lt ? x : y);
        }
        if (op == ARC_WARP_RED_ADD)
            return a + b;
        int lt = sig ? (int64_t)a < (int64_t)b : a < b;
        return op == ARC_WARP_RED_MAX ? (lt ? b : a) : (lt ? a : b);
    }
    default: {
        double x, y, r;
        float f;
        _Float16 h;
        switch (ty) {
        case ARC_WT_F32: memcpy(&f, &a, 4); x = f; memcpy(&f, &b, 4); y = f; break;
        case ARC_WT_F16: memcpy(&h, &a, 2); x = sim_extendhfsf2(h); memcpy(&h, &b, 2); y = sim_extendhfsf2(h); break;
        case ARC_WT_BF16: memcpy(&h, &a, 2); x = sim_extendbfsf2(h); memcpy(&h, &b, 2); y = sim_extendbfsf2(h); break;
        default: memcpy(&x, &a, 8); memcpy(&y, &b, 8); break;
        }
        if (op == ARC_WARP_RED_ADD)
            r = x + y;
        else if (x != x || y != y)
            r = x != x ? x : y; /* NaN propagates */
        else
            r = op == ARC_WARP_RED_MAX ? (x < y ? y : x) : (y < x ? y : x);
        uint64_t out = 0;
        switch (ty) {
        case ARC_WT_F32: f = op == ARC_WARP_RED_ADD ? (float)x + (float)y : (float)r; memcpy(&out, &f, 4); break;
        case ARC_WT_F16: h = sim_truncsfhf2((float)r); memcpy(&out, &h, 2); break;
        case ARC_WT_BF16: h = sim_truncsfbf2((float)r); memcpy(&out, &h, 2); break;
        default: memcpy(&out, &r, 8); break;
        }
        return out;
    }
    }
}

/* The warp function of point p over the lanes of warp w in `active`. */
static void resolve(const arc_simt_desc *d, const arc_simt_block_ctx *b, unsigned p, unsigned t0, uint32_t active)
{
    unsigned first = (unsigned)__builtin_ctz(active);
    int code = xch(b, t0 + first)->op, op = code & 0xff, ty = code >> 8;
    uint64_t v[32] = {0};
    for (unsigned l = 0; l < 32; l++)
        if (active >> l & 1)
            v[l] = xch(b, t0 + l)->v;
    if (op >= ARC_WARP_RED_ADD && op <= ARC_WARP_RED_MIN) {
        /* tree order: lanes i and i + 16, then + 8, + 4, + 2, + 1 */
        uint64_t r[32];
        uint32_t has = active;
        memcpy(r, v, sizeof r);
        for (unsigned off = 16; off; off >>= 1)
            for (unsigned i = 0; i < off; i++)
                if (has >> (i + off) & 1) {
                    r[i] = has >> i & 1 ? combine(op, ty, r[i], r[i + off]) : r[i + off];
                    has |= 1u << i;
                }
        for (unsigned l = 0; l < 32; l++)
            if (active >> l & 1)
                xch(b, t0 + l)->result = r[0];
        return;
    }
    uint64_t all = 0, any = 0, ballot = 0;
    for (unsigned l = 0; l < 32; l++)
        if (active >> l & 1) {
            ballot |= (uint64_t)(v[l] != 0) << l;
        }
    all = ballot == active;
    any = ballot != 0;
    for (unsigned l = 0; l < 32; l++) {
        if (!(active >> l & 1))
            continue;
        arc_simt_xch *x = xch(b, t0 + l);
        if (x->op != code) {
            __arc_site(d->where[p]);
            __arc_trap(warp_api(op), "lanes of one warp stopped at the same point with different operations");
        }
        int w = x->width, arg = x->arg;
        unsigned src = l;
        switch (op) {
        case ARC_WARP_SHFL: case ARC_WARP_SHFL_UP: case ARC_WARP_SHFL_DOWN: case ARC_WARP_SHFL_XOR: {
            if (w < 1 || w > 32 || (w & (w - 1))) {
                char tn[96];
                sim_simt_thread_name(b, t0 + l, tn, sizeof tn);
                __arc_site(d->where[p]);
                __arc_trap(warp_api(op), "width %d must be a power of two in [1, 32] (%s)", w, tn);
            }
            unsigned seg = l & ~(unsigned)(w - 1), in = l - seg;
            if (op == ARC_WARP_SHFL)
                src = seg + ((unsigned)arg & (unsigned)(w - 1));
            else if (op == ARC_WARP_SHFL_UP)
                src = (unsigned)arg > in ? l : l - (unsigned)arg;
            else if (op == ARC_WARP_SHFL_DOWN)
                src = in + (unsigned)arg >= (unsigned)w ? l : l + (unsigned)arg;
            else
                src = (l ^ (unsigned)arg) >= seg + (unsigned)w || (l ^ (unsigned)arg) < seg ? l : l ^ (unsigned)arg;
            if (!(active >> src & 1)) {
                char tn[96];
                sim_simt_thread_name(b, t0 + l, tn, sizeof tn);
                __arc_site(d->where[p]);
                __arc_trap(warp_api(op), "%s reads lane %u, which is not active (active lanes 0x%08x of warp %u): "
                           "the NPU returns an undefined value", tn, src, active, t0 / 32);
            }
            x->result = v[src];
            break;
        }
        case ARC_WARP_ALL: x->result = all; break;
        case ARC_WARP_ANY: x->result = any; break;
        case ARC_WARP_BALLOT: x->result = ballot; break;
        case ARC_WARP_ACTIVEMASK: x->result = active; break;
        default: x->result = 0; break;
        }
    }
}

/* UB a SIMT launch keeps from its threads (rt/acl/simt_launch.c's limit) */
#define VF_UB_RESERVED ((8u + 32u) << 10)

unsigned char *sim_simt_take_frames(void)
{
    unsigned char *f = t_frames;
    t_frames = NULL;
    t_frames_cap = 0;
    return f;
}

/* A thread stopped at a warp function while other lanes of its warp run on
 * (spin) is held back from run[s] until they arrive: a bit of its pend. */
#define HELD (1 << 30)

/* Lanes of a warp at a yield of a spin loop wait there while a lane of
 * the warp is at a point behind it in the loop (desc behind, from
 * rtc/simt_spin.h's spin_behind): the NPU runs a warp's divergent paths
 * one at a time to where they meet again (a divergence stack per warp),
 * so the lanes of a warp go round a spin loop together and read its
 * shared counters together; here a lane that went round first would read
 * them alone, before the others' atomics (asc-devkit's
 * hash_table_mte_queue).  Lanes that leave the loop go on.  held (when
 * given): held[w], the lanes of warp w held; yw (when given): the warps
 * whose lanes at yields all are held leave it; at >= 0: marks the held
 * lanes stopped at point `at` HELD, for its run.  Returns how many lanes
 * are held. */
static unsigned hold_ahead(const arc_simt_desc *d, int *pend, unsigned n, uint32_t *held, uint64_t *yw, int at)
{
    unsigned nh = 0, w = d->behind_words;
    for (unsigned t0 = 0; t0 < n; t0 += 32) {
        unsigned e = t0 + 32 < n ? t0 + 32 : n, np = 0;
        int ps[32]; /* the points the warp's live lanes are at */
        uint32_t h = 0, y = 0;
        for (unsigned t = t0; t < e; t++) {
            int p = pend[t];
            if (p < 0)
                continue;
            y |= (uint32_t)(d->kind[p] == ARC_SIMT_YIELD) << (t - t0);
            unsigned k = 0;
            while (k < np && ps[k] != p)
                k++;
            if (k == np)
                ps[np++] = p;
        }
        for (unsigned k = 0; k < np && np > 1; k++) {
            const unsigned long long *row = d->behind + (size_t)ps[k] * w;
            int behind = 0;
            for (unsigned j = 0; j < np && !behind; j++)
                behind = (int)(row[ps[j] / 64] >> (ps[j] % 64) & 1);
            for (unsigned t = t0; t < e && behind; t++)
                h |= (uint32_t)(pend[t] == ps[k]) << (t - t0);
        }
        if (held)
            held[t0 / 32] = h;
        if (yw && h && !(y & ~h))
            *yw &= ~(1ull << (t0 / 32));
        for (uint32_t m = h; m; m &= m - 1)
            if (pend[t0 + (unsigned)__builtin_ctz(m)] == at)
                pend[t0 + (unsigned)__builtin_ctz(m)] |= HELD;
        nh += (unsigned)__builtin_popcount(h);
    }
    return nh;
}

/* Lanes waiting at a warp function for lanes of their warp that spin: on
 * the NPU the lanes that diverged go on separately (a warp function acts
 * on the lanes that reach it), here the function waits for every lane of
 * the warp still running.  Fine while the spinning lanes wait for someone
 * else; when they wait for the waiting lanes themselves, nothing ends it.
 * Likewise lanes held ahead in a spin loop (hold_ahead) for a lane of
 * their warp that spins behind them waiting for them.  After STALL_S
 * seconds of such rounds without a warp function or a barrier completing
 * in the block, the launch fails saying so. */
#define STALL_S 10
static void check_stall(const arc_simt_desc *d, arc_simt_block_ctx *b)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    unsigned long long now = (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
    if (b->stall == 1024 || !b->stall_ns) {
        b->stall_ns = now;
        return;
    }
    if (now - b->stall_ns < STALL_S * 1000000000ull)
        return;
    unsigned n = b->nthreads, tw = n, ty = n;
    uint32_t held[ARC_SIMT_MAX_THREADS / 32];
    if (d->behind && hold_ahead(d, b->pend, n, held, NULL, -1))
        for (unsigned t = 0; t < n && ty == n; t++) {
            if (!(held[t / 32] >> (t % 32) & 1))
                continue;
            const unsigned long long *row = d->behind + (size_t)b->pend[t] * d->behind_words;
            for (unsigned u = t & ~31u; u < n && u < (t & ~31u) + 32 && ty == n; u++)
                if (b->pend[u] >= 0 && (row[b->pend[u] / 64] >> (b->pend[u] % 64) & 1))
                    ty = u;
            tw = t;
        }
    if (ty < n) {
        char a[96], o[96];
        sim_simt_thread_name(b, tw, a, sizeof a);
        sim_simt_thread_name(b, ty, o, sizeof o);
        __arc_site(d->where[b->pend[tw]]);
        __arc_trap("spin loop", "%s waits here (%s) for %s, which has spun at %s for %d s: the lanes of a warp go "
                   "round a spin loop together (the NPU runs a warp's divergent paths one at a time, to where they "
                   "meet again), so a lane that waits for lanes of its own warp ahead of it in the loop waits "
                   "forever, on the NPU too", a, d->where[b->pend[tw]], o, d->where[b->pend[ty]], STALL_S);
    }
    for (unsigned t = 0; t < n && ty == n; t++) {
        int p = b->pend[t];
        if (p < 0 || d->kind[p] != ARC_SIMT_WARP)
            continue;
        for (unsigned u = t & ~31u; u < n && u < (t & ~31u) + 32; u++)
            if (b->pend[u] >= 0 && d->kind[b->pend[u]] == ARC_SIMT_YIELD) {
                tw = t;
                ty = u;
                break;
            }
    }
    if (ty == n)
        return;
    char a[96], o[96];
    sim_simt_thread_name(b, tw, a, sizeof a);
    sim_simt_thread_name(b, ty, o, sizeof o);
    __arc_site(d->where[b->pend[tw]]);
    __arc_trap(warp_api(xch(b, tw)->op & 0xff),
               "%s waits here (%s) for %s, which has spun at %s for %d s: lanes of a warp that diverge go on "
               "separately on the NPU, but the simulator runs a warp function once every lane of the warp still "
               "running reaches it, so a lane that waits for its own warp's waiting lanes waits forever here "
               "(not simulated)", a, d->where[b->pend[tw]], o, d->where[b->pend[ty]], STALL_S);
}

/* Whether every thread stopped at the same point *p (a scan without a
 * branch per thread: most blocks stop all together at each barrier). */
static int uniform(const int *pend, unsigned n, int *p)
{
    int diff = 0;
    *p = pend[0];
    for (unsigned t = 1; t < n; t++)
        diff |= pend[t] ^ *p;
    return !diff;
}

int sim_simt_drive(const arc_simt_desc *d, arc_simt_block_ctx *b, const unsigned char *args, int may_wait)
{
    unsigned n = b->nthreads, spins = 0;
    int *pend = b->pend;
    const arc_simt_run_fn *run = b->shadow ? d->runc : d->run;
    for (;;) {
        b->ub_fresh = 0; /* the run that started the epoch is over */
        /* Every thread returned, or at one barrier or grid-stride loop:
         * what the scan below would find, without it. */
        int u, same = uniform(pend, n, &u);
        if (same && u < 0)
            return 1;
        if (same && (d->kind[u] == ARC_SIMT_BARRIER || d->kind[u] == ARC_SIMT_LOCKSTEP)) {
            spins = 0;
            if (d->kind[u] == ARC_SIMT_BARRIER) {
                b->stall = 0;
                if (b->shadow)
                    sim_simt_ub_barrier(b);
            } else if (b->ub_naff) { /* the epoch goes on: as below */
                sim_simt_ub_settle(b);
            }
            if (run[u](b, args) == ARC_SIMT_RUN_UNCHECKED) /* a checked run proven race-free (race_simt.c) */
                d->run[u](b, args);
            continue;
        }
        unsigned alive = 0, nyield = 0, nwarp = 0, warp_t = n, nsync = 0;
        uint64_t yw = 0; /* warps with a lane at a yield (2048 threads: 64 warps) */
        for (unsigned t = 0; t < n; t++) {
            int p = pend[t];
            if (p < 0)
                continue;
            alive++;
            nsync += d->kind[p] == ARC_SIMT_BARRIER;
            nwarp += d->kind[p] == ARC_SIMT_WARP;
            if (d->kind[p] == ARC_SIMT_YIELD) {
                nyield++;
                yw |= 1ull << (t / 32);
            }
        }
        if (!alive)
            return 1;
        uint32_t held[ARC_SIMT_MAX_THREADS / 32];
        unsigned nheld = d->behind && nyield ? hold_ahead(d, pend, n, held, &yw, -1) : 0;
        /* the epoch goes on (all but a barrier): the affine accesses of the
         * run that started it into the shadow, before any warp sync count */
        if (b->ub_naff && nsync < alive)
            sim_simt_ub_settle(b);
        /* threads in a grid-stride loop: its run drains it (lockstep) */
        unsigned ls = n;
        for (unsigned t = 0; t < n && ls == n; t++)
            if (pend[t] >= 0 && d->kind[pend[t]] == ARC_SIMT_LOCKSTEP)
                ls = t;
        if (ls < n) {
            run[pend[ls]](b, args);
            spins = 0;
            continue;
        }
        for (unsigned t = 0; t < n && warp_t == n; t++)
            if (pend[t] >= 0 && d->kind[pend[t]] == ARC_SIMT_WARP && !(yw >> (t / 32) & 1))
                warp_t = t;
        unsigned s;
        if (warp_t < n) {
            /* one warp function at a time, over every warp with lanes
             * stopped there and none still spinning on the way */
            s = (unsigned)pend[warp_t];
            int held = 0;
            for (unsigned t0 = 0; t0 < n; t0 += 32) {
                uint32_t active = 0;
                for (unsigned l = 0; l < 32 && t0 + l < n; l++)
                    active |= (uint32_t)(pend[t0 + l] == (int)s) << l;
                if (!active)
                    continue;
                if (yw >> (t0 / 32) & 1) {
                    for (unsigned l = 0; l < 32 && t0 + l < n; l++)
                        if (active >> l & 1)
                            pend[t0 + l] |= HELD;
                    held = 1;
                } else {
                    resolve(d, b, s, t0, active);
                    b->wsync[t0 / 32]++; /* orders the warp's lanes for the UB race check */
                }
            }
            run[s](b, args);
            if (held)
                for (unsigned t = 0; t < n; t++)
                    if (pend[t] >= 0)
                        pend[t] &= ~HELD;
            spins = 0;
            b->stall = 0;
            continue;
        }
        if (nyield > nheld) {
            /* Every live thread spinning (or waiting at a barrier or a warp
             * function for those) twice over: in a VF, what they wait for
             * is the SIMD side's (simt_vf.c). */
            if (may_wait && ++spins >= 2)
                return 0;
            if (!nwarp && !nheld)
                b->stall = 0;
            else if (++b->stall % 1024 == 0)
                check_stall(d, b);
            unsigned ys[16], ny = 0;
            for (unsigned t = 0; t < n && ny < 16; t++) {
                int p = pend[t];
                if (p < 0 || d->kind[p] != ARC_SIMT_YIELD || (nheld && held[t / 32] >> (t % 32) & 1))
                    continue;
                unsigned k = 0;
                while (k < ny && ys[k] != (unsigned)p)
                    k++;
                if (k == ny)
                    ys[ny++] = (unsigned)p;
            }
            for (unsigned k = 0; k < ny; k++) {
                /* lanes move during the round: who waits at ys[k] is
                 * decided as its run starts */
                int h = d->behind && hold_ahead(d, pend, n, NULL, NULL, (int)ys[k]);
                run[ys[k]](b, args);
                for (unsigned t = 0; t < n && h; t++)
                    if (pend[t] >= 0)
                        pend[t] &= ~HELD;
            }
            continue;
        }
        unsigned t = 0;
        while (pend[t] < 0)
            t++;
        s = (unsigned)pend[t];
        for (unsigned u = 0; u < n; u++)
            if (pend[u] != (int)s) {
                char a[96], o[96];
                sim_simt_thread_name(b, t, a, sizeof a);
                sim_simt_thread_name(b, u, o, sizeof o);
                __arc_site(d->where[s]);
                if (pend[u] < 0)
                    __arc_trap("asc_syncthreads", "%s waits at the barrier but %s returned without reaching it: "
                               "every thread of the block must reach each barrier (a barrier in divergent code "
                               "is undefined on the NPU)", a, o);
                __arc_trap("asc_syncthreads", "%s waits at the barrier at %s but %s at the one at %s: every "
                           "thread of the block must reach the same barrier", a, d->where[s], o, d->where[pend[u]]);
            }
        spins = 0;
        b->stall = 0;
        if (b->shadow)
            sim_simt_ub_barrier(b);
        if (run[s](b, args) == ARC_SIMT_RUN_UNCHECKED)
            d->run[s](b, args);
    }
}

void __arc_simt_block(const arc_simt_desc *d, const unsigned char *args)
{
    arc_core *c;
    const sim_kernel_run *r = sim_core_launch_on(&c);
    const arc_simt_dims *t_vf = sim_simt_vf_dims();
    if (!t_vf && (!r || !r->simt))
        __arc_trap("SIMT", "SIMT kernel launched without a thread block (launch it as k[grid, block](...), or with "
                   "the ASCENDRTC_LAUNCH_KERNEL_ATTR_SIMT_BLOCK attribute)");
    const arc_simt_dims *dm = t_vf ? t_vf : r->simt;
    /* Field by field: a memset of the whole context (472 bytes, the GM
     * bounds copied over most of it) was a good part of a small block's
     * time.  A new field must be set here too. */
    _Static_assert(sizeof(arc_simt_block_ctx) == 472, "set each field of arc_simt_block_ctx below");
    arc_simt_block_ctx b;
    memset(b.get, 0, sizeof b.get);
    b.s = 0;
    b.stall = 0;
    b.stall_ns = 0;
    b.shadow = NULL;
    b.shadow_words = 0;
    b.epoch = 0;
    memset(b.wsync, 0, sizeof b.wsync);
    b.ub_fresh = b.ub_naff = 0;
    b.ub_sites = NULL;
    b.warned = 0;
    /* blockIdx: 32-bit divisions (a grid has at most ARC_SIMT_MAX_BLOCKS
     * blocks), none in a 1-D grid, one in a 2-D grid (64-bit ones were a
     * good part of this function's time) */
    unsigned bid = (unsigned)c->block_idx, g0 = dm->grid[0], g1 = dm->grid[1];
    unsigned q = bid < g0 ? 0 : bid / g0, z = q < g1 ? 0 : q / g1;
    b.get[ARC_SIMT_BID] = bid - q * g0;
    b.get[ARC_SIMT_BID + 1] = q - z * g1;
    b.get[ARC_SIMT_BID + 2] = z;
    for (int k = 0; k < 3; k++) {
        b.get[ARC_SIMT_BDIM + k] = dm->block[k];
        b.get[ARC_SIMT_GDIM + k] = dm->grid[k];
    }
    unsigned n = dm->block[0] * dm->block[1] * dm->block[2];
    b.nthreads = n;
    b.frame_size = d->frame_size;
    if (t_vf) {
        /* A VF's static arrays at the top of the UB below what SIMT keeps,
         * out of the way of the SIMD side's buffers (TPipe allocates from
         * offset 0); its dynamic UB is the kernel's, from offset 0. */
        unsigned long long top = c->ub_size - VF_UB_RESERVED, st = (d->static_ub + 31u) & ~31ull;
        if (st > top)
            __arc_trap("asc_vf_call", "the SIMT VF's static __ubuf__ arrays take %u bytes; a VF has at most %llu "
                       "(the UB less %u KiB SIMT keeps)", d->static_ub, top, VF_UB_RESERVED >> 10);
        b.ub = c->ub + ((top - st) & ~31ull);
        b.dyn_ub = c->ub;
    } else {
        b.ub = c->ub;
        b.dyn_ub = c->ub + ((d->static_ub + 31u) & ~31u);
    }
    if (t_vf) /* a VF's arguments are not the launch's: its threads are not GM-checked */
        sim_gm_bounds(&(sim_kernel_run){.km = NULL}, b.gm);
    else
        memcpy(b.gm, r->gm, sizeof b.gm);
    b.frames = frames_for((size_t)n * d->frame_size);
    b.pend = t_pend;
    if (d->npoints) /* every thread starts at point 0; a kernel without points never reads pend */
        sim_zero(t_pend, n * sizeof *t_pend);
    __arc_site(NULL); /* no earlier launch's line in this block's reports */
    if (!t_vf && d->runc && (c->dev[ARC_RACE_SLOT] & 3) != ARC_RACE_OFF)
        sim_simt_ub_begin(&b, d, c->ub_size);
    if ((b.shadow ? d->runc : d->run)[0](&b, args) == ARC_SIMT_RUN_UNCHECKED)
        d->run[0](&b, args);
    if (!d->npoints)
        return;
    if (!sim_simt_drive(d, &b, args, t_vf != NULL))
        sim_simt_vf_suspend(d, &b, args);
}
