/* race_stream.c - a loop's pointer accesses for the race checks, a few
 * ranges per loop instead of a call per access (the compiler's side is
 * rtc/raw_access.cpp; the state is arc_raw_stream, arc/core_abi.h).
 *
 * Level 1, per instruction: consecutive accesses at a constant step are a
 * run (a thread's grid-stride loop, a vector loop over a row); the
 * compiled code extends a run itself and calls here only when an address
 * breaks it; a new run starts as a run at the last one's step (state 2 with
 * one access), so a tile's next row costs one call, not two.  Level 2: an ended run is merged into the instruction's
 * pattern -- pcnt pieces of pw bytes, pstep apart -- when it continues it:
 * the next thread's run beside the last (pieces widen), or the next row
 * (one more piece).  The pattern is reported (one record for the GM check
 * between blocks, piece by piece to the others) when a run does not fit it and at every flush (before
 * the function's next call, and at its return): nothing that orders
 * accesses (a sync, a barrier, the end of a block) runs in between, so
 * the checks see the same bytes in the same order position as they would
 * access by access.  Exact: a piece holds only bytes that were accessed. */
#include <stdint.h>

#include "rt/rt_internal.h"

static void emit(arc_raw_stream *s, const arc_raw_site *d)
{
    sim_race_raw_pattern((const void *)(uintptr_t)s->plo, s->pw, s->pstep, s->pcnt, d->write, d->site);
    s->pcnt = 0;
}

/* The bytes [lo, lo + w) and pieces after them (cnt of them, step apart;
 * cnt 1: one range) join the pattern, or replace it once it is reported. */
static void add(arc_raw_stream *s, const arc_raw_site *d, uint64_t lo, uint64_t w, uint64_t step, uint64_t cnt)
{
    if (cnt > 1 && step <= w) { /* pieces that touch: one range */
        w += (cnt - 1) * step;
        cnt = 1;
        step = 0;
    }
    if (s->pcnt) {
        uint64_t plo = s->plo, pw = s->pw;
        if (s->pcnt == cnt && (cnt == 1 || s->pstep == step) && (cnt == 1 || pw + w <= step)) {
            if (lo == plo + pw) { /* beside it: wider pieces */
                s->pw += w;
                if (cnt > 1 && s->pw == step) {
                    s->pw = (cnt - 1) * step + s->pw;
                    s->pcnt = 1;
                    s->pstep = 0;
                }
                return;
            }
            if (cnt == 1 && lo + w == plo) {
                s->plo = lo;
                s->pw += w;
                return;
            }
        }
        if (cnt == 1 && s->pcnt == 1 && lo >= plo && lo + w <= plo + pw)
            return; /* bytes it already has */
        if (cnt == 1 && pw == w) {
            if (s->pcnt == 1 && lo >= plo + pw) { /* the next row: a second piece */
                s->pstep = lo - plo;
                s->pcnt = 2;
                return;
            }
            if (s->pcnt > 1 && lo == plo + s->pcnt * s->pstep) {
                s->pcnt++;
                return;
            }
        }
        emit(s, d);
    }
    s->plo = lo;
    s->pw = w;
    s->pstep = step;
    s->pcnt = cnt;
}

/* The run so far into the pattern. */
static void end_run(arc_raw_stream *s, const arc_raw_site *d)
{
    if (s->state == 1) {
        add(s, d, s->lo, d->bytes, 0, 1);
    } else if (s->state == 2) {
        int64_t step = s->step;
        uint64_t lo = s->lo, cnt = step ? (uint64_t)((int64_t)(s->next - lo) / step) : 1;
        if (cnt == 1) /* one access (its step a guess): a range, as state 1 */
            step = 0;
        if (step < 0) { /* walked down: start from the lowest */
            lo += (cnt - 1) * (uint64_t)step;
            step = -step;
        }
        add(s, d, lo, d->bytes, (uint64_t)step, cnt);
    }
    s->state = 0;
    s->next = 0;
}

