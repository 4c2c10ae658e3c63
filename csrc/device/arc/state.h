/* state.h - per-core device-API state kept in arc_core::dev[] (zeroed
 * before each block), and the trap helper every CPU-twin check uses. */
#ifndef ARC_STATE_H_
#define ARC_STATE_H_

#include "arc/core_abi.h"
#include "arc/race.h"
#include "arc/types.h"

namespace __arc {
/* This compile's arch's memories (common/socs.h's row for __NPU_ARCH__), bytes. */
enum ArchMem { ARCH_UB, ARCH_L1, ARCH_L0A, ARCH_L0B, ARCH_L0C, ARCH_VL };
constexpr uint32_t arch_bytes(ArchMem m)
{
#define ARC_ARCH_BYTES_(a, n, ub, l1, l0a, l0b, l0c, bt, vl, warp, thr, soc)                 \
    if (__NPU_ARCH__ == n) {                                                              \
        const uint32_t v[] = {(ub) << 10, (l1) << 10, (l0a) << 10, (l0b) << 10, (l0c) << 10, vl}; \
        return v[m];                                                                      \
    }
    ARC_ARCHS(ARC_ARCH_BYTES_)
#undef ARC_ARCH_BYTES_
    return 0;
}
enum DevSlot {
    SLOT_PIPE = 0,        /* the live TPipe (GetTPipePtr) */
    SLOT_MASK_MODE = 1,   /* 0 normal, 1 counter */
    SLOT_MASK_SET = 2,    /* 0: mask register at its default (all lanes) */
    SLOT_MASK_LO = 3,
    SLOT_MASK_HI = 4,
    SLOT_ATOMIC = ARC_ATOMIC_SLOT, /* AtomicOp below (5; the runtime's DataCopy reads it) */
    SLOT_DEQSCALE = 6,    /* SetDeqScale value (float bits), 0 = unset -> 1.0 */
    SLOT_PADVAL = 7,      /* SetPadValue bits; SLOT_PADVAL_SET says whether set */
    SLOT_PADVAL_SET = 8,
    SLOT_CTRL = 9,        /* the CTRL register XOR its launch value (arc/ctrl.h) */
    SLOT_CMPMASK_LO = 10, /* CMPMASK register (Compare without dst, Select mode 0) */
    SLOT_CMPMASK_HI = 11,
    SLOT_EVT_ALLOC = 12,  /* 5 slots: AllocEventID bitmap, 8 ids x HardEvent */
    SLOT_FLAGS = 20,      /* 18 slots: 4-bit SetFlag counters, 8 ids x HardEvent */
    SLOT_ACC_VAL = ARC_ACC_VAL_SLOT, /* 38 */    /* last reduction result (double bits), GetAccVal */
    SLOT_ACC_IDX = ARC_ACC_IDX_SLOT, /* 39 */    /* its index, GetReduceMaxMinCount */
    SLOT_GM = ARC_GM_CACHE_SLOT, /* 40: GM_WAYS [lo, hi) ranges of allocations already checked (__arc_gm_check) */
    SLOT_GM_NEXT = ARC_GM_NEXT_SLOT, /* 48: the GM range __arc_gm_check fills next (round robin) */
    SLOT_MRGSORT_COUNTS = 49, /* GetMrgSortResult's four 16-bit counts */
    SLOT_AR = 50,         /* dav-3510's AR register: the bytes Reg::Squeeze<STORE_REG> kept */
    SLOT_LOOP = 51,       /* 6 slots: SetLoopModePara's registers, 3 per DataCopyMVType (arc/loop_mode.h) */
    SLOT_MUTEX_ALLOC = 57, /* AllocMutexID's bitmap of ids 0-27 (arc/mutex.h) */
    SLOT_END = 58
};
/* The top slots belong to the runtime (race log, cost, source site: core_abi.h);
 * every device-API slot is named above so none can land on theirs. */
static_assert(SLOT_END <= ARC_SITE_SLOT, "device-API slots run into the runtime's arc_core::dev[] slots");
/* Kernels stream through a few allocations at once (x, y and z of an add),
 * so one cached range would miss on every access and take the runtime's
 * allocation lock each time. */
constexpr int GM_WAYS = ARC_GM_WAYS;
enum AtomicOp { ATOMIC_NONE = ARC_ATOMIC_NONE, ATOMIC_ADD = ARC_ATOMIC_ADD, ATOMIC_MAX = ARC_ATOMIC_MAX,
                ATOMIC_MIN = ARC_ATOMIC_MIN };

/* Bulk copies GM <-> UB: calls into the runtime (rt/services/copy.c), so kernels do
 * not each compile their own copy loops. */
static inline void copy_bytes(void *__restrict dst, const void *__restrict src, uint64_t n)
{
    __arc_copy_bytes(dst, src, n);
}
/* UB -> GM: large aligned copies use non-temporal stores and a fence. */
static inline void store_bytes(void *__restrict dst, const void *__restrict src, uint64_t n)
{
    __arc_store_bytes(dst, src, n);
}

/* The bytes a local operand may span: its tensor's length; with
 * -DASCENDRTC_NPU_SEMANTICS (the NPU does not check) whatever is left of
 * the UB or L1 arena from its address, so memory stays safe. */
static inline uint64_t span_limit(const void *p, uint32_t tensor_bytes)
{
#ifdef ASCENDRTC_NPU_SEMANTICS
    arc_core *c = __arc_core();
    const unsigned char *a = (const unsigned char *)p;
    if (a >= c->ub && a < c->ub + c->ub_size) return (uint64_t)(c->ub + c->ub_size - a);
    if (c->l1 && a >= c->l1 && a < c->l1 + c->l1_size) return (uint64_t)(c->l1 + c->l1_size - a);
#else
    (void)p;
#endif
    return tensor_bytes;
}
#ifdef ASCENDRTC_NPU_SEMANTICS
#define ARC_LIMIT_WHAT "the memory left after it:"
#define ARC_LIMIT_HINT ""
#else
#define ARC_LIMIT_WHAT "the tensor's"
/* The simulator checks more than the NPU here: it says so, and how to check less. */
#define ARC_LIMIT_HINT "; the NPU checks no tensor bounds and would go on into the rest of the buffer (the simulator " \
                       "checks the tensor's size; -DASCENDRTC_NPU_SEMANTICS checks only the buffer's end)"
#endif

static inline arc_core *core() { return __arc_core(); }

/* Every device-API GM access: [p, p + bytes) must lie in a live device
 * allocation.  Fast path: one of the GM_WAYS allocations this block hit
 * last; the runtime looks up others (and traps on a bad access).  -DASCENDRTC_NO_GM_CHECKS
 * compiles the check out; ASCENDRTC_GM_CHECKS=0 disables it at run time. */
static inline void gm_access(const void *p, uint64_t bytes, const char *api)
{
#ifndef ASCENDRTC_NO_GM_CHECKS
    __arc_gm_access(__arc_core()->dev, p, bytes, api);
#else
    (void)p; (void)bytes; (void)api;
#endif
}
static inline unsigned long long &slot(int i) { return __arc_core()->dev[i]; }
} // namespace __arc

