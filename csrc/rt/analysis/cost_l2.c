/* cost_l2.c - the L2 in the cost model (docs/performance_model.md, "GM
 * bandwidth and L2"): which bytes of a GM access HBM moves.
 *
 * Deterministic by construction: an estimate must not depend on how the
 * host's threads interleave the blocks.  So a core prices its accesses
 * from its own history alone: a 512-byte line (the L2 line, doc) the core
 * reads for the first time comes from HBM at its share of the HBM
 * bandwidth, a line it read before hits L2 while the allocations it has
 * touched fit in L2 (beyond, the share that does not fit misses), a line
 * it writes goes back to HBM once.  Another core having fetched the line
 * earlier is not credited: which core is first follows host scheduling,
 * not simulated time, and crediting it made estimates move between runs
 * (by 5% on a 1024^3 matmul).  That prices shared data as each core's own
 * miss, never below the roofline.
 *
 * The chip's HBM traffic (the report's hbm_bytes and the roofline's HBM
 * floor) is counted once per line at the end of the launch from the union
 * of every core's lines (a bitmap per device allocation, order-free):
 * each line read, each line written, plus re-reads that miss because the
 * launch's footprint exceeds L2. */
#include <stdatomic.h>
#include <stdlib.h>

#include "rt/analysis/cost_model.h"

#define LINE 512u
#define CHUNK_LINES 4096u /* a core's lines are kept in chunks of 2 MiB of address space */

/* The L2 region of the device allocation holding a, created on first use
 * (NULL: not device memory -- a host pointer -- or too many allocations). */
l2_region *sim_cost_l2_region(sim_cost_launch *c, uintptr_t a)
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

void sim_cost_l2_block_free(cost_block *b)
{
    for (unsigned i = 0; i < b->capseen; i++)
        free(b->seen[i]);
    free(b->seen);
}

/* b's chunk of lines holding line l (created on first use; NULL: no memory). */
static l2_chunk *chunk(cost_block *b, uint64_t l)
{
    uintptr_t key = (uintptr_t)(l / CHUNK_LINES) + 1; /* 0: an empty slot */
    if (2 * (b->nseen + 1) > b->capseen) { /* open addressing, at most half full */
        unsigned cap = b->capseen ? 2 * b->capseen : 64;
        l2_chunk **t = calloc(cap, sizeof *t);
        if (!t) return NULL;
        for (unsigned i = 0; i < b->capseen; i++)
            if (b->seen[i]) {
                unsigned h = (unsigned)(b->seen[i]->key * 0x9E3779B97F4A7C15ull >> 32) & (cap - 1);
                while (t[h]) h = (h + 1) & (cap - 1);
                t[h] = b->seen[i];
            }
        free(b->seen);
        b->seen = t;
        b->capseen = cap;
    }
    unsigned h = (unsigned)(key * 0x9E3779B97F4A7C15ull >> 32) & (b->capseen - 1);
    for (; b->seen[h]; h = (h + 1) & (b->capseen - 1))
        if (b->seen[h]->key == key)
            return b->seen[h];
    l2_chunk *k = calloc(1, sizeof *k);
    if (!k) return NULL;
    k->key = key;
    b->seen[h] = k;
    b->nseen++;
    return k;
}

/* Set bits [lo, hi] of the bitmap words; returns how many were clear. */
static uint64_t mark_atomic(_Atomic uint64_t *bits, uint64_t lo, uint64_t hi)
{
    uint64_t fresh = 0;
    for (uint64_t w = lo / 64; w <= hi / 64; w++) {
        uint64_t m = ~0ull;
        if (w == lo / 64) m &= ~0ull << (lo % 64);
        if (w == hi / 64) m &= ~0ull >> (63 - hi % 64);
        uint64_t old = atomic_fetch_or_explicit(&bits[w], m, memory_order_relaxed);
        fresh += (uint64_t)__builtin_popcountll(m & ~old);
    }
    return fresh;
}

/* Lines [lo, hi] (absolute line numbers) new to core b for reading or
 * writing; a chunk that cannot be allocated counts as new. */
