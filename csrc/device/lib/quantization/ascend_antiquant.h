/* ascend_antiquant.h - AscendAntiQuant (advanced API, quantisation):
 *   per channel, isTranspose false: src [K, N], offset/scale [K/groupSize, N]
 *     dst[i][j] = scale[i / gs][j] * (src[i][j] + offset[i / gs][j])
 *   per channel, isTranspose true: src [N, K], offset/scale [N, K/groupSize]
 *     dst[i][j] = scale[i][j / gs] * (src[i][j] + offset[i][j / gs])
 *   per tensor: dst = scale * (src + offset)
 * N = src.GetSize() / K; the number of groups comes from AntiQuantShapeInfo
 * (offsetHeight when not transposed, offsetWidth when transposed), 1 when it
 * is empty.  As its page's algorithm: a half output is src cast to half,
 * a half Add of offset and a half Mul by scale (each rounded to half); a
 * bfloat16_t output is computed in float and rounded once. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_QUANTIZATION_ASCEND_ANTIQUANT_H_
#define ARC_LIB_QUANTIZATION_ASCEND_ANTIQUANT_H_

#include "lib/adv/common.h"

namespace AscendC {
/* The experimental AntiQuantConfig form (a mode for the quantised matmul's
 * weight layout, e.g. INPUT_INTLV): the public docs do not describe what
 * the modes compute, so ascendrtc compiles calls with it and stops such a
 * call at run time with a message. */
enum class AntiQuantMode : uint8_t { INPUT_INTLV = 1 };
struct AntiQuantConfig {
    AntiQuantMode mode;
};
struct AntiQuantShapeInfo {
    uint32_t offsetHeight = 0;
    uint32_t offsetWidth = 0;
    uint32_t scaleHeight = 0;
    uint32_t scaleWidth = 0;
};
} // namespace AscendC

namespace __arc {
template <class I, class O, bool tr>
inline void antiquant(const AscendC::LocalTensor<O> &dst, const AscendC::LocalTensor<I> &src, const O *offset,
                      const O *scale, uint32_t K, const AscendC::AntiQuantShapeInfo &si, bool per_channel)
{
    const char *api = "AscendC::AscendAntiQuant";
    ARC_CHECK(K > 0, api, "K is 0");
    const uint32_t total = adv_size(src), n = total / K;
    ARC_CHECK(total % K == 0, api, "src holds %u elements, not a multiple of K %u", total, K);
    adv_need(dst, total, api, "dst");
    uint32_t groups = tr ? si.offsetWidth : si.offsetHeight;
    if (groups == 0) groups = 1;
    ARC_CHECK(K % groups == 0, api, "K %u is not a multiple of the %u offset/scale groups", K, groups);
    const uint32_t gs = K / groups;
    for (uint32_t i = 0; i < (tr ? n : K); i++)
        for (uint32_t j = 0; j < (tr ? K : n); j++) {
            uint64_t e = (uint64_t)i * (tr ? K : n) + j;
            uint64_t p = per_channel ? (tr ? (uint64_t)i * groups + j / gs : (uint64_t)(i / gs) * n + j) : 0;
            if constexpr (is_same<O, half>::value) /* half Add, then half Mul: each rounded (exact in float first) */
                dst.addr_[e] = (O)((float)scale[p] * (float)(half)(elem_f(src.addr_, e) + (float)offset[p]));
            else
                dst.addr_[e] = (O)((float)scale[p] * (elem_f(src.addr_, e) + (float)offset[p]));
        }
}
} // namespace __arc

namespace AscendC {
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType> &dst, const LocalTensor<InputDataType> &src,
                            const LocalTensor<OutputDataType> &offset, const LocalTensor<OutputDataType> &scale,
                            const uint32_t K, const AntiQuantShapeInfo &shapeInfo = {})
{
    const uint32_t groups = (isTranspose ? shapeInfo.offsetWidth : shapeInfo.offsetHeight);
    const uint32_t n = K ? __arc::adv_size(src) / K : 0;
    __arc::adv_need(offset, (uint64_t)(groups ? groups : 1) * n, "AscendC::AscendAntiQuant", "offset");
    __arc::adv_need(scale, (uint64_t)(groups ? groups : 1) * n, "AscendC::AscendAntiQuant", "scale");
    __arc::antiquant<InputDataType, OutputDataType, isTranspose>(dst, src, offset.addr_, scale.addr_, K, shapeInfo,
                                                                 true);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType> &dst, const LocalTensor<InputDataType> &src,
                            const LocalTensor<OutputDataType> &offset, const LocalTensor<OutputDataType> &scale,
                            const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t K,
                            const AntiQuantShapeInfo &shapeInfo = {})
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::AscendAntiQuant");
    AscendAntiQuant<InputDataType, OutputDataType, isTranspose>(dst, src, offset, scale, K, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType> &dst, const LocalTensor<InputDataType> &src,
                            const OutputDataType offset, const OutputDataType scale,
                            const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t K,
                            const AntiQuantShapeInfo &shapeInfo = {})
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::AscendAntiQuant");
    __arc::antiquant<InputDataType, OutputDataType, isTranspose>(dst, src, &offset, &scale, K, shapeInfo, false);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType> &dst, const LocalTensor<InputDataType> &src,
                            const OutputDataType offset, const OutputDataType scale, const uint32_t K,
                            const AntiQuantShapeInfo &shapeInfo = {})
{
    __arc::antiquant<InputDataType, OutputDataType, isTranspose>(dst, src, &offset, &scale, K, shapeInfo, false);
}
/* The AntiQuantConfig form: compiles, stops when run (see AntiQuantMode). */
template <typename InputDataType, typename OutputDataType, bool isTranspose, const AntiQuantConfig &config>
inline void AscendAntiQuant(const LocalTensor<OutputDataType> &, const LocalTensor<InputDataType> &,
                            const LocalTensor<OutputDataType> &, const LocalTensor<OutputDataType> &, const uint32_t,
                            const AntiQuantShapeInfo & = {})
{
    ARC_CHECK(false, "AscendC::AscendAntiQuant",
              "the AntiQuantConfig form (mode %d, input %s) is not implemented by ascendrtc: the public docs do not "
              "describe what its modes compute", (int)config.mode, __arc::tname<InputDataType>());
}
} // namespace AscendC

#endif /* ARC_LIB_QUANTIZATION_ASCEND_ANTIQUANT_H_ */
