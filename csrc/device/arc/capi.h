/* capi.h - the SIMD C API's scalar side (c_api/asc_simd.h): system
 * variables, synchronisation and the GM <-> UB data moves, on raw
 * `__ubuf__` / `__gm__` pointers, with the checks of the C++ API they
 * mirror (event ids and pending flags as SetFlag/WaitFlag, GM ranges,
 * 32-byte UB alignment, the UB's end) and their pipes for the race check.
 * The dav-2201 forms count bursts and gaps in 32-byte blocks; the dav-3510
 * ones in bytes with head-to-head strides (each API's page). */
#ifndef ARC_CAPI_H_
#define ARC_CAPI_H_

#include "arc/state.h"
#include "arc/race.h"
#include "arc/sync.h"
#include "arc/sys.h"

enum class asc_load_l2_cache_mode : uint8_t {
    NORMAL_FIRST_VICTIM = 0, NORMAL_LAST_VICTIM = 1, NORMAL_PERSISTENT = 2, NOTALLOC_KEEP = 4, NOTALLOC_CLEAN = 5,
    NOTALLOC_DROP = 6
};
enum class asc_store_l2_cache_mode : uint8_t {
    NORMAL_FIRST_VICTIM = 0, NORMAL_LAST_VICTIM = 1, NORMAL_PERSISTENT = 2, NOTALLOC_CLEAN = 4
};

namespace __arc {
namespace capi {
/* The HardEvent whose (source, destination) pipes are (src, dst), or -1. */
inline int event_of(int src, int dst)
{
    for (int e = 0; e < (int)AscendC::HardEvent::MAX; e++)
        if (AscendC::__detail::evt_pipes[e] == (uint8_t)(src * 16 + dst)) return e;
    return -1;
}
inline void flag(int src, int dst, int id, int delta, const char *api)
{
    int e = event_of(src, dst);
    ARC_CHECK(e >= 0, api, "no event orders pipe %d before pipe %d", src, dst);
    AscendC::__detail::flag_step(e, id, delta, api);
    AscendC::__detail::race_flag(delta > 0 ? ARC_RACE_SET : ARC_RACE_WAIT, e, id);
}

/* A UB operand of a data move, when it lies in this core's UB: 32-byte
 * aligned and within the UB.  (A `__ubuf__` array the compiler has not
 * placed in UB is the thread's own memory: nothing to check.) */
inline void ub_side(const void *p, uint64_t hull, int pipe, int write, const char *api, const char *what)
{
    arc_core *k = __arc_core();
    uintptr_t a = (uintptr_t)p, ub = (uintptr_t)k->ub;
    if (a >= ub && a < ub + k->ub_size) {
        ARC_CHECK(a % 32 == 0, api, "%s: UB offset %llu is not 32-byte aligned", what, (unsigned long long)(a - ub));
        ARC_CHECK(a - ub + hull <= k->ub_size, api,
                  "%s: %llu bytes at UB offset %llu run past the end of the UB (%llu bytes)", what,
                  (unsigned long long)hull, (unsigned long long)(a - ub), (unsigned long long)k->ub_size);
    }
    race(pipe, write, p, hull, api);
}
/* The bytes of a move, out of line (see reg.h's ub_read). */
__attribute__((noinline)) inline void copy_runs(void *dst, const void *src, uint32_t n, uint64_t len, uint64_t dpitch,
                                                uint64_t spitch)
{
    for (uint32_t i = 0; i < n; i++)
        __builtin_memmove((char *)dst + i * dpitch, (const char *)src + i * spitch, len);
}
/* n runs of len bytes, src runs spitch bytes apart, dst runs dpitch apart.
 * kind: 0 GM -> UB (MTE2), 1 UB -> GM (MTE3), 2 UB -> UB (vector pipe). */
inline void runs(void *dst, const void *src, uint32_t n, uint64_t len, uint64_t dpitch, uint64_t spitch, int kind,
                 const char *api)
{
    ARC_CHECK(n >= 1 && n <= 4095, api, "n_burst %u is outside [1, 4095]", n);
    ARC_CHECK(len >= 1, api, "a burst of 0 bytes");
    uint64_t dhull = (uint64_t)(n - 1) * dpitch + len, shull = (uint64_t)(n - 1) * spitch + len;
    if (kind == 0) {
        gm_access(src, shull, api);
        race_gm(ARC_GM_READ, RP_MTE2, src, n, len, spitch, api);
        ub_side(dst, dhull, RP_MTE2, 1, api, "dst (UB)");
    } else if (kind == 1) {
        ub_side(src, shull, RP_MTE3, 0, api, "src (UB)");
        gm_access(dst, dhull, api);
        race_gm(ARC_GM_WRITE, RP_MTE3, dst, n, len, dpitch, api);
    } else {
        ub_side(src, shull, RP_V, 0, api, "src");
        ub_side(dst, dhull, RP_V, 1, api, "dst");
    }
    copy_runs(dst, src, n, len, dpitch, spitch);
}
inline void whole(void *dst, const void *src, uint32_t size, int kind, const char *api)
{
    ARC_CHECK(size % 32 == 0, api, "size %u bytes is not a multiple of 32 (use the _align form for other sizes)",
              size);
    if (size) runs(dst, src, 1, size, size, size, kind, api);
}
} // namespace capi
} // namespace __arc

