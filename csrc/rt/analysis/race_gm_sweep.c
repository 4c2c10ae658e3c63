/* race_gm_sweep.c - the GM race check between cores, at the end of the
 * launch: every agent's records sorted by address and swept; two accesses
 * of different agents to overlapping bytes, at least one a write, neither
 * ordered before the other and not exempt (both atomic, fills of one
 * value, writes of the same content) are a race, reported with both
 * operations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/analysis/race_gm.h"

/* What the sweep sorts: a record, or one piece of a record of pieces
 * (piece < WHOLE), with its bytes' span. */
#define WHOLE UINT32_MAX
#define EXPAND_MAX 4u /* a record of more pieces stays whole */
typedef struct keyed {
    uintptr_t lo, hi;
    gm_rec *r;
    uint32_t piece, agent;
    uintptr_t step, res, pw; /* a whole record of pieces: its step, lo % step, pw; else 0 */
    int kind;                /* r's, here so the sweep reads no record for most pairs */
    uint32_t seq;            /* its place in agent order: the order of entries that start alike */
} keyed;

/* Whether two whole records of pieces of one step cannot meet: their pieces'
 * offsets modulo the step do not (a tiled kernel's blocks, side by side). */
static int apart(const keyed *a, const keyed *b)
{
    if (!a->step || a->step != b->step) return 0;
    uintptr_t d = b->res >= a->res ? b->res - a->res : b->res + a->step - a->res;
    return d >= a->pw && a->step - d >= b->pw;
}

/* Sort by start address, stably (equal starts keep agent order, so the
 * race reported first does not depend on the sort): least significant
 * digit first, 11 bits a pass, skipping a digit every start shares (the
 * high ones of addresses in one process); tmp has room for n. */
static void sort_by_lo(keyed *v, keyed *tmp, size_t n)
{
    enum { BITS = 11, NB = 1 << BITS };
    static _Thread_local size_t tls_cnt[NB];
    size_t *cnt = tls_cnt; /* one look-up, not one a record (the library's TLS model) */
    size_t i = 1;
    while (i < n && v[i - 1].lo <= v[i].lo)
        i++;
    if (i >= n) /* in order already (a grid's blocks writing one after the other) */
        return;
    keyed *src = v, *dst = tmp;
    for (unsigned shift = 0; shift < 8 * sizeof(uintptr_t); shift += BITS) {
        memset(cnt, 0, NB * sizeof *cnt);
        for (i = 0; i < n; i++) cnt[src[i].lo >> shift & (NB - 1)]++;
        if (cnt[src[0].lo >> shift & (NB - 1)] == n) continue; /* one digit: nothing moves */
        size_t sum = 0;
        for (size_t d = 0; d < NB; d++) {
            size_t c = cnt[d];
            cnt[d] = sum;
            sum += c;
        }
        for (i = 0; i < n; i++) dst[cnt[src[i].lo >> shift & (NB - 1)]++] = src[i];
        keyed *t = src;
        src = dst;
        dst = t;
    }
    if (src != v) memcpy(v, src, n * sizeof *v);
}

static int before(const gm_rec *x, const gm_rec *y)
{
    return x->vphase < y->phase || (x->vphase == y->phase && y->snap && y->snap[x->agent] >= x->vseg);
}

/* x is a scalar write still in its core's data cache that a sync would
 * otherwise have ordered before y. */
static int cached_only(const gm_rec *x, const gm_rec *y)
{
    return x->vphase == NOT_YET &&
           (x->phase < y->phase || (x->phase == y->phase && y->snap && y->snap[x->agent] >= x->seg));
}

/* Two fills of one value whose elements line up: the bytes end the same
 * whichever lands last, as with InitOutput's zero-fill on every core. */
static int same_fill(const gm_rec *x, const gm_rec *y)
{
    return x->kind == ARC_GM_FILL && y->kind == ARC_GM_FILL && x->fill == y->fill &&
           x->fill_size == y->fill_size && x->fill_size && (x->lo - y->lo) % x->fill_size == 0;
}

/* Two writes of the same bytes with the same content (__arc_race_gm_sum). */
static int same_content(const gm_rec *x, const gm_rec *y)
{
    return x->summed && y->summed && x->lo == y->lo && x->hi == y->hi && x->sum == y->sum;
}

