/* WsCopy: a plain tiling struct (no DSL), named the default below. */
#ifndef WS_COPY_TILING_H
#define WS_COPY_TILING_H
#include <cstdint>

struct WsCopyTiling {
    uint32_t blockLength;
    int32_t add;
};
#endif
