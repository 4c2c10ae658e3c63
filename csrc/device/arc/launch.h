/* launch.h - the `<<<...>>>` launches of a single-source program (`ascendrtc
 * cc`), lowered to ACL calls.  The rtc rewrites each launch
 *     kernel<T><<<cfg...>>>(args...)
 * into
 *     ::__arc::launch<&kernel<T> >(__FILE__, __LINE__, cfg...)(args...)
 * (launch_lower.cpp; lines do not move), and compiles the file once: the
 * kernel side goes into the device binary, the host side into a host
 * object that embeds that binary (host_split.cpp).
 *
 * Each launched kernel F gets a site entry, __arc::site<F>: the unpacking
 * entry the runtime calls, its descriptor (entry.h), and `rec`, which the
 * rtc finds by its mangled name (_ZN5__arc4siteI...E3recE).  In the device
 * binary, rec is a kernel entry like __ARC_ENTRY's; in the host object its
 * first field holds F's symbol name, by which the host side finds the
 * kernel in the embedded binary.  Arguments are converted to the kernel's
 * parameter types as in a call, then packed in CANN's layout (each
 * parameter 8-byte aligned), the layout the entry unpacks.
 *
 * The launch configuration picks the kind of launch: 2 or 3 values are a
 * SIMD launch (blocks, dynamic UB bytes[, stream]); 4 are SIMT's
 * (grid, block, dynamic UB bytes, stream; grid and block a dim3 or an
 * integer), whose site is a simt_site<F>: its entry is F's thread function,
 * which the rtc's SIMT pass turns into the block entry (--enable-simt). */
#ifndef ARC_LAUNCH_H_
#define ARC_LAUNCH_H_

#include "arc/entry.h"
#include "arc/site.h"
#include "acl/acl.h"

