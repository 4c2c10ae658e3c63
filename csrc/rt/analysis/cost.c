/* cost.c - the estimated NPU time of a profiled launch (docs/performance_model.md).
 *
 * The simulated core runs every pipe in program order; the NPU runs them
 * concurrently.  While a profiling session is on, each device-API
 * operation (reported through the race hooks: pipe, bytes, element size)
 * is placed on a per-block model of the AI core: one clock per pipe plus
 * the scalar unit's issue clock.  An operation starts when its pipe is
 * free, the scalar unit has issued it, and every sync ordering it is
 * satisfied (SetFlag/WaitFlag, the flags queue EnQue/DeQue and
 * FreeTensor/AllocTensor imply, PipeBarrier<PIPE_ALL>, the compiler's
 * scalar auto-sync); otherwise pipes overlap.  Durations come from the
 * published rates (cost_rates.c).  cost_report.c places the blocks on the
 * SoC's cores once the launch ends and reports it.
 *
 * Per-block state lives in a record that arc_core::dev[ARC_COST_SLOT]
 * points to, so it follows the block whatever thread runs it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/analysis/cost_model.h"

/* ---- the per-block model ---- */
int sim_cost_pidx(int pipe_t_value)
{
    switch (pipe_t_value) {
    case 0: case 1: case 2: case 3: case 4: case 5: return pipe_t_value;
    case 10: return 6;
    default: return -1;
    }
}

cost_block *sim_cost_blk(void)
{
    arc_core *k = __arc_core();
    return k ? (cost_block *)(uintptr_t)k->dev[ARC_COST_SLOT] : NULL;
}

static double maxd(double a, double b) { return a > b ? a : b; }

void sim_cost_close_op(cost_block *b)
{
    if (!b->cur_open)
        return;
    b->cur_open = 0;
    if (b->cur.pipe == 2)
        b->flops += b->cur_flops;
    if (b->nev == b->maxev) {
        if (!b->dropped++)
            b->first_drop = b->cur.start;
        return;
    }
    if (b->nev == b->capev) {
        size_t cap = b->capev ? b->capev * 2 : 256;
        if (cap > b->maxev) cap = b->maxev;
        cost_ev *n = realloc(b->ev, cap * sizeof *n);
        if (!n) {
            if (!b->dropped++)
                b->first_drop = b->cur.start;
            return;
        }
        b->ev = n;
        b->capev = cap;
    }
    b->ev[b->nev++] = b->cur;
}

enum { SP_UB, SP_L1, SP_L0A, SP_L0B, SP_L0C, SP_OTHER };

/* The local memory an access points into. */
static int space_of(const cost_block *b, const unsigned char *a)
{
    if (b->l1 && a >= b->l1 && a < b->l1 + b->l1_size) return SP_L1;
    if (b->l0 && a >= b->l0 && a < b->l0 + (uint64_t)ARC_L0_SLOTS * ARC_L0_SLOT) {
        uint64_t o = (uint64_t)(a - b->l0); /* one slot per buffer (core_abi.h) */
        if (o < ARC_L0B_OFF) return SP_L0A;
        if (o < ARC_L0C_OFF) return SP_L0B;
        if (o < ARC_L0C_OFF + ARC_L0_SLOT) return SP_L0C;
        return SP_OTHER;
    }
    return SP_UB;
}

static double dma(const cost_block *b, int path, uint64_t bytes)
{
    return sim_cost_dma_seconds(path, (double)bytes) * b->hz; /* the GM budget: cost_gm.c */
}

/* Cycles the open operation takes, from what it has seen so far; sets
 * cur.assumed when no published rate covers it. */