/* A record's pieces: pieces(x) of x->pw bytes, x->step apart (1 when whole). */
static uint64_t pieces(const gm_rec *x) { return x->step ? (x->hi - x->lo - x->pw) / x->step + 1 : 1; }
static uint64_t piece_w(const gm_rec *x) { return x->step ? x->pw : x->hi - x->lo; }

/* The first piece of x ending after a that starts before b: its index, or
 * pieces(x) when none. */
static uint64_t piece_in(const gm_rec *x, uintptr_t a, uintptr_t b)
{
    uint64_t w = piece_w(x), n = pieces(x), k = a >= x->lo + w ? (a - x->lo - w) / (x->step ? x->step : 1) + 1 : 0;
    return k < n && x->lo + k * x->step < b ? k : n;
}

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/* Whether bytes of x and y meet (their spans do: the sweep's order); *xi
 * and *yi: a piece of each that does. */
static int meets(const gm_rec *x, const gm_rec *y, uint64_t *xi, uint64_t *yi)
{
    *xi = *yi = 0;
    if (!x->step && !y->step) return 1;
    if (!x->step || !y->step) {
        const gm_rec *p = x->step ? x : y, *r = x->step ? y : x;
        uint64_t k = piece_in(p, r->lo, r->hi);
        *(p == x ? xi : yi) = k;
        return k < pieces(p);
    }
    if (x->step == y->step) { /* y's piece j meets x's piece i when m = j - i lies in (lo, hi) */
        int64_t s = (int64_t)x->step, d = (int64_t)(y->lo - x->lo), wx = (int64_t)x->pw, wy = (int64_t)y->pw;
        int64_t lo = floor_div(-wy - d, s) + 1, hi = -floor_div(-(wx - d), s) - 1;
        int64_t mlo = -(int64_t)(pieces(x) - 1), mhi = (int64_t)pieces(y) - 1;
        if (lo < mlo) lo = mlo;
        if (hi > mhi) hi = mhi;
        if (lo > hi) return 0;
        *xi = lo < 0 ? (uint64_t)-lo : 0;
        *yi = *xi + (uint64_t)lo;
        return 1;
    }
    const gm_rec *p = pieces(x) <= pieces(y) ? x : y, *o = p == x ? y : x; /* the fewer pieces, one by one */
    for (uint64_t i = 0, n = pieces(p); i < n; i++) {
        uintptr_t a = p->lo + i * p->step;
        uint64_t k = piece_in(o, a, a + p->pw);
        if (k < pieces(o)) {
            *(p == x ? xi : yi) = i;
            *(p == x ? yi : xi) = k;
            return 1;
        }
    }
    return 0;
}

/* Whether entries kx and ky (their spans meet) race; *xi, *yi: the pieces. */
static int races(const keyed *kx, const keyed *ky, uint64_t *xi, uint64_t *yi)
{
    if (kx->agent == ky->agent || apart(kx, ky)) return 0;
    if ((kx->kind == ARC_GM_READ && ky->kind == ARC_GM_READ) || (kx->kind == ARC_GM_ATOMIC && ky->kind == ARC_GM_ATOMIC))
        return 0;
    const gm_rec *x = kx->r, *y = ky->r;
    if (same_fill(x, y) || same_content(x, y)) return 0;
    if (before(x, y) || before(y, x)) return 0;
    *xi = kx->piece;
    *yi = ky->piece;
    if ((kx->piece == WHOLE && x->step) || (ky->piece == WHOLE && y->step)) {
        gm_rec px = *x, py = *y; /* an expanded piece as a record of its own */
        if (kx->piece != WHOLE) px = (gm_rec){.lo = kx->lo, .hi = kx->hi};
        if (ky->piece != WHOLE) py = (gm_rec){.lo = ky->lo, .hi = ky->hi};
        if (!meets(&px, &py, xi, yi)) return 0;
        if (kx->piece != WHOLE) *xi = kx->piece;
        if (ky->piece != WHOLE) *yi = ky->piece;
    }
    if (*xi == WHOLE) *xi = 0;
    if (*yi == WHOLE) *yi = 0;
    return 1;
}

