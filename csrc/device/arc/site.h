/* site.h - what a <<<...>>> launch (arc/launch.h) and a hybrid kernel's
 * asc_vf_call of a __simt_vf__ function (simt_api/vf_call.h) share, with
 * nothing of the host's ACL: the site record the rtc finds by its mangled
 * name, a kernel's site and a SIMT function's site (its thread function,
 * which the rtc's SIMT pass turns into the block's entry), and the
 * arguments packed in CANN's layout (each parameter 8-byte aligned), the
 * layout the entries unpack. */
#ifndef ARC_SITE_H_
#define ARC_SITE_H_

#include "arc/entry.h"

namespace __arc {

struct site_rec {
    const char *lowered;                          /* host object: F's symbol; device: null */
    void (*entry)(const unsigned char *);         /* device: the unpacking entry */
    const void *kfn;                              /* device: &site<F>::kfn, whose value is F */
    const void *desc;                             /* device: &site<F>::desc */
};

template <auto F> struct site {
    static void entry(const unsigned char *args) { ::__arc::call(F, args); }
    static constexpr decltype(F) kfn = F;
    static constexpr decltype(::__arc::describe(F)) desc = ::__arc::describe(F);
    static const site_rec rec;
};
template <auto F> const site_rec site<F>::rec = {nullptr, &site<F>::entry, &site<F>::kfn, &site<F>::desc};

/* A SIMT launch's site: `thread` runs F as one thread (the SIMT pass finds
 * it through rec, _ZN5__arc9simt_siteI...E3recE, and makes it the block's
 * entry). */
template <auto F> struct simt_site {
    static void thread(const unsigned char *args) { ::__arc::call(F, args); }
    static constexpr decltype(F) kfn = F;
    static constexpr decltype(::__arc::describe(F)) desc = ::__arc::describe(F);
    static const site_rec rec;
};
template <auto F>
const site_rec simt_site<F>::rec = {nullptr, &simt_site<F>::thread, &simt_site<F>::kfn, &simt_site<F>::desc};

template <class K> struct kparams;
template <class... P> struct kparams<void (*)(P...)> {
    template <class T, class A> static void put(unsigned char *buf, unsigned off, A &&a)
    {
        T v = static_cast<A &&>(a); /* the conversion a call would make */
        __builtin_memcpy(buf + off, &v, sizeof(T));
    }
    template <unsigned... I, class... A>
    static void pack(unsigned char *buf, const unsigned *d, seq<I...>, A &&...a)
    {
        (put<P>(buf, d[2 + 4 * I], static_cast<A &&>(a)), ...);
    }
    template <class... A> static void pack(unsigned char *buf, const unsigned *d, A &&...a)
    {
        static_assert(sizeof...(A) == sizeof...(P), "a <<<...>>> launch passes as many arguments as the kernel "
                                                    "has parameters");
        pack(buf, d, __make_integer_seq<make_seq_helper, unsigned, sizeof...(P)>{}, static_cast<A &&>(a)...);
    }
};

/* F's launch arguments packed as its entry unpacks them (describe(F)'s
 * layout): what both kinds of launch hand the runtime. */
template <auto F> struct packed_args {
    static constexpr auto d = ::__arc::describe(F);
    static constexpr unsigned long size = d.v[1];
    alignas(8) unsigned char buf[size ? size : 8];
    template <class... A> explicit packed_args(A &&...a)
    {
        kparams<decltype(F)>::pack(buf, d.v, static_cast<A &&>(a)...);
    }
};

} // namespace __arc

#endif /* ARC_SITE_H_ */
