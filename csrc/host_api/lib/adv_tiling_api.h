/* adv_tiling_api.h - the advanced API's host tiling under CANN's names, for
 * op-project host code (C++17): AscendC::GetPadMaxMinTmpSize, PadTilingFunc,
 * GetUnPadMaxMinTmpSize, UnPadTilingFunc, GetSoftMaxMax/MinTmpSize,
 * SoftMaxTilingFunc (and the LogSoftMax / SoftMaxGrad forms), GetLayerNormMaxMinTmpSize, GetLayerNormNDTilingInfo (both
 * LayerNorm forms), GetDeepNormMaxMinTmpSize, GetDeepNormTilingInfo, GetNormalizeMaxMinTmpSize,
 * GetRmsNormMaxMinTmpSize, GetRmsNormTilingInfo, GetConfusionTransposeMaxMinTmpSize,
 * GetConfusionTransposeTilingInfo, GetConfusionTransposeOnlyTilingInfo
 * (and the GetTranspose* spellings), and optiling::PadTiling
 * and its siblings (GetDataSize/SaveToBuffer).  Thin wrappers over
 * adv_tiling.h.
 *
 * Include it after the ge::Shape the host API defines: the functions take
 * any shape with GetDimNum() and GetDim(i), and the platform argument of
 * GetUnPadMaxMinTmpSize is not used.  A bad shape leaves the outputs zero
 * (CANN's functions return nothing either); the message goes to stderr. */
#ifndef ARC_HOST_ADV_TILING_API_H_
#define ARC_HOST_ADV_TILING_API_H_

#include <stdio.h>
#include <string.h>

#include "adv_tiling.h"

namespace optiling {
/* optiling::X: the kernel struct with the TilingDef calls samples make. */
#define ARC_ADV_OPTILING(NAME)                                                                      \
    struct NAME : ::NAME {                                                                          \
        NAME() : ::NAME() {}                                                                        \
        size_t GetDataSize() const { return sizeof(::NAME); }                                       \
        void SaveToBuffer(void *buf, size_t cap) const                                              \
        {                                                                                           \
            memcpy(buf, static_cast<const ::NAME *>(this), cap < sizeof(::NAME) ? cap : sizeof(::NAME)); \
        }                                                                                           \
    };
ARC_ADV_OPTILING(PadTiling)
ARC_ADV_OPTILING(UnPadTiling)
ARC_ADV_OPTILING(SoftMaxTiling)
ARC_ADV_OPTILING(LogSoftMaxTiling)
ARC_ADV_OPTILING(LayerNormTiling)
ARC_ADV_OPTILING(DeepNormTiling)
ARC_ADV_OPTILING(LayerNormGradTiling)
ARC_ADV_OPTILING(LayerNormGradBetaTiling)
ARC_ADV_OPTILING(LayerNormSeparateTiling)
ARC_ADV_OPTILING(RmsNormTiling)
ARC_ADV_OPTILING(ConfusionTransposeTiling)
ARC_ADV_OPTILING(TopkTiling)
#undef ARC_ADV_OPTILING
} // namespace optiling

