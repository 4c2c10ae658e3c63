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
 * L2: a byte a launch reads for the first time comes from HBM; a byte read
 * again hits L2 (192 MB on the 910B) while the launch's footprint fits in
 * it, and misses in proportion beyond; a byte written goes back to HBM
 * once.  Hits are priced at the L2 bandwidth.  First touch is tracked per
 * 512-byte line (the L2 line, doc) in a bitmap per device allocation. */
#include <stdatomic.h>
#include <stdlib.h>

#include "rt/analysis/cost_model.h"

#define LINE 512u
#define PORT_CAP 4096u /* reservations kept per core; beyond, the two oldest merge */

static double maxd(double a, double b) { return a > b ? a : b; }

/* The L2 region of the device allocation holding a, created on first use
 * (NULL: not device memory -- a host pointer -- or too many allocations). */
static l2_region *region(sim_cost_launch *c, uintptr_t a)
{
    unsigned n = atomic_load_explicit(&c->nl2, memory_order_acquire);
    for (unsigned i = 0; i < n; i++)
        if (a - c->l2[i].base < c->l2[i].size)
            return &c->l2[i];
    sim_alloc al;
    if (!sim_mem_find((const void *)a, &al) || !al.device || !al.size)
        return NULL;
    l2_region *r = NULL;
    pthread_mutex_lock(&c->l2mu);
    unsigned m = atomic_load_explicit(&c->nl2, memory_order_relaxed);
    for (unsigned i = n; i < m && !r; i++)
        if (c->l2[i].base == al.base)
            r = &c->l2[i];
    if (!r && m < L2_REGIONS) {
        size_t words = (al.size + (size_t)LINE * 64 - 1) / ((size_t)LINE * 64);
        _Atomic uint64_t *rd = calloc(words, sizeof *rd), *wr = calloc(words, sizeof *wr);
        if (rd && wr) {
            r = &c->l2[m];
            *r = (l2_region){al.base, al.size, rd, wr};
            atomic_store_explicit(&c->nl2, m + 1, memory_order_release);
        } else {
            free(rd);
            free(wr);
        }
    }
    pthread_mutex_unlock(&c->l2mu);
    return r;
}

void sim_cost_l2_free(sim_cost_launch *c)
{
    unsigned n = atomic_load(&c->nl2);
    for (unsigned i = 0; i < n; i++) {
        free(c->l2[i].rd);
        free(c->l2[i].wr);
    }
    pthread_mutex_destroy(&c->l2mu);
}

/* The bytes of an access to [p, p + n) that HBM moves: lines touched
 * (read, or written) for the first time in the launch, and, for reads of
 * lines read before, the share that no longer fits in L2. */
static uint64_t hbm_part(sim_cost_launch *c, const void *p, uint64_t n, int write)
{
    l2_region *r = region(c, (uintptr_t)p);
    if (!r)
        return n;
    uint64_t off = (uint64_t)((uintptr_t)p - r->base), end = off + n;
    if (end > r->size) end = r->size;
    uint64_t lo = off / LINE, hi = (end - 1) / LINE, fresh = 0;
    _Atomic uint64_t *bits = write ? r->wr : r->rd;
    for (uint64_t w = lo / 64; w <= hi / 64; w++) {
        uint64_t m = ~0ull;
        if (w == lo / 64) m &= ~0ull << (lo % 64);
        if (w == hi / 64) m &= ~0ull >> (63 - hi % 64);
        uint64_t old = atomic_fetch_or_explicit(&bits[w], m, memory_order_relaxed);
        fresh += (uint64_t)__builtin_popcountll(m & ~old);
    }
    uint64_t all = fresh ? atomic_fetch_add_explicit(&c->l2_lines, fresh, memory_order_relaxed) + fresh
                         : atomic_load_explicit(&c->l2_lines, memory_order_relaxed);
    uint64_t first = fresh * LINE < n ? fresh * LINE : n;
    if (write)
        return first; /* written back once; rewrites stay in L2 */
    double fits = (double)all * LINE <= c->soc->l2_bytes ? 1.0 : c->soc->l2_bytes / ((double)all * LINE);
    return first + (uint64_t)((double)(n - first) * (1.0 - fits));
}

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
        hbm += hbm_part(b->launch, p, bytes, 0);
    }
    if (wr) {
        b->gm_wr += bytes;
        hbm += hbm_part(b->launch, p, bytes, 1);
    }
    b->hbm_bytes += hbm;
    double moved = (double)bytes * (rd + wr);
    charge(b, q, rd, (double)hbm * b->hbm_cpb + (moved - (double)hbm) * b->l2_cpb);
}

void sim_cost_gm_rows(cost_block *b, int q, int write, const void *p, uint64_t rows, uint64_t len, uint64_t stride)
{
    if (!p || !rows || !len)
        return;
    uint64_t hbm = 0, bytes = rows * len;
    if (stride == len) /* one run */
        hbm = hbm_part(b->launch, p, bytes, write);
    else for (uint64_t r = 0; r < rows; r++)
        hbm += hbm_part(b->launch, (const unsigned char *)p + r * stride, len, write);
    if (write) b->gm_wr += bytes;
    else b->gm_rd += bytes;
    b->hbm_bytes += hbm;
    charge(b, q, !write, (double)hbm * b->hbm_cpb + (double)(bytes - hbm) * b->l2_cpb);
}

void sim_cost_gm_raw(const void *p, unsigned long long bytes, int write)
{
    cost_block *b = sim_cost_blk();
    uintptr_t u = (uintptr_t)p;
    if (!b || !bytes || u >> 12 == b->not_gm_page)
        return;
    if (!region(b->launch, u)) { /* the stack or host memory */
        b->not_gm_page = u >> 12;
        return;
    }
    sim_cost_gm(write ? ARC_GM_WRITE : ARC_GM_READ, 0, p, bytes);
}