static const char *const pipe_name[] = {"PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3",
                                        "PIPE_ALL", "PIPE_MTE4", "PIPE_MTE5", "PIPE_V2", "PIPE_FIX"};

static const char *sub_label(int sub)
{
    static const char *const name[] = {" (AIC)", " (AIV 0)", " (AIV 1)", " (AIV)"};
    return sub >= 0 && sub < 4 ? name[sub] : "";
}

static void who(const sim_race_gm *g, const gm_rec *x, char *buf, size_t n)
{
    const gm_agent *a = &g->a[x->agent];
    snprintf(buf, n, "block %lld%s", a->block, sub_label(a->sub));
}

/* "AscendC::DataCopy (PIPE_MTE3 at k.asc:12) in block 1 writes GM bytes [0, 64)"; of a
 * record of pieces, piece i. */
static void op_text(const sim_race_gm *g, const gm_rec *x, uint64_t i, uintptr_t base, char *buf, size_t n)
{
    uintptr_t lo = x->lo + i * x->step, hi = x->step ? lo + x->pw : x->hi;
    char w[48];
    who(g, x, w, sizeof w);
    snprintf(buf, n, "%s (%s%s%s) in %s %s bytes [%llu, %llu)", x->api ? x->api : "?",
             x->pipe < sizeof pipe_name / sizeof *pipe_name ? pipe_name[x->pipe] : "?", x->site ? " at " : "",
             x->site ? x->site : "", w,
             x->kind == ARC_GM_READ ? "reads" : x->kind == ARC_GM_ATOMIC ? "atomically updates" : "writes",
             (unsigned long long)(lo - base), (unsigned long long)(hi - base));
}

static void report(sim_race_gm *g, const sim_kernel_run *r, const gm_rec *x, const gm_rec *y, uint64_t xi,
                   uint64_t yi, char *msg, size_t n)
{
    if (x->site && !y->site) { /* the one with a line is the one the error points at */
        const gm_rec *t = x;
        uint64_t ti = xi;
        x = y;
        y = t;
        xi = yi;
        yi = ti;
    }
    sim_alloc al;
    uintptr_t base = 0;
    char par[160] = "", a[400], b[400], body[1600], w[48];
    if (sim_mem_find((const void *)(y->lo + yi * y->step), &al)) {
        base = al.base;
        sim_gm_param(r, al.base, par, sizeof par);
    }
    op_text(g, x, xi, base, a, sizeof a);
    op_text(g, y, yi, base, b, sizeof b);
    who(g, y, w, sizeof w);
    const char *kind = x->kind != ARC_GM_READ && y->kind != ARC_GM_READ ? "write/write" : "read/write";
    snprintf(body, sizeof body,
             "data race (%s between cores) on GM%s%s: %s, and %s, with no SyncAll or cross-core flag ordering them; "
             "on the NPU the blocks run at once, in any order (add SyncAll() between them, give each block its own "
             "range, or accumulate with SetAtomicAdd). The simulator runs blocks to the in-order result and checks "
             "this; ASCENDRTC_RACE_CHECK=warn or off relaxes it%s%s",
             kind, base ? " in the allocation" : "", par, a, b, y->site ? " (at " : "", y->site ? y->site : "");
    if (cached_only(x, y) || cached_only(y, x))
        snprintf(body + strlen(body), sizeof body - strlen(body),
                 "; the sync is there, but a scalar write stays in its core's data cache until "
                 "DataCacheCleanAndInvalid: call it after the scalar writes, before the sync");
    const gm_agent *xa = &g->a[x->agent], *ya = &g->a[y->agent];
    if ((xa->sub == 0) != (ya->sub == 0) && xa->sub >= 0 && ya->sub >= 0) /* an AIC and an AIV */
        snprintf(body + strlen(body), sizeof body - strlen(body),
                 "; between the AIC and an AIV the usual cure is a cross-core flag: CrossCoreSetFlag<mode, pipe>(id) "
                 "after the writer's access, CrossCoreWaitFlag(id) before the other's");
    if (y->site) strncat(body, ")", sizeof body - strlen(body) - 1);
    if (g->mode == ARC_RACE_ERROR) {
        snprintf(msg, n, "%s block %lld/%u%s: race check: %s", r->kernel_name, ya->block, r->nblocks,
                 sub_label(ya->sub), body);
    } else {
        fprintf(stderr, "ascendrtc: warning: %s %s: %s\n", r->kernel_name, w, body);
        msg[0] = 0;
    }
}

