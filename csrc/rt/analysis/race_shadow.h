/* race_shadow.h - the race check's shadow of a memory space (race.c): a
 * sorted list of segments of equal state (last write: pipe, epoch, event;
 * last read per pipe), so a tile-sized access costs a few segment
 * operations, not one per byte.  The segments stay where they were made
 * (a pool) and the list orders their 4-byte indices: a strided copy's rows
 * in GM become thousands of segments, and inserting one in the middle
 * moved every later 88-byte segment (a third of a cube kernel's time).
 * Inline: __arc_race_access runs them on every access. */
#ifndef ARC_RT_RACE_SHADOW_H_
#define ARC_RT_RACE_SHADOW_H_

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NP 7 /* S V M MTE1 MTE2 MTE3 FIX */

/* The sync that would have ordered pipe `from`'s accesses before pipe
 * `to`'s (race_cure.c). */
const char *sim_race_cure(int from, int to);

typedef struct seg {
    uint64_t lo, hi;
    uint32_t w_epoch, w_ev; /* w_epoch 0: never written in this block */
    uint32_t r_epoch[NP], r_ev[NP];
    uint8_t w_pipe;
    uint8_t w_sparse, r_sparse; /* the last write, and each pipe's last read (a bit per pipe), were hulls */
} seg;

typedef struct space {
    seg *pool;      /* the segments, in no order */
    uint32_t *ord;  /* ord[i]: the pool index of the i-th segment by address */
    uint32_t *spare; /* pool slots free again (merged away) */
    size_t n, cap;  /* segments in order; capacity of pool, ord and spare */
    size_t used, nspare; /* pool slots ever handed out; how many are spare */
    size_t hint;    /* first_after's last answer */
} space;

/* The i-th segment by address. */
static inline seg *at(const space *sp, size_t i) { return &sp->pool[sp->ord[i]]; }

/* Forget every segment (a block's start); the memory is kept. */
static inline void space_clear(space *sp) { sp->n = sp->used = sp->nspare = sp->hint = 0; }

static inline void space_free(space *sp)
{
    free(sp->pool);
    free(sp->ord);
    free(sp->spare);
}

/* Make room for one segment at index i (a copy of the one there, if any);
 * -1 when out of memory. */
static inline int open_at(space *sp, size_t i)
{
    if (sp->n == sp->cap) {
        size_t cap = sp->cap ? sp->cap * 2 : 64;
        seg *np = realloc(sp->pool, cap * sizeof *np);
        if (np) sp->pool = np;
        uint32_t *no = np ? realloc(sp->ord, cap * sizeof *no) : NULL;
        if (no) sp->ord = no;
        uint32_t *ns = no ? realloc(sp->spare, cap * sizeof *ns) : NULL;
        if (!ns) return -1;
        sp->spare = ns;
        sp->cap = cap;
    }
    /* n < cap, and every slot is in order or spare: a slot is free */
    uint32_t f = sp->nspare ? sp->spare[--sp->nspare] : (uint32_t)sp->used++;
    if (i < sp->n) sp->pool[f] = *at(sp, i);
    memmove(&sp->ord[i + 1], &sp->ord[i], (sp->n - i) * sizeof *sp->ord);
    sp->ord[i] = f;
    sp->n++;
    return 0;
}

/* The first segment that ends after x: searched outwards from the last
 * answer (a copy's rows, a loop's tiles come in address order), then by
 * halving. */
static inline size_t first_after(space *sp, uint64_t x)
{
    size_t n = sp->n, h = sp->hint, lo = 0, hi = n, step = 1;
    if (h < n && at(sp, h)->hi <= x) { /* after h */
        lo = h + 1;
        for (; h + step < n && at(sp, h + step)->hi <= x; step *= 2)
            lo = h + step + 1;
        hi = h + step < n ? h + step : n;
    } else if (h < n) { /* at or before h */
        hi = h;
        for (; step <= h && at(sp, h - step)->hi > x; step *= 2)
            hi = h - step;
        lo = step <= h ? h - step + 1 : 0;
    }
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (at(sp, mid)->hi <= x) lo = mid + 1; else hi = mid;
    }
    sp->hint = lo;
    return lo;
}

/* Split so that a segment boundary falls at x; the index of the first
 * segment starting at or after x. */
static inline size_t split_at(space *sp, uint64_t x)
{
    size_t lo = first_after(sp, x);
    if (lo < sp->n && at(sp, lo)->lo < x) {
        if (open_at(sp, lo))
            return (size_t)-1;
        at(sp, lo)->hi = x;
        at(sp, lo + 1)->lo = x;
        return lo + 1;
    }
    return lo;
}

/* Make [lo, hi) covered by segments (inserting empty ones in gaps); *first
 * is the index of the first segment in it. */
static inline int cover(space *sp, uint64_t lo, uint64_t hi, size_t *first)
{
    uint64_t x = lo;
    size_t i = split_at(sp, lo);
    /* splitting at hi > lo inserts at or after i: i stays the first */
    if (i == (size_t)-1 || split_at(sp, hi) == (size_t)-1) return -1;
    *first = i;
    while (x < hi) {
        if (i < sp->n && at(sp, i)->lo == x) {
            x = at(sp, i)->hi;
            i++;
            continue;
        }
        uint64_t end = i < sp->n && at(sp, i)->lo < hi ? at(sp, i)->lo : hi;
        if (open_at(sp, i))
            return -1;
        seg *s = at(sp, i);
        memset(s, 0, sizeof *s);
        s->lo = x;
        s->hi = end;
        x = end;
        i++;
    }
    return 0;
}

/* Merge runs of segments a write left in the same state. */
static inline void merge(space *sp, size_t from, size_t to)
{
    if (from >= sp->n) return;
    size_t w = from;
    for (size_t i = from + 1; i < to && i < sp->n; i++) {
        seg *a = at(sp, w), *b = at(sp, i);
        if (a->hi == b->lo && a->w_epoch == b->w_epoch && a->w_ev == b->w_ev && a->w_pipe == b->w_pipe &&
            a->w_sparse == b->w_sparse && a->r_sparse == b->r_sparse &&
            !memcmp(a->r_epoch, b->r_epoch, sizeof a->r_epoch) && !memcmp(a->r_ev, b->r_ev, sizeof a->r_ev)) {
            a->hi = b->hi;
            sp->spare[sp->nspare++] = sp->ord[i]; /* ord[i] is read before anything overwrites it (w < i) */
            continue;
        }
        if (++w != i) sp->ord[w] = sp->ord[i]; /* nothing merged yet: already in place */
    }
    size_t removed = (to < sp->n ? to : sp->n) - (w + 1);
    if (removed) {
        memmove(&sp->ord[w + 1], &sp->ord[w + 1 + removed], (sp->n - (w + 1 + removed)) * sizeof *sp->ord);
        sp->n -= removed;
    }
}

#endif
