/* ctrl.h - the CTRL special register (SetCtrlSpr / GetCtrlSpr /
 * ResetCtrlSpr, AscendCUtils::SetOverflow) and the DMA atomic mode it
 * holds in bits 6-10.  The register lives in arc_core::dev[SLOT_CTRL],
 * stored XOR the value a launch starts with (the slots are zeroed per
 * block); the atomic bits are also mirrored into SLOT_ATOMIC, which the
 * copies (and the runtime's DataCopy) read.
 *
 * Bits (SetCtrlSpr's page): 6-8 the atomic type (0 off, 1 float, 2 half,
 * 3 int16_t, 4 int32_t, 5 int8_t, 6 bfloat16_t), 9-10 the atomic op (0 add,
 * 1 max, 2 min), 45 fp8 matmul as hifloat8, 48 float saturation off (1) /
 * on (0), 50 fp8 NaN kept, 53 integer saturation, 59 conversion
 * truncation, 60 saturation set globally.  Their documented reset values
 * are 0 but for bit 60 (1).  A launch starts with bit 48 = 1 as well: the
 * simulated float computations keep inf and NaN (the runtime's inf/NaN
 * mode), which is what bit 48 = 1 selects. */
#ifndef ARC_CTRL_H_
#define ARC_CTRL_H_

#include <type_traits>

#include "arc/state.h"

namespace __arc {
constexpr uint64_t CTRL_RESET = 1ull << 60;                 /* the documented defaults */
constexpr uint64_t CTRL_LAUNCH = CTRL_RESET | 1ull << 48;   /* what a launch starts with */
constexpr uint64_t CTRL_ATOMIC_BITS = 0x1full << 6;
/* The bits SetCtrlSpr may touch on this arch (its constraints). */
constexpr uint64_t ctrl_supported()
{
    return __NPU_ARCH__ == 3510
               ? (CTRL_ATOMIC_BITS | 1ull << 45 | 1ull << 48 | 1ull << 50 | 1ull << 53 | 1ull << 59 | 1ull << 60)
               : 1ull << 48;
}
constexpr uint64_t ctrl_field(int lo, int hi) { return (hi - lo >= 63 ? ~0ull : ((1ull << (hi - lo + 1)) - 1)) << lo; }
inline uint64_t ctrl_read() { return __arc_core()->dev[SLOT_CTRL] ^ CTRL_LAUNCH; }
/* Writes the whole register, keeping SLOT_ATOMIC in step with bits 6-10. */
inline void ctrl_write(uint64_t v, const char *api)
{
    unsigned long long *d = __arc_core()->dev;
    d[SLOT_CTRL] = v ^ CTRL_LAUNCH;
    const uint64_t type = v >> 6 & 7u, op = v >> 9 & 3u;
    ARC_CHECK(type <= 6 && op <= 2, api, "CTRL[8:6] = %llu / CTRL[10:9] = %llu is not an atomic type / operation",
              (unsigned long long)type, (unsigned long long)op);
    d[SLOT_ATOMIC] = type == 0 ? ATOMIC_NONE : op == 0 ? ATOMIC_ADD : op == 1 ? ATOMIC_MAX : ATOMIC_MIN;
}
/* CTRL[8:6]'s code of an atomic's element type (0: one it does not list). */
template <class T> constexpr uint64_t ctrl_atomic_type()
{
    return std::is_same<T, float>::value ? 1 : std::is_same<T, half>::value ? 2 : std::is_same<T, int16_t>::value ? 3
         : std::is_same<T, int32_t>::value ? 4
         : std::is_same<T, int8_t>::value ? 5 : std::is_same<T, bfloat16_t>::value ? 6 : 0;
}
/* SetAtomicAdd<T> and its siblings: bits 6-10 for T and op (op NONE clears them). */
template <class T> inline void ctrl_set_atomic(int op)
{
    uint64_t v = ctrl_read() & ~CTRL_ATOMIC_BITS;
    const uint64_t type = ctrl_atomic_type<T>() ? ctrl_atomic_type<T>() : 1; /* an unlisted type: still on */
    if (op != ATOMIC_NONE) v |= type << 6 | (uint64_t)(op == ATOMIC_ADD ? 0 : op == ATOMIC_MAX ? 1 : 2) << 9;
    ctrl_write(v, "AscendC::SetAtomic");
}
/* Float results saturate (inf -> +-MAX, NaN -> 0): CTRL[48] = 0, globally
 * (CTRL[60] = 1) on dav-3510. */
inline bool ctrl_saturating()
{
    const uint64_t c = ctrl_read();
    return !(c >> 48 & 1u) && (__NPU_ARCH__ != 3510 || (c >> 60 & 1u));
}
/* A vector operation writing half (or, but on dav-3510, bfloat16_t) in the
 * saturation mode: the simulated computations keep inf and NaN, so it is
 * refused rather than computed differently from the NPU. */
template <class T> inline void ctrl_sat_guard(const char *api, const char *what)
{
    if constexpr (std::is_same<T, half>::value || (std::is_same<T, bfloat16_t>::value && __NPU_ARCH__ != 3510)) {
        if (what[0] == 'd' && what[1] == 's' && what[2] == 't' && __builtin_expect(ctrl_saturating(), 0))
            __arc_trap(api, "%s: a %s result in the saturation mode (CTRL[48] = 0: inf -> +-MAX, NaN -> 0) is not "
                       "simulated; the simulator keeps inf/NaN, as CTRL[48] = 1 (AscendCUtils::SetOverflow(1), "
                       "SetCtrlSpr<48, 48>(1)) selects", what, std::is_same<T, half>::value ? "half" : "bfloat16_t");
    }
}
template <int8_t startBit, int8_t endBit> constexpr void ctrl_range_check()
{
    static_assert(0 <= startBit && startBit <= endBit && endBit <= 63, "CTRL bits: 0 <= startBit <= endBit <= 63");
}
} // namespace __arc

