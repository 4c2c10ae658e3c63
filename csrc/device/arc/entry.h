/* entry.h - how the rtc turns each kernel into something the runtime can
 * launch, and the kernel-type markers.
 *
 * For every kernel (found in the source, or named by aclrtcAddNameExpr) the
 * rtc appends `__ARC_ENTRY(i, expr)` after the user's code.  That expands to
 *   - __arc_entry_i(args): unpacks the packed argument block (each parameter
 *     8-byte aligned, CANN's rule) and calls the kernel, so the runtime never
 *     needs to know the C calling convention of a struct passed by value;
 *   - __arc_kdesc_i: {nparams, args_size, then offset,size,align,kind per
 *     parameter}, computed by the compiler from the real signature;
 *   - __arc_kfn_i: the kernel's address, whose symbol is the lowered name.
 * The rtc reads the last two from the IR and writes .arc_meta. */
#ifndef ARC_ENTRY_H_
#define ARC_ENTRY_H_

#include "arc/core_abi.h"

enum KernelMetaType : unsigned char {
    KERNEL_TYPE_AIV_ONLY = 0,
    KERNEL_TYPE_AIC_ONLY = 1,
    KERNEL_TYPE_MIX_AIV_1_0 = 2,
    KERNEL_TYPE_MIX_AIC_1_0 = 3,
    KERNEL_TYPE_MIX_AIC_1_1 = 4,
    KERNEL_TYPE_MIX_AIC_1_2 = 5,
    KERNEL_TYPE_AICORE = 6,
    KERNEL_TYPE_VECTORCORE = 7,
    KERNEL_TYPE_MIX_AICORE = 8,
    KERNEL_TYPE_MIX_VECTOR_CORE = 9,
    KERNEL_TYPE_MAX = 10
};

/* A used function-local static the rtc finds by its mangled name
 * (_ZZ<kernel>E10__arc_ktype) and records as the kernel type. */
#define KERNEL_TASK_TYPE_DEFAULT(type)                                              \
    static __attribute__((used)) const unsigned char __arc_ktype = (unsigned char)(type); \
    (void)__arc_ktype
#define KERNEL_TASK_TYPE(key, type) KERNEL_TASK_TYPE_DEFAULT(type)

/* The kernel type a qualifier gives (__vector__, __cube__, __mix__(c, v)):
 * an annotation the rtc reads (metadata.cpp). */
/* What `__ubuf__` means in kernel code (kernel_operator.h, simt_api): an
 * annotation the rtc's UB passes find, and protected visibility, which
 * clang keeps on an `extern` declaration (the dynamic UB). */
#define ARC_UBUF __attribute__((annotate("arc.ubuf"), visibility("protected")))
#define __ARC_KTYPE(type) __attribute__((annotate("__arc_ktype", (unsigned char)(type))))

namespace __arc {
/* __mix__(c, v): the ratios SIMD-BuiltIn关键字 allows. */
template <int C, int V> struct mix_type {
    static_assert((C == 1 && (V == 0 || V == 1 || V == 2)) || (C == 0 && V == 1),
                  "__mix__(cube, vec): the ratio must be (1, 0), (0, 1), (1, 1) or (1, 2)");
    static constexpr unsigned char value = C == 0 ? KERNEL_TYPE_MIX_AIV_1_0 : V == 0 ? KERNEL_TYPE_MIX_AIC_1_0
                                           : V == 1 ? KERNEL_TYPE_MIX_AIC_1_1 : KERNEL_TYPE_MIX_AIC_1_2;
};
} // namespace __arc

