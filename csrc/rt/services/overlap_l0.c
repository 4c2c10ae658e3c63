/* overlap_l0.c - __arc_check_overlap_l0: the SIMD API's general overlap
 * rule (通用地址重叠约束) for a level-0 call whose operands are strided
 * (block or repeat strides other than one contiguous run; arc/mask.h checks
 * contiguous runs inline).  The rule, per repeat ("iteration"): a source
 * and the destination overlap 100% or not at all; and no repeat reads
 * what an earlier repeat wrote.  The docs' one exception: Add, Sub, Mul,
 * Max, Min, AddRelu, SubRelu on half, int32_t or float may read, as src1,
 * what an earlier repeat wrote when src1's or dst's repeat stride is 0
 * (an accumulation).  UB operands are 32-byte aligned and strides count
 * 32-byte blocks, so blocks either coincide or are disjoint. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rt_internal.h"

#define NONE 0xffffffffu

/* Blocks (bit b: block b of the repeat) that repeat r touches. */
static unsigned rep_blocks(const arc_plan *p, unsigned epb, uint32_t r)
{
    unsigned nb = p->L / epb, m = 0;
    if (p->counter) {
        uint64_t n = p->count - (uint64_t)r * p->L;
        if (n > p->L)
            n = p->L;
        unsigned k = (unsigned)((n + epb - 1) / epb);
        return k >= 32 ? ~0u : (1u << k) - 1;
    }
    for (unsigned b = 0; b < nb; b++) {
        unsigned lo = b * epb, hi = lo + epb; /* lanes [lo, hi) */
        for (unsigned l = lo; l < hi; l++)
            if (l < 64 ? (p->lo >> l) & 1 : (p->hi >> (l - 64)) & 1) {
                m |= 1u << b;
                break;
            }
    }
    return m;
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

/* Per UB block, the first repeat that writes it (NONE: none); per thread,
 * grown to the largest UB seen. */
static __thread uint32_t *first;
static __thread size_t nfirst;

void __arc_check_overlap_l0(const void *dst, const void *src, const arc_plan *p, const arc_opnd *od,
                            const arc_opnd *os, unsigned esize, const char *tname, const char *api, const char *what)
{
    arc_core *c = __arc_core();
    size_t nub = c->ub_size / 32;
    uintptr_t ub = (uintptr_t)c->ub;
    if ((uintptr_t)dst < ub || (uintptr_t)src < ub || p->repeat == 0 || od->epb != os->epb)
        return;
    if (nfirst < nub) { /* every entry is NONE between calls */
        uint32_t *f = realloc(first, nub * sizeof *f);
        if (!f)
            return;
        memset(f + nfirst, 0xff, (nub - nfirst) * sizeof *f);
        first = f;
        nfirst = nub;
    }
    uint64_t d0 = ((uintptr_t)dst - ub) / 32, s0 = ((uintptr_t)src - ub) / 32;
    unsigned epb = od->epb, nb = p->L / epb;
    uint64_t lo = UINT64_MAX, hi = 0; /* the blocks marked, to clear after */
    for (uint32_t r = 0; r < p->repeat; r++) {
        unsigned m = rep_blocks(p, epb, r);
        for (unsigned b = 0; b < nb; b++) {
            uint64_t k = d0 + (uint64_t)r * od->rep + (uint64_t)b * od->blk;
            if (!((m >> b) & 1) || k >= nub)
                continue;
            if (k < lo) lo = k;
            if (k > hi) hi = k;
            if (first[k] == NONE) /* repeats go up: the first mark is the first repeat */
                first[k] = r;
        }
    }
    if (lo > hi)
        return;
    int accum = (od->rep == 0 || os->rep == 0) && accumulation(api, tname, what);
    char msg[512];
    msg[0] = 0;
    for (uint32_t r = 0; r < p->repeat && !msg[0]; r++) {
        unsigned m = rep_blocks(p, epb, r);
        int meets = 0, same = 1;
        for (unsigned b = 0; b < nb && !msg[0]; b++) {
            if (!((m >> b) & 1))
                continue;
            uint64_t sk = s0 + (uint64_t)r * os->rep + (uint64_t)b * os->blk;
            uint64_t dk = d0 + (uint64_t)r * od->rep + (uint64_t)b * od->blk;
            same &= sk == dk;
            for (unsigned b2 = 0; b2 < nb; b2++) /* does repeat r write this source block? */
                if (((m >> b2) & 1) && d0 + (uint64_t)r * od->rep + (uint64_t)b2 * od->blk == sk)
                    meets = 1;
            uint32_t w = sk >= lo && sk <= hi ? first[sk] : NONE;
            if (w != NONE && w < r && !accum)
                snprintf(msg, sizeof msg,
                         "%s repeat %u reads UB bytes %llu..%llu, which dst's repeat %u wrote: a later repeat "
                         "would read what an earlier one wrote, which the general overlap rule does not allow",
                         what, r, (unsigned long long)sk * 32, (unsigned long long)sk * 32 + 32, w);
        }
        if (!msg[0] && meets && !same)
            snprintf(msg, sizeof msg,
                     "in repeat %u, dst and %s overlap in part (dst block stride %u, repeat stride %u; %s block "
                     "stride %u, repeat stride %u): within a repeat the general overlap rule allows the same blocks "
                     "or none",
                     r, what, od->blk, od->rep, what, os->blk, os->rep);
    }
    for (uint64_t j = lo; j <= hi; j++) first[j] = NONE;
    if (msg[0])
        __arc_trap(api, "%s (dst starts at UB byte %llu, %s at UB byte %llu; %s elements of %u bytes); the result "
                   "would be undefined on the NPU: use separate buffers or strides whose repeats do not meet",
                   msg, (unsigned long long)d0 * 32, what, (unsigned long long)s0 * 32, tname, esize);
}
