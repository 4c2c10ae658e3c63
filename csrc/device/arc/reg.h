/* reg.h - the register model of dav-3510's Reg vector compute, shared by
 * the C++ API (AscendC::Reg, arc/reg_api.h) and the C API (vector_float &
 * asc_*, arc/capi_reg.h): a vector register holds VL = 256 bytes, a mask
 * register one bit per byte of VL (an element of T is active when bit
 * i * sizeof(T) is set), predicated operations zero the inactive lanes of
 * their destination ("mask未筛选的元素在输出中置零").  Registers are plain
 * values of the core's thread; loads and stores are the UB accesses, on
 * PIPE_V for the race check (a VF runs on the vector pipe), checked for
 * alignment and for the UB's bounds when they address the core's UB. */
#ifndef ARC_REG_H_
#define ARC_REG_H_

#include "arc/state.h"
#include "arc/race.h"
#include "arc/types.h"
#include "arc/vec_unary.h"

namespace __arc {
namespace reg {
/* VL: bytes of one vector register (common/socs.h's vl_bytes; 0 where the
 * arch has no Reg API, which the API refuses at compile time). */
constexpr uint32_t VL = arch_bytes(ARCH_VL);

template <class T> struct vreg {
    static constexpr uint32_t N = 256 / sizeof(T); /* elements per register */
    alignas(32) T v[N];
    using elem = T;
    /* A C-style cast to another register type keeps the bits, as the
     * compiler's vector types do (the C API's cast example stores a
     * vector_int16_t as (vector_int32_t) with asc_storealign_pack). */
    template <class U> explicit operator vreg<U>() const
    {
        vreg<U> r;
        __builtin_memcpy(r.v, v, sizeof v);
        return r;
    }
};
struct vmask {
    alignas(32) uint8_t b[32]; /* bit k: byte lane k of VL */
};

template <class T> inline bool on(const vmask &m, uint32_t i)
{
    uint32_t bit = i * (uint32_t)sizeof(T);
    return (m.b[bit >> 3] >> (bit & 7)) & 1u;
}
template <class T> inline void set(vmask &m, uint32_t i, bool v)
{
    uint32_t bit = i * (uint32_t)sizeof(T);
    if (v)
        m.b[bit >> 3] |= (uint8_t)(1u << (bit & 7));
    else
        m.b[bit >> 3] &= (uint8_t)~(1u << (bit & 7));
}
/* The first n elements of T active. */
template <class T> inline vmask first(uint32_t n)
{
    vmask m{};
    for (uint32_t i = 0; i < vreg<T>::N && i < n; i++) set<T>(m, i, true);
    return m;
}

/* The documented mask patterns (MaskPattern / PAT_*), in their order. */
enum Pattern { P_ALL, P_VL1, P_VL2, P_VL3, P_VL4, P_VL8, P_VL16, P_VL32, P_VL64, P_VL128, P_M3, P_M4, P_H, P_Q,
               P_ALLF = 15 };
template <class T> inline vmask pattern(int p, const char *api)
{
    constexpr uint32_t N = vreg<T>::N;
    static const uint32_t counts[] = {N, 1, 2, 3, 4, 8, 16, 32, 64, 128};
    vmask m{};
    if (p >= P_ALL && p <= P_VL128) {
        ARC_CHECK(counts[p] <= N, api, "pattern VL%u asks for more elements than a register of %s holds (%u)",
                  counts[p], tname<T>(), N);
        return first<T>(counts[p]);
    }
    for (uint32_t i = 0; i < N; i++) {
        bool a = p == P_M3 ? i % 3 == 0 : p == P_M4 ? i % 4 == 0 : p == P_H ? i < N / 2 : p == P_Q ? i < N / 4 : false;
        ARC_CHECK(p == P_M3 || p == P_M4 || p == P_H || p == P_Q || p == P_ALLF, api, "unknown mask pattern %d", p);
        set<T>(m, i, a);
    }
    return m;
}
/* UpdateMask: the first min(count, N) elements; count -= N (to 0). */
template <class T> inline vmask update(uint32_t &count)
{
    constexpr uint32_t N = vreg<T>::N;
    vmask m = first<T>(count);
    count = count < N ? 0 : count - N;
    return m;
}

/* A UB operand of a Reg load or store: alignment (align bytes) and, when it
 * lies in this core's UB, the UB's end; then the race check's record. */
inline void ub_operand(const void *p, uint64_t bytes, uint32_t align, int write, const char *api, const char *what)
{
    arc_core *k = __arc_core();
    uintptr_t a = (uintptr_t)p, ub = (uintptr_t)k->ub;
    if (a >= ub && a < ub + k->ub_size) {
        ARC_CHECK(a % align == 0, api, "%s: UB address offset %llu is not %u-byte aligned", what,
                  (unsigned long long)(a - ub), align);
        ARC_CHECK(a - ub + bytes <= k->ub_size, api,
                  "%s: %llu bytes at UB offset %llu run past the end of the UB (%llu bytes)", what,
                  (unsigned long long)bytes, (unsigned long long)(a - ub), (unsigned long long)k->ub_size);
    }
    race(RP_V, write, p, bytes, api);
}

/* The UB side of loads and stores, out of line: the race check records
 * them as PIPE_V (ub_operand), and the compiler's raw-pointer check, which
 * instruments the kernel's own accesses, must not take them for the user's
 * code when the optimiser merges their locations into the call site's. */
__attribute__((noinline)) inline void ub_read(void *d, const void *src, uint64_t n) { __builtin_memcpy(d, src, n); }
template <class T> __attribute__((noinline)) void ub_write_masked(T *dst, const vreg<T> &s, const vmask &m)
{
    for (uint32_t i = 0; i < vreg<T>::N; i++)
        if (on<T>(m, i)) dst[i] = s.v[i];
}
__attribute__((noinline)) inline void ub_write(void *d, const void *src, uint64_t n) { __builtin_memcpy(d, src, n); }

/* A whole register from UB: all VL bytes are read, whatever lanes the
 * kernel uses, so a race past its first bytes is held until a predicate
 * uses those lanes (lanes_used; rt/analysis/race_report.c). */
template <class T> inline void load(vreg<T> &d, const T *src, const char *api)
{
    ub_operand(src, 256, 32, ARC_RACE_REG, api, "src");
    ub_read(d.v, src, 256);
}
/* The bytes of a register predicate m reaches: to its last active element's end. */
template <class T> inline uint32_t reach(const vmask &m)
{
    for (int i = 31; i >= 0; i--)
        if (m.b[i]) return (uint32_t)(i * 8 + 31 - __builtin_clz((unsigned)m.b[i])) + (uint32_t)sizeof(T);
    return 0;
}
/* A store or reduction under predicate m uses the register's bytes as far
 * as m reaches: a held race on them is reported now. */
template <class T> inline void lanes_used(const vmask &m, const char *api)
{
    if (race_on()) __arc_race_reg_use(reach<T>(m), api);
}
/* Store the active elements; the inactive ones keep what UB held (the NPU
 * touches no byte past the last active element: neither do the checks). */
template <class T> inline void store(T *dst, const vreg<T> &s, const vmask &m, const char *api)
{
    ub_operand(dst, reach<T>(m), 32, 2, api, "dst");
    lanes_used<T>(m, api);
    ub_write_masked(dst, s, m);
}

/* Predicated element-wise operations: inactive destination lanes are 0. */
template <class T, class F> inline void map1(vreg<T> &d, const vreg<T> &a, const vmask &m, F f)
{
    vreg<T> r;
    for (uint32_t i = 0; i < vreg<T>::N; i++) r.v[i] = on<T>(m, i) ? f(a.v[i]) : (T)0;
    d = r;
}
template <class T, class F> inline void map2(vreg<T> &d, const vreg<T> &a, const vreg<T> &b, const vmask &m, F f)
{
    vreg<T> r;
    for (uint32_t i = 0; i < vreg<T>::N; i++) r.v[i] = on<T>(m, i) ? f(a.v[i], b.v[i]) : (T)0;
    d = r;
}
template <class T, class F> inline vmask cmp(const vreg<T> &a, const vreg<T> &b, const vmask &m, F f)
{
    vmask r{};
    for (uint32_t i = 0; i < vreg<T>::N; i++) set<T>(r, i, on<T>(m, i) && f(a.v[i], b.v[i]));
    return r;
}
/* dst = sel ? a : b, element-wise. */
template <class T> inline void select(vreg<T> &d, const vreg<T> &a, const vreg<T> &b, const vmask &sel)
{
    vreg<T> r;
    for (uint32_t i = 0; i < vreg<T>::N; i++) r.v[i] = on<T>(sel, i) ? a.v[i] : b.v[i];
    d = r;
}
template <class T> inline void dup(vreg<T> &d, T v, const vmask &m)
{
    for (uint32_t i = 0; i < vreg<T>::N; i++) d.v[i] = on<T>(m, i) ? v : (T)0;
}
/* The logic family: bitwise on each selected element's bits (a float's
 * too); on mask registers, on the bits the mask selects. */
template <class T, class F> inline T bitwise(T x, T y, F f)
{
    static_assert(sizeof(T) <= 8, "bitwise ops take elements of at most 8 bytes");
    unsigned long long a = 0, b = 0;
    __builtin_memcpy(&a, &x, sizeof(T));
    __builtin_memcpy(&b, &y, sizeof(T));
    a = f(a, b);
    T r;
    __builtin_memcpy(&r, &a, sizeof(T));
    return r;
}
template <class F> inline vmask maskwise(const vmask &a, const vmask &b, const vmask &m, F f)
{
    vmask r;
    for (unsigned i = 0; i < sizeof r.b; i++) r.b[i] = (uint8_t)(f(a.b[i], b.b[i]) & m.b[i]);
    return r;
}
/* Reductions over the active elements into element 0 (the rest 0); an
 * empty mask gives the operation's identity (0 for a sum). */
template <class T, class F> inline void reduce(vreg<T> &d, const vreg<T> &a, const vmask &m, T init, F f)
{
    T acc = init;
    lanes_used<T>(m, "a Reg reduction");
    for (uint32_t i = 0; i < vreg<T>::N; i++)
        if (on<T>(m, i)) acc = f(acc, a.v[i]);
    vreg<T> r{};
    r.v[0] = acc;
    d = r;
}
template <class T> inline T lowest()
{
    if constexpr (is_float_v<T>) return (T)-__builtin_inff();
    else return __is_signed(T) ? (T)((typename uint_of<sizeof(T)>::type)1 << (8 * sizeof(T) - 1)) : (T)0;
}
template <class T> inline T highest()
{
    if constexpr (is_float_v<T>) return (T)__builtin_inff();
    else return (T)(__is_signed(T) ? (typename uint_of<sizeof(T)>::type)~(typename uint_of<sizeof(T)>::type)0 >> 1
                                   : (typename uint_of<sizeof(T)>::type)~(typename uint_of<sizeof(T)>::type)0);
}
} // namespace reg
} // namespace __arc

/* asc_vf_call<f>(args...): run the SIMD vector function f (a `__simd_vf__`
 * free function taking pointers and scalars).  VFs are queued on PIPE_V in
 * order and a VF's instructions are complete when it ends, so running it
 * at the call is what the NPU computes. */
template <auto funcPtr, typename... Args> inline void asc_vf_call(Args &&...args)
{
    const bool race = __arc::race_on();
    if (race) __arc_core()->dev[ARC_RACE_SLOT] |= ARC_SIMD_VF;
    funcPtr(static_cast<Args &&>(args)...);
    if (race) {
        __arc_core()->dev[ARC_RACE_SLOT] &= ~ARC_SIMD_VF;
        __arc_race_reg_drop(); /* the VF's registers are gone: so are their held races */
    }
}

#endif /* ARC_REG_H_ */