namespace AscendC {
namespace arc_detail {
struct dims {
    int64_t d[8];
    size_t n;
};
template <class Shape> inline dims of(const Shape &s)
{
    dims r{};
    r.n = s.GetDimNum() > 8 ? 8 : (size_t)s.GetDimNum();
    for (size_t i = 0; i < r.n; i++) r.d[i] = (int64_t)s.GetDim(i);
    return r;
}
inline bool ok(const char *err, const char *api)
{
    if (err) fprintf(stderr, "ascendrtc: %s: %s\n", api, err);
    return err == nullptr;
}
template <class T, class K> inline void put(T &out, const K &k) { static_cast<K &>(out) = k; }
} // namespace arc_detail

template <class Shape>
inline void GetPadMaxMinTmpSize(const Shape &srcShape, const uint32_t typeSize, uint32_t &maxValue, uint32_t &minValue)
{
    auto d = arc_detail::of(srcShape);
    maxValue = minValue = 0;
    arc_detail::ok(arc_pad_tmp_size(d.d, d.n, typeSize, &maxValue, &minValue), "GetPadMaxMinTmpSize");
}
template <class Shape, class Tiling>
inline void PadTilingFunc(const Shape srcShape, const Shape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, Tiling &tiling)
{
    auto d = arc_detail::of(srcShape), o = arc_detail::of(oriSrcShape);
    ::PadTiling t{};
    if (arc_detail::ok(arc_pad_tiling(d.d, d.n, o.d, o.n, stackBufferSize, typeSize, &t), "PadTilingFunc"))
        arc_detail::put(tiling, t);
}
template <class Platform, class Shape>
inline void GetUnPadMaxMinTmpSize(const Platform &, const Shape &srcShape, const uint32_t typeSize,
                                  uint32_t &maxValue, uint32_t &minValue)
{
    auto d = arc_detail::of(srcShape);
    maxValue = minValue = 0;
    arc_detail::ok(arc_unpad_tmp_size(d.d, d.n, typeSize, &maxValue, &minValue), "GetUnPadMaxMinTmpSize");
}
template <class Shape, class Tiling>
inline void UnPadTilingFunc(const Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            Tiling &tiling)
{
    auto d = arc_detail::of(srcShape);
    ::UnPadTiling t{};
    if (arc_detail::ok(arc_unpad_tiling(d.d, d.n, stackBufferSize, typeSize, &t), "UnPadTilingFunc"))
        arc_detail::put(tiling, t);
}
template <class Shape>
inline uint32_t GetSoftMaxMaxTmpSize(const Shape &srcShape, const uint32_t dataTypeSize, const bool isReuseSource)
{
    (void)isReuseSource;
    auto d = arc_detail::of(srcShape);
    uint32_t mx = 0, mn = 0;
    arc_detail::ok(arc_softmax_tmp_size(d.d, d.n, dataTypeSize, &mx, &mn), "GetSoftMaxMaxTmpSize");
    return mx;
}
template <class Shape>
inline uint32_t GetSoftMaxMinTmpSize(const Shape &srcShape, const uint32_t dataTypeSize, const bool isReuseSource)
{
    (void)isReuseSource;
    auto d = arc_detail::of(srcShape);
    uint32_t mx = 0, mn = 0;
    arc_detail::ok(arc_softmax_tmp_size(d.d, d.n, dataTypeSize, &mx, &mn), "GetSoftMaxMinTmpSize");
    return mn;
}
template <class Shape, class Tiling>
inline void SoftMaxTilingFunc(const Shape &srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              Tiling &softmaxTiling)
{
    auto d = arc_detail::of(srcShape);
    ::SoftMaxTiling t{};
    if (arc_detail::ok(arc_softmax_tiling(d.d, d.n, dataTypeSize, localWorkSpaceSize, &t), "SoftMaxTilingFunc"))
        arc_detail::put(softmaxTiling, t);
}
/* LogSoftMax and SoftmaxGrad: SoftMax's split (their tiling is
 * SoftMaxTiling's layout; isFront and isReuseSource change only the NPU's
 * scratch, which the sizes already cover: float rows of the source). */
template <class Shape>
inline uint32_t GetLogSoftMaxMaxTmpSize(const Shape &srcShape, const uint32_t dataTypeSize, const bool isReuseSource)
{
    return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}
template <class Shape>
inline uint32_t GetLogSoftMaxMinTmpSize(const Shape &srcShape, const uint32_t dataTypeSize, const bool isReuseSource)
{
    return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}
template <class Shape, class Tiling>
inline void LogSoftMaxTilingFunc(const Shape &srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                 Tiling &softmaxTiling)
{
    SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}
template <class Shape>
inline uint32_t GetSoftMaxGradMaxTmpSize(const Shape &srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource)
{
    (void)isFront;
    return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}
template <class Shape>
inline uint32_t GetSoftMaxGradMinTmpSize(const Shape &srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource)
{
    (void)isFront;
    return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}
template <class Shape, class Tiling>
inline void SoftMaxGradTilingFunc(const Shape &srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                  Tiling &softmaxGradTiling, const bool isFront = false)
{
    (void)isFront;
    SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, softmaxGradTiling);
}
/* SoftmaxFlashV2: the kernel reads srcM/srcK of a SoftMax split for the
 * source type; sum/max's size and the update/basic-block/broadcast flags
 * change only the NPU's scratch, which the CPU twin does not need. */