namespace __arc {

/* Host side: the embedded device binary (its definition is added to the
 * host object by the rtc, private to it) and the launch itself. */
extern "C" const unsigned char __arc_embedded_bin[];
extern "C" const unsigned long __arc_embedded_bin_size;

/* Loads (once per embedded binary) and launches; reports a failure on
 * stderr naming the launch site, as CANN reports a launch error. */
extern "C" int ascendrtc_launch_site(const void *bin, unsigned long bin_size, const void *site,
                                    const char *file, unsigned line, unsigned blocks, unsigned dyn_ubuf,
                                    void *stream, void *args, unsigned long args_size);
/* The same for a SIMT launch: grid and block are x, y, z. */
extern "C" int ascendrtc_launch_site_simt(const void *bin, unsigned long bin_size, const void *site,
                                         const char *file, unsigned line, const unsigned *grid,
                                         const unsigned *block, unsigned dyn_ubuf, void *stream, void *args,
                                         unsigned long args_size);

template <auto F> struct launcher {
    const char *file;
    unsigned line;
    unsigned blocks;
    unsigned dyn_ubuf;
    void *stream;
    template <class... A> void operator()(A &&...a) const
    {
        packed_args<F> p(static_cast<A &&>(a)...);
        ascendrtc_launch_site(__arc_embedded_bin, __arc_embedded_bin_size, &site<F>::rec, file, line, blocks,
                              dyn_ubuf, stream, p.buf, p.size);
    }
};

template <auto F> struct simt_launcher {
    const char *file;
    unsigned line;
    unsigned grid[3], block[3];
    unsigned dyn_ubuf;
    void *stream;
    template <class... A> void operator()(A &&...a) const
    {
        packed_args<F> p(static_cast<A &&>(a)...);
        ascendrtc_launch_site_simt(__arc_embedded_bin, __arc_embedded_bin_size, &simt_site<F>::rec, file, line,
                                   grid, block, dyn_ubuf, stream, p.buf, p.size);
    }
};

/* A SIMT grid or block: a dim3 (anything with x, y, z) or an integer. */
template <class T, class = void> struct is_dims {
    static constexpr bool value = false;
};
template <class T> struct is_dims<T, decltype((void)T{}.x, (void)T{}.y, (void)T{}.z)> {
    static constexpr bool value = true;
};
template <class T> void dims_value(const T &v, unsigned *out)
{
    if constexpr (is_dims<T>::value) {
        out[0] = (unsigned)v.x, out[1] = (unsigned)v.y, out[2] = (unsigned)v.z;
    } else {
        static_assert(__is_integral(T) || __is_enum(T), "a SIMT <<<grid, block, ...>>> launch takes a dim3 or an "
                                                         "integer for the grid and the block");
        out[0] = (unsigned)v, out[1] = out[2] = 1;
    }
}

/* A launch configuration value: an integer, a stream, or nullptr. */
template <class T> unsigned long long cfg_value(T v)
{
    if constexpr (__is_pointer(T))
        return (unsigned long long)(const void *)v;
    else if constexpr (__is_integral(T) || __is_enum(T))
        return (unsigned long long)v;
    else
        return 0; /* nullptr */
}

template <class... C> struct always_false {
    static constexpr bool value = false;
};

template <auto F, class G, class B, class U, class S>
simt_launcher<F> launch(const char *file, unsigned line, G grid, B block, U dyn_ubuf, S stream)
{
#ifndef __ASCENDRTC_SIMT__
    static_assert(always_false<G, B>::value, "a SIMT <<<grid, block, dynUBufSize, stream>>> launch needs "
                                             "--enable-simt (and --npu-arch=dav-3510)");
#endif
    simt_launcher<F> l{file, line, {1, 1, 1}, {1, 1, 1}, (unsigned)cfg_value(dyn_ubuf), (void *)cfg_value(stream)};
    dims_value(grid, l.grid);
    dims_value(block, l.block);
    return l;
}

/* pick<N>::of(&k): the kernel named k that takes N parameters.  With one
 * parameter list per N, deduction from an overload set succeeds for one
 * member only ([temp.deduct.call]), so a launch resolves overloaded kernels
 * (CATLASS's KernelAdapter(params) and (params, syncAddr)) by its argument
 * count as a call would; past 12 parameters only a kernel without overloads. */
template <unsigned N> struct pick {
    template <class... A> static constexpr auto of(void (*f)(A...)) { return f; }
};
template <> struct pick<0> {
    static constexpr auto of(void (*f)()) { return f; }
};
#define __ARC_PICK(N, TP, P)                                                   \
    template <> struct pick<N> {                                               \
        template <TP> static constexpr auto of(void (*f)(P)) { return f; }     \
    };
#define __ARC_PICK_T1 class A0
#define __ARC_PICK_P1 A0
__ARC_PICK(1, __ARC_PICK_T1, __ARC_PICK_P1)
#define __ARC_PICK_T2 class A0, class A1
#define __ARC_PICK_P2 A0, A1
__ARC_PICK(2, __ARC_PICK_T2, __ARC_PICK_P2)
#define __ARC_PICK_T3 class A0, class A1, class A2
#define __ARC_PICK_P3 A0, A1, A2
__ARC_PICK(3, __ARC_PICK_T3, __ARC_PICK_P3)
#define __ARC_PICK_T4 class A0, class A1, class A2, class A3
#define __ARC_PICK_P4 A0, A1, A2, A3
__ARC_PICK(4, __ARC_PICK_T4, __ARC_PICK_P4)
#define __ARC_PICK_T5 class A0, class A1, class A2, class A3, class A4
#define __ARC_PICK_P5 A0, A1, A2, A3, A4
__ARC_PICK(5, __ARC_PICK_T5, __ARC_PICK_P5)
#define __ARC_PICK_T6 class A0, class A1, class A2, class A3, class A4, class A5
#define __ARC_PICK_P6 A0, A1, A2, A3, A4, A5
__ARC_PICK(6, __ARC_PICK_T6, __ARC_PICK_P6)
#define __ARC_PICK_T7 class A0, class A1, class A2, class A3, class A4, class A5, class A6
#define __ARC_PICK_P7 A0, A1, A2, A3, A4, A5, A6
__ARC_PICK(7, __ARC_PICK_T7, __ARC_PICK_P7)
#define __ARC_PICK_T8 class A0, class A1, class A2, class A3, class A4, class A5, class A6, class A7
#define __ARC_PICK_P8 A0, A1, A2, A3, A4, A5, A6, A7
__ARC_PICK(8, __ARC_PICK_T8, __ARC_PICK_P8)
#define __ARC_PICK_T9 class A0, class A1, class A2, class A3, class A4, class A5, class A6, class A7, class A8
#define __ARC_PICK_P9 A0, A1, A2, A3, A4, A5, A6, A7, A8
__ARC_PICK(9, __ARC_PICK_T9, __ARC_PICK_P9)
#define __ARC_PICK_T10 class A0, class A1, class A2, class A3, class A4, class A5, class A6, class A7, class A8, class A9
#define __ARC_PICK_P10 A0, A1, A2, A3, A4, A5, A6, A7, A8, A9
__ARC_PICK(10, __ARC_PICK_T10, __ARC_PICK_P10)
#define __ARC_PICK_T11 class A0, class A1, class A2, class A3, class A4, class A5, class A6, class A7, class A8, class A9, class A10
#define __ARC_PICK_P11 A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10
__ARC_PICK(11, __ARC_PICK_T11, __ARC_PICK_P11)
#define __ARC_PICK_T12 class A0, class A1, class A2, class A3, class A4, class A5, class A6, class A7, class A8, class A9, class A10, class A11
#define __ARC_PICK_P12 A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11
__ARC_PICK(12, __ARC_PICK_T12, __ARC_PICK_P12)
#undef __ARC_PICK
#undef __ARC_PICK_T1
#undef __ARC_PICK_P1
#undef __ARC_PICK_T2
#undef __ARC_PICK_P2
#undef __ARC_PICK_T3
#undef __ARC_PICK_P3
#undef __ARC_PICK_T4
#undef __ARC_PICK_P4
#undef __ARC_PICK_T5
#undef __ARC_PICK_P5
#undef __ARC_PICK_T6
#undef __ARC_PICK_P6
#undef __ARC_PICK_T7
#undef __ARC_PICK_P7
#undef __ARC_PICK_T8
#undef __ARC_PICK_P8
#undef __ARC_PICK_T9
#undef __ARC_PICK_P9
#undef __ARC_PICK_T10
#undef __ARC_PICK_P10
#undef __ARC_PICK_T11
#undef __ARC_PICK_P11
#undef __ARC_PICK_T12
#undef __ARC_PICK_P12

template <auto F, class... C> launcher<F> launch(const char *file, unsigned line, C... cfg)
{
    static_assert(sizeof...(C) == 2 || sizeof...(C) == 3,
                  "a <<<...>>> launch takes <<<blocks, dynUBufSize[, stream]>>> (SIMD) or "
                  "<<<grid, block, dynUBufSize, stream>>> (SIMT)");
    {
        const unsigned long long v[] = {cfg_value(cfg)...};
        void *stream = nullptr;
        if constexpr (sizeof...(C) == 3)
            stream = (void *)v[2];
        return {file, line, (unsigned)v[0], (unsigned)v[1], stream};
    }
}

} // namespace __arc

#endif /* ARC_LAUNCH_H_ */
