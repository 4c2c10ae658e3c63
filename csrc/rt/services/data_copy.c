/* data_copy.c - DataCopy's count form between GM and UB/L1 with all its
 * checks, compiled once here instead of inlined into every kernel for
 * every element type (~100 IR instructions each way, plus the atomic-add
 * race bookkeeping).  The same checks, in the same order and with the same
 * messages, as the device API's inline path (arc/data_copy.h), which
 * kernels still take under -DASCENDRTC_NPU_SEMANTICS, --sanitizer or
 * -DASCENDRTC_NO_GM_CHECKS. */
#include <stdint.h>

#include "rt/rt_internal.h"

static const char *const API = "AscendC::DataCopy";

static void check_count(unsigned count, unsigned esize)
{
    uint64_t bytes = (uint64_t)count * esize;
    if (bytes % 32 != 0)
        __arc_trap(API,
                   "count %u x %u bytes = %llu bytes is not a multiple of 32 (the NPU would round it down "
                   "to %llu bytes; use DataCopyPad for unaligned lengths)",
                   count, esize, (unsigned long long)bytes, (unsigned long long)(bytes & ~31ull));
}

/* The local operand: 32-byte aligned, `bytes` within its tensor, and its
 * access on `pipe` for the race check. */
static void check_local(arc_core *c, const void *p, unsigned local_bytes, uint64_t bytes, unsigned esize,
                        const char *tname, const char *what, int pipe, int write)
{
    if (((uintptr_t)p & 31u) != 0)
        __arc_trap(API, "%s address is not 32-byte aligned (offset %llu bytes into UB)", what,
                   (unsigned long long)((const unsigned char *)p - c->ub));
    if (!(bytes <= local_bytes))
        __arc_trap(API, "%s: %llu bytes (%llu elements of %s) exceed the tensor's %llu elements", what,
                   (unsigned long long)bytes, (unsigned long long)(bytes / esize), tname,
                   (unsigned long long)(local_bytes / esize));
    if (c->dev[ARC_RACE_SLOT])
        __arc_race_access(pipe, write, p, bytes, API);
}

void __arc_dc_in(void *dst, unsigned local_bytes, const void *src, unsigned count, unsigned esize, const char *tname)
{
    arc_core *c = __arc_core();
    uint64_t bytes = (uint64_t)count * esize;
    check_count(count, esize);
    check_local(c, dst, local_bytes, bytes, esize, tname, "dst (local)", ARC_PIPE_MTE2, 1);
    __arc_gm_access(c->dev, src, bytes, API);
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

int __arc_dc_out(void *dst, const void *src, unsigned local_bytes, unsigned count, unsigned esize, const char *tname)
{
    arc_core *c = __arc_core();
    uint64_t bytes = (uint64_t)count * esize;
    check_count(count, esize);
    check_local(c, src, local_bytes, bytes, esize, tname, "src (local)", ARC_PIPE_MTE3, 0);
    __arc_gm_access(c->dev, dst, bytes, API);
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
