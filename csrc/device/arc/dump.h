/* dump.h - ShapeInfo / DataFormat, DumpTensor with a ShapeInfo (printed
 * as a shape header) and DumpAccChkPoint (dump from an element offset). */
#ifndef ARC_DUMP_H_
#define ARC_DUMP_H_

#include "arc/misc.h"

namespace AscendC {

enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };

} // namespace AscendC

/* ShapeInfo's capacity: a macro a kernel may set first (CATLASS's examples
 * set 0 to save stack), 8 by default as in CANN. */
#ifndef K_MAX_SHAPE_DIM
#define K_MAX_SHAPE_DIM 8
#endif

namespace AscendC {

struct ShapeInfo {
    ShapeInfo() {}
    ShapeInfo(uint8_t dim, const uint32_t s[], DataFormat fmt = DataFormat::ND)
        : ShapeInfo(dim, s, dim, s, fmt) {}
    ShapeInfo(uint8_t dim, const uint32_t s[], uint8_t origDim, const uint32_t orig[], DataFormat fmt = DataFormat::ND)
        : shapeDim(dim), originalShapeDim(origDim), dataFormat(fmt)
    {
        ARC_CHECK(dim <= K_MAX_SHAPE_DIM && origDim <= K_MAX_SHAPE_DIM, "AscendC::ShapeInfo",
                  "%u / %u dimensions: at most %u", dim, origDim, K_MAX_SHAPE_DIM);
        for (uint8_t i = 0; i < dim; i++) shape[i] = s[i];
        for (uint8_t i = 0; i < origDim; i++) originalShape[i] = orig[i];
    }
    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    uint32_t shape[K_MAX_SHAPE_DIM] = {};
    uint32_t originalShape[K_MAX_SHAPE_DIM] = {};
    DataFormat dataFormat = DataFormat::ND;
};

inline uint64_t GetShapeSize(const ShapeInfo &s)
{
    uint64_t n = 1;
    for (uint8_t i = 0; i < s.shapeDim; i++) n *= s.shape[i];
    return n;
}

namespace __detail {
inline void dump_shape(const ShapeInfo &s)
{
    __arc_printf("DumpTensor: shape [");
    for (uint8_t i = 0; i < s.shapeDim; i++) __arc_printf(i ? ", %u" : "%u", s.shape[i]);
    __arc_printf("]\n");
}
} // namespace __detail

template <typename T>
inline void DumpTensor(const LocalTensor<T> &t, uint32_t desc, uint32_t n, const ShapeInfo &shape)
{
    __detail::dump_shape(shape);
    DumpTensor(t, desc, n);
}
template <typename T>
inline void DumpTensor(const GlobalTensor<T> &t, uint32_t desc, uint32_t n, const ShapeInfo &shape)
{
    __detail::dump_shape(shape);
    DumpTensor(t, desc, n);
}
/* n elements from element `offset` of the tensor, tagged `index`. */
template <typename T> inline void DumpAccChkPoint(const LocalTensor<T> &t, uint32_t index, uint32_t offset, uint32_t n)
{
    ARC_CHECK(offset <= t.GetSize(), "AscendC::DumpAccChkPoint", "offset %u is beyond the tensor's %u elements", offset,
              t.GetSize());
    DumpTensor(t[offset], index, n);
}
template <typename T> inline void DumpAccChkPoint(const GlobalTensor<T> &t, uint32_t index, uint32_t offset, uint32_t n)
{
    DumpTensor(t[offset], index, n);
}

} // namespace AscendC

#endif /* ARC_DUMP_H_ */
