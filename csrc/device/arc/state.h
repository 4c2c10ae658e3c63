/* state.h - per-core device-API state kept in arc_core::dev[] (zeroed
 * before each block), and the trap helper every CPU-twin check uses. */
#ifndef ARC_STATE_H_
#define ARC_STATE_H_

#include "arc/core_abi.h"
#include "arc/types.h"

namespace __arc {
enum DevSlot {
    SLOT_PIPE = 0,        /* the live TPipe (GetTPipePtr) */
    SLOT_MASK_MODE = 1,   /* 0 normal, 1 counter */
    SLOT_MASK_SET = 2,    /* 0: mask register at its default (all lanes) */
    SLOT_MASK_LO = 3,
    SLOT_MASK_HI = 4,
    SLOT_ATOMIC = 5,      /* AtomicOp below */
    SLOT_DEQSCALE = 6,    /* SetDeqScale value (float bits), 0 = unset -> 1.0 */
    SLOT_PADVAL = 7,      /* SetPadValue bits; SLOT_PADVAL_SET says whether set */
    SLOT_PADVAL_SET = 8,
    SLOT_SATURATION = 9,
    SLOT_CMPMASK_LO = 10, /* CMPMASK register (Compare without dst, Select mode 0) */
    SLOT_CMPMASK_HI = 11,
    SLOT_EVT_ALLOC = 12,  /* 5 slots: AllocEventID bitmap, 8 ids x HardEvent */
    SLOT_FLAGS = 20,      /* 18 slots: 4-bit SetFlag counters, 8 ids x HardEvent */
    SLOT_ACC_VAL = 38,    /* last reduction result (double bits), GetAccVal */
    SLOT_ACC_IDX = 39,    /* its index, GetReduceMaxMinCount */
    SLOT_END = 40
};
enum AtomicOp { ATOMIC_NONE = 0, ATOMIC_ADD = 1, ATOMIC_MAX = 2, ATOMIC_MIN = 3 };

static inline arc_core *core() { return __arc_core(); }
static inline unsigned long long &slot(int i) { return __arc_core()->dev[i]; }
} // namespace __arc

/* Fail the block with a message naming the API and the values involved. */
#define ARC_TRAP(api, ...) __arc_trap(api, __VA_ARGS__)
#define ARC_CHECK(cond, api, ...)                     \
    do {                                              \
        if (__builtin_expect(!(cond), 0))             \
            __arc_trap(api, __VA_ARGS__);             \
    } while (0)

/* UB operands must start on a 32-byte boundary (the arena is 32-aligned). */
#define ARC_CHECK_ALIGN32(ptr, api, what)                                               \
    ARC_CHECK(((uintptr_t)(ptr) & 31u) == 0, api,                                       \
              "%s address is not 32-byte aligned (offset %llu bytes into UB)", what,    \
              (unsigned long long)((const unsigned char *)(ptr) - __arc_core()->ub))

#endif /* ARC_STATE_H_ */
