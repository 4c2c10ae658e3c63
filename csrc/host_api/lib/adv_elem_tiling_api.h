/* adv_elem_tiling_api.h - the scratch sizes of the advanced API's
 * element-wise functions (Exp, Sigmoid, Gelu, Quantize, ...), for the host
 * code of op projects and single-source programs:
 * AscendC::Get<Name>MaxMinTmpSize and its older spellings.
 *
 * The sizes are ascendrtc's, as for the row-wise APIs (adv_tiling.h): the
 * simulated kernels need no scratch, so min is one 256-byte repeat of float
 * intermediates and max the float intermediates of every element (32-byte
 * aligned, at least min); the figures the NPU uses are not public.  A bad
 * shape or type size leaves both zero and says why on stderr. */
#ifndef ARC_HOST_ADV_ELEM_TILING_API_H_
#define ARC_HOST_ADV_ELEM_TILING_API_H_

#include <stdint.h>
#include <stdio.h>

namespace AscendC {
namespace arc_detail {
/* A float intermediate per element: the most scratch ascendrtc reports. */
constexpr uint64_t kScratchPerElement = 4;
/* The sizes for `count` elements of `type_size` bytes (1, 2, 4 or 8);
 * false when there are none. */
inline bool elem_scratch(uint64_t count, uint32_t type_size, const char *api, uint32_t &maxValue,
                         uint32_t &minValue)
{
    maxValue = minValue = 0;
    if (type_size != 1 && type_size != 2 && type_size != 4 && type_size != 8) {
        fprintf(stderr, "ascendrtc: %s: typeSize %u is not 1, 2, 4 or 8 bytes\n", api, type_size);
        return false;
    }
    if (count == 0) {
        fprintf(stderr, "ascendrtc: %s: the shape has no elements\n", api);
        return false;
    }
    const uint64_t repeat = 256, all = (count * kScratchPerElement + 31) / 32 * 32;
    minValue = (uint32_t)repeat;
    maxValue = (uint32_t)(all < repeat ? repeat : all > 0xffffffffu ? 0xffffffffu : all);
    return true;
}
/* Get<Name>TmpBufferFactorSize's two figures, by which a kernel with
 * currBuff bytes of scratch computes (currBuff - extraBuf) /
 * maxLiveNodeCount / typeSize elements at once: the same float
 * intermediate per element as elem_scratch's max, no extra room.  A bad
 * type size leaves both zero (the pages say to check maxLiveNodeCount). */
inline void elem_factor(uint32_t type_size, const char *api, uint32_t &maxLiveNodeCount, uint32_t &extraBuf)
{
    maxLiveNodeCount = extraBuf = 0;
    if (type_size != 1 && type_size != 2 && type_size != 4 && type_size != 8) {
        fprintf(stderr, "ascendrtc: %s: typeSize %u is not 1, 2, 4 or 8 bytes\n", api, type_size);
        return;
    }
    maxLiveNodeCount = (uint32_t)((kScratchPerElement + type_size - 1) / type_size);
}
template <class Shape> inline uint64_t elem_count(const Shape &s)
{
    uint64_t n = s.GetDimNum() ? 1 : 0;
    for (size_t i = 0; i < (size_t)s.GetDimNum(); i++)
        n = s.GetDim(i) > 0 ? n * (uint64_t)s.GetDim(i) : 0;
    return n;
}
} // namespace arc_detail

/* (shape, typeSize, isReuseSource, max, min); whether there are sizes
 * (CANN's Exp form returns bool: ops-nn's InplaceApplyPowerSign checks it) */
#define ARC_ELEM_TMP_REUSE(X)                                                                                     \
    X(Acos) X(Acosh) X(Asin) X(Asinh) X(Atan) X(Atanh) X(Axpy) X(Ceil) X(Clamp) X(Cos) X(Cosh) X(Digamma) X(Erf)   \
    X(Erfc) X(Exp) X(Floor) X(Fmod) X(Frac) X(GeGLU) X(Lgamma) X(Log) X(Round) X(Sigmoid) X(Sign) X(Sin) X(Sinh)   \
    X(Tan) X(Tanh) X(Trunc) X(Xor) X(DropOut) X(Hypot)
#define ARC_ELEM_TMP_REUSE_DEF(N)                                                                                 \
    template <class Shape>                                                                                        \
    inline bool Get##N##MaxMinTmpSize(const Shape &srcShape, const uint32_t typeSize, const bool isReuseSource,   \
                                      uint32_t &maxValue, uint32_t &minValue)                                     \
    {                                                                                                             \
        (void)isReuseSource;                                                                                      \
        return arc_detail::elem_scratch(arc_detail::elem_count(srcShape), typeSize, "Get" #N "MaxMinTmpSize",     \
                                        maxValue, minValue);                                                      \
    }