namespace AscendC {
/* CTRL[startBit:endBit] = value (a value wider than the field is refused). */
template <int8_t startBit, int8_t endBit> inline void SetCtrlSpr(int64_t value)
{
    __arc::ctrl_range_check<startBit, endBit>();
    constexpr uint64_t f = __arc::ctrl_field(startBit, endBit);
    static_assert((f & ~__arc::ctrl_supported()) == 0,
                  "AscendC::SetCtrlSpr: a CTRL bit this arch does not support (dav-2201: only CTRL[48]; dav-3510: "
                  "8:6, 10:9, 45, 48, 50, 53, 59, 60)");
    ARC_CHECK(((uint64_t)value << startBit & ~f) == 0 && value >= 0, "AscendC::SetCtrlSpr",
              "value %lld does not fit CTRL[%d:%d]", (long long)value, (int)endBit, (int)startBit);
    __arc::ctrl_write((__arc::ctrl_read() & ~f) | ((uint64_t)value << startBit & f), "AscendC::SetCtrlSpr");
}
template <int8_t startBit, int8_t endBit> inline int64_t GetCtrlSpr()
{
    __arc::ctrl_range_check<startBit, endBit>();
    return (int64_t)((__arc::ctrl_read() & __arc::ctrl_field(startBit, endBit)) >> startBit);
}
/* CTRL[startBit:endBit] back to the documented defaults. */
template <int8_t startBit, int8_t endBit> inline void ResetCtrlSpr()
{
    __arc::ctrl_range_check<startBit, endBit>();
    constexpr uint64_t f = __arc::ctrl_field(startBit, endBit);
    static_assert((f & ~__arc::ctrl_supported()) == 0,
                  "AscendC::ResetCtrlSpr: a CTRL bit this arch does not support");
    __arc::ctrl_write((__arc::ctrl_read() & ~f) | (__arc::CTRL_RESET & f), "AscendC::ResetCtrlSpr");
}
} // namespace AscendC

#endif /* ARC_CTRL_H_ */
