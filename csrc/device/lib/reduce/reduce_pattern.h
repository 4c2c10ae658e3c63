/* reduce_pattern.h - ReducePattern, the axes of the advanced API's reduce
 * family (ReduceSum/Max/..., Normalize's config): one letter per dimension,
 * A a kept (normal) axis, R a reduced one.  Values as the docs define them. */
#ifndef ARC_LIB_REDUCE_REDUCE_PATTERN_H_
#define ARC_LIB_REDUCE_REDUCE_PATTERN_H_

#include <stdint.h>

namespace AscendC {
enum class ReducePattern : uint32_t {
    AR = 0,
    RA = 1,
    R,
    ARA,
    ARAR,
    ARARA,
    ARARAR,
    ARARARA,
    ARARARAR,
    ARARARARA,
    RAR,
    RARA,
    RARAR,
    RARARA,
    RARARAR,
    RARARARA,
};
} // namespace AscendC

#endif /* ARC_LIB_REDUCE_REDUCE_PATTERN_H_ */