/* The first race in address order: 1 and *x, *y set, else 0; all sorted
 * by start, scratch room for 2n. */
static int sweep(keyed *all, size_t n, keyed **scratch, const keyed **rx, const keyed **ry, uint64_t *xi,
                 uint64_t *yi)
{
    keyed **wr = scratch, **rd = scratch + n;
    size_t nw = 0, nr = 0;
    int found = 0;
    for (size_t i = 0; i < n && !found; i++) {
        keyed *c = &all[i];
        size_t k = 0;
        for (size_t j = 0; j < nw; j++) { /* compacting: writes that end before c starts are done */
            if (wr[j]->hi <= c->lo) continue;
            wr[k++] = wr[j];
            if (!found && races(wr[j], c, xi, yi)) {
                *rx = wr[j];
                *ry = c;
                found = 1;
            }
        }
        nw = k;
        if (c->kind != ARC_GM_READ) {
            k = 0;
            for (size_t j = 0; j < nr; j++) {
                if (rd[j]->hi <= c->lo) continue;
                rd[k++] = rd[j];
                if (!found && races(rd[j], c, xi, yi)) {
                    *rx = rd[j];
                    *ry = c;
                    found = 1;
                }
            }
            nr = k;
            wr[nw++] = c;
        } else {
            rd[nr++] = c;
        }
    }
    return found;
}

/* The entries of record x (one, or its few pieces each) at key[*k...]:
 * seq counts them all in agent order. */
static void add_keys(gm_rec *x, keyed *key, size_t *k, uint32_t *seq)
{
    uint64_t p = pieces(x);
    if (!x->step)
        key[(*k)++] = (keyed){x->lo, x->hi, x, WHOLE, x->agent, 0, 0, 0, x->kind, (*seq)++};
    else if (p > EXPAND_MAX)
        key[(*k)++] = (keyed){x->lo, x->hi, x, WHOLE, x->agent, x->step, x->lo % x->step, x->pw, x->kind, (*seq)++};
    else
        for (uint32_t q = 0; q < p; q++)
            key[(*k)++] = (keyed){x->lo + q * x->step, x->lo + q * x->step + x->pw, x, q, x->agent, 0, 0, 0, x->kind,
                                  (*seq)++};
}

/* The reads that some write's span meets, kept in order at the front of
 * rd (writes sorted): a read no write meets races with nothing (the input
 * arrays of most kernels).  u: room for nw spans.  Returns how many. */
static size_t reads_near_writes(const keyed *wr, size_t nw, keyed *rd, size_t nr, uintptr_t (*u)[2])
{
    size_t nu = 0, kept = 0;
    for (size_t i = 0; i < nw; i++) { /* the writes' spans joined */
        if (nu && wr[i].lo <= u[nu - 1][1]) {
            if (wr[i].hi > u[nu - 1][1]) u[nu - 1][1] = wr[i].hi;
        } else {
            u[nu][0] = wr[i].lo;
            u[nu++][1] = wr[i].hi;
        }
    }
    for (size_t i = 0; i < nr; i++) {
        size_t a = 0, b = nu; /* the first span that ends after the read starts */
        while (a < b) {
            size_t mid = (a + b) / 2;
            if (u[mid][1] <= rd[i].lo) a = mid + 1;
            else b = mid;
        }
        if (a < nu && u[a][0] < rd[i].hi)
            rd[kept++] = rd[i];
    }
    return kept;
}

/* The sweep's arrays, kept in the log between launches (fresh ones each
 * launch cost a page fault a page): buffer i with room for at least bytes
 * (its contents kept), NULL out of memory. */
enum { BUF_WR, BUF_RD, BUF_TMP, BUF_ALL, BUF_SCRATCH };
#define SWEEP_KEEP ((size_t)64 << 20) /* bytes of them a finished launch keeps */

