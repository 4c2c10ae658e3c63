/* lib/tiling/block_sizes.h - the block sizes kernels and host tiling code
 * both name: AscendC::ONE_BLK_SIZE (a UB block, 32 bytes) and
 * AscendC::BLOCK_CUBE (a cube fractal's side, 16).  CANN's host tiling
 * API defines them too (its confusion-transpose tiling header, which
 * tiling_api.h includes): ops-nn's matmul and conv host code says
 * `using AscendC::BLOCK_CUBE;`.  One definition for both sides, so a
 * single-source program may include kernel_operator.h and
 * tiling/tiling_api.h in either order. */
#ifndef ARC_LIB_TILING_BLOCK_SIZES_H_
#define ARC_LIB_TILING_BLOCK_SIZES_H_

#include <cstdint>

namespace AscendC {
constexpr uint32_t ONE_BLK_SIZE = 32;
constexpr uint32_t BLOCK_CUBE = 16;
} // namespace AscendC

#endif /* ARC_LIB_TILING_BLOCK_SIZES_H_ */
