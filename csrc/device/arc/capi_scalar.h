/* capi_scalar.h - the SIMD C API's scalar bit operations (PIPE_S; API
 * SIMD-API/C-API/scalar_compute) and the pipe mutex asc_lock/asc_unlock
 * (SIMD-API/C-API/sync).  Values as each page defines them: bit positions
 * count from 0 at the least significant bit; "not found" is -1. */
#ifndef ARC_CAPI_SCALAR_H_
#define ARC_CAPI_SCALAR_H_

#include "arc/state.h"
#include "arc/race.h"
#include "arc/sync.h"

/* Leading zeros from bit 63 down to the first 1 (64 for 0). */
inline int64_t asc_clz(uint64_t value_in) { return value_in ? __builtin_clzll(value_in) : 64; }
/* Bits set, bits clear. */
inline int64_t asc_popc(uint64_t value) { return __builtin_popcountll(value); }
inline int64_t asc_zero_bits_cnt(uint64_t value) { return 64 - __builtin_popcountll(value); }
/* The first 1 (asc_ffs) or 0 (asc_ffz) from bit 0 up, else -1. */
inline int64_t asc_ffs(uint64_t value) { return value ? __builtin_ctzll(value) : -1; }
inline int64_t asc_ffz(uint64_t value) { return ~value ? __builtin_ctzll(~value) : -1; }
/* The bits after the sign bit equal to it, from bit 62 down; -1 for 0
 * and -1 (every bit the same). */
inline int64_t asc_sflbits(int64_t value)
{
    uint64_t v = (uint64_t)value, x = v ^ (uint64_t)(value >> 63); /* the sign's copies become 0 */
    return x ? __builtin_clzll(x) - 1 : -1;
}
inline uint64_t asc_set_nthbit(uint64_t bits, int64_t idx)
{
    ARC_CHECK(idx >= 0 && idx <= 63, "asc_set_nthbit", "idx %lld is out of range [0, 63]", (long long)idx);
    return bits | (1ull << idx);
}
inline uint64_t asc_clear_nthbit(uint64_t bits, int64_t idx)
{
    ARC_CHECK(idx >= 0 && idx <= 63, "asc_clear_nthbit", "idx %lld is out of range [0, 63]", (long long)idx);
    return bits & ~(1ull << idx);
}
/* The scalar instructions under the names the examples also call them
 * (asc-devkit's integer_fast_div: clz, bcnt1). */
inline int64_t clz(uint64_t x) { return asc_clz(x); }
inline int64_t bcnt1(uint64_t x) { return asc_popc(x); }

/* The pipe mutex: asc_unlock(pipe, id) runs once pipe's earlier
 * instructions are done; asc_lock(pipe, id) holds pipe until every earlier
 * asc_unlock of id is done.  The simulator runs each pipe's work when it is
 * issued, so values need nothing; for the race check an unlock releases
 * its pipe's accesses to whichever pipe locks id next, as a queue event
 * does, and a lock takes them (and lets a SIMT VF in flight finish: its
 * unlock may be PIPE_V's). */
enum ascMutexExecuteMode { ASC_LOCK_BLOCK = 0, ASC_LOCK_NON_BLOCK = 1 };
namespace __arc {
namespace capi {
inline unsigned long long mutex_key(uint8_t id, const char *api)
{
    ARC_CHECK(id <= 31, api, "mutex_id %u is out of range [0, 31]", (unsigned)id);
    return 0x6d757400ull | id; /* not an address: queue keys are buffer addresses */
}
/* The lock and the unlock, for asc_lock/asc_unlock and AscendC::Mutex. */
static const pipe_t mutex_pipes[] = {PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX};
/* A lock also waits for the unlock of a lock issued before it on another
 * pipe (the Lock page: a locked mutex blocks until its earlier holder
 * unlocks it), which comes later in program order but after what that
 * pipe did before its lock: so a lock publishes its pipe's accesses so
 * far (key | 0x100) and a later lock of another pipe takes them. */
inline void mutex_lock(int pipe, uint8_t id, const char *api)
{
    unsigned long long k = mutex_key(id, api);
    race_sync(ARC_RACE_QWAIT, ARC_PIPE_V, pipe, k);
    race_sync(ARC_RACE_QWAIT, ARC_PIPE_V, pipe, k | 0x100);
    for (pipe_t d : mutex_pipes)
        if ((int)d != pipe) race_sync(ARC_RACE_QSET, pipe, (int)d, k | 0x100);
}
inline void mutex_unlock(int pipe, uint8_t id, const char *api)
{
    unsigned long long k = mutex_key(id, api);
    for (pipe_t d : mutex_pipes)
        race_sync(ARC_RACE_QSET, pipe, (int)d, k);
}
} // namespace capi
} // namespace __arc
inline void asc_lock(pipe_t pipe, uint8_t mutex_id, const ascMutexExecuteMode = ASC_LOCK_BLOCK)
{
    __arc::capi::mutex_lock((int)pipe, mutex_id, "asc_lock");
}
inline void asc_unlock(pipe_t pipe, uint8_t mutex_id, const ascMutexExecuteMode = ASC_LOCK_BLOCK)
{
    __arc::capi::mutex_unlock((int)pipe, mutex_id, "asc_unlock");
}

#endif /* ARC_CAPI_SCALAR_H_ */
