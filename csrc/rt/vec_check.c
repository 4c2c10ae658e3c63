/* vec_check.c - the checks on every vector operand (alignment, length,
 * race-check access, the cost model's element size), compiled once here
 * instead of inlined three times into every vector call of every kernel.
 * Same checks, order and messages as the device API's inline versions
 * (arc/mask.h check_cnt / check_l0), which -DASCENDRTC_NPU_SEMANTICS keeps. */
#include <stdint.h>

#include "rt/rt_internal.h"

enum { PIPE_V = 1 }; /* pipe_t (arc/race.h) */

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
    __arc_race_access(PIPE_V, what[0] == 'd' && what[1] == 's' && what[2] == 't' ? 2 : 0, p, bytes, api);
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

void __arc_check_l0(const void *p, unsigned tensor_bytes, unsigned long long extent, unsigned repeat, unsigned blk,
                    unsigned rep, unsigned esize, const char *api, const char *what)
{
    arc_core *c = __arc_core();
    align32(c, p, api, what);
    if (!(extent * esize <= tensor_bytes))
        __arc_trap(api,
                   "%s: %u repeats (block stride %u, repeat stride %u) reach element %llu, beyond the tensor's %llu "
                   "elements", what, repeat, blk, rep, extent, (unsigned long long)(tensor_bytes / esize));
    race_vec(c, p, extent * esize, esize, api, what);
}