/* ---- system variables ---- */
/* The C API's names of the core-type tests (`if ASC_IS_AIV { ... }`). */
#define ASC_IS_AIV ASCEND_IS_AIV
#define ASC_IS_AIC ASCEND_IS_AIC
inline int64_t asc_get_block_idx() { return AscendC::GetBlockIdx(); }
inline int64_t asc_get_block_num() { return AscendC::GetBlockNum(); }
inline int64_t asc_get_sub_block_id() { return AscendC::GetSubBlockIdx(); }
inline int64_t asc_get_sub_block_num() { return AscendC::GetSubBlockNum(); }
/* Bytes of a Reg vector register (VL); 0 on an arch without Reg compute. */
inline constexpr int64_t asc_get_vf_len() { return __arc::arch_bytes(__arc::ARCH_VL); }

/* The address of on-chip offset `offset` (this core's UB), for the
 * pointer style of C-API kernels: (__ubuf__ T *)asc_get_phy_buf_addr(off). */
inline uint64_t asc_get_phy_buf_addr(uint64_t offset)
{
    arc_core *k = __arc_core();
    ARC_CHECK(offset <= k->ub_size, "asc_get_phy_buf_addr", "offset %llu is past the UB's %llu bytes",
              (unsigned long long)offset, (unsigned long long)k->ub_size);
    return (uint64_t)(uintptr_t)(k->ub + offset);
}

/* ---- synchronisation ---- */
/* The id as an integer: EVENT_ID0 converts, and so does the int32_t id
 * CANN's own examples pass (event_t is an enum, which an int does not
 * convert to); the flag checks name an id out of range. */
inline void asc_sync_notify(pipe_t pipe, pipe_t tpipe, int32_t id)
{
    __arc::capi::flag((int)pipe, (int)tpipe, (int)id, 1, "asc_sync_notify");
}
inline void asc_sync_wait(pipe_t pipe, pipe_t tpipe, int32_t id)
{
    __arc::capi::flag((int)pipe, (int)tpipe, (int)id, -1, "asc_sync_wait");
}
/* asc_sync_data_barrier(mem_dsb_t): the scalar unit waits for its own
 * memory accesses of that kind to finish.  The simulator performs each
 * access when it is made, so there is nothing to wait for; it orders no
 * pipe for the race check (asc_sync_notify/wait do). */
enum class mem_dsb_t { DSB_ALL, DSB_DDR, DSB_UB, DSB_SEQ };
inline void asc_sync_data_barrier(mem_dsb_t) {}
inline void asc_sync_pipe(pipe_t pipe)
{
    __arc::race_sync(pipe == PIPE_ALL ? ARC_RACE_ALL : ARC_RACE_BARRIER, pipe == PIPE_ALL ? 0 : (int)pipe, 0, 0);
}
inline void asc_sync() { asc_sync_pipe(PIPE_ALL); }
namespace __arc {
namespace capi {
/* A _sync form's own wait: the scalar unit waits for pipe p to finish what
 * it was given, so what it issues next on any pipe comes after. */
inline void drain(pipe_t p) { race_sync(ARC_RACE_DRAIN, (int)p, 0, 0); }
} // namespace capi
} // namespace __arc
inline void asc_sync_vec() { asc_sync_pipe(PIPE_V); }
/* asc_sync_block_arrive / _wait: the counter of flag_id between a group's
 * block (AIC) and its subblocks (AIVs), CrossCoreSetFlag/WaitFlag's mode 2
 * (its page's modes; the C API pages: "组内block和subblock间的信号同步"). */