/* Fail the block with a message naming the API and the values involved. */
#define ARC_TRAP(api, ...) __arc_trap(api, __VA_ARGS__)
#define ARC_CHECK(cond, api, ...)                     \
    do {                                              \
        if (__builtin_expect(!(cond), 0))             \
            __arc_trap(api, __VA_ARGS__);             \
    } while (0)

/* ASSERT(cond) as kernels use it (CANN's CPU twin checks it too); assert()
 * from <assert.h>/<cassert> does the same unless NDEBUG. */
#ifndef ASSERT
#define ASSERT(cond) ARC_CHECK(cond, "ASSERT", "%s (failed at %s:%d)", #cond, __FILE__, __LINE__)
#endif

/* A data type the SoC's API lacks.  CANN compiles such a call when the
 * kernel never runs it (a branch for another dtype, not `if constexpr`),
 * so this is a check where the call runs, not a static_assert. */
#define ARC_DTYPE_REQUIRE(cond, msg)                                                                  \
    do {                                                                                             \
        if constexpr (!(cond))                                                                       \
            __arc_trap(msg, "this call ran on dav-%d, which cannot execute it (it compiles because " \
                            "CANN compiles it; only running it is an error)", (int)__NPU_ARCH__);    \
    } while (0)

/* UB operands must start on a 32-byte boundary (the arena is 32-aligned). */
#define ARC_CHECK_ALIGN32(ptr, api, what)                                               \
    ARC_CHECK(((uintptr_t)(ptr) & 31u) == 0, api,                                       \
              "%s address is not 32-byte aligned (offset %llu bytes into UB)", what,    \
              (unsigned long long)((const unsigned char *)(ptr) - __arc_core()->ub))

#endif /* ARC_STATE_H_ */