static double op_cycles(cost_block *b, unsigned esize)
{
    cost_ev *e = &b->cur;
    int assumed = 0;
    double d;
    switch (e->pipe) {
    case 1: { /* vector: whole 256-byte repeats of the largest operand */
        double cpr = sim_cost_vec_cpr(e->api, esize ? esize : 4, &assumed);
        d = VEC_HEAD + ceil((double)e->bytes / 256.0) * cpr;
        break;
    }
    case 4: /* GM -> UB, L1 or L0 */
        d = dma(b, b->cur_dst_sp == SP_L1 ? SIM_COST_GM_L1 : b->cur_dst_sp == SP_L0A || b->cur_dst_sp == SP_L0B
                                                                 ? SIM_COST_GM_L0 : SIM_COST_GM_UB, e->bytes);
        break;
    case 5:
        d = dma(b, SIM_COST_UB_GM, e->bytes);
        break;
    case 0:
        d = 1.0; /* [assumed] a scalar access */
        break;
    case 3: /* L1 -> L0A 256 B/cycle, L0B 128 [doc, meas] */
        d = 1.0 + (double)(b->cur_w ? b->cur_c : e->bytes) / (b->cur_dst_sp == SP_L0B ? 128.0 : 256.0);
        break;
    case 2: /* Mmad: one 16x16x16 fp16 (16x32x16 int8) fractal product per cycle [meas]: 512-byte L0A/L0B
               fractals (16x64x16 int4, the same cycles), 1024-byte L0C ones; about 3 cycles more per
               instruction.  fp32 runs at a quarter
               of fp16's rate [doc]; its 512-byte fractals hold half of fp16's K, so twice the cycles
               per fractal triple. */
        if (b->cur_a && b->cur_b && b->cur_c) {
            double triples = sqrt((double)b->cur_a / 512.0 * ((double)b->cur_b / 512.0) * ((double)b->cur_c / 1024.0));
            d = 3.0 + (esize == 4 ? 2.0 : 1.0) * triples;
            /* 2 operations per multiply-add of a 16 x (512 B of K) x 16 triple */
            b->cur_flops = triples * 2.0 * 16 * 16 *
                           (esize == ARC_COST_ESIZE_S4 ? 64 : esize == 1 ? 32 : esize == 4 ? 8 : 16);
        } else {
            assumed = 1;
            d = 1.0 + (double)e->bytes / 256.0;
        }
        break;
    default: /* FIX: L0C -> GM measured; L0C -> L1 at the theoretical 256 B/cycle */
        if (b->cur_l0c) {
            d = b->cur_w ? 1.0 + (double)b->cur_src / 256.0 : dma(b, SIM_COST_L0C_GM, b->cur_src);
        } else {
            assumed = 1;
            d = 1.0 + (double)e->bytes / 256.0;
        }
        break;
    }
    e->assumed = (uint8_t)assumed;
    return d;
}

/* Record one operand of the open operation. */
static void note(cost_block *b, int write, int sp, uint64_t bytes)
{
    if (bytes > b->cur.bytes) b->cur.bytes = bytes;
    if (write) {
        b->cur_w = 1;
        b->cur_dst_sp = sp;
        b->cur_c = bytes;
    } else {
        if (b->cur.pipe == 2 && b->cur_nread == 0) b->cur_a = bytes;
        if (b->cur.pipe == 2 && b->cur_nread == 1) b->cur_b = bytes;
        b->cur_nread++;
    }
    if (sp == SP_L0C && b->cur.pipe == 6 && !write) {
        b->cur_l0c = 1;
        b->cur_src = bytes;
    }
}

/* The scalar unit issues one instruction into pipe q's queue; returns when
 * the pipe may start it. */
double sim_cost_issue(cost_block *b, int q)
{
    b->s += ISSUE;
    b->busy[0] += ISSUE;
    if (q == 0)
        return b->s;
    uint64_t n = b->nissued[q]++;
    if (n >= QDEPTH) /* full queue: wait until the op QDEPTH back has left it */
        b->s = maxd(b->s, b->qstart[q][n % QDEPTH]);
    double start = maxd(b->free[q], b->s);
    b->qstart[q][n % QDEPTH] = start;
    return start;
}

