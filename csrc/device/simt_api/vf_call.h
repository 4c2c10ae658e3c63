/* vf_call.h - a SIMD+SIMT hybrid kernel's call of a SIMT vector function:
 * asc_vf_call<f>(dim3(threads), args...) from a `__global__ __vector__`
 * kernel runs the `__simt_vf__` function f as one block of threads on this
 * AIV (gridDim.x = the kernel's block count, blockIdx.x = its block index,
 * y and z 1 and 0), then returns: VFs run one after another, so UB written
 * by one is there for the next.  The arguments are converted to f's
 * parameter types as in a call and packed as a launch packs them; f's site
 * (arc/site.h) is what the rtc's SIMT pass turns into the block. */
#ifndef ASC_SIMT_VF_CALL_H_
#define ASC_SIMT_VF_CALL_H_

#include "arc/site.h"
#include "simt_api/device_types.h"

extern "C" void __arc_simt_vf(const void *site, unsigned x, unsigned y, unsigned z, const unsigned char *args);

template <auto F, class... A> __attribute__((always_inline)) inline void asc_vf_call(dim3 threads, A &&...a)
{
    ::__arc::packed_args<F> p(static_cast<A &&>(a)...);
    __arc_simt_vf(&::__arc::simt_site<F>::rec, threads.x, threads.y, threads.z, p.buf);
}

#endif