namespace __arc {

/* Parameter kinds, as enum arc_param_kind in csrc/common/meta.h.  The
 * device API may specialise param_kind for its own scalar classes. */
template <class T, bool = __is_enum(T)> struct enum_kind {
    static constexpr unsigned value = 0u;
};
template <class T> struct enum_kind<T, true> {
    static constexpr unsigned value = __is_signed(__underlying_type(T)) ? 2u : 3u;
};

template <class T> struct param_kind {
    static constexpr unsigned value =
        __is_pointer(T) ? 1u
        : __is_same(T, bool) ? 5u
        : __is_same(T, __bf16) ? 7u
        : __is_enum(T) ? enum_kind<T>::value
        : __is_integral(T) ? (__is_signed(T) ? 2u : 3u)
        : __is_floating_point(T) ? 4u
        : __is_class(T) ? 6u
        : 0u;
};

template <unsigned N> struct kdesc {
    unsigned v[2 + 4 * N];
};

template <class... A> constexpr kdesc<sizeof...(A)> describe(void (*)(A...))
{
    constexpr unsigned n = sizeof...(A);
    kdesc<n> d{};
    const unsigned sizes[] = {(unsigned)sizeof(A)..., 0u};
    const unsigned aligns[] = {(unsigned)alignof(A)..., 0u};
    const unsigned kinds[] = {param_kind<A>::value..., 0u};
    unsigned off = 0;
    for (unsigned i = 0; i < n; i++) {
        off = (off + 7u) & ~7u;
        d.v[2 + 4 * i] = off;
        d.v[3 + 4 * i] = sizes[i];
        d.v[4 + 4 * i] = aligns[i];
        d.v[5 + 4 * i] = kinds[i];
        off += sizes[i];
    }
    d.v[0] = n;
    d.v[1] = (off + 7u) & ~7u;
    return d;
}

template <class T> inline T load(const unsigned char *p)
{
    union U {
        T value;
        unsigned char bytes[sizeof(T)];
        U() {}
    } u;
    __builtin_memcpy(u.bytes, p, sizeof(T));
    return u.value;
}

template <unsigned... I> struct seq {};
template <class T, T... I> using make_seq_helper = seq<I...>;

template <class... A, unsigned... I>
inline void call(void (*f)(A...), const unsigned char *args, seq<I...>)
{
    constexpr kdesc<sizeof...(A)> d = describe((void (*)(A...))nullptr);
    f(load<A>(args + d.v[2 + 4 * I])...);
}

template <class... A> inline void call(void (*f)(A...), const unsigned char *args)
{
    call(f, args, __make_integer_seq<make_seq_helper, unsigned, sizeof...(A)>{});
}

/* Resolves a kernel name or template-id to a function pointer; a
 * non-void or non-function expression fails here with a clear note. */
template <class... A> constexpr auto fnptr(void (*f)(A...)) { return f; }

} // namespace __arc

/* The kernel's parameter descriptor and function pointer, which the rtc
 * reads back for the binary's metadata (rtc/metadata.cpp). */
#define __ARC_KDESC(i, ...)                                                                      \
    extern "C" __attribute__((used)) const decltype(::__arc::describe(::__arc::fnptr(__VA_ARGS__))) \
        __arc_kdesc_##i = ::__arc::describe(::__arc::fnptr(__VA_ARGS__));                        \
    extern "C" __attribute__((used)) const decltype(::__arc::fnptr(__VA_ARGS__))                  \
        __arc_kfn_##i = ::__arc::fnptr(__VA_ARGS__);

#define __ARC_ENTRY(i, ...)                                                               \
    extern "C" __attribute__((used)) void __arc_entry_##i(const unsigned char *args)    \
    {                                                                                    \
        ::__arc::call(::__arc::fnptr(__VA_ARGS__), args);                                \
    }                                                                                    \
    __ARC_KDESC(i, __VA_ARGS__)

/* The rtc appends one per SIMT kernel: the thread function the pass builds
 * the block from (rtc/simt_pass.cpp), plus the parameter descriptor. */
#define __ARC_SIMT_ENTRY(i, ...)                                                                 \
    extern "C" __attribute__((used)) void __arc_simt_thread_##i(const unsigned char *args)       \
    {                                                                                            \
        ::__arc::call(::__arc::fnptr(__VA_ARGS__), args);                                        \
    }                                                                                            \
    __ARC_KDESC(i, __VA_ARGS__)


#endif /* ARC_ENTRY_H_ */