template <class Shape>
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const Shape &srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false)
{
    (void)dataTypeSize2; (void)isUpdate; (void)isBasicBlock; (void)isFlashOutputBrc;
    return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize1, false);
}
template <class Shape>
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const Shape &srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false)
{
    (void)dataTypeSize2; (void)isUpdate; (void)isBasicBlock; (void)isFlashOutputBrc;
    return GetSoftMaxMinTmpSize(srcShape, dataTypeSize1, false);
}
template <class Shape, class Tiling>
inline void SoftMaxFlashV2TilingFunc(const Shape &srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     Tiling &softmaxFlashTiling, const bool isUpdate, const bool isBasicBlock = false,
                                     const bool isFlashOutputBrc = false)
{
    (void)dataTypeSize2; (void)isUpdate; (void)isBasicBlock; (void)isFlashOutputBrc;
    auto d = arc_detail::of(srcShape);
    ::SoftMaxTiling t{};
    if (arc_detail::ok(arc_softmax_tiling(d.d, d.n, dataTypeSize1, localWorkSpaceSize, &t), "SoftMaxFlashV2TilingFunc"))
        arc_detail::put(softmaxFlashTiling, t);
}
template <class Shape>
inline void GetLayerNormMaxMinTmpSize(const Shape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t &maxValue, uint32_t &minValue)
{
    auto d = arc_detail::of(srcShape);
    maxValue = minValue = 0;
    arc_detail::ok(arc_layernorm_tmp_size(d.d, d.n, typeSize, isReuseSource, &maxValue, &minValue),
                   "GetLayerNormMaxMinTmpSize");
}
template <class Shape, class Tiling>
inline void GetLayerNormNDTilingInfo(const Shape &srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, Tiling &tiling)
{
    auto d = arc_detail::of(srcShape);
    ::LayerNormTiling t{};
    if (arc_detail::ok(arc_layernorm_tiling(d.d, d.n, 0, stackBufferSize, typeSize, isReuseSource, &t),
                       "GetLayerNormNDTilingInfo"))
        arc_detail::put(tiling, t);
}
template <class Shape, class Tiling>
inline void GetLayerNormNDTillingInfo(const Shape &srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                      const bool isReuseSource, Tiling &tiling) /* the older spelling */
{
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tiling);
}
/* DeepNorm: LayerNorm's [B, S, H] sizes and tiling (DeepNormTiling has its
 * fields); isBasicBlock needs H a multiple of 64 up to 2040, B * S a
 * multiple of 8 and originH == H (the page).  False, saying why on stderr,
 * when the shapes do not fit. */
template <class Shape>
inline bool GetDeepNormMaxMinTmpSize(const Shape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                     const bool isBasicBlock, uint32_t &maxValue, uint32_t &minValue)
{
    (void)isBasicBlock;
    auto d = arc_detail::of(srcShape);
    maxValue = minValue = 0;
    return arc_detail::ok(arc_layernorm_tmp_size(d.d, d.n, typeSize, isReuseSource, &maxValue, &minValue),
                          "GetDeepNormMaxMinTmpSize");
}
template <class Shape, class Tiling>
inline bool GetDeepNormTilingInfo(const Shape &srcShape, const Shape &originSrcShape, const uint32_t stackBufferSize,
                                  const uint32_t typeSize, const bool isReuseSource, const bool isBasicBlock,
                                  Tiling &tiling)
{
    auto d = arc_detail::of(srcShape), o = arc_detail::of(originSrcShape);
    const char *api = "GetDeepNormTilingInfo";
    if (o.n != 3 || d.n != 3 || o.d[0] != d.d[0] || o.d[1] != d.d[1] || o.d[2] <= 0 || o.d[2] > d.d[2])
        return arc_detail::ok("originSrcShape must be [B, S, originH] with originH in (0, H]", api);
    if (d.d[2] > 2040) return arc_detail::ok("H exceeds 2040", api);
    if (isBasicBlock && (d.d[2] % 64 || d.d[0] * d.d[1] % 8 || o.d[2] != d.d[2]))
        return arc_detail::ok("isBasicBlock needs H a multiple of 64, B * S a multiple of 8 and originH == H", api);
    ::LayerNormTiling t{};
    if (!arc_detail::ok(arc_layernorm_tiling(d.d, d.n, (uint32_t)o.d[2], stackBufferSize, typeSize, isReuseSource, &t),
                        api))
        return false;
    static_assert(sizeof(::DeepNormTiling) == sizeof(::LayerNormTiling), "DeepNormTiling is LayerNormTiling's fields");
    ::DeepNormTiling k;
    memcpy(&k, &t, sizeof k);
    arc_detail::put(tiling, k);
    return true;
}
/* The rstd form ([A, R], LayerNormSeparateTiling) when isComputeRstd; else
 * the [B, S, H] form's sizes.  isOnlyOutput must be false (the docs). */
template <class Shape>
inline void GetLayerNormMaxMinTmpSize(const Shape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput, uint32_t &maxValue,
                                      uint32_t &minValue)
{
    if (!isComputeRstd) {
        GetLayerNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
        return;
    }
    auto d = arc_detail::of(srcShape);
    maxValue = minValue = 0;
    if (isOnlyOutput) {
        arc_detail::ok("isOnlyOutput must be false (y, mean and rstd are all output)", "GetLayerNormMaxMinTmpSize");
        return;
    }
    arc_detail::ok(arc_layernorm_sep_tmp_size(d.d, d.n, typeSize, isReuseSource, &maxValue, &minValue),
                   "GetLayerNormMaxMinTmpSize");
}
/* LayerNormSeparateTiling for the [A, R] form (isComputeRstd true or not:
 * the struct decides the form). */
