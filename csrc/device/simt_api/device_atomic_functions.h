/* device_atomic_functions.h - asc_atomic_* on GM and UB: each returns the
 * old value.  Blocks run on several host threads at once, so these are
 * real atomics; float and half operations are compare-and-swap loops. */
#ifndef ASC_SIMT_DEVICE_ATOMIC_FUNCTIONS_H_
#define ASC_SIMT_DEVICE_ATOMIC_FUNCTIONS_H_

#include "simt_api/device_types.h"

namespace __arc_simt {
template <class T, class F> __attribute__((always_inline)) inline T cas_loop(T *addr, F f)
{
    static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8, "atomic on 2, 4 or 8 bytes");
    using B = __typeof__(__builtin_choose_expr(sizeof(T) == 2, (unsigned short)0,
                         __builtin_choose_expr(sizeof(T) == 4, 0u, 0ull)));
    B *p = (B *)addr;
    B old = __atomic_load_n(p, __ATOMIC_RELAXED), nw;
    T o;
    do {
        __builtin_memcpy(&o, &old, sizeof o);
        T n = f(o);
        __builtin_memcpy(&nw, &n, sizeof nw);
    } while (!__atomic_compare_exchange_n(p, &old, nw, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    return o;
}
template <class T> constexpr bool is_int = __is_integral(T);
/* The value's type comes from the address alone: the documented overloads
 * are per type, so asc_atomic_exch(int *, unsigned) converts the value. */
template <class T> struct ident {
    using type = T;
};
template <class T> using val_t = typename ident<T>::type;
template <class T> __attribute__((always_inline)) inline bool bits_eq(T a, T b)
{
    return __builtin_memcmp(&a, &b, sizeof a) == 0;
}
} // namespace __arc_simt

#define __ARC_ATOMIC_RMW(name, builtin, expr)                                                 \
    template <class T>                                                                       \
    __attribute__((always_inline)) inline T name(T *addr, ::__arc_simt::val_t<T> val)       \
    {                                                                                        \
        if constexpr (::__arc_simt::is_int<T>)                                               \
            return builtin(addr, val, __ATOMIC_SEQ_CST);                                     \
        else                                                                                 \
            return ::__arc_simt::cas_loop(addr, [val](T o) { return (T)(expr); });          \
    }
__ARC_ATOMIC_RMW(asc_atomic_add, __atomic_fetch_add, (float)o + (float)val)
__ARC_ATOMIC_RMW(asc_atomic_sub, __atomic_fetch_sub, (float)o - (float)val)
__ARC_ATOMIC_RMW(asc_atomic_max, __atomic_fetch_max, (float)o >= (float)val || o != o ? o : val)
__ARC_ATOMIC_RMW(asc_atomic_min, __atomic_fetch_min, (float)o <= (float)val || o != o ? o : val)
#undef __ARC_ATOMIC_RMW
__attribute__((always_inline)) inline double asc_atomic_add(double *addr, double val)
{
    return ::__arc_simt::cas_loop(addr, [val](double o) { return o + val; });
}
template <class T> __attribute__((always_inline)) inline T asc_atomic_exch(T *addr, ::__arc_simt::val_t<T> val)
{
    return ::__arc_simt::cas_loop(addr, [val](T) { return val; });
}
template <class T>
__attribute__((always_inline)) inline T asc_atomic_cas(T *addr, ::__arc_simt::val_t<T> compare,
                                                       ::__arc_simt::val_t<T> val)
{
    return ::__arc_simt::cas_loop(addr, [compare, val](T o) {
        return ::__arc_simt::bits_eq(o, compare) ? val : o;
    });
}
template <class T> __attribute__((always_inline)) inline T asc_atomic_and(T *addr, ::__arc_simt::val_t<T> val)
{
    return __atomic_fetch_and(addr, val, __ATOMIC_SEQ_CST);
}
template <class T> __attribute__((always_inline)) inline T asc_atomic_or(T *addr, ::__arc_simt::val_t<T> val)
{
    return __atomic_fetch_or(addr, val, __ATOMIC_SEQ_CST);
}
template <class T> __attribute__((always_inline)) inline T asc_atomic_xor(T *addr, ::__arc_simt::val_t<T> val)
{
    return __atomic_fetch_xor(addr, val, __ATOMIC_SEQ_CST);
}
/* CUDA's wrapping increment/decrement: inc stores (old >= val) ? 0 : old + 1,
 * dec stores (old == 0 || old > val) ? val : old - 1. */
__attribute__((always_inline)) inline uint32_t asc_atomic_inc(uint32_t *addr, uint32_t val)
{
    return ::__arc_simt::cas_loop(addr, [val](uint32_t o) { return o >= val ? 0u : o + 1u; });
}
__attribute__((always_inline)) inline uint32_t asc_atomic_dec(uint32_t *addr, uint32_t val)
{
    return ::__arc_simt::cas_loop(addr, [val](uint32_t o) { return (o == 0 || o > val) ? val : o - 1u; });
}

#endif