ARC_ELEM_TMP_REUSE(ARC_ELEM_TMP_REUSE_DEF)
#undef ARC_ELEM_TMP_REUSE_DEF
#undef ARC_ELEM_TMP_REUSE

/* Silu and Swish keep their older name, Get<Name>TmpSize. */
#define ARC_ELEM_TMP_OLD(N)                                                                                       \
    template <class Shape>                                                                                        \
    inline void Get##N##TmpSize(const Shape &srcShape, const uint32_t typeSize, const bool isReuseSource,         \
                                uint32_t &maxValue, uint32_t &minValue)                                           \
    {                                                                                                             \
        (void)isReuseSource;                                                                                      \
        arc_detail::elem_scratch(arc_detail::elem_count(srcShape), typeSize, "Get" #N "TmpSize", maxValue,        \
                                 minValue);                                                                       \
    }
ARC_ELEM_TMP_OLD(Silu)
ARC_ELEM_TMP_OLD(Swish)
#undef ARC_ELEM_TMP_OLD

/* (shape, typeSize, max, min) */
#define ARC_ELEM_TMP_PLAIN(N)                                                                                     \
    template <class Shape>                                                                                        \
    inline void Get##N##MaxMinTmpSize(const Shape &srcShape, const uint32_t typeSize, uint32_t &maxValue,         \
                                      uint32_t &minValue)                                                         \
    {                                                                                                             \
        arc_detail::elem_scratch(arc_detail::elem_count(srcShape), typeSize, "Get" #N "MaxMinTmpSize", maxValue,  \
                                 minValue);                                                                       \
    }
ARC_ELEM_TMP_PLAIN(AscendQuant)
ARC_ELEM_TMP_PLAIN(AscendDequant)
ARC_ELEM_TMP_PLAIN(Quantize)
ARC_ELEM_TMP_PLAIN(Dequantize)
#undef ARC_ELEM_TMP_PLAIN

/* AscendAntiQuant (and Ascend 950's AntiQuantize): the source's and the
 * scale's shapes, transposed or not, the input and output types; sized
 * for float intermediates of every source element whatever the types (at
 * least what any of them needs). */
#define ARC_ANTIQUANT_TMP(N)                                                                                      \
    template <class Shape, class DataType>                                                                        \
    inline void Get##N##MaxMinTmpSize(const Shape &srcShape, const Shape &scaleShape, bool isTranspose,           \
                                      DataType inputDataType, DataType outputDataType, uint32_t &maxValue,        \
                                      uint32_t &minValue)                                                         \
    {                                                                                                             \
        (void)scaleShape; (void)isTranspose; (void)inputDataType; (void)outputDataType;                           \
        arc_detail::elem_scratch(arc_detail::elem_count(srcShape), 4u, "Get" #N "MaxMinTmpSize", maxValue,        \
                                 minValue);                                                                       \
    }
ARC_ANTIQUANT_TMP(AscendAntiQuant)
ARC_ANTIQUANT_TMP(AntiQuantize)
#undef ARC_ANTIQUANT_TMP

/* ReduceMax (the advanced API's): the shape, the element type (a
 * ge::DataType), the pattern, srcInnerPad, isReuseSource; sized for every
 * element at 8 bytes (the widest type), whatever the type and pattern. */
template <class Shape, class DataType, class PatternT>
inline void GetReduceMaxMaxMinTmpSize(const Shape &srcShape, const DataType dataType, PatternT pattern,
                                      bool isSrcInnerPad, bool isReuseSource, uint32_t &maxValue, uint32_t &minValue)
{
    (void)dataType; (void)pattern; (void)isSrcInnerPad; (void)isReuseSource;
    arc_detail::elem_scratch(arc_detail::elem_count(srcShape), 8u, "GetReduceMaxMaxMinTmpSize", maxValue, minValue);
}

