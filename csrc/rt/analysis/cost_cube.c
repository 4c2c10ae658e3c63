/* cost_cube.c - the Matmul API in the cost model (docs/performance_model.md,
 * "The Matmul API").
 *
 * The simulated Matmul API computes each baseM x baseN block of C on the
 * host in one go; on the NPU the AIC runs it as a pipeline (CFG_NORM):
 * MTE2 loads stepKa (stepKb) baseK chunks of A's (B's) K from GM into L1
 * at a time, and for every chunk MTE1 moves it into L0A / L0B and the cube
 * multiplies into L0C; then Fixpipe moves the block out of L0C.  L1 and
 * L0A/L0B are double buffered (the tiling's depthA1 = 2 x stepKa and
 * dbL0A = 2 defaults), so loads overlap the Mmads of earlier chunks; L0C holds one block, so the next block's first Mmad waits
 * for the Fixpipe of the last.  Each step is an operation on its pipe,
 * priced like the basic API's (cost.c, cost_gm.c). */
#include <math.h>

#include "rt/analysis/cost_model.h"

static double maxd(double a, double b) { return a > b ? a : b; }

enum { Q_M = 2, Q_MTE1 = 3, Q_MTE2 = 4, Q_FIX = 6 };

/* Open an operation of `cycles` on pipe q that may not start before
 * `ready`; returns it (still open: GM charges may lengthen it). */
static cost_ev *op(cost_block *b, int q, const char *api, uint64_t bytes, double cycles, double ready)
{
    sim_cost_close_op(b);
    sim_cost_hold(b, q, ready);
    double start = sim_cost_issue(b, q);
    b->cur = (cost_ev){.start = start, .api = api, .site = sim_site(), .phase = b->nmarks, .pipe = (uint8_t)q,
                       .bytes = bytes};
    b->cur_open = 1;
    b->cur_w = b->cur_l0c = b->cur_nread = 0;
    b->cur_a = b->cur_b = b->cur_c = b->cur_src = 0;
    b->cur_flops = 0;
    sim_cost_gm_open(b, q);
    double d = maxd(cycles, b->cur_port - start);
    b->cur.end = start + d;
    b->nops++;
    b->busy[q] += d;
    b->free[q] = b->cur.end;
    return &b->cur;
}

static double dma_cycles(const cost_block *b, int path, uint64_t bytes)
{
    return sim_cost_dma_seconds(path, (double)bytes) * b->hz;
}

/* One operand's chunk [k0, k0 + kb) of K from GM into L1. */
static void load(cost_block *b, const char *api, const void *p, unsigned long long ld, int krows, unsigned other,
                 unsigned k0, unsigned kb, unsigned es, double ready)
{
    uint64_t bytes = (uint64_t)other * kb * es;
    op(b, Q_MTE2, api, bytes, dma_cycles(b, SIM_COST_GM_L1, bytes), ready);
    if (!p) return;
    const unsigned char *c = p;
    if (!ld) /* NZ: the chunk's fractals, taken as one run */
        sim_cost_gm_rows(b, Q_MTE2, 0, c + (uint64_t)k0 * other * es, 1, bytes, bytes);
    else if (krows)
        sim_cost_gm_rows(b, Q_MTE2, 0, c + (uint64_t)k0 * ld, kb, (uint64_t)other * es, ld);
    else
        sim_cost_gm_rows(b, Q_MTE2, 0, c + (uint64_t)k0 * es, other, (uint64_t)kb * es, ld);
}

void __arc_cost_mm(const arc_cost_mm *c)
{
    cost_block *b = sim_cost_blk();
    if (!b || !c->m || !c->n || !c->k)
        return;
    unsigned es = c->esize ? c->esize : 2, bk = c->base_k && c->base_k < c->k ? c->base_k : c->k;
    unsigned ska = c->step_ka ? c->step_ka : 1, skb = c->step_kb ? c->step_kb : 1;
    unsigned sa = 0, sb = 0; /* the L1 halves holding this chunk's A and B */
    for (unsigned k0 = 0, kk = 0; k0 < c->k; k0 += bk, kk++, b->mm_k++) {
        unsigned kb = c->k - k0 < bk ? c->k - k0 : bk, slot = b->mm_k & 1;
        /* MTE2 fills an L1 half with step_ka (step_kb) chunks once MTE1
         * has read what it held (depthA1 = 2 x stepKa: double buffered) */
        if (kk % ska == 0) {
            unsigned kg = c->k - k0 < ska * bk ? c->k - k0 : ska * bk;
            sa = b->mm_ga++ & 1;
            load(b, "Matmul::CopyIn(A, GM->L1)", c->a, c->lda, c->a_krows, c->m, k0, kg, es, b->mm_a_free[sa]);
            b->mm_a_full[sa] = b->cur.end;
        }
        if (kk % skb == 0) {
            unsigned kg = c->k - k0 < skb * bk ? c->k - k0 : skb * bk;
            sb = b->mm_gb++ & 1;
            load(b, "Matmul::CopyIn(B, GM->L1)", c->b, c->ldb, c->b_krows, c->n, k0, kg, es, b->mm_b_free[sb]);
            b->mm_b_full[sb] = b->cur.end;
        }
        /* MTE1: L1 -> L0A at 256 B/cycle, L0B at 128 [doc, meas], once the
         * L0 half's last Mmad is done */
        uint64_t ab = (uint64_t)c->m * kb * es, bb = (uint64_t)kb * c->n * es;
        double ready = maxd(maxd(b->mm_a_full[sa], b->mm_b_full[sb]), b->mm_l0[slot]);
        double l0 = op(b, Q_MTE1, "Matmul::LoadA(L1->L0A)", ab, 1.0 + (double)ab / 256.0, ready)->end;
        l0 = maxd(l0, op(b, Q_MTE1, "Matmul::LoadB(L1->L0B)", bb, 1.0 + (double)bb / 128.0, ready)->end);
        b->mm_a_free[sa] = maxd(b->mm_a_free[sa], l0);
        b->mm_b_free[sb] = maxd(b->mm_b_free[sb], l0);
        /* Mmad: one 16 x 16 x (32 B of K) fractal triple per cycle, about 3
         * more per instruction [meas]; fp32 at a quarter of fp16's rate */
        double triples = ceil(c->m / 16.0) * ceil(c->n / 16.0) * ceil((double)kb * es / 32.0);
        double first = k0 == 0 ? b->mm_fix : 0; /* L0C: the last block's Fixpipe has read it */
        cost_ev *m = op(b, Q_M, "Matmul::Mmad", (uint64_t)c->m * c->n * 4,
                        3.0 + (es == 4 ? 2.0 : 1.0) * triples, maxd(l0, first));
        b->cur_flops = 2.0 * c->m * c->n * kb;
        b->mm_l0[slot] = m->end;
        b->mm_m = m->end;
    }
    sim_cost_close_op(b);
}

void __arc_cost_mm_out(unsigned long long bytes)
{
    cost_block *b = sim_cost_blk();
    if (!b || !bytes)
        return;
    /* L0C -> GM measured [meas]; the GM write itself is charged when the
     * API reports it (cost_gm.c) */
    b->mm_fix = op(b, Q_FIX, "Matmul::Fixpipe(L0C->GM)", bytes, dma_cycles(b, SIM_COST_L0C_GM, bytes), b->mm_m)->end;
}
