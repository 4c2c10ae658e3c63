/* sync.h - pipes, hardware events and barriers.  The simulated core runs
 * every pipe in program order, so these only check their use: ids 0..7,
 * and a WaitFlag needs an earlier SetFlag (the NPU would hang). */
#ifndef ARC_SYNC_H_
#define ARC_SYNC_H_

#include "arc/state.h"

enum pipe_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4, PIPE_MTE5,
              PIPE_V2, PIPE_FIX, PIPE_NUM };
/* An enum, as CANN's: kernels name its ids as event_t::EVENT_ID0 too. */
enum event_t : int32_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

namespace AscendC {
typedef int8_t TEventID;

enum class HardEvent : uint8_t {
    MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V,
    MTE3_MTE1, MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3,
    S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX,
    FIX_MTE1, FIX_FIX, MAX
};

namespace __detail {
/* (source, destination) pipe_t of each HardEvent, as src * 16 + dst. */
constexpr uint8_t evt_pipes[] = {
    0x43, 0x34, 0x32, 0x23, 0x41, 0x14, 0x51, 0x15, 0x21, 0x12, 0x11, 0x53, 0x35, 0x31, 0x42, 0x24, 0x13, 0x2A,
    0xA2, 0x54, 0x45, 0x01, 0x10, 0x04, 0x40, 0x05, 0x50, 0x4A, 0xA4, 0xA0, 0x20, 0xA5, 0x3A, 0xA3, 0xAA};
static_assert(sizeof evt_pipes == (size_t)HardEvent::MAX, "one pipe pair per HardEvent");
static inline void race_flag(int kind, int e, int id)
{
    __arc::race_sync(kind, evt_pipes[e] >> 4, evt_pipes[e] & 15, (unsigned long long)id);
}
/* 4-bit pending-SetFlag counter of (event, id). */
static inline void flag_step(int e, int id, int delta, const char *api)
{
    ARC_CHECK(id >= 0 && id < 8, api, "event id %d is out of range 0..7 (HardEvent %d)", id, e);
    ARC_CHECK(e >= 0 && e < (int)HardEvent::MAX, api, "HardEvent %d is out of range", e);
    int bit = (e * 8 + id) * 4;
    unsigned long long &w = __arc_core()->dev[__arc::SLOT_FLAGS + bit / 64];
    int sh = bit % 64;
    int n = (int)((w >> sh) & 15u);
    if (delta > 0) {
        ARC_CHECK(n < 15, api, "SetFlag on HardEvent %d id %d 15 times without WaitFlag", e, id);
    } else {
        ARC_CHECK(n > 0, api,
                  "WaitFlag on HardEvent %d id %d without a matching SetFlag: the NPU would hang", e, id);
    }
    w = (w & ~(15ull << sh)) | ((uint64_t)(n + delta) << sh);
}
} // namespace __detail

template <HardEvent evt> inline void SetFlag(int32_t id)
{
    __detail::flag_step((int)evt, id, 1, "AscendC::SetFlag");
    __detail::race_flag(ARC_RACE_SET, (int)evt, id);
}
template <HardEvent evt> inline void WaitFlag(int32_t id)
{
    __detail::flag_step((int)evt, id, -1, "AscendC::WaitFlag");
    __detail::race_flag(ARC_RACE_WAIT, (int)evt, id);
}
template <pipe_t pipe> inline void PipeBarrier()
{
    static_assert(pipe != PIPE_S, "AscendC::PipeBarrier: PIPE_S is not allowed");
    /* A barrier on one pipe orders that pipe's instructions (the race
     * check's within-pipe analysis); PIPE_ALL orders everything. */
    __arc::race_sync(pipe == PIPE_ALL ? ARC_RACE_ALL : ARC_RACE_BARRIER, pipe == PIPE_ALL ? 0 : pipe, 0, 0);
}
template <pipe_t src, pipe_t dst> class TQueSync {
public:
    void SetFlag(int32_t id) { __arc::race_sync(ARC_RACE_SET, src, dst, (unsigned long long)id); }
    void WaitFlag(int32_t id) { __arc::race_sync(ARC_RACE_WAIT, src, dst, (unsigned long long)id); }
};
/* DataCacheCleanAndInvalid's arguments. */
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
/* DataSyncBarrier<MemDsbT::...>: waits for the core's outstanding memory
 * accesses (ALL: GM and UB, DDR: GM, UB, SEQ); the simulated scalar unit's
 * accesses complete in order, so nothing is left to wait for. */
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };
template <auto... A> inline void DataSyncBarrier() {}
/* GM is coherent on the simulated core; the GM race check takes any DCCI
 * as writing back the whole data cache (scalar GM writes become visible). */
template <typename T, auto... A> inline void DataCacheCleanAndInvalid(...)
{
    __arc::race_gm_sync(ARC_GM_DCCI, 0, 0);
}

/* Hardware all-core barrier; the software form takes GM/UB workspaces. */
/* Where the NPU keeps SyncAll's hardware flags (the host passes it to a
 * kernel): the simulated cores synchronise without memory, so it is noted
 * nowhere and changes no result. */
inline void SetSyncBaseAddr(uint64_t) {}