void sim_cost_access(int pipe, int write, const void *p, unsigned long long bytes, const char *api)
{
    cost_block *b = sim_cost_blk();
    int q = sim_cost_pidx(pipe);
    if (!b || q < 0 || bytes == 0)
        return;
    unsigned esize = (unsigned)__arc_core()->dev[ARC_COST_ESIZE_SLOT];
    int sp = space_of(b, p);
    /* A call reports its operands one by one.  Vector calls name dst first,
     * then the sources; the cube's (LoadData, Mmad) the sources, then dst;
     * Fixpipe reads L0C last; copies to or from GM have one local operand. */
    int same = b->cur_open && b->cur.pipe == q && b->cur.api == api, join;
    switch (q) {
    case 1: join = same && !write; break;
    case 2: case 3: join = same && !b->cur_w; break;
    case 6: join = same && !b->cur_l0c; break;
    default: join = 0; break;
    }
    if (join) {
        double old = b->cur.end - b->cur.start;
        note(b, write, sp, bytes);
        double d = op_cycles(b, esize);
        b->cur.end = maxd(b->cur.start + d, b->cur_port);
        b->busy[q] += (b->cur.end - b->cur.start) - old;
        b->free[q] = b->cur.end;
        return;
    }
    sim_cost_close_op(b);
    double start = sim_cost_issue(b, q);
    b->cur = (cost_ev){.start = start, .api = api, .site = sim_site(), .phase = b->nmarks, .pipe = (uint8_t)q};
    b->cur_open = 1;
    b->cur_w = b->cur_l0c = b->cur_nread = 0;
    b->cur_dst_sp = SP_UB;
    b->cur_a = b->cur_b = b->cur_c = b->cur_src = 0;
    b->cur_flops = 0;
    note(b, write, sp, bytes);
    sim_cost_gm_open(b, q);
    double d = maxd(op_cycles(b, esize), b->cur_port - start);
    b->cur.end = start + d;
    b->nops++;
    b->busy[q] += d;
    if (q == 0)
        b->s = start + d;
    b->free[q] = start + d;
}

static qtime *qfind(cost_block *b, uintptr_t key, int dst, int create)
{
    for (unsigned i = 0; i < b->nq; i++)
        if (b->q[i].key == key && b->q[i].dst == dst)
            return &b->q[i];
    if (!create || b->nq == sizeof b->q / sizeof b->q[0])
        return NULL;
    b->q[b->nq] = (qtime){key, dst, 0};
    return &b->q[b->nq++];
}

/* When everything pipe s was given has finished (as seen from the scalar unit). */
static double done_of(cost_block *b, int s) { return s == 0 ? b->s : maxd(b->free[s], b->s); }

/* Pipe d may run nothing before t. */
void sim_cost_hold(cost_block *b, int d, double t)
{
    if (d == 0)
        b->s = maxd(b->s, t);
    else
        b->free[d] = maxd(b->free[d], t);
}

