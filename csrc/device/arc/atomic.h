/* atomic.h - DMA atomics: after SetAtomicAdd<T>() (or Max/Min), copies to
 * GM combine with what is there instead of overwriting.  Cores run
 * concurrently, so each element is combined with a compare-and-swap. */
#ifndef ARC_ATOMIC_H_
#define ARC_ATOMIC_H_

#include "arc/state.h"
#include "arc/ctrl.h"
#include "arc/complex.h"

namespace __arc {
template <class T> inline T combine(T old, T v, int op)
{
    if constexpr (is_complex_v<T>) {
        return old; /* never reached: store_atomic traps first */
    } else if constexpr (is_same<T, half>::value || is_same<T, bfloat16_t>::value) {
        float a = (float)old, b = (float)v;
        return (T)(op == ATOMIC_ADD ? a + b : op == ATOMIC_MAX ? (a > b ? a : b) : (a < b ? a : b));
    } else {
        return op == ATOMIC_ADD ? (T)(old + v) : op == ATOMIC_MAX ? (old > v ? old : v) : (old < v ? old : v);
    }
}

/* *p = combine(*p, v) atomically; returns the value it replaced.  T is at
 * most 8 bytes and naturally aligned. */
template <class T> inline T atomic_apply(T *p, T v, int op)
{
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
        typedef typename uint_of<sizeof(T)>::type U;
        U *w = (U *)(void *)p;
        U old = __atomic_load_n(w, __ATOMIC_RELAXED);
        for (;;) {
            T o;
            __builtin_memcpy(&o, &old, sizeof(T));
            T n = combine(o, v, op);
            U nb;
            __builtin_memcpy(&nb, &n, sizeof(T));
            if (__atomic_compare_exchange_n(w, &old, nb, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return o;
        }
    } else {
        uintptr_t a = (uintptr_t)p;
        uint32_t *w = (uint32_t *)(a & ~(uintptr_t)3);
        unsigned sh = (unsigned)(a & 3) * 8;
        uint32_t m = (sizeof(T) == 2 ? 0xffffu : 0xffu) << sh;
        uint32_t old = __atomic_load_n(w, __ATOMIC_RELAXED);
        for (;;) {
            typename uint_of<sizeof(T)>::type ob = (typename uint_of<sizeof(T)>::type)((old & m) >> sh), nb;
            T o;
            __builtin_memcpy(&o, &ob, sizeof(T));
            T n = combine(o, v, op);
            __builtin_memcpy(&nb, &n, sizeof(T));
            uint32_t nw = (old & ~m) | ((uint32_t)nb << sh);
            if (__atomic_compare_exchange_n(w, &old, nw, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return o;
        }
    }
}

/* A scalar GM atomic: the old value is the one the combine replaced, so
 * concurrent callers each see a distinct predecessor. */
template <class T> inline T scalar_atomic(T *p, T v, int op, const char *api)
{
    gm_access(p, sizeof(T), api);
    if (race_gm_on()) __arc_race_gm(ARC_GM_ATOMIC_RMW, RP_S, p, sizeof(T), api);
    return atomic_apply(p, v, op);
}

/* The atomic-mode copy: out of the inlined path (cold, compiled once per
 * element type) so the plain copy a kernel almost always makes stays a call. */
template <class T> __attribute__((noinline, cold)) void store_atomic_each(T *dst, const T *src, uint64_t n, int op)
{
    for (uint64_t i = 0; i < n; i++) atomic_apply(dst + i, src[i], op);
}
/* 32-bit float and integers: the runtime's copy (rt/services/store_atomic.c, the
 * same combine), so kernels compile none. */
template <class T> inline void store_atomic(T *dst, const T *src, uint64_t n, int op)
{
    if constexpr (one_of<T, float, int32_t, uint32_t>)
        __arc_store_atomic32((void *)dst, (const void *)src, n, op,
                             is_same<T, float>::value     ? ARC_ATOMIC32_F32
                             : is_same<T, int32_t>::value ? ARC_ATOMIC32_I32
                                                          : ARC_ATOMIC32_U32);
    else if constexpr (is_complex_v<T>) /* SetAtomicAdd's page lists no complex type */
        __arc_trap("AscendC::DataCopy", "an atomic (SetAtomicAdd/Max/Min) copy of complex32/complex64 to GM: "
                   "SetAtomicAdd's page lists no complex type");
    else if constexpr (packed_per_byte<T>::value > 1) /* sub-byte elements: no documented combine */
        __arc_trap("AscendC::DataCopy", "an atomic (SetAtomicAdd/Max/Min) copy of %s to GM is not simulated yet by "
                   "ascendrtc", tname<T>());
    else
        store_atomic_each(dst, src, n, op);
}
/* Copy n elements UB -> GM honouring the atomic mode. */
template <class T> inline void store_gm(T *__restrict dst, const T *__restrict src, uint64_t n)
{
    int op = (int)__arc_core()->dev[SLOT_ATOMIC];
    if (__builtin_expect(op == ATOMIC_NONE, 1)) {
        store_bytes((void *)dst, (const void *)src, n * sizeof(T));
        return;
    }
    store_atomic(dst, src, n, op);
}
} // namespace __arc

namespace AscendC {
/* The atomic mode is CTRL[10:6] (arc/ctrl.h), mirrored in SLOT_ATOMIC. */
template <typename T> inline void SetAtomicAdd() { __arc::ctrl_set_atomic<T>(__arc::ATOMIC_ADD); }
template <typename T> inline void SetAtomicMax() { __arc::ctrl_set_atomic<T>(__arc::ATOMIC_MAX); }
template <typename T> inline void SetAtomicMin() { __arc::ctrl_set_atomic<T>(__arc::ATOMIC_MIN); }
inline void SetAtomicNone() { __arc::ctrl_set_atomic<float>(__arc::ATOMIC_NONE); }
inline void DisableDmaAtomic() { __arc::ctrl_set_atomic<float>(__arc::ATOMIC_NONE); }
template <typename T> inline void SetAtomicType() {}

/* Scalar GM atomics; they return the old value. */
template <typename T> inline T AtomicAdd(T *p, T v) { return __arc::scalar_atomic(p, v, __arc::ATOMIC_ADD, "AscendC::AtomicAdd"); }
template <typename T> inline T AtomicMax(T *p, T v) { return __arc::scalar_atomic(p, v, __arc::ATOMIC_MAX, "AscendC::AtomicMax"); }
template <typename T> inline T AtomicMin(T *p, T v) { return __arc::scalar_atomic(p, v, __arc::ATOMIC_MIN, "AscendC::AtomicMin"); }
template <typename T> inline T AtomicExch(T *p, T v)
{
    __arc::gm_access(p, sizeof(T), "AscendC::AtomicExch");
    if (__arc::race_gm_on()) __arc_race_gm(ARC_GM_ATOMIC_RMW, __arc::RP_S, p, sizeof(T), "AscendC::AtomicExch");
    return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}
template <typename T> inline T AtomicCas(T *p, T expected, T desired)
{
    __arc::gm_access(p, sizeof(T), "AscendC::AtomicCas");
    if (__arc::race_gm_on()) __arc_race_gm(ARC_GM_ATOMIC_RMW, __arc::RP_S, p, sizeof(T), "AscendC::AtomicCas");
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return expected;
}

/* A scalar GM access that bypasses the data cache (asc-devkit docs,
 * 标量计算/Write|ReadGmByPassDCache): the simulated scalar unit has no
 * DCache, so these are GM's own ordered accesses; a core polling a flag
 * another core writes this way sees it (the GM race check takes them as
 * ordering accesses, as the documented DataSyncBarrier<DDR> pattern makes them). */
template <typename T> inline void WriteGmByPassDCache(__gm__ T *addr, T value)
{
    static_assert(__arc::one_of<T, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>,
                  "AscendC::WriteGmByPassDCache: T is an 8- to 64-bit integer type");
    __arc::gm_access(addr, sizeof(T), "AscendC::WriteGmByPassDCache");
    if (__arc::race_gm_on())
        __arc_race_gm(ARC_GM_ATOMIC_RMW, __arc::RP_S, addr, sizeof(T), "AscendC::WriteGmByPassDCache");
    __atomic_store_n((T *)addr, value, __ATOMIC_SEQ_CST);
}
template <typename T> inline T ReadGmByPassDCache(__gm__ T *addr)
{
    static_assert(__arc::one_of<T, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>,
                  "AscendC::ReadGmByPassDCache: T is an 8- to 64-bit integer type");
    __arc::gm_access(addr, sizeof(T), "AscendC::ReadGmByPassDCache");
    if (__arc::race_gm_on())
        __arc_race_gm(ARC_GM_ATOMIC_RMW, __arc::RP_S, addr, sizeof(T), "AscendC::ReadGmByPassDCache");
    return __atomic_load_n((const T *)addr, __ATOMIC_SEQ_CST);
}
} // namespace AscendC

#endif /* ARC_ATOMIC_H_ */