static void *buf(sim_race_gm *g, int i, size_t bytes)
{
    if (bytes <= g->sweep_cap[i])
        return g->sweep_buf[i];
    size_t cap = bytes > 2 * g->sweep_cap[i] ? bytes : 2 * g->sweep_cap[i];
    void *nb = realloc(g->sweep_buf[i], cap);
    if (!nb)
        return NULL;
    g->sweep_buf[i] = nb;
    g->sweep_cap[i] = cap;
    return nb;
}

void sim_race_gm_sweep_end(sim_race_gm *g, int all)
{
    size_t kept = 0;
    for (int i = 0; i < SWEEP_BUFS; i++)
        kept += g->sweep_cap[i];
    for (int i = 0; i < SWEEP_BUFS; i++)
        if (all || kept > SWEEP_KEEP) {
            free(g->sweep_buf[i]);
            g->sweep_buf[i] = NULL;
            g->sweep_cap[i] = 0;
        }
}

/* Room for EXPAND_MAX more entries after k in array i (*v): -1 out of memory. */
static int room(sim_race_gm *g, int i, keyed **v, size_t k)
{
    if ((k + EXPAND_MAX) * sizeof **v <= g->sweep_cap[i])
        return 0;
    keyed *nv = buf(g, i, (k + EXPAND_MAX) * sizeof **v);
    if (!nv)
        return -1;
    *v = nv;
    return 0;
}

int sim_race_gm_sweep(sim_race_gm *g, const sim_kernel_run *r, char *msg, size_t n)
{
    /* One pass over the records: a record of a few pieces is swept piece by
     * piece (exact spans, so few of them are open at a time).  A NULL array
     * anywhere is no memory: the launch goes unchecked. */
    size_t kw = 0, kr = 0;
    keyed *wr = buf(g, BUF_WR, 64 * sizeof *wr), *rd = buf(g, BUF_RD, 64 * sizeof *rd), *tmp, *all;
    keyed **scratch;
    uint32_t seq = 0, logged = 0; /* agents that logged anything: one alone cannot race */
    int ok = wr && rd;
    for (uint32_t i = 0; ok && i < g->n; i++) {
        gm_agent *a = &g->a[i];
        if (a->serial != g->serial || !a->n) /* did not run this launch, or logged nothing */
            continue;
        logged++;
        for (size_t j = 0; ok && j < a->n; j++) {
            gm_rec *x = &a->r[j];
            int read = x->kind == ARC_GM_READ;
            if (!(ok = !room(g, read ? BUF_RD : BUF_WR, read ? &rd : &wr, read ? kr : kw)))
                break;
            add_keys(x, read ? rd : wr, read ? &kr : &kw, &seq);
        }
    }
    size_t mw = kw, mr = kr;
    /* tmp: room to sort either (and for the writes' joined spans) */
    if (!ok || logged < 2 || !(tmp = buf(g, BUF_TMP, ((mw > mr ? mw : mr) + 1) * sizeof *tmp)))
        return 0;
    sort_by_lo(wr, tmp, mw);
    mr = reads_near_writes(wr, mw, rd, mr, (uintptr_t(*)[2])(void *)tmp);
    sort_by_lo(rd, tmp, mr);
    all = wr;
    if (mr && (all = buf(g, BUF_ALL, (mw + mr) * sizeof *all))) {
        /* merged as one stable sort of all would order them: by start, then seq */
        size_t a = 0, b = 0;
        for (size_t o = 0; o < mw + mr; o++)
            all[o] = b >= mr || (a < mw && (wr[a].lo < rd[b].lo || (wr[a].lo == rd[b].lo && wr[a].seq < rd[b].seq)))
                         ? wr[a++]
                         : rd[b++];
    }
    const keyed *x = NULL, *y = NULL;
    uint64_t xi, yi;
    if (!all || !(scratch = buf(g, BUF_SCRATCH, 2 * (mw + mr + 1) * sizeof *scratch)) ||
        !sweep(all, mw + mr, scratch, &x, &y, &xi, &yi))
        return 0;
    report(g, r, x->r, y->r, xi, yi, msg, n);
    return g->mode == ARC_RACE_ERROR;
}
