/* data_copy.c - DataCopy's checks and their messages, for every compile
 * mode (the default, -DASCENDRTC_NPU_SEMANTICS, --sanitizer,
 * -DASCENDRTC_NO_GM_CHECKS: arc/data_copy.h passes the mode, core_abi.h
 * arc_dc_mode), compiled once here instead of inlined into every kernel for
 * every element type: the local operand check of every DataCopy and
 * DataCopyPad form, the sanitizer's GlobalTensor view, and the whole count
 * form (GM <-> local, local <-> local) with its 32-byte length rule. */
#include <stdint.h>

#include "rt/rt_internal.h"

static const char *const API = "AscendC::DataCopy";

/* The count form's length in elements after the 32-byte rule: the NPU
 * rounds it down; the default stops. */
static unsigned dc_count(unsigned count, unsigned esize, const arc_dc_mode *m)
{
    uint64_t bytes = (uint64_t)count * esize;
    if (bytes % 32 == 0)
        return count;
    if (m->flags & ARC_DC_NPU)
        return (unsigned)((bytes & ~31ull) / esize);
    __arc_trap(API,
               "count %u x %u bytes = %llu bytes is not a multiple of 32 (the NPU would round it down "
               "to %llu bytes; use DataCopyPad for unaligned lengths)",
               count, esize, (unsigned long long)bytes, (unsigned long long)(bytes & ~31ull));
    return 0;
}

void __arc_dc_local_check(const void *p, unsigned long long limit, unsigned long long bytes, unsigned esize,
                          const char *tname, const char *api, const char *what, int pipe, int access,
                          const arc_dc_mode *m)
{
    arc_core *c = __arc_core();
    if (((uintptr_t)p & 31u) != 0)
        __arc_trap(api, "%s address is not 32-byte aligned (offset %llu bytes into UB)", what,
                   (unsigned long long)((const unsigned char *)p - c->ub));
    if (!(bytes <= limit))
        __arc_trap(api, "%s: %llu bytes (%llu elements of %s) exceed %s %llu elements", what, bytes, bytes / esize,
                   tname, m->limit_what, limit / esize);
    if (c->dev[ARC_RACE_SLOT])
        __arc_race_access(pipe, access, p, bytes, api);
}

void __arc_gm_view(long long lo, unsigned long long n, unsigned long long size, const char *api)
{
    if (size == 0)
        return;
    if (!(lo >= 0 && (unsigned long long)lo + n <= size))
        __arc_trap(api, "GM elements [%lld, %lld) are outside the GlobalTensor's %llu elements (sanitizer)", lo,
                   lo + (long long)n, size);
}

/* The GM operand: inside a live allocation (unless compiled out), inside
 * the GlobalTensor's size under --sanitizer. */
static void gm_check(arc_core *c, const void *p, long long view_lo, unsigned long long view_size, unsigned count,
                     uint64_t bytes, const arc_dc_mode *m)
{
    if (!(m->flags & ARC_DC_NO_GM))
        __arc_gm_access(c->dev, p, bytes, API);
    __arc_gm_view(view_lo, count, view_size, API);
}

void __arc_dc_in(void *dst, unsigned long long limit, const void *src, long long view_lo,
                 unsigned long long view_size, unsigned count, unsigned esize, const char *tname,
                 const arc_dc_mode *m)
{
    arc_core *c = __arc_core();
    count = dc_count(count, esize, m);
    uint64_t bytes = (uint64_t)count * esize;
    __arc_dc_local_check(dst, limit, bytes, esize, tname, API, "dst (local)", ARC_PIPE_MTE2, 1, m);
    gm_check(c, src, view_lo, view_size, count, bytes, m);
    if (c->dev[ARC_RACE_GM_SLOT] && bytes)
        __arc_race_gm(ARC_GM_READ, ARC_PIPE_MTE2, src, bytes, API);
    __arc_copy_bytes(dst, src, bytes);
}

/* Under SetAtomicAdd an element that adds zero changes nothing, so zero
 * elements at either end are not part of the GM access. */
static int zero_elem(const unsigned char *s, uint64_t k, unsigned esize)
{
    for (unsigned j = 0; j < esize; j++)
        if (s[k * esize + j])
            return 0;
    return 1;
}

int __arc_dc_out(void *dst, long long view_lo, unsigned long long view_size, const void *src,
                 unsigned long long limit, unsigned *countp, unsigned esize, const char *tname, const arc_dc_mode *m)
{
    arc_core *c = __arc_core();
    unsigned count = *countp = dc_count(*countp, esize, m);
    uint64_t bytes = (uint64_t)count * esize;
    __arc_dc_local_check(src, limit, bytes, esize, tname, API, "src (local)", ARC_PIPE_MTE3, 0, m);
    gm_check(c, dst, view_lo, view_size, count, bytes, m);
    int op = (int)c->dev[ARC_ATOMIC_SLOT];
    if (c->dev[ARC_RACE_GM_SLOT]) {
        if (op != ARC_ATOMIC_ADD) {
            if (!op) sim_race_gm_data(src);
            if (bytes)
                __arc_race_gm(op ? ARC_GM_ATOMIC : ARC_GM_WRITE, ARC_PIPE_MTE3, dst, bytes, API);
        } else {
            uint64_t lo = 0, hi = bytes / esize;
            while (lo < hi && zero_elem(src, lo, esize)) lo++;
            while (hi > lo && zero_elem(src, hi - 1, esize)) hi--;
            if (hi > lo)
                __arc_race_gm(ARC_GM_ATOMIC, ARC_PIPE_MTE3, (const unsigned char *)dst + lo * esize, (hi - lo) * esize,
                              API);
        }
    }
    if (op != ARC_ATOMIC_NONE)
        return op;
    __arc_store_bytes(dst, src, bytes);
    return 0;
}

void __arc_dc_local(void *dst, unsigned long long dst_limit, const void *src, unsigned long long src_limit,
                    unsigned count, unsigned esize, const char *tname, const arc_dc_mode *m)
{
    count = dc_count(count, esize, m);
    uint64_t bytes = (uint64_t)count * esize;
    __arc_dc_local_check(dst, dst_limit, bytes, esize, tname, API, "dst", ARC_PIPE_V, 1, m);
    __arc_dc_local_check(src, src_limit, bytes, esize, tname, API, "src", ARC_PIPE_V, 0, m);
    __builtin_memmove(dst, src, bytes);
}
