/* ascend_dequant.h - AscendDequant (advanced API, quantisation): int32 src
 * [m, n] times a per-column scale (tensor of calCount, or one scalar):
 *   dst[i][j] = (dstT)(src[i][j] * deqScale[j]),  j < calCount
 * DequantParams{m, n, calCount}.  Assumed where the docs are silent: dst
 * rows are n elements apart like src's, columns calCount..n-1 are left as
 * they are, and scale types are float, half or bfloat16_t. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_QUANTIZATION_ASCEND_DEQUANT_H_
#define ARC_LIB_QUANTIZATION_ASCEND_DEQUANT_H_

#include "lib/adv/common.h"

namespace AscendC {
struct DequantParams {
    uint32_t m;
    uint32_t n;
    uint32_t calCount;
};
enum class DeQuantMode { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };
} // namespace AscendC

namespace __arc {
template <class D, class F>
inline void dequant_rows(const AscendC::LocalTensor<D> &dst, const AscendC::LocalTensor<int32_t> &src,
                         const AscendC::DequantParams &p, F scale_of)
{
    const char *api = "AscendC::AscendDequant";
    ARC_CHECK(p.calCount <= p.n, api, "calCount %u exceeds n %u", p.calCount, p.n);
    adv_need(src, (uint64_t)p.m * p.n, api, "src");
    adv_need(dst, (uint64_t)p.m * p.n, api, "dst");
    for (uint32_t i = 0; i < p.m; i++)
        for (uint32_t j = 0; j < p.calCount; j++)
            dst.addr_[(uint64_t)i * p.n + j] = (D)((float)src.addr_[(uint64_t)i * p.n + j] * scale_of(j));
}
template <class S> constexpr bool deq_scale_ok = one_of<S, float, half, bfloat16_t>;
} // namespace __arc

namespace AscendC {
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT> &dstTensor, const LocalTensor<int32_t> &srcTensor,
                          const LocalTensor<scaleT> &deqScale, DequantParams params)
{
    static_assert(__arc::deq_scale_ok<scaleT>, "AscendC::AscendDequant: deqScale must be float, half or bfloat16_t");
    __arc::adv_need(deqScale, params.calCount, "AscendC::AscendDequant", "deqScale");
    const scaleT *s = deqScale.addr_;
    __arc::dequant_rows(dstTensor, srcTensor, params, [s](uint32_t j) { return (float)s[j]; });
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT> &dstTensor, const LocalTensor<int32_t> &srcTensor,
                          const LocalTensor<scaleT> &deqScale, const LocalTensor<uint8_t> &sharedTmpBuffer,
                          DequantParams params)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::AscendDequant");
    AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, params);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT> &dstTensor, const LocalTensor<int32_t> &srcTensor,
                          const scaleT deqScale, DequantParams params)
{
    static_assert(__arc::deq_scale_ok<scaleT>, "AscendC::AscendDequant: deqScale must be float, half or bfloat16_t");
    const float s = (float)deqScale;
    __arc::dequant_rows(dstTensor, srcTensor, params, [s](uint32_t) { return s; });
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT> &dstTensor, const LocalTensor<int32_t> &srcTensor,
                          const scaleT deqScale, const LocalTensor<uint8_t> &sharedTmpBuffer, DequantParams params)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::AscendDequant");
    AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, params);
}
} // namespace AscendC

#endif /* ARC_LIB_QUANTIZATION_ASCEND_DEQUANT_H_ */
