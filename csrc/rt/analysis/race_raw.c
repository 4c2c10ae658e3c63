/* race_raw.c - loads and stores the kernel's own code makes through
 * pointers, for the race checks.  The device API reports its accesses
 * itself (arc/race.h); a raw pointer (`(T *)tensor.GetPhyAddr()`, a
 * `__ubuf__`/`__gm__` pointer, anything derived from them) is plain C++, so
 * the compiler instruments those (rtc/raw_access.cpp): each function asks
 * __arc_race_raw_on() once, and while it is on each load or store that may
 * reach UB or GM calls __arc_race_raw.  On the NPU such an access runs on the
 * scalar unit (PIPE_S), which reaches UB and GM only (docs/simulated_npu.md,
 * "Pipe races"), except in a VF: a SIMD VF (asc_vf_call; its UB scalars are
 * read by the vector pipe, AuxScalar) and a hybrid kernel's SIMT VF run on
 * the vector pipe (PIPE_V). */
#include "rt/rt_internal.h"

int __arc_race_raw_on(void)
{
    arc_core *k = __arc_core();
    return k && ((k->dev[ARC_RACE_SLOT] & 3) != ARC_RACE_OFF || k->dev[ARC_RACE_GM_SLOT] != 0);
}

/* write: bit 0 a store, bit 1 a volatile access.  A volatile GM access is
 * a flag between blocks (a spin-wait, the signal it waits for): like an
 * atomic it synchronises rather than races, so it is not logged between
 * cores; in UB it is an ordinary scalar access, except in a SIMT VF: there
 * it is how the VF and its SIMD side, running at once, hand each other
 * work (asc-devkit's hash_table_mte_queue), not a PIPE_V access. */
void __arc_race_raw(const void *p, unsigned long long bytes, int write, const char *site)
{
    arc_core *k = __arc_core();
    if (!k) return;
    int vol = write & 2;
    write &= 1;
    const unsigned char *a = (const unsigned char *)p;
    const char *api = write ? "a store through a pointer" : "a load through a pointer";
    if (a >= k->ub && a < k->ub + k->ub_size) {
        if ((k->dev[ARC_RACE_SLOT] & 3) == ARC_RACE_OFF) return;
        const sim_kernel_run *r;
        if (sim_simt_in_vf()) {
            if (!vol)
                __arc_race_access(ARC_PIPE_V, write, p, bytes, write ? "a SIMT VF's store" : "a SIMT VF's load");
        } else if (k->dev[ARC_RACE_SLOT] & ARC_SIMD_VF) {
            __arc_race_access(ARC_PIPE_V, write, p, bytes, write ? "a SIMD VF's store" : "a SIMD VF's load");
        } else if (!(r = sim_core_launch()) || !r->simt) {
            /* a pure SIMT kernel has no pipe but its threads': race_simt.c's */
            sim_race_scalar(p, bytes, write, api, site);
        }
    } else if (k->dev[ARC_RACE_GM_SLOT] && !vol) {
        sim_race_gm_scalar(k, p, bytes, write, api, site);
    }
}

void sim_race_raw_pattern(const void *p, unsigned long long pw, unsigned long long step, unsigned long long cnt,
                          int write, const char *site)
{
    arc_core *k = __arc_core();
    const unsigned char *a = (const unsigned char *)p;
    if (k && k->dev[ARC_RACE_GM_SLOT] && cnt > 1 && !(a >= k->ub && a < k->ub + k->ub_size)) {
        sim_race_gm_pattern(p, pw, step, cnt, write & 1, site);
        return;
    }
    for (unsigned long long i = 0; i < cnt; i++)
        __arc_race_raw(a + i * step, pw, write, site);
}
