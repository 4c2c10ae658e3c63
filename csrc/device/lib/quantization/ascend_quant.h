/* ascend_quant.h - AscendQuant (advanced API, quantisation), per tensor:
 *   dst(int8) = saturate(round(src * scale + offset))
 * Assumed where the docs are silent: the value goes through half first (the
 * vector unit's route to int8), then rounds half to even and saturates to
 * [-128, 127].  Forms with/without sharedTmpBuffer and calCount. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_QUANTIZATION_ASCEND_QUANT_H_
#define ARC_LIB_QUANTIZATION_ASCEND_QUANT_H_

#include "lib/adv/common.h"

namespace __arc {
inline int8_t quant_i8(float v)
{
    float h = (float)(half)v;
    float r = __builtin_rintf(h);
    if (!(r == r)) return 0;
    return (int8_t)(r > 127.0f ? 127.0f : r < -128.0f ? -128.0f : r);
}
} // namespace __arc

namespace AscendC {
template <typename T, bool isReuseSource = false>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor, const float scale,
                        const float offset, const uint32_t calCount)
{
    ARC_ADV_HF(AscendQuant);
    const char *api = "AscendC::AscendQuant";
    __arc::adv_need(dstTensor, calCount, api, "dst");
    __arc::adv_need(srcTensor, calCount, api, "src");
    for (uint32_t i = 0; i < calCount; i++)
        dstTensor.addr_[i] = __arc::quant_i8((float)srcTensor.addr_[i] * scale + offset);
}
template <typename T, bool isReuseSource = false>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const float scale, const float offset,
                        const uint32_t calCount)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::AscendQuant");
    AscendQuant<T, isReuseSource>(dstTensor, srcTensor, scale, offset, calCount);
}
template <typename T, bool isReuseSource = false>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor, const float scale,
                        const float offset)
{
    AscendQuant<T, isReuseSource>(dstTensor, srcTensor, scale, offset, __arc::adv_size(srcTensor));
}
template <typename T, bool isReuseSource = false>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const float scale, const float offset)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::AscendQuant");
    AscendQuant<T, isReuseSource>(dstTensor, srcTensor, scale, offset, __arc::adv_size(srcTensor));
}
} // namespace AscendC

#endif /* ARC_LIB_QUANTIZATION_ASCEND_QUANT_H_ */