/* The Ascend 950 APIs whose query takes the platform first. */
#define ARC_ELEM_TMP_PLATFORM(X)                                                                                  \
    X(Rint) X(Fma) X(Round) X(SinCos) X(IsInf) X(IsNan) X(Where) X(BitwiseAnd) X(BitwiseOr) X(BitwiseXor)          \
    X(BitwiseNot) X(LogicalAnd) X(LogicalOr) X(LogicalXor) X(LogicalNot) X(LogicalAnds) X(LogicalOrs)
#define ARC_ELEM_TMP_PLATFORM_DEF(N)                                                                              \
    template <class Platform, class Shape>                                                                        \
    inline void Get##N##MaxMinTmpSize(const Platform &, const Shape &srcShape, const uint32_t typeSize,           \
                                      const bool isReuseSource, uint32_t &maxValue, uint32_t &minValue)           \
    {                                                                                                             \
        (void)isReuseSource;                                                                                      \
        arc_detail::elem_scratch(arc_detail::elem_count(srcShape), typeSize, "Get" #N "MaxMinTmpSize", maxValue,  \
                                 minValue);                                                                       \
    }
ARC_ELEM_TMP_PLATFORM(ARC_ELEM_TMP_PLATFORM_DEF)
#undef ARC_ELEM_TMP_PLATFORM_DEF
#undef ARC_ELEM_TMP_PLATFORM

/* CumSum tells the axis: the sizes do not depend on it here. */
template <class Shape>
inline void GetCumSumMaxMinTmpSize(const Shape &srcShape, const uint32_t typeSize, const bool isLastAxis,
                                   const bool isReuseSource, uint32_t &maxValue, uint32_t &minValue)
{
    (void)isLastAxis;
    (void)isReuseSource;
    arc_detail::elem_scratch(arc_detail::elem_count(srcShape), typeSize, "GetCumSumMaxMinTmpSize", maxValue,
                             minValue);
}

/* Select (and its deprecated name SelectWithBytesMask): the sources'
 * and the mask's shapes (a scalar source is {1}); the larger count of the
 * sources and the mask decides. */
#define ARC_SELECT_TMP(N)                                                                                         \
    template <class Shape>                                                                                        \
    inline void Get##N##MaxMinTmpSize(const Shape &src0Shape, const Shape &src1Shape, const uint32_t srcTypeSize, \
                                      const Shape &maskShape, const uint32_t maskTypeSize, const bool isReuseMask, \
                                      uint32_t &maxValue, uint32_t &minValue)                                     \
    {                                                                                                             \
        (void)maskTypeSize;                                                                                       \
        (void)isReuseMask;                                                                                        \
        uint64_t a = arc_detail::elem_count(src0Shape), b = arc_detail::elem_count(src1Shape),                    \
                 m = arc_detail::elem_count(maskShape), n = a > b ? a : b;                                        \
        arc_detail::elem_scratch(n > m ? n : m, srcTypeSize, "Get" #N "MaxMinTmpSize", maxValue, minValue);       \
    }                                                                                                             \
    template <class Shape>                                                                                        \
    inline uint32_t Get##N##MaxTmpSize(const Shape &src0Shape, const Shape &src1Shape, const uint32_t srcTypeSize, \
                                       const Shape &maskShape, const uint32_t maskTypeSize, const bool isReuseMask) \
    {                                                                                                             \
        uint32_t mx = 0, mn = 0;                                                                                  \
        Get##N##MaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, mx, mn);   \
        return mx;                                                                                                \
    }                                                                                                             \
    template <class Shape>                                                                                        \
    inline uint32_t Get##N##MinTmpSize(const Shape &src0Shape, const Shape &src1Shape, const uint32_t srcTypeSize, \
                                       const Shape &maskShape, const uint32_t maskTypeSize, const bool isReuseMask) \
    {                                                                                                             \
        uint32_t mx = 0, mn = 0;                                                                                  \
        Get##N##MaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, mx, mn);   \
        return mn;                                                                                                \
    }