template <class Shape, class Tiling>
inline void GetLayerNormNDTilingInfo(const Shape &srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const bool isComputeRstd, Tiling &tiling)
{
    (void)isComputeRstd;
    auto d = arc_detail::of(srcShape);
    ::LayerNormSeparateTiling t{};
    if (arc_detail::ok(arc_layernorm_sep_tiling(d.d, d.n, stackBufferSize, typeSize, isReuseSource, &t),
                       "GetLayerNormNDTilingInfo"))
        arc_detail::put(tiling, t);
}
/* Normalize's scratch: as LayerNorm's rstd form for the wider of the two
 * element types.  isComputeRstd must be true, isOnlyOutput false (the docs). */
template <class Shape>
inline void GetNormalizeMaxMinTmpSize(const Shape &srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
                                      const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
                                      uint32_t &maxValue, uint32_t &minValue)
{
    auto d = arc_detail::of(srcShape);
    maxValue = minValue = 0;
    if (!isComputeRstd || isOnlyOutput) {
        arc_detail::ok("isComputeRstd must be true and isOnlyOutput false", "GetNormalizeMaxMinTmpSize");
        return;
    }
    if (!arc_detail::ok(arc_adv_type_size(typeSizeU, 0), "GetNormalizeMaxMinTmpSize")) return;
    arc_detail::ok(arc_layernorm_sep_tmp_size(d.d, d.n, typeSizeT, isReuseSource, &maxValue, &minValue),
                   "GetNormalizeMaxMinTmpSize");
}
template <class Shape>
inline bool GetRmsNormMaxMinTmpSize(const Shape &srcShape, const uint32_t typeSize, uint32_t &maxValue,
                                    uint32_t &minValue, const bool isBasicBlock = false)
{
    (void)isBasicBlock;
    auto d = arc_detail::of(srcShape);
    maxValue = minValue = 0;
    return arc_detail::ok(arc_rmsnorm_tmp_size(d.d, d.n, typeSize, &maxValue, &minValue), "GetRmsNormMaxMinTmpSize");
}
template <class Shape, class Tiling>
inline bool GetRmsNormTilingInfo(const Shape &srcShape, const Shape &originSrcShape, const uint32_t stackBufferByteSize,
                                 const uint32_t typeSize, Tiling &tiling, const bool isBasicBlock = false)
{
    (void)isBasicBlock;
    auto d = arc_detail::of(srcShape), o = arc_detail::of(originSrcShape);
    ::RmsNormTiling t{};
    if (!arc_detail::ok(arc_rmsnorm_tiling(d.d, d.n, o.d, o.n, stackBufferByteSize, typeSize, &t),
                        "GetRmsNormTilingInfo"))
        return false;
    arc_detail::put(tiling, t);
    return true;
}
template <class Shape>
inline void GetConfusionTransposeMaxMinTmpSize(const Shape &srcShape, const uint32_t typeSize,
                                               const uint32_t transposeTypeIn, uint32_t &maxValue, uint32_t &minValue)
{
    auto d = arc_detail::of(srcShape);
    maxValue = minValue = 0;
    arc_detail::ok(arc_transpose_tmp_size(d.d, d.n, typeSize, transposeTypeIn, &maxValue, &minValue),
                   "GetConfusionTransposeMaxMinTmpSize");
}
template <class Shape, class Tiling>
inline void GetConfusionTransposeTilingInfo(const Shape &srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn, Tiling &tiling)
{
    auto d = arc_detail::of(srcShape);
    ::ConfusionTransposeTiling t{};
    if (arc_detail::ok(arc_transpose_tiling(d.d, d.n, stackBufferSize, typeSize, transposeTypeIn, &t),
                       "GetConfusionTransposeTilingInfo"))
        arc_detail::put(tiling, t);
}
template <class Shape, class Tiling>
inline void GetConfusionTransposeOnlyTilingInfo(const Shape &srcShape, const uint32_t stackBufferSize,
                                                const uint32_t typeSize, Tiling &tiling) /* scenario 7 */
{
    GetConfusionTransposeTilingInfo(srcShape, stackBufferSize, typeSize, 7u, tiling);
}
template <class Shape>
inline void GetTransposeMaxMinTmpSize(const Shape &srcShape, const uint32_t typeSize, const uint32_t transposeTypeIn,
                                      uint32_t &maxValue, uint32_t &minValue)
{
    GetConfusionTransposeMaxMinTmpSize(srcShape, typeSize, transposeTypeIn, maxValue, minValue);
}
template <class Shape, class Tiling>
inline void GetTransposeTilingInfo(const Shape &srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                   const uint32_t transposeTypeIn, Tiling &tiling)
{
    GetConfusionTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}
} // namespace AscendC

#endif /* ARC_HOST_ADV_TILING_API_H_ */
