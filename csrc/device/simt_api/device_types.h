/* device_types.h - SIMT qualifiers, dim3 and the thread-hierarchy builtins.
 *
 * A SIMT kernel is compiled as the code of one thread; the builtins read
 * __arc_simt_get, which the rtc's SIMT pass replaces by the thread's loop
 * indices and the block's values (arc/simt_abi.h).  `__ubuf__` marks
 * block-shared UB: a local or namespace-scope `__ubuf__ T a[N]` is static
 * UB (laid out from offset 0, 32-byte aligned), `extern __ubuf__ T d[]` is
 * the launch's dynamic UB after it; the pass finds them by the annotation
 * and by protected visibility (which, unlike the annotation, clang keeps on
 * an extern declaration). */
#ifndef ASC_SIMT_DEVICE_TYPES_H_
#define ASC_SIMT_DEVICE_TYPES_H_

#include "arc/entry.h"
#include "arc/qualifiers.h"
#include "arc/simt_abi.h"
#include "arc/types.h"

#ifndef __ASCENDRTC_SIMT__
#error "SIMT kernels (simt_api/asc_simt.h) compile with --enable-simt (or use __simt_vf__) and --npu-arch=dav-3510"
#endif

#undef __ubuf__
#define __ubuf__ ARC_UBUF
#ifndef __host__
#define __host__
#endif
#ifndef __vector__ /* a hybrid kernel's SIMD side, __global__ __vector__ */
#define __vector__
#endif
#ifndef __inline__
#define __inline__ inline __attribute__((always_inline))
#endif
#ifndef __simt_callee__
#define __simt_callee__
#endif
#ifndef __simt_vf__
#define __simt_vf__
#endif
#ifndef __callee__
#define __callee__
#endif
/* The kernel's most threads per block (default 1024, at most 2048); the
 * launch refuses a block over it. */
#define __launch_bounds__(n) __attribute__((annotate("arc.launch_bounds", (n))))
#define __maxnreg__(n)
#define __schedmode__(n)

#ifndef ASC_UB_SIZE
#define ASC_UB_SIZE (256u * 1024u)
#endif

#ifndef __ARC_DIM3_DEFINED
#define __ARC_DIM3_DEFINED
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int x_ = 1, unsigned int y_ = 1, unsigned int z_ = 1) : x(x_), y(y_), z(z_) {}
};
#endif

extern "C" unsigned int __arc_simt_get(int which) __attribute__((const, nothrow));

namespace __arc_simt {
__attribute__((always_inline)) inline dim3 get3(int base)
{
    return dim3(__arc_simt_get(base), __arc_simt_get(base + 1), __arc_simt_get(base + 2));
}
} // namespace __arc_simt

#define threadIdx (::__arc_simt::get3(ARC_SIMT_TID))
#define blockIdx (::__arc_simt::get3(ARC_SIMT_BID))
#define blockDim (::__arc_simt::get3(ARC_SIMT_BDIM))
#define gridDim (::__arc_simt::get3(ARC_SIMT_GDIM))
constexpr int32_t warpSize = 32;

#endif