ARC_SELECT_TMP(Select)
ARC_SELECT_TMP(SelectWithBytesMask)
#undef ARC_SELECT_TMP

/* DropOut also gives the two sizes by separate calls. */
template <class Shape>
inline uint32_t GetDropOutMaxTmpSize(const Shape &srcShape, const uint32_t typeSize, const bool isReuseSource)
{
    uint32_t mx = 0, mn = 0;
    GetDropOutMaxMinTmpSize(srcShape, typeSize, isReuseSource, mx, mn);
    return mx;
}
template <class Shape>
inline uint32_t GetDropOutMinTmpSize(const Shape &srcShape, const uint32_t typeSize, const bool isReuseSource)
{
    uint32_t mx = 0, mn = 0;
    GetDropOutMaxMinTmpSize(srcShape, typeSize, isReuseSource, mx, mn);
    return mn;
}

/* SwiGLU puts isReuseSource last. */
template <class Shape>
inline void GetSwiGLUMaxMinTmpSize(const Shape &srcShape, const uint32_t typeSize, uint32_t &maxValue,
                                   uint32_t &minValue, const bool isReuseSource = false)
{
    (void)isReuseSource;
    arc_detail::elem_scratch(arc_detail::elem_count(srcShape), typeSize, "GetSwiGLUMaxMinTmpSize", maxValue,
                             minValue);
}

/* Gelu (and FasterGelu) give the two sizes by separate calls. */
template <class Shape> inline uint32_t GetGeluMaxTmpSize(const Shape &srcShape, const uint32_t typeSize)
{
    uint32_t mx = 0, mn = 0;
    arc_detail::elem_scratch(arc_detail::elem_count(srcShape), typeSize, "GetGeluMaxTmpSize", mx, mn);
    return mx;
}
template <class Shape> inline uint32_t GetGeluMinTmpSize(const Shape &srcShape, const uint32_t typeSize)
{
    uint32_t mx = 0, mn = 0;
    arc_detail::elem_scratch(arc_detail::elem_count(srcShape), typeSize, "GetGeluMinTmpSize", mx, mn);
    return mn;
}

/* Sum takes the element count of a row. */
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t &maxValue, uint32_t &minValue)
{
    (void)isReuseSource;
    arc_detail::elem_scratch(n, typeSize, "GetSumMaxMinTmpSize", maxValue, minValue);
}

/* Power: base and exponent shapes (one may be the scalar {1}); the larger counts. */
template <class Shape>
inline void GetPowerMaxMinTmpSize(const Shape &baseShape, const Shape &expShape, const bool typeIsInt,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t &maxValue,
                                  uint32_t &minValue)
{
    (void)typeIsInt;
    (void)isReuseSource;
    uint64_t a = arc_detail::elem_count(baseShape), b = arc_detail::elem_count(expShape);
    arc_detail::elem_scratch(a > b ? a : b, typeSize, "GetPowerMaxMinTmpSize", maxValue, minValue);
}

/* (typeSize, maxLiveNodeCount, extraBuf): how many elements fit a scratch size */
#define ARC_ELEM_TMP_FACTOR(N)                                                                                    \
    inline void Get##N##TmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount,                \
                                            uint32_t &extraBuf)                                                  \
    {                                                                                                             \
        arc_detail::elem_factor(typeSize, "Get" #N "TmpBufferFactorSize", maxLiveNodeCount, extraBuf);           \
    }
ARC_ELEM_TMP_FACTOR(Log)
ARC_ELEM_TMP_FACTOR(Log2)
ARC_ELEM_TMP_FACTOR(Log10)
ARC_ELEM_TMP_FACTOR(Fmod)
ARC_ELEM_TMP_FACTOR(Mean)
#undef ARC_ELEM_TMP_FACTOR

/* Power's names which operands are tensors and whether the type is an integer. */
inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                        const uint32_t typeSize, uint32_t &maxLiveNodeCount, uint32_t &extraBuffer)
{
    (void)baseIsTensor;
    (void)expIsTensor;
    (void)typeIsInt;
    arc_detail::elem_factor(typeSize, "GetPowerTmpBufferFactorSize", maxLiveNodeCount, extraBuffer);
}
} // namespace AscendC

#endif
