/* glu.h - the gated linear units of the advanced API (activation):
 *   SwiGLU(dst, src0, src1, beta) = src0 * Swish(src1, beta)
 *   GeGLU(dst, src0, src1)        = src0 * Gelu(src1)   (tanh form, as Gelu)
 *   ReGlu(dst, src0, src1)        = src0 * max(src1, 0)
 * The SwiGLU operand order follows the documented example (its outputs
 * match src0 * swish(src1), not swish(src0) * src1); GeGLU and ReGlu are
 * assumed to gate the same way.  Forms with and without sharedTmpBuffer and
 * calCount (without it: the whole dst). */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_ACTIVATION_GLU_H_
#define ARC_LIB_ACTIVATION_GLU_H_

#include "lib/activation/gelu.h"
#include "lib/activation/swish.h"

#define ARC_ADV_GLU(NAME, CAPTURE, EXPR, XPARAM, XARG)                                                              \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0,                             \
                     const LocalTensor<T> &srcTensor1 XPARAM, const uint32_t calCount)                              \
    {                                                                                                               \
        ARC_ADV_HF(NAME);                                                                                           \
        __arc::check_overlap(dstTensor, calCount, srcTensor0, calCount, ARC_OVERLAP_NONE, "AscendC::" #NAME, "src0"); \
        __arc::check_overlap(dstTensor, calCount, srcTensor1, calCount, ARC_OVERLAP_NONE, "AscendC::" #NAME, "src1"); \
        __arc::adv_map2(dstTensor, srcTensor0, srcTensor1, calCount, "AscendC::" #NAME,                             \
                        [CAPTURE](float a, float b) { return EXPR; });                                              \
    }                                                                                                               \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0,                             \
                     const LocalTensor<T> &srcTensor1 XPARAM, const LocalTensor<uint8_t> &sharedTmpBuffer,          \
                     const uint32_t calCount)                                                                       \
    {                                                                                                               \
        __arc::adv_tmp(sharedTmpBuffer, "AscendC::" #NAME);                                                         \
        NAME<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1 XARG, calCount);                                   \
    }                                                                                                               \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0,                             \
                     const LocalTensor<T> &srcTensor1 XPARAM, const LocalTensor<uint8_t> &sharedTmpBuffer)          \
    {                                                                                                               \
        __arc::adv_tmp(sharedTmpBuffer, "AscendC::" #NAME);                                                         \
        NAME<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1 XARG, __arc::adv_size(dstTensor));                 \
    }                                                                                                               \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0,                             \
                     const LocalTensor<T> &srcTensor1 XPARAM)                                                       \
    {                                                                                                               \
        NAME<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1 XARG, __arc::adv_size(dstTensor));                 \
    }

#define ARC_COMMA ,
namespace AscendC {
ARC_ADV_GLU(SwiGLU, scalarValue, a * __arc::swish(b, scalarValue), ARC_COMMA const float &scalarValue,
            ARC_COMMA scalarValue)
ARC_ADV_GLU(GeGLU, , a * __arc::gelu_tanh(b), , )
ARC_ADV_GLU(ReGlu, , a * (b > 0.0f ? b : 0.0f), , )
} // namespace AscendC
#undef ARC_COMMA

#endif /* ARC_LIB_ACTIVATION_GLU_H_ */
