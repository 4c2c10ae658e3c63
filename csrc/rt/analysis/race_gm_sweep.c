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

/* A record and its start, sorted without touching the record. */
typedef struct keyed {
    uintptr_t lo;
    gm_rec *r;
} keyed;

/* Sort by start address, stably (equal starts keep agent order, so the
 * race reported first does not depend on the sort): least significant
 * digit first, 11 bits a pass, skipping a digit every start shares (the
 * high ones of addresses in one process); tmp has room for n. */
static void sort_by_lo(keyed *v, keyed *tmp, size_t n)
{
    enum { BITS = 11, NB = 1 << BITS };
    static _Thread_local size_t cnt[NB];
    keyed *src = v, *dst = tmp;
    for (unsigned shift = 0; shift < 8 * sizeof(uintptr_t); shift += BITS) {
        memset(cnt, 0, sizeof cnt);
        for (size_t i = 0; i < n; i++) cnt[src[i].lo >> shift & (NB - 1)]++;
        if (cnt[src[0].lo >> shift & (NB - 1)] == n) continue; /* one digit: nothing moves */
        size_t sum = 0;
        for (size_t d = 0; d < NB; d++) {
            size_t c = cnt[d];
            cnt[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) dst[cnt[src[i].lo >> shift & (NB - 1)]++] = src[i];
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

static int races(const gm_rec *x, const gm_rec *y)
{
    if (x->agent == y->agent || (x->kind == ARC_GM_ATOMIC && y->kind == ARC_GM_ATOMIC) || same_fill(x, y) ||
        same_content(x, y))
        return 0;
    if (x->kind == ARC_GM_READ && y->kind == ARC_GM_READ) return 0;
    return !before(x, y) && !before(y, x);
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

/* "AscendC::DataCopy (PIPE_MTE3 at k.asc:12) in block 1 writes GM bytes [0, 64)". */
static void op_text(const sim_race_gm *g, const gm_rec *x, uintptr_t base, char *buf, size_t n)
{
    char w[48];
    who(g, x, w, sizeof w);
    snprintf(buf, n, "%s (%s%s%s) in %s %s bytes [%llu, %llu)", x->api ? x->api : "?",
             x->pipe < sizeof pipe_name / sizeof *pipe_name ? pipe_name[x->pipe] : "?", x->site ? " at " : "",
             x->site ? x->site : "", w,
             x->kind == ARC_GM_READ ? "reads" : x->kind == ARC_GM_ATOMIC ? "atomically updates" : "writes",
             (unsigned long long)(x->lo - base), (unsigned long long)(x->hi - base));
}

static void report(sim_race_gm *g, const sim_kernel_run *r, const gm_rec *x, const gm_rec *y, char *msg, size_t n)
{
    if (x->site && !y->site) { /* the one with a line is the one the error points at */
        const gm_rec *t = x;
        x = y;
        y = t;
    }
    sim_alloc al;
    uintptr_t base = 0;
    char par[160] = "", a[400], b[400], body[1600], w[48];
    if (sim_mem_find((const void *)y->lo, &al)) {
        base = al.base;
        sim_gm_param(r, al.base, par, sizeof par);
    }
    op_text(g, x, base, a, sizeof a);
    op_text(g, y, base, b, sizeof b);
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
static int sweep(gm_rec **all, size_t n, gm_rec **scratch, const gm_rec **rx, const gm_rec **ry)
{
    gm_rec **wr = scratch, **rd = scratch + n;
    size_t nw = 0, nr = 0;
    int found = 0;
    for (size_t i = 0; i < n && !found; i++) {
        gm_rec *c = all[i];
        size_t k = 0;
        for (size_t j = 0; j < nw; j++) { /* compacting: writes that end before c starts are done */
            if (wr[j]->hi <= c->lo) continue;
            wr[k++] = wr[j];
            if (!found && races(wr[j], c)) {
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
                if (!found && races(rd[j], c)) {
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

int sim_race_gm_sweep(sim_race_gm *g, const sim_kernel_run *r, size_t total, char *msg, size_t n)
{
    int raced = 0;
    gm_rec **all = malloc(3 * total * sizeof *all);
    keyed *key = malloc(2 * total * sizeof *key);
    if (!all || !key) { /* no memory: unchecked */
        free(all);
        free(key);
        return 0;
    }
    size_t k = 0;
    for (uint32_t i = 0; i < g->n; i++)
        for (size_t j = 0; j < g->a[i].n; j++) key[k++] = (keyed){g->a[i].r[j].lo, &g->a[i].r[j]};
    sort_by_lo(key, key + total, total);
    for (k = 0; k < total; k++) all[k] = key[k].r;
    free(key);
    const gm_rec *x, *y;
    if (sweep(all, total, all + total, &x, &y)) {
        report(g, r, x, y, msg, n);
        raced = g->mode == ARC_RACE_ERROR;
    }
    free(all);
    return raced;
}