void sim_cost_sync(int kind, int src, int dst, unsigned long long key)
{
    cost_block *b = sim_cost_blk();
    if (!b)
        return;
    sim_cost_close_op(b);
    int s = sim_cost_pidx(src), d = sim_cost_pidx(dst);
    switch (kind) {
    case ARC_RACE_SET:
        if (s < 0 || d < 0 || key >= 8) return;
        b->s += ISSUE;
        b->busy[0] += ISSUE;
        b->flag[s][d][key] = done_of(b, s);
        return;
    case ARC_RACE_WAIT:
        if (s < 0 || d < 0 || key >= 8) return;
        b->s += ISSUE;
        b->busy[0] += ISSUE;
        sim_cost_hold(b, d, b->flag[s][d][key]);
        return;
    case ARC_RACE_QSET: {
        if (s < 0 || d < 0) return;
        b->s += ISSUE;
        b->busy[0] += ISSUE;
        qtime *e = qfind(b, (uintptr_t)key, d, 1);
        if (e) e->t = done_of(b, s);
        return;
    }
    case ARC_RACE_QWAIT: {
        if (d < 0) return;
        qtime *e = qfind(b, (uintptr_t)key, d, 0);
        if (e) {
            b->s += ISSUE;
            b->busy[0] += ISSUE;
            sim_cost_hold(b, d, e->t);
        }
        return;
    }
    case ARC_RACE_ALL: { /* PipeBarrier<PIPE_ALL>; key 1: SyncAll */
        double t = b->s;
        for (int p = 1; p < CP; p++) t = maxd(t, b->free[p]);
        b->s = t;
        for (int p = 1; p < CP; p++) b->free[p] = t;
        if (key == 1) {
            if (b->nmarks == b->capmarks) {
                uint32_t cap = b->capmarks ? b->capmarks * 2 : 8;
                double *m = realloc(b->marks, cap * sizeof *m);
                if (!m) return;
                b->marks = m;
                b->capmarks = cap;
            }
            b->marks[b->nmarks++] = t;
        }
        return;
    }
    case ARC_RACE_DRAIN: /* the scalar waits for pipe s */
        if (s >= 0) b->s = maxd(b->s, b->free[s]);
        return;
    case ARC_RACE_SCALAR: /* the compiler's auto-sync around a scalar UB access, then the access */
        b->s = maxd(b->s, maxd(b->free[1], maxd(b->free[4], b->free[5])));
        b->s += 1.0;
        b->busy[0] += 1.0;
        return;
    default:
        return;
    }
}

/* ---- launches ---- */
sim_cost_launch *sim_cost_launch_new(const sim_arch *arch, const char *kernel, uint32_t nblocks, uint32_t cores,
                                     uint32_t core_type)
{
    if (!sim_cost_session_on() || nblocks > MAX_BLOCKS)
        return NULL;
    sim_cost_launch *c = calloc(1, sizeof *c);
    if (!c || !(c->blocks = calloc(nblocks, sizeof *c->blocks))) {
        free(c);
        return NULL;
    }
    pthread_mutex_init(&c->l2mu, NULL);
    c->soc = sim_cost_session_soc();
    if (!c->soc)
        c->soc = sim_cost_soc_find(arch->soc);
    if (!c->soc)
        c->soc = sim_cost_soc_find("Ascend910B1");
    snprintf(c->kernel, sizeof c->kernel, "%s", kernel ? kernel : "kernel");
    c->nblocks = nblocks;
    /* the modelled SoC's cores of the kind the kernel runs on */
    c->cores = core_type ? c->soc->aic : c->soc->aiv;
    (void)cores;
    c->core_type = core_type;
    return c;
}

void sim_cost_mark_mix(sim_cost_launch *c)
{
    if (c) atomic_store(&c->mix, 1);
}

void sim_cost_mark_simt(sim_cost_launch *c)
{
    if (c) c->simt = 1;
}

cost_block *sim_cost_block_new(sim_cost_launch *c, arc_core *k)
{
    cost_block *b = calloc(1, sizeof *b);
    if (!b)
        return NULL; /* no memory: this block is not priced (the report says so) */
    uint32_t active = c->nblocks < c->cores ? c->nblocks : c->cores;
    b->hz = c->soc->mhz * 1e6;
    b->hbm_cpb = b->hz * active / c->soc->gm_Bps; /* the core's share of the chip's GM budget */
    b->l2_cpb = b->hz * active / c->soc->l2_Bps;
    b->launch = c;
    b->maxev = EVENT_BUDGET / c->nblocks;
    if (b->maxev < 64)
        b->maxev = 64;
    b->l1 = k->l1;
    b->l1_size = k->l1_size;
    b->l0 = k->l0;
    k->dev[ARC_COST_SLOT] = (unsigned long long)(uintptr_t)b;
    k->dev[ARC_RACE_SLOT] |= ARC_COST_ON;
    return b;
}

void sim_cost_block_begin(arc_core *k, const sim_kernel_run *r)
{
    sim_cost_launch *c = r->cost;
    if (!c || k->block_idx < 0 || (uint64_t)k->block_idx >= c->nblocks)
        return;
    c->blocks[k->block_idx] = sim_cost_block_new(c, k);
}
