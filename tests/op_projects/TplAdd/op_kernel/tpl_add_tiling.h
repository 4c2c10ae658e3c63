/* TplAdd: plain tiling structs (the standard-C++ flow), one per dtype. */
#ifndef TPL_ADD_TILING_H
#define TPL_ADD_TILING_H
#include <cstdint>

namespace optiling {
struct TplAddTiling {
    uint32_t totalLength;
};
struct TplAddTilingWide {
    uint32_t totalLength;
    float bias;
};
} // namespace optiling
#endif