inline void asc_sync_block_arrive(pipe_t pipe, int64_t flag_id)
{
    ARC_CHECK(flag_id >= 0 && flag_id <= 15, "asc_sync_block_arrive", "flag_id %lld is outside 0..15", (long long)flag_id);
    (void)pipe; /* the pipe the arrival waits for, as CrossCoreSetFlag's template pipe */
    AscendC::CrossCoreSetFlag<2, PIPE_S>((uint16_t)flag_id);
}
inline void asc_sync_block_wait(pipe_t pipe, int64_t flag_id)
{
    ARC_CHECK(flag_id >= 0 && flag_id <= 15, "asc_sync_block_wait", "flag_id %lld is outside 0..15", (long long)flag_id);
    (void)pipe;
    AscendC::CrossCoreWaitFlag<2, PIPE_S>((uint16_t)flag_id);
}

/* asc_init(): the kernel's first call, as InitSocState (arc/sys.h). */
inline void asc_init() { AscendC::InitSocState(); }

/* ---- data moves ---- */
#if __NPU_ARCH__ == 3510
#define ARC_CAPI_UNIT 1u /* bytes; strides head to head */
#else
#define ARC_CAPI_UNIT 32u /* 32-byte blocks; gaps tail to head */
#endif
inline void asc_copy_gm2ub(__ubuf__ void *dst, __gm__ void *src, uint32_t size)
{
    __arc::capi::whole(dst, src, size, 0, "asc_copy_gm2ub");
}
inline void asc_copy_ub2gm(__gm__ void *dst, __ubuf__ void *src, uint32_t size)
{
    __arc::capi::whole(dst, src, size, 1, "asc_copy_ub2gm");
}
inline void asc_copy_ub2ub(__ubuf__ void *dst, __ubuf__ void *src, uint32_t size)
{
    __arc::capi::whole(dst, src, size, 2, "asc_copy_ub2ub");
}
/* Bursts: dav-3510 (len_burst, src_stride, dst_stride) in bytes, strides
 * head to head; dav-2201 (len_burst, src_gap, dst_gap) in 32-byte blocks,
 * gaps tail to head. */
inline void asc_copy_gm2ub(__ubuf__ void *dst, __gm__ void *src, uint16_t n_burst, uint16_t len_burst,
                           uint16_t src_stride, uint16_t dst_stride)
{
    uint64_t len = (uint64_t)len_burst * ARC_CAPI_UNIT;
    uint64_t sp = ARC_CAPI_UNIT == 1 ? src_stride : len + src_stride * 32ull;
    uint64_t dp = ARC_CAPI_UNIT == 1 ? dst_stride : len + dst_stride * 32ull;
    __arc::capi::runs(dst, src, n_burst, len, dp, sp, 0, "asc_copy_gm2ub");
}
/* dav-3510 orders (dst_stride, src_stride); dav-2201 (src_gap, dst_gap) like the others. */
inline void asc_copy_ub2gm(__gm__ void *dst, __ubuf__ void *src, uint16_t n_burst, uint16_t len_burst, uint16_t a,
                           uint16_t b)
{
    uint64_t len = (uint64_t)len_burst * ARC_CAPI_UNIT;
    uint64_t dp = ARC_CAPI_UNIT == 1 ? a : len + b * 32ull, sp = ARC_CAPI_UNIT == 1 ? b : len + a * 32ull;
    __arc::capi::runs(dst, src, n_burst, len, dp, sp, 1, "asc_copy_ub2gm");
}
inline void asc_copy_ub2ub(__ubuf__ void *dst, __ubuf__ void *src, uint16_t n_burst, uint16_t len_burst,
                           uint16_t src_gap, uint16_t dst_gap)
{
    uint64_t len = (uint64_t)len_burst * 32u;
    __arc::capi::runs(dst, src, n_burst, len, len + dst_gap * 32ull, len + src_gap * 32ull, 2, "asc_copy_ub2ub");
}
/* The _sync forms wait for their own move (on the simulated core a move is
 * complete when it returns; the race check sees the scalar wait). */
