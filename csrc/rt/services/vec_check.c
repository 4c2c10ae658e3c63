/* vec_check.c - the checks on every vector operand (alignment, length,
 * race-check access, the cost model's element size), compiled once here
 * instead of inlined three times into every vector call of every kernel.
 * Same checks, order and messages as the device API's inline versions
 * (arc/mask.h check_cnt / check_l0), which -DASCENDRTC_NPU_SEMANTICS keeps;
 * and undefined overlap of a destination and a source. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The general overlap rule (通用地址重叠约束) repeat by repeat, for a
 * level-0 call whose operands are strided (arc/mask.h checks contiguous
 * runs inline through __arc_check_overlap): within a repeat a source and
 * dst overlap 100% or not at all, and no repeat reads what an earlier
 * repeat wrote.  The docs' one exception: Add, Sub, Mul, Max, Min,
 * AddRelu, SubRelu on half, int32_t or float may read, as src1, what an
 * earlier repeat wrote when src1's or dst's repeat stride is 0 (an
 * accumulation).  UB operands are 32-byte aligned and strides count
 * 32-byte blocks, so blocks either coincide or are disjoint.  Operands of
 * different widths (Cast) cannot overlap 100% within a repeat: widening,
 * any overlap within a repeat is refused (Cast's page: wider results
 * overwrite sources still to be read); narrowing, a repeat reads its
 * sources before it writes, so only the rule across repeats applies. */

/* Block b (its epb lanes) of repeat r: whether a lane is active, and its
 * 32-byte block in the operand (off's element offset of its first lane). */
static int block_active(const arc_plan *p, unsigned epb, uint32_t r, unsigned b)
{
    uint64_t l = (uint64_t)b * epb;
    if (p->counter)
        return (uint64_t)r * p->L + l < p->count;
    uint64_t w = (1ull << epb) - 1; /* epb <= 32 divides 64: a block's lanes sit in one mask word */
    return l < 64 ? ((p->lo >> l) & w) != 0 : l < 128 ? ((p->hi >> (l - 64)) & w) != 0 : 0;
}

static uint64_t block_of(const arc_opnd *o, uint32_t r, unsigned b)
{
    return off(o, r, b * o->epb) / o->epb;
}

static int accumulation(const char *api, const char *tname, const char *what)
{
    static const char *apis[] = {"AscendC::Add", "AscendC::Sub", "AscendC::Mul", "AscendC::Max",
                                 "AscendC::Min", "AscendC::AddRelu", "AscendC::SubRelu"};
    if (strcmp(what, "src1") || (strcmp(tname, "half") && strcmp(tname, "int32_t") && strcmp(tname, "float")))
        return 0;
    for (size_t i = 0; i < sizeof apis / sizeof *apis; i++)
        if (!strcmp(api, apis[i]))
            return 1;
    return 0;
}

#define NONE 0xffffffffu
/* Per UB block, the first repeat that writes it (NONE: none; every entry is
 * NONE between calls); per thread, grown to the largest UB seen. */
static __thread uint32_t *first;
static __thread size_t nfirst;

void __arc_check_overlap_l0(const void *dst, const void *src, const arc_plan *p, const arc_opnd *od,
                            const arc_opnd *os, unsigned esize, const char *tname, const char *api, const char *what)
{
    arc_core *c = __arc_core();
    size_t nub = c->ub_size / 32;
    uintptr_t ub = (uintptr_t)c->ub;
    if ((uintptr_t)dst < ub || (uintptr_t)src < ub || p->repeat == 0)
        return;
    if (nfirst < nub) {
        uint32_t *f = realloc(first, nub * sizeof *f);
        if (!f)
            return;
        memset(f + nfirst, 0xff, (nub - nfirst) * sizeof *f);
        first = f;
        nfirst = nub;
    }
    uint64_t d0 = ((uintptr_t)dst - ub) / 32, s0 = ((uintptr_t)src - ub) / 32;
    unsigned de = od->epb, se = os->epb, nd = (p->L + de - 1) / de, ns = (p->L + se - 1) / se;
    int widen = de < se; /* fewer dst elements per block: dst's are the wider */
    uint64_t lo = UINT64_MAX, hi = 0; /* the blocks marked, to clear after */
    for (uint32_t r = 0; r < p->repeat; r++)
        for (unsigned b = 0; b < nd; b++) {
            uint64_t k = d0 + block_of(od, r, b);
            if (!block_active(p, de, r, b) || k >= nub)
                continue;
            if (k < lo) lo = k;
            if (k > hi) hi = k;
            if (first[k] == NONE) /* repeats go up: the first mark is the first repeat */
                first[k] = r;
        }
    if (lo > hi)
        return;
    int accum = de == se && (od->rep == 0 || os->rep == 0) && accumulation(api, tname, what);
    char msg[512];
    msg[0] = 0;
    for (uint32_t r = 0; r < p->repeat && !msg[0]; r++) {
        int meets = 0, same = de == se;
        for (unsigned b = 0; b < ns && !msg[0]; b++) {
            if (!block_active(p, se, r, b))
                continue;
            uint64_t sk = s0 + block_of(os, r, b);
            same &= sk == d0 + block_of(od, r, b);
            for (unsigned b2 = 0; b2 < nd; b2++) /* does repeat r write this source block? */
                if (block_active(p, de, r, b2) && d0 + block_of(od, r, b2) == sk)
                    meets = 1;
            uint32_t w = sk >= lo && sk <= hi ? first[sk] : NONE;
            if (w != NONE && w < r && !accum)
                snprintf(msg, sizeof msg,
                         "%s repeat %u reads UB bytes %llu..%llu, which dst's repeat %u wrote: a later repeat "
                         "would read what an earlier one wrote, which the general overlap rule does not allow",
                         what, r, (unsigned long long)sk * 32, (unsigned long long)sk * 32 + 32, w);
        }
        if (!msg[0] && meets && !same && (de == se || widen))
            snprintf(msg, sizeof msg,
                     de == se ? "in repeat %u, dst and %s overlap in part (dst block stride %u, repeat stride %u; %s "
                                "block stride %u, repeat stride %u): within a repeat the general overlap rule allows "
                                "the same blocks or none"
                              : "in repeat %u, dst and %s overlap (dst block stride %u, repeat stride %u; %s block "
                                "stride %u, repeat stride %u): dst's elements are wider than the source's, so a "
                                "repeat's results would overwrite sources it still reads",
                     r, what, od->blk, od->rep, what, os->blk, os->rep);
    }
    for (uint64_t j = lo; j <= hi; j++) first[j] = NONE;
    if (msg[0])
        __arc_trap(api, "%s (dst starts at UB byte %llu, %s at UB byte %llu; %s elements of %u bytes); the result "
                   "would be undefined on the NPU: use separate buffers or strides whose repeats do not meet",
                   msg, (unsigned long long)d0 * 32, what, (unsigned long long)s0 * 32, tname, esize);
}
