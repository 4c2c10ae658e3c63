/* race_shadow.h - the race check's shadow of a memory space (race.c): a
 * sorted list of segments of equal state (last write: pipe, epoch, event;
 * last read per pipe), so a tile-sized access costs a few segment
 * operations, not one per byte.  Inline: __arc_race_access runs them on
 * every access. */
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
    seg *s;
    size_t n, cap;
} space;

/* Make room for one segment at index i (a copy of the one there, if any);
 * -1 when out of memory. */
static inline int open_at(space *sp, size_t i)
{
    if (sp->n == sp->cap) {
        size_t cap = sp->cap ? sp->cap * 2 : 64;
        seg *ns = realloc(sp->s, cap * sizeof *ns);
        if (!ns) return -1;
        sp->s = ns;
        sp->cap = cap;
    }
    memmove(&sp->s[i + 1], &sp->s[i], (sp->n - i) * sizeof *sp->s);
    sp->n++;
    return 0;
}

/* The first segment that ends after x. */
static inline size_t first_after(const space *sp, uint64_t x)
{
    size_t lo = 0, hi = sp->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (sp->s[mid].hi <= x) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* Split so that a segment boundary falls at x; the index of the first
 * segment starting at or after x. */
static inline size_t split_at(space *sp, uint64_t x)
{
    size_t lo = first_after(sp, x);
    if (lo < sp->n && sp->s[lo].lo < x) {
        if (open_at(sp, lo))
            return (size_t)-1;
        sp->s[lo].hi = x;
        sp->s[lo + 1].lo = x;
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
        if (i < sp->n && sp->s[i].lo == x) {
            x = sp->s[i].hi;
            i++;
            continue;
        }
        uint64_t end = i < sp->n && sp->s[i].lo < hi ? sp->s[i].lo : hi;
        if (open_at(sp, i))
            return -1;
        memset(&sp->s[i], 0, sizeof *sp->s);
        sp->s[i].lo = x;
        sp->s[i].hi = end;
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
        seg *a = &sp->s[w], *b = &sp->s[i];
        if (a->hi == b->lo && a->w_epoch == b->w_epoch && a->w_ev == b->w_ev && a->w_pipe == b->w_pipe &&
            a->w_sparse == b->w_sparse && a->r_sparse == b->r_sparse &&
            !memcmp(a->r_epoch, b->r_epoch, sizeof a->r_epoch) && !memcmp(a->r_ev, b->r_ev, sizeof a->r_ev)) {
            a->hi = b->hi;
            continue;
        }
        if (++w != i) sp->s[w] = *b; /* nothing merged yet: already in place */
    }
    size_t removed = (to < sp->n ? to : sp->n) - (w + 1);
    if (removed) {
        memmove(&sp->s[w + 1], &sp->s[w + 1 + removed], (sp->n - (w + 1 + removed)) * sizeof *sp->s);
        sp->n -= removed;
    }
}

#endif