inline void asc_copy_gm2ub_sync(__ubuf__ void *dst, __gm__ void *src, uint32_t size)
{
    asc_copy_gm2ub(dst, src, size);
    __arc::capi::drain(PIPE_MTE2);
}
inline void asc_copy_ub2gm_sync(__gm__ void *dst, __ubuf__ void *src, uint32_t size)
{
    asc_copy_ub2gm(dst, src, size);
    __arc::capi::drain(PIPE_MTE3);
}
inline void asc_copy_ub2ub_sync(__ubuf__ void *dst, __ubuf__ void *src, uint32_t size)
{
    asc_copy_ub2ub(dst, src, size);
    __arc::capi::drain(PIPE_V);
}

/* The _align forms: any byte count; a burst's UB side starts 32-byte
 * aligned and occupies whole 32-byte blocks. */
template <class T> inline void asc_copy_gm2ub_align(__ubuf__ T *dst, __gm__ T *src, uint32_t size)
{
    if (size) __arc::capi::runs(dst, src, 1, size, size, size, 0, "asc_copy_gm2ub_align");
}
template <class T> inline void asc_copy_ub2gm_align(__gm__ T *dst, __ubuf__ T *src, uint32_t size)
{
    if (size) __arc::capi::runs(dst, src, 1, size, size, size, 1, "asc_copy_ub2gm_align");
}
#if __NPU_ARCH__ == 3510
/* n_burst runs of len_burst bytes; GM strides in bytes head to head, UB
 * strides likewise (32-byte aligned when they differ from the burst). */
template <class T, class M>
inline void asc_copy_gm2ub_align(__ubuf__ T *dst, __gm__ T *src, uint16_t n_burst, uint32_t len_burst,
                                 uint8_t left_padding_num, uint8_t right_padding_num, bool enable_constant_pad,
                                 M l2_cache_mode, uint64_t src_stride, uint32_t dst_stride)
{
    const char *api = "asc_copy_gm2ub_align";
    /* enable_constant_pad picks the padding's value: nothing without padding */
    ARC_CHECK(left_padding_num == 0 && right_padding_num == 0, api,
              "padding (left %u, right %u elements) is not simulated", left_padding_num, right_padding_num);
    (void)enable_constant_pad;
    (void)l2_cache_mode;
    uint64_t dp = n_burst == 1 ? len_burst : dst_stride;
    ARC_CHECK(dp == len_burst || dp % 32 == 0, api, "dst_stride %llu bytes is not a multiple of 32",
              (unsigned long long)dp);
    __arc::capi::runs(dst, src, n_burst, len_burst, dp, n_burst == 1 ? len_burst : src_stride, 0, api);
}
template <class T, class M>
inline void asc_copy_ub2gm_align(__gm__ T *dst, __ubuf__ T *src, uint16_t n_burst, uint32_t len_burst,
                                 M l2_cache_mode, uint64_t dst_stride, uint32_t src_stride)
{
    const char *api = "asc_copy_ub2gm_align";
    (void)l2_cache_mode;
    uint64_t sp = n_burst == 1 ? len_burst : src_stride;
    ARC_CHECK(sp == len_burst || sp % 32 == 0, api, "src_stride %llu bytes is not a multiple of 32",
              (unsigned long long)sp);
    __arc::capi::runs(dst, src, n_burst, len_burst, n_burst == 1 ? len_burst : dst_stride, sp, 1, api);
}
#endif
template <class T> inline void asc_copy_gm2ub_align_sync(__ubuf__ T *dst, __gm__ T *src, uint32_t size)
{
    asc_copy_gm2ub_align(dst, src, size);
    __arc::capi::drain(PIPE_MTE2);
}
template <class T> inline void asc_copy_ub2gm_align_sync(__gm__ T *dst, __ubuf__ T *src, uint32_t size)
{
    asc_copy_ub2gm_align(dst, src, size);
    __arc::capi::drain(PIPE_MTE3);
}

#endif /* ARC_CAPI_H_ */
