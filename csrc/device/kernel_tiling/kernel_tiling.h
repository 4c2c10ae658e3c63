/* kernel_tiling/kernel_tiling.h - the kernel-side tiling structs of the
 * library APIs, which op_host tiling headers nest with
 * TILING_DATA_FIELD_DEF_STRUCT and kernels take by pointer or value.
 * Each is a plain struct with the host class's field order (see
 * arc/tiling_dsl.h for the layout rule). */
#ifndef ARC_KERNEL_TILING_H_
#define ARC_KERNEL_TILING_H_

#include <cstdint>

/* ---- Matmul: TCubeTiling (and the structs it needs) go here, in the
 * global namespace and as AscendC::tiling::TCubeTiling, with the cube API. */

/* ---- Advanced API tiling structs (SoftMaxTiling, LayerNormTiling, ...)
 * go here with the APIs that read them. */

#endif /* ARC_KERNEL_TILING_H_ */
