// Test op project (ascendrtc): new-style tiling, a plain struct shared by
// the host (GetTilingData<T>) and the kernel (GET_TILING_DATA_WITH_STRUCT).
#ifndef AXPY_STRUCT_TILING_H
#define AXPY_STRUCT_TILING_H
#include <cstdint>

struct AxpyStructTilingData {
    uint32_t blockLength;
    float alpha;
};
#endif
