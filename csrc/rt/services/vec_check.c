/* vec_check.c - the checks on every vector operand (alignment, length,
 * race-check access, the cost model's element size), compiled once here
 * instead of inlined three times into every vector call of every kernel.
 * Same checks, order and messages as the device API's inline versions
 * (arc/mask.h check_cnt / check_l0), which -DASCENDRTC_NPU_SEMANTICS keeps. */
#include <stdint.h>

#include "rt/rt_internal.h"


static void align32(arc_core *c, const void *p, const char *api, const char *what)
{
    if (((uintptr_t)p & 31u) != 0)
        __arc_trap(api, "%s address is not 32-byte aligned (offset %llu bytes into UB)", what,
                   (unsigned long long)((const unsigned char *)p - c->ub));
}

/* arc/race.h race_v and arc/cost.h cost_esize. */
static void race_vec(arc_core *c, const void *p, uint64_t bytes, unsigned esize, const char *api, const char *what)
{
    if (!c->dev[ARC_RACE_SLOT])
        return;
    c->dev[ARC_COST_ESIZE_SLOT] = esize;
    __arc_race_access(ARC_PIPE_V, what[0] == 'd' && what[1] == 's' && what[2] == 't' ? 2 : 0, p, bytes, api);
}

void __arc_check_cnt(const void *p, unsigned tensor_bytes, long long n, unsigned esize, const char *tname,
                     const char *api, const char *what)
{
    arc_core *c = __arc_core();
    align32(c, p, api, what);
    if (!(n >= 0 && (uint64_t)n * esize <= tensor_bytes))
        __arc_trap(api, "%s: count %lld exceeds the tensor's %llu elements of %s", what, n,
                   (unsigned long long)(tensor_bytes / esize), tname);
    race_vec(c, p, (uint64_t)n * esize, esize, api, what);
}

static uint64_t off(const arc_opnd *o, uint32_t r, uint32_t l)
{
    return ((uint64_t)r * o->rep + (uint64_t)(l / o->epb) * o->blk) * o->epb + l % o->epb;
}

static void reach(const arc_opnd *o, uint32_t r, uint32_t h, uint64_t *e)
{
    uint64_t x = off(o, r, h) + 1;
    if (x > *e) *e = x;
    if (h >= o->epb) {
        uint32_t prev = (h / o->epb) * o->epb - 1;
        x = off(o, r, prev) + 1;
        if (x > *e) *e = x;
    }
}

/* arc/mask.h extent: one past the last element of the operand the call
 * touches. */
static uint64_t extent(const arc_plan *p, const arc_opnd *o)
{
    if (p->repeat == 0)
        return 0;
    uint64_t e = 0;
    if (p->counter) {
        uint64_t last = p->count - (uint64_t)(p->repeat - 1) * p->L;
        reach(o, p->repeat - 1, (uint32_t)last - 1, &e);
        if (p->repeat >= 2)
            reach(o, p->repeat - 2, p->L - 1, &e);
    } else {
        int h = p->hi ? 127 - __builtin_clzll(p->hi) : p->lo ? 63 - __builtin_clzll(p->lo) : -1;
        if (h < 0)
            return 0;
        reach(o, p->repeat - 1, (uint32_t)h, &e);
    }
    return e;
}

/* core_abi.h: called when dst and src share a byte. */
void __arc_check_overlap(const void *dst, unsigned long long dst_bytes, const void *src, unsigned long long src_bytes,
                         int rule, const char *api, const char *what)
{
    uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    if (d + dst_bytes <= s || s + src_bytes <= d)
        return;
    if (d == s && dst_bytes == src_bytes)
        return; /* the same bytes: in place (CANN's own operators call even the no-overlap APIs so) */
    if ((rule == ARC_OVERLAP_REPEAT && d + 256 <= s) || (rule == ARC_OVERLAP_BEHIND && d <= s))
        return;
    arc_core *c = __arc_core();
    unsigned long long db = (unsigned long long)(d - (uintptr_t)c->ub), sb = (unsigned long long)(s - (uintptr_t)c->ub);
    __arc_trap(api,
               "dst (UB bytes %llu..%llu) overlaps %s (UB bytes %llu..%llu), which %s; the result would be undefined "
               "on the NPU: use separate buffers",
               db, db + dst_bytes, what, sb, sb + src_bytes,
               rule == ARC_OVERLAP_NONE
                   ? "its documentation does not allow (a source and the destination may not overlap; "
                     "the very same bytes, in place, are tolerated)"
               : rule == ARC_OVERLAP_BEHIND
                   ? "the general overlap rule does not allow (a later repeat would read what an earlier one "
                     "wrote: the destination may start at the source or before it, never inside it)"
                   : "the documented rule does not allow (a source and the destination are the same bytes, or "
                     "do not overlap, or the destination ends a whole 256-byte repeat before the source)");
}

void __arc_check_l0(const void *p, unsigned tensor_bytes, const arc_plan *plan, const arc_opnd *o, unsigned esize,
                    const char *api, const char *what)
{
    arc_core *c = __arc_core();
    align32(c, p, api, what);
    uint64_t e = extent(plan, o);
    if (!(e * esize <= tensor_bytes))
        __arc_trap(api,
                   "%s: %u repeats (block stride %u, repeat stride %u) reach element %llu, beyond the tensor's %llu "
                   "elements", what, plan->repeat, o->blk, o->rep, (unsigned long long)e,
                   (unsigned long long)(tensor_bytes / esize));
    race_vec(c, p, e * esize, esize, api, what);
}
