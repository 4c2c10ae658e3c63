/* gelu.h - Gelu, FasterGelu and FasterGeluV2 (advanced API, activation).
 * Formulas of the public documentation, computed in float and rounded once:
 *   Gelu(x)         = x / (1 + exp(-sqrt(8/pi) * (x + 0.044715 x^3)))
 *   FasterGelu(x)   = x / (1 + exp(-1.702 x))
 *   FasterGeluV2(x) = x * (sgn(x) * (-0.1444 (min(|0.7071 x|, 1.769) - 1.769)^2 + 0.5) + 0.5),
 *                     sgn(x) = (x + 1e-12) / |x + 1e-12|
 * highPrecision / highPerformance select NPU instruction sequences; the
 * simulated core always computes in float, so they change nothing. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_ACTIVATION_GELU_H_
#define ARC_LIB_ACTIVATION_GELU_H_

#include "lib/adv/common.h"

namespace __arc {
inline float gelu_tanh(float x)
{
    const float k = 1.5957691216057308f; /* sqrt(8/pi) */
    return x / (1.0f + __builtin_expf(-k * (x + 0.044715f * x * x * x)));
}
inline float faster_gelu(float x) { return x / (1.0f + __builtin_expf(-1.702f * x)); }
inline float faster_gelu_v2(float x)
{
    float e = x + 1e-12f;
    float sgn = e / __builtin_fabsf(e);
    float c = __builtin_fabsf(0.7071f * x);
    if (c > 1.769f) c = 1.769f;
    float t = c - 1.769f;
    return x * (sgn * (-0.1444f * t * t + 0.5f) + 0.5f);
}
} // namespace __arc

#define ARC_ADV_GELU(NAME, FN)                                                                                   \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                              \
    inline void NAME(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const uint32_t dataSize)  \
    {                                                                                                            \
        ARC_ADV_HF(NAME);                                                                                        \
        __arc::adv_map(dstLocal, srcLocal, dataSize, "AscendC::" #NAME, [](float x) { return FN(x); });         \
    }                                                                                                            \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                              \
    inline void NAME(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,                             \
                     const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t dataSize)                       \
    {                                                                                                            \
        __arc::adv_tmp(sharedTmpBuffer, "AscendC::" #NAME);                                                      \
        NAME<T, highPrecision, highPerformance>(dstLocal, srcLocal, dataSize);                                   \
    }

namespace AscendC {
ARC_ADV_GELU(Gelu, __arc::gelu_tanh)
ARC_ADV_GELU(FasterGelu, __arc::faster_gelu)
ARC_ADV_GELU(FasterGeluV2, __arc::faster_gelu_v2)
} // namespace AscendC

#endif /* ARC_LIB_ACTIVATION_GELU_H_ */
