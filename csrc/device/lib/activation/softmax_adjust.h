/* softmax_adjust.h - AdjustSoftMaxRes (advanced API, SoftMax family): rows
 * of a SoftMax result whose max equals `from` (the max type's bit pattern,
 * 0xFF7FFFFF for float -FLT_MAX) are set to `to`, as the docs' Python
 * definition gives it:
 *   for i < srcM: if max[i] == from: res[i][0..srcK) = to
 * max[i] is the first element of row i's 32-byte block (stepSizeMode 0) or
 * element i (any other mode).  Returns whether some row matched.  ND only:
 * isDataFormatNZ is refused at compile time. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_ACTIVATION_SOFTMAX_ADJUST_H_
#define ARC_LIB_ACTIVATION_SOFTMAX_ADJUST_H_

#include "lib/activation/softmax.h"

namespace AscendC {
template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
inline bool AdjustSoftMaxRes(const LocalTensor<T1> &softMaxRes, const LocalTensor<T2> &maxTensor,
                             const uint32_t from, const T1 to, const SoftMaxShapeInfo &softmaxShapeInfo)
{
    static_assert(__arc::one_of<T1, half, float> && __arc::one_of<T2, half, float>,
                  "AscendC::AdjustSoftMaxRes: half and float only");
    static_assert(!isDataFormatNZ, "AscendC::AdjustSoftMaxRes: only the ND format is implemented");
    const char *api = "AscendC::AdjustSoftMaxRes";
    const uint32_t m = softmaxShapeInfo.srcM, k = softmaxShapeInfo.srcK;
    const uint32_t step = stepSizeMode == 0 ? 32u / (uint32_t)sizeof(T2) : 1u;
    ARC_CHECK((uint64_t)k * sizeof(T1) % 32 == 0, api, "srcK %u is not 32-byte aligned for %s", k,
              __arc::tname<T1>());
    __arc::adv_need(softMaxRes, (uint64_t)m * k, api, "dst softMaxRes");
    __arc::adv_need(maxTensor, m ? (uint64_t)(m - 1) * step + 1 : 0, api, "maxTensor");
    bool hit = false;
    for (uint32_t i = 0; i < m; i++) {
        T2 v = maxTensor.addr_[(uint64_t)i * step];
        uint32_t bits = 0;
        __builtin_memcpy(&bits, &v, sizeof(T2)); /* little-endian: a half's 16 bits land low */
        if (bits != from) continue;
        hit = true;
        T1 *row = softMaxRes.addr_ + (uint64_t)i * k;
        for (uint32_t j = 0; j < k; j++) row[j] = to;
    }
    return hit;
}
} // namespace AscendC

#endif /* ARC_LIB_ACTIVATION_SOFTMAX_ADJUST_H_ */
