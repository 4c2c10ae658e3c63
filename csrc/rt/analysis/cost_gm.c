/* cost_gm.c - GM traffic in the cost model (docs/performance_model.md,
 * "GM bandwidth and L2").
 *
 * The chip has one GM budget that every reader and writer shares: MTE2
 * loads, MTE3 stores, Fixpipe's L0C -> GM writes, scalar accesses and
 * atomics, of every core.  Each core gets an equal share of it (the HBM
 * bandwidth over the cores in use) and a GM port that all its pipes
 * reserve: a transfer holds the port for its bytes over the share, in the
 * earliest gap at or after its start, and ends no earlier than that.  So a
 * core's reads and writes together never move more than its share, and
 * the launch no more than the chip's bandwidth.
 *
 * Which bytes HBM moves and which L2 serves: cost_l2.c. */
#include <stdlib.h>

#include "rt/analysis/cost_model.h"

#define PORT_CAP 4096u /* reservations kept per core; beyond, the two oldest merge */

static double maxd(double a, double b) { return a > b ? a : b; }

/* Reserve c cycles of b's GM port in its earliest gap at or after t;
 * returns when the reservation ends. */
static double port_reserve(cost_block *b, double t, double c)
{
    unsigned k = 0; /* nothing starts before the issue clock: older reservations are done */
    for (unsigned i = 0; i < b->nport; i++)
        if (b->port[2 * i + 1] > b->s) {
            b->port[2 * k] = b->port[2 * i];
            b->port[2 * k + 1] = b->port[2 * i + 1];
            k++;
        }
    b->nport = k;
    if (b->nport == PORT_CAP) { /* bounded memory: close the first gap */
        b->port[1] = b->port[3];
        for (unsigned i = 1; i + 1 < b->nport; i++) {
            b->port[2 * i] = b->port[2 * i + 2];
            b->port[2 * i + 1] = b->port[2 * i + 3];
        }
        b->nport--;
    }
    unsigned i = 0;
    for (; i < b->nport; i++) {
        if (b->port[2 * i + 1] <= t) continue;
        if (b->port[2 * i] >= t + c) break;
        t = b->port[2 * i + 1];
    }
    if (b->nport == b->capport) {
        unsigned cap = b->capport ? b->capport * 2 : 16;
        double *np = realloc(b->port, 2 * (size_t)cap * sizeof *np);
        if (!np) return t + c; /* no memory: priced, not reserved */
        b->port = np;
        b->capport = cap;
    }
    for (unsigned j = b->nport; j > i; j--) {
        b->port[2 * j] = b->port[2 * j - 2];
        b->port[2 * j + 1] = b->port[2 * j - 1];
    }
    b->port[2 * i] = t;
    b->port[2 * i + 1] = t + c;
    b->nport++;
    return t + c;
}

/* An operation on pipe q opened: the port cycles its GM side reported
 * first (the Matmul API's, some Fixpipes) are its own. */
void sim_cost_gm_open(cost_block *b, int q)
{
    b->cur_port = 0;
    if (b->pend[q] > 0) {
        b->cur_port = port_reserve(b, b->cur.start, b->pend[q]);
        b->pend[q] = 0;
    }
}

/* c port cycles for GM traffic on pipe q: the open operation on q waits
 * for them, or the next one when none is open; the scalar unit waits for
 * its loads. */
static void charge(cost_block *b, int q, int rd, double c)
{
    if (q != 0 && b->cur_open && b->cur.pipe == q) {
        double t = port_reserve(b, b->cur.start, c);
        b->cur_port = maxd(b->cur_port, t);
        if (t > b->cur.end) {
            b->busy[q] += t - b->cur.end;
            b->cur.end = t;
            b->free[q] = maxd(b->free[q], t);
        }
    } else if (q == 0) {
        double t = port_reserve(b, b->s, c);
        if (rd) b->s = maxd(b->s, t); /* a load waits for its data; a store leaves it in the data cache */
    } else {
        b->pend[q] += c;
    }
}

void sim_cost_gm(int op, int pipe, const void *p, unsigned long long bytes)
{
    cost_block *b = sim_cost_blk();
    if (!b || !bytes || op > ARC_GM_ATOMIC_RMW)
        return;
    int q = sim_cost_pidx(pipe);
    if (q < 0) q = 0;
    /* atomics (DMA or scalar) read and write GM in place: counted as
     * writes, a scalar atomic also as a read */
    int rd = op == ARC_GM_READ || op == ARC_GM_ATOMIC_RMW, wr = op != ARC_GM_READ;
    uint64_t hbm = 0;
    if (rd) {
        b->gm_rd += bytes;
        hbm += sim_cost_l2_hbm(b, p, bytes, 0);
    }
    if (wr) {
        b->gm_wr += bytes;
        hbm += sim_cost_l2_hbm(b, p, bytes, 1);
    }
    double moved = (double)bytes * (rd + wr);
    charge(b, q, rd, (double)hbm * b->hbm_cpb + (moved - (double)hbm) * b->l2_cpb);
}

void sim_cost_gm_rows(cost_block *b, int q, int write, const void *p, uint64_t rows, uint64_t len, uint64_t stride)
{
    if (!p || !rows || !len)
        return;
    uint64_t hbm = 0, bytes = rows * len;
    if (stride == len) /* one run */
        hbm = sim_cost_l2_hbm(b, p, bytes, write);
    else for (uint64_t r = 0; r < rows; r++)
        hbm += sim_cost_l2_hbm(b, (const unsigned char *)p + r * stride, len, write);
    if (write) b->gm_wr += bytes;
    else b->gm_rd += bytes;
    charge(b, q, !write, (double)hbm * b->hbm_cpb + (double)(bytes - hbm) * b->l2_cpb);
}

void sim_cost_gm_raw(const void *p, unsigned long long bytes, int write)
{
    cost_block *b = sim_cost_blk();
    uintptr_t u = (uintptr_t)p;
    if (!b || !bytes || u >> 12 == b->not_gm_page)
        return;
    if (!sim_cost_l2_region(b->launch, u)) { /* the stack or host memory */
        b->not_gm_page = u >> 12;
        return;
    }
    sim_cost_gm(write ? ARC_GM_WRITE : ARC_GM_READ, 0, p, bytes);
}
