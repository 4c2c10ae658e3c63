/* qualifiers.h - the function and address-space qualifiers every kernel
 * dialect shares (the SIMD C++ and C APIs through kernel_operator.h, SIMT
 * through simt_api/device_types.h).  On the simulated core they place
 * nothing: a kernel is host code of the core's thread, GM is host memory;
 * __global__ keeps the kernel emitted for the rtc's entry (arc/entry.h). */
#ifndef ARC_QUALIFIERS_H_
#define ARC_QUALIFIERS_H_

#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__ __attribute__((used))
#endif
#ifndef __gm__
#define __gm__
#endif

#endif /* ARC_QUALIFIERS_H_ */
