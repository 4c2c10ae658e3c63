/* catlass_arch.h - CATLASS (hicann/catlass) picks its kernels by
 * CATLASS_ARCH; a build for an arch the simulated NPU cannot run, or one
 * that disagrees with --npu-arch, stops here with the reason instead of
 * deep in CATLASS's templates. */
#ifndef ARC_CATLASS_ARCH_H_
#define ARC_CATLASS_ARCH_H_

#if defined(CATLASS_ARCH)
#if CATLASS_ARCH == 3510
#error "CATLASS built for Ascend 950 (CATLASS_ARCH=3510): the simulated dav-3510 has no cube unit yet (Mmad, LoadData, Fixpipe are dav-2201's); build CATLASS's Atlas A2 examples with CATLASS_ARCH=2201 --npu-arch=dav-2201"
#elif CATLASS_ARCH != 2201
#error "CATLASS_ARCH must be 2201 (Atlas A2) or 3510 (Ascend 950), the archs CATLASS supports"
#elif __NPU_ARCH__ != 2201
#error "CATLASS built for Atlas A2 (CATLASS_ARCH=2201) but compiled for another arch: pass --npu-arch=dav-2201"
#endif
#endif

#endif /* ARC_CATLASS_ARCH_H_ */
