/* cost_mix.c - MIX launches in the cost model: each block's AIC and AIVs
 * are priced as cores of their own (each its pipes and GM share), a
 * CrossCoreWaitFlag waits until the matching CrossCoreSetFlag's core had
 * finished what it issued before it (every pipe, as the flag's pipe is not
 * known here), and the report shows one record per block: its sub-cores'
 * timelines together, busy time summed, ending with the last of them. */
#include <stdlib.h>
#include <string.h>

#include "rt/analysis/cost_model.h"

static double maxd(double a, double b) { return a > b ? a : b; }

void sim_cost_sub_begin(arc_core *k, const sim_kernel_run *r, uint32_t b, int i)
{
    sim_cost_launch *c = r->cost;
    if (!c || b >= c->nblocks || i < 0 || i >= MIX_SUBS)
        return;
    pthread_mutex_lock(&c->l2mu);
    if (!c->subs)
        c->subs = calloc((size_t)c->nblocks * MIX_SUBS, sizeof *c->subs);
    pthread_mutex_unlock(&c->l2mu);
    if (!c->subs)
        return; /* no memory: the sub-core is not priced */
    sim_cost_block_free(c->subs[(size_t)b * MIX_SUBS + i]); /* a block run again after a failure */
    c->subs[(size_t)b * MIX_SUBS + i] = sim_cost_block_new(c, k);
}

static cost_block *of(arc_core *k) { return k ? (cost_block *)(uintptr_t)k->dev[ARC_COST_SLOT] : NULL; }

void sim_cost_xset(arc_core *from, arc_core *to, int id)
{
    cost_block *f = of(from), *t = of(to);
    if (!f || !t || id < 0 || id > 15 || t->xn[id] >= 16)
        return;
    sim_cost_close_op(f);
    double at = f->s;
    for (int p = 1; p < CP; p++) at = maxd(at, f->free[p]);
    t->xq[id][(t->xh[id] + t->xn[id]) % 16] = at;
    t->xn[id]++;
}

void sim_cost_xwait(arc_core *k, int id)
{
    cost_block *b = of(k);
    if (!b || id < 0 || id > 15 || !b->xn[id])
        return;
    sim_cost_close_op(b);
    b->s = maxd(b->s, b->xq[id][b->xh[id]]);
    b->xh[id] = (uint8_t)((b->xh[id] + 1) % 16);
    b->xn[id]--;
}

/* Fold core x's record into m's. */
static void fold(cost_block *m, cost_block *x)
{
    sim_cost_close_op(x);
    m->s = maxd(m->s, x->s);
    for (int p = 0; p < CP; p++) {
        m->free[p] = maxd(m->free[p], x->free[p]);
        m->busy[p] += x->busy[p];
    }
    if (x->nev && m->nev + x->nev > m->capev) {
        cost_ev *ne = realloc(m->ev, (m->nev + x->nev) * sizeof *ne);
        if (ne) {
            m->ev = ne;
            m->capev = m->nev + x->nev;
        }
    }
    size_t keep = m->capev - m->nev < x->nev ? m->capev - m->nev : x->nev;
    if (keep) memcpy(m->ev + m->nev, x->ev, keep * sizeof *x->ev);
    m->nev += keep;
    if (x->dropped && (!m->dropped || x->first_drop < m->first_drop)) m->first_drop = x->first_drop;
    m->dropped += x->dropped + (x->nev - keep);
    m->nops += x->nops;
    m->gm_rd += x->gm_rd;
    m->gm_wr += x->gm_wr;
    m->dev_rd += x->dev_rd;
    m->hbm_host += x->hbm_host;
    m->flops += x->flops;
}

void sim_cost_mix_fold(sim_cost_launch *c)
{
    if (!c->subs)
        return;
    for (uint32_t i = 0; i < c->nblocks; i++) {
        cost_block **s = &c->subs[(size_t)i * MIX_SUBS], *m = NULL;
        for (int j = 0; j < MIX_SUBS; j++) {
            if (!s[j]) continue;
            sim_cost_close_op(s[j]);
            if (!m) {
                m = s[j];
            } else {
                fold(m, s[j]);
                sim_cost_block_free(s[j]);
            }
            s[j] = NULL;
        }
        if (m) {
            sim_cost_block_free(c->blocks[i]); /* the pool core's record: it ran no kernel code */
            c->blocks[i] = m;
        }
    }
}