static void feed(arc_raw_stream *s, uint64_t u, const arc_raw_site *d)
{
    if (u == s->next) {
        s->next = u + (uint64_t)s->step;
        return;
    }
    /* one access so far (state 1, or a guessed step that was wrong): the
     * second sets the step */
    if (s->state == 1 || (s->state == 2 && s->step && s->next - s->lo == (uint64_t)s->step)) {
        s->step = (int64_t)(u - s->lo);
        s->next = u + (uint64_t)s->step;
        s->state = 2;
        return;
    }
    end_run(s, d);
    /* A new run, guessed to go on at the last one's step (a tile's next
     * row, as wide as the last): the compiled code then continues it
     * without a call for its second access. */
    s->lo = u;
    s->state = s->step ? 2 : 1;
    s->next = s->step ? u + (uint64_t)s->step : 0;
}

void __arc_race_stream(arc_raw_stream *s, const void *p, const arc_raw_site *d)
{
    feed(s, (uintptr_t)p, d);
}

/* A masked vector access whose mask is not full: each run of active lanes
 * is a range of its own. */
void __arc_race_stream_masked(arc_raw_stream *s, const void *p, unsigned long long mask, const arc_raw_site *d)
{
    uint64_t esz = d->bytes / (uint64_t)d->lanes;
    end_run(s, d);
    for (int l = 0; l < d->lanes;) {
        if (!(mask >> l & 1)) {
            l++;
            continue;
        }
        int e = l;
        while (e < d->lanes && (mask >> e & 1))
            e++;
        add(s, d, (uintptr_t)p + (uint64_t)l * esz, (uint64_t)(e - l) * esz, 0, 1);
        l = e;
    }
}

/* A gather or scatter: its active lanes in order, as accesses of their own
 * (d->bytes is one lane's). */
void __arc_race_stream_gather(arc_raw_stream *s, const void *const *p, unsigned long long mask,
                              const arc_raw_site *d)
{
    for (int l = 0; l < d->lanes; l++)
        if (mask >> l & 1)
            feed(s, (uintptr_t)p[l], d);
}

/* Whether pattern j continues pattern i beside it (the interleaved copies
 * of one access in an unrolled vector loop: each covers every 4th vector). */
static int beside(const arc_raw_stream *i, const arc_raw_stream *j)
{
    return i->pcnt && j->pcnt == i->pcnt && j->plo == i->plo + i->pw &&
           (i->pcnt == 1 || (j->pstep == i->pstep && j->pw + i->pw <= i->pstep));
}

/* Whether pattern j continues pattern i below it: the pieces j has are the
 * ones after i's last, one step on (an unrolled loop over a tile's rows:
 * each copy covers a band of them). */
static int below(const arc_raw_stream *i, const arc_raw_stream *j)
{
    return i->pcnt > 1 && j->pcnt && j->pw == i->pw && (j->pcnt == 1 || j->pstep == i->pstep) &&
           j->plo == i->plo + i->pcnt * i->pstep;
}

void __arc_race_flush(arc_raw_stream *s, const arc_raw_site *d, int n)
{
    for (int i = 0; i < n; i++)
        if (s[i].state)
            end_run(&s[i], &d[i]);
    /* one line's copies side by side (fewer, wider pieces) or one below
     * the other (more pieces) are one pattern: fewer records to sweep */
    for (int i = 0; i < n; i++)
        for (int grew = 1; grew && s[i].pcnt;) {
            grew = 0;
            for (int j = 0; j < n; j++) {
                if (j == i || d[j].site != d[i].site || d[j].write != d[i].write)
                    continue;
                if (beside(&s[i], &s[j])) {
                    s[i].pw += s[j].pw;
                    s[j].pcnt = 0;
                    if (s[i].pcnt > 1 && s[i].pw == s[i].pstep) {
                        s[i].pw *= s[i].pcnt;
                        s[i].pcnt = 1;
                        s[i].pstep = 0;
                    }
                    grew = 1;
                } else if (below(&s[i], &s[j])) {
                    s[i].pcnt += s[j].pcnt;
                    s[j].pcnt = 0;
                    grew = 1;
                }
            }
        }
    for (int i = 0; i < n; i++)
        if (s[i].pcnt)
            emit(&s[i], &d[i]);
}