static uint64_t mark_block(cost_block *b, uint64_t lo, uint64_t hi, int write)
{
    uint64_t fresh = 0;
    for (uint64_t l = lo; l <= hi;) {
        uint64_t last = (l / CHUNK_LINES + 1) * CHUNK_LINES - 1;
        if (last > hi) last = hi;
        l2_chunk *k = chunk(b, l);
        if (!k) {
            fresh += last - l + 1;
        } else {
            uint64_t *bits = write ? k->wr : k->rd, a = l % CHUNK_LINES, z = last % CHUNK_LINES;
            for (uint64_t w = a / 64; w <= z / 64; w++) {
                uint64_t m = ~0ull;
                if (w == a / 64) m &= ~0ull << (a % 64);
                if (w == z / 64) m &= ~0ull >> (63 - z % 64);
                fresh += (uint64_t)__builtin_popcountll(m & ~bits[w]);
                bits[w] |= m;
            }
        }
        l = last + 1;
    }
    return fresh;
}

uint64_t sim_cost_l2_hbm(cost_block *b, const void *p, uint64_t n, int write)
{
    sim_cost_launch *c = b->launch;
    l2_region *r = sim_cost_l2_region(c, (uintptr_t)p);
    if (!r) {
        b->hbm_host += n; /* host memory: no L2 */
        return n;
    }
    uint64_t off = (uint64_t)((uintptr_t)p - r->base), end = off + n;
    if (end > r->size) end = r->size;
    mark_atomic(write ? r->wr : r->rd, off / LINE, (end - 1) / LINE); /* the chip's union */
    unsigned ri = (unsigned)(r - c->l2);
    if (!(b->l2_regions >> ri & 1)) { /* the allocations this core touched */
        b->l2_regions |= 1ull << ri;
        b->footprint += (double)r->size;
    }
    uintptr_t a = (uintptr_t)p;
    uint64_t fresh = mark_block(b, a / LINE, (a + n - 1) / LINE, write);
    uint64_t first = fresh * LINE < n ? fresh * LINE : n;
    if (write)
        return first; /* written back once; rewrites stay in L2 */
    b->dev_rd += n;
    double fits = b->footprint <= c->soc->l2_bytes ? 1.0 : c->soc->l2_bytes / b->footprint;
    return first + (uint64_t)((double)(n - first) * (1.0 - fits));
}

/* A region's bitmap word w: lines read (which 0), written (1), either (2). */
static uint64_t word(const l2_region *r, size_t w, int which)
{
    uint64_t rd = atomic_load_explicit(&r->rd[w], memory_order_relaxed);
    uint64_t wr = atomic_load_explicit(&r->wr[w], memory_order_relaxed);
    return which == 0 ? rd : which == 1 ? wr : rd | wr;
}

/* The bytes of a region's lines set in bitmap `which`, the last line
 * clipped to the allocation. */
static uint64_t union_bytes(const l2_region *r, int which)
{
    size_t words = (r->size + (size_t)LINE * 64 - 1) / ((size_t)LINE * 64);
    uint64_t lines = 0, last = (r->size - 1) / LINE;
    for (size_t w = 0; w < words; w++)
        lines += (uint64_t)__builtin_popcountll(word(r, w, which));
    uint64_t bytes = lines * LINE;
    if (word(r, last / 64, which) >> (last % 64) & 1)
        bytes -= LINE - (r->size - last * LINE);
    return bytes;
}

uint64_t sim_cost_l2_chip_hbm(sim_cost_launch *c, uint64_t dev_rd, uint64_t host)
{
    unsigned n = atomic_load(&c->nl2);
    uint64_t rd = 0, wr = 0, foot = 0;
    for (unsigned i = 0; i < n; i++) {
        rd += union_bytes(&c->l2[i], 0);
        wr += union_bytes(&c->l2[i], 1);
        foot += union_bytes(&c->l2[i], 2);
    }
    uint64_t again = dev_rd > rd ? dev_rd - rd : 0; /* bytes read more than once */
    double miss = (double)foot <= c->soc->l2_bytes ? 0.0 : 1.0 - c->soc->l2_bytes / (double)foot;
    return rd + wr + host + (uint64_t)((double)again * miss);
}