template <bool isAIVOnly = true> inline void SyncAll()
{
    __arc::race_sync(ARC_RACE_ALL, 0, 0, 1); /* key 1: SyncAll, for the cost model's phases */
    __arc_sync_all(isAIVOnly);
    __arc::race_gm_sync(ARC_GM_SYNCALL, 0, 0);
}
template <bool isAIVOnly = true, typename G, typename L> inline void SyncAll(const G &, const L &, int32_t = 0)
{
    __arc::race_sync(ARC_RACE_ALL, 0, 0, 1);
    __arc_sync_all(isAIVOnly);
    __arc::race_gm_sync(ARC_GM_SYNCALL, 0, 0);
}
/* Not modelled (docs/simulated_npu.md): accepted so kernels compile; the
 * wait does not wait.  Blocks run concurrently, so GM flags still work.
 * The GM race check takes IBSet(.., blockIdx, eventID) -> IBWait(..,
 * blockIdx, eventID) as an ordering, and checks nothing when a wait came
 * before its set. */
template <bool isAIVOnly = true, typename G, typename L>
inline void IBSet(const G &, const L &, int32_t blockIndex, int32_t eventID)
{
    __arc::race_gm_sync(ARC_GM_RELEASE, ARC_GM_SYNC_IB, ((uint64_t)(uint32_t)blockIndex << 32) | (uint32_t)eventID);
}
template <bool isAIVOnly = true, typename G, typename L>
inline void IBWait(const G &, const L &, int32_t blockIndex, int32_t eventID)
{
    __arc::race_gm_sync(ARC_GM_ACQUIRE_NEED, ARC_GM_SYNC_IB, ((uint64_t)(uint32_t)blockIndex << 32) | (uint32_t)eventID);
}
/* AIC <-> AIV flags of MIX kernels ("Cube unit" in csrc/device/README.md): in a
 * KERNEL_TYPE_MIX_AIC_1_1/1_2 launch they order the block's cores (modes 1
 * and 2) or every core of one side across the blocks (mode 0); ids
 * truncated to 4 bits; the wait ignores its template arguments, as on A2.
 * Other kernel types start no cross-core scheduler and the calls order
 * nothing. */
namespace __detail {
/* The GM race check's key of a cross-core flag: the AI core (the MIX
 * block) and the flag id; for mode 0, the side (all its cores release and
 * acquire it) and the flag id. */
static inline uint64_t cross_key(uint16_t flagId, bool all)
{
    arc_core *k = __arc_core();
    if (all)
        return (1ull << 40) | ((uint64_t)k->core_type << 8) | (flagId & 15u);
    return ((uint64_t)(k->block_idx / (k->sub_block_num > 0 ? k->sub_block_num : 1)) << 8) | (flagId & 15u);
}
} // namespace __detail
template <int modeId = 0, auto pipe = PIPE_S> inline void CrossCoreSetFlag(uint16_t flagId)
{
    __arc::race_gm_sync(ARC_GM_RELEASE, ARC_GM_SYNC_CROSS, __detail::cross_key(flagId, modeId == 0));
    if constexpr (modeId == 0)
        __arc_cross_set_all(flagId);
    else
        __arc_cross_core(0, modeId, flagId);
}
template <int modeId = 0, auto pipe = PIPE_S> inline void CrossCoreWaitFlag(uint16_t flagId)
{
    int how = __arc_cross_core(1, modeId, flagId);
    __arc::race_gm_sync(ARC_GM_ACQUIRE, ARC_GM_SYNC_CROSS, __detail::cross_key(flagId, how == 2));
}
} // namespace AscendC

/* Instruction-cache prefetch: a hint with no effect on results; the
 * length (2 KiB units) must fit the core's ICache (AIC 32 KiB, AIV 16 KiB). */
namespace AscendC {
inline void ICachePreLoad(const int64_t preFetchLen)
{
    const bool aic = __arc_core()->core_type == 1;
    const int64_t lim = aic ? 16 : 8;
    ARC_CHECK(preFetchLen >= 0 && preFetchLen < lim, "AscendC::ICachePreLoad",
              "preFetchLen %lld (2 KiB units) must be below %lld: the %s's ICache is %lld KiB", (long long)preFetchLen,
              (long long)lim, aic ? "AIC" : "AIV", (long long)lim * 2);
}
} // namespace AscendC

/* Raw intrinsics some kernels call directly. */
inline void icache_preload(int64_t preFetchLen) { AscendC::ICachePreLoad(preFetchLen); }
inline void pipe_barrier(pipe_t p)
{
    __arc::race_sync(p == PIPE_ALL ? ARC_RACE_ALL : ARC_RACE_BARRIER, p == PIPE_ALL ? 0 : p, 0, 0);
}
inline void set_flag(pipe_t src, pipe_t dst, int32_t id)
{
    ARC_CHECK(id >= 0 && id < 8, "set_flag", "event id %d is out of range 0..7", id);
    __arc::race_sync(ARC_RACE_SET, src, dst, (unsigned long long)id);
}
inline void wait_flag(pipe_t src, pipe_t dst, int32_t id)
{
    ARC_CHECK(id >= 0 && id < 8, "wait_flag", "event id %d is out of range 0..7", id);
    __arc::race_sync(ARC_RACE_WAIT, src, dst, (unsigned long long)id);
}

#endif /* ARC_SYNC_H_ */
