/* race.h - the device API's side of the pipe race check (csrc/rt/analysis/race.c):
 * each local-memory access names the pipe the NPU runs it on, and each
 * synchronisation what it orders.  Off (one load and a branch) unless the
 * launch's mode in arc_core::dev[ARC_RACE_SLOT] is on. */
#ifndef ARC_RACE_H_
#define ARC_RACE_H_

#include "arc/core_abi.h"
#include "arc/types.h"

namespace __arc {
/* pipe_t values (arc/sync.h), usable before it. */
enum RacePipe { RP_S = ARC_PIPE_S, RP_V = ARC_PIPE_V, RP_M = ARC_PIPE_M, RP_MTE1 = ARC_PIPE_MTE1,
                RP_MTE2 = ARC_PIPE_MTE2, RP_MTE3 = ARC_PIPE_MTE3, RP_FIX = ARC_PIPE_FIX };

static inline bool race_on() { return __builtin_expect(__arc_core()->dev[ARC_RACE_SLOT] != 0, 0); }
/* An access by a device-API call on `pipe` to [p, p + bytes): write 0 a
 * read, 1 a write, 2 both (the operand's old contents matter). */
static inline void race(int pipe, int write, const void *p, unsigned long long bytes, const char *api)
{
    if (race_on()) __arc_race_access(pipe, write, p, bytes, api);
}
static inline void race_sync(int kind, int src, int dst, unsigned long long key)
{
    if (race_on()) __arc_race_sync(kind, src, dst, key);
}

/* UnitFlag 2/3 on Mmad and Fixpipe: the L0C's per-block flags order an Mmad
 * writing a block and a Fixpipe reading it without SetFlag/WaitFlag (the
 * UnitFlag page).  For the race check a queue between PIPE_M and PIPE_FIX
 * keyed by this core's L0C: each side waits for what the other released,
 * and releases with 3. */
static inline void unit_flag_wait(uint8_t flag, int from, int to)
{
    if (flag >= 2) race_sync(ARC_RACE_QWAIT, from, to, (unsigned long long)(uintptr_t)(__arc_core()->l0 + ARC_L0C_OFF));
}
static inline void unit_flag_release(uint8_t flag, int from, int to)
{
    if (flag == 3) race_sync(ARC_RACE_QSET, from, to, (unsigned long long)(uintptr_t)(__arc_core()->l0 + ARC_L0C_OFF));
}
/* A vector operand as the check helpers name it: "dst..." is read and
 * written (masked-off lanes and in-place operands keep what was there), the
 * others are read. */
static inline void race_v(const void *p, unsigned long long bytes, const char *what, const char *api)
{
    if (race_on()) __arc_race_access(RP_V, what[0] == 'd' && what[1] == 's' && what[2] == 't' ? 2 : 0, p, bytes, api);
}
/* GM races between cores (csrc/rt/analysis/race_gm.c): on when the launch gave
 * this core a log. */
static inline bool race_gm_on() { return __builtin_expect(__arc_core()->dev[ARC_RACE_GM_SLOT] != 0, 0); }
/* The same, only when the GM race check itself is on (not the cost model alone). */
static inline bool race_gm_log() { return __builtin_expect(__arc_core()->dev[ARC_RACE_GM_SLOT] > ARC_GM_COST_ONLY, 0); }
/* A profiled launch (csrc/rt/analysis/cost.c). */
static inline bool cost_on() { return __builtin_expect(__arc_core()->dev[ARC_COST_SLOT] != 0, 0); }
/* n runs of len bytes, `stride` bytes apart, from p: a GM access (op
 * ARC_GM_READ/WRITE/ATOMIC) of a device-API call on `pipe`. */
static inline void race_gm(int op, int pipe, const void *p, unsigned long long n, unsigned long long len,
                           unsigned long long stride, const char *api)
{
    if (!race_gm_on() || !len) return;
    if (stride == len) {
        __arc_race_gm(op, pipe, p, n * len, api);
        return;
    }
    for (unsigned long long i = 0; i < n; i++) __arc_race_gm(op, pipe, (const char *)p + i * stride, len, api);
}
/* A GM write's content sum (core_abi.h __arc_gm_mix): v written at `at`. */
template <class T> inline unsigned long long gm_mix(const T *at, T v)
{
    typename uint_of<sizeof(T)>::type u;
    __builtin_memcpy(&u, &v, sizeof(T));
    return __arc_gm_mix(at, u);
}
/* One run [p, p + bytes) written on `pipe` whose elements' gm_mix sum to
 * `sum` (only when race_gm_log()): two cores writing it alike are no race. */
static inline void race_gm_written(int pipe, const void *p, unsigned long long bytes, unsigned long long sum,
                                   const char *api)
{
    __arc_race_gm(ARC_GM_WRITE, pipe, p, bytes, api);
    __arc_race_gm_sum(p, bytes, sum);
}
/* A cross-core ordering: op ARC_GM_SYNCALL/RELEASE/ACQUIRE(_NEED). */
static inline void race_gm_sync(int op, int kind, unsigned long long key)
{
    if (race_gm_on()) __arc_race_gm(op, 0, (const void *)(__UINTPTR_TYPE__)key, (unsigned long long)kind, nullptr);
}
} // namespace __arc

#endif /* ARC_RACE_H_ */
