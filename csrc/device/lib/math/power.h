/* power.h - the advanced API's Power (tensor ^ tensor, tensor ^
 * scalar, scalar ^ tensor), each with and without the sharedTmpBuffer and
 * with or without calCount (without it, the whole tensor operand takes
 * part), and PowerConfig (PowerAlgo, Ascend 950), as the page defines
 * them.  Floating types compute in float and round once (the config's
 * algorithms approach that answer; it changes nothing here).  Integers
 * (int32_t everywhere; 8- and 16-bit on Ascend 950 only) multiply by
 * squaring, wrapping as the type's multiply does; a negative exponent of
 * an integer type is not defined by the page and stops the kernel.  No
 * source may overlap dst. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_MATH_POWER_H_
#define ARC_LIB_MATH_POWER_H_

#include "lib/adv/common.h"

namespace AscendC {
enum class PowerAlgo { INTRINSIC = 0, DOUBLE_FLOAT_TECH };
struct PowerConfig { PowerAlgo algo = PowerAlgo::INTRINSIC; };
constexpr PowerConfig defaultPowerConfig = {};
} // namespace AscendC

namespace __arc {
/* x^e for an integer type, e >= 0: square and multiply in the unsigned type (wraps). */
template <class T> inline T ipow(T x, T e, const char *api)
{
    typedef typename uint_of<sizeof(T)>::type U;
    if constexpr (__is_signed(T))
        ARC_CHECK(e >= 0, api, "exponent %lld of an integer type is negative, which the API does not define",
                  (long long)e);
    U r = 1, b = (U)x, k = (U)e;
    for (; k; k >>= 1) {
        if (k & 1u) r = (U)(r * b);
        b = (U)(b * b);
    }
    return (T)r;
}
template <class T> inline T power_of(T a, T b, const char *api)
{
    if constexpr (is_float_v<T>)
        return (T)__builtin_powf((float)a, (float)b);
    else
        return ipow(a, b, api);
}
/* dst[i] = a_i ^ b_i; A and B are each a LocalTensor<T> or a T. */
template <class T, class A, class B>
inline void adv_power(const AscendC::LocalTensor<T> &dst, const A &a, const B &b, uint32_t n)
{
    const char *api = "AscendC::Power";
    static_assert(one_of<T, half, float, bfloat16_t, int32_t, int16_t, uint16_t, int8_t, uint8_t, uint32_t>,
                  "AscendC::Power: supports half, bfloat16_t, float and 8- to 32-bit integers");
    ARC_DTYPE_REQUIRE((one_of<T, half, float, int32_t> || __NPU_ARCH__ != 2201),
                      "AscendC::Power: dav-2201 supports half, float and int32_t only");
    adv_need(dst, n, api, "dst");
    opnd_need(dst, a, n, api, "src0");
    opnd_need(dst, b, n, api, "src1");
    T *d = dst.addr_;
    for (uint32_t i = 0; i < n; i++) d[i] = power_of<T>((T)opnd_at(a, i), (T)opnd_at(b, i), api);
}
} // namespace __arc

namespace AscendC {
/* The four forms of one operand pair: (tmp, calCount), (calCount), (tmp), (). */
#define ARC_POWER_FORMS(A_DECL, B_DECL, A, B, WHOLE)                                                        \
    template <typename T, bool isReuseSource = false, const PowerConfig &config = defaultPowerConfig>       \
    inline void Power(const LocalTensor<T> &dstTensor, A_DECL, B_DECL, const uint32_t calCount)            \
    {                                                                                                       \
        __arc::adv_power(dstTensor, A, B, calCount);                                                        \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false, const PowerConfig &config = defaultPowerConfig>       \
    inline void Power(const LocalTensor<T> &dstTensor, A_DECL, B_DECL,                                      \
                      const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount)                 \
    {                                                                                                       \
        __arc::adv_tmp(sharedTmpBuffer, "AscendC::Power");                                                 \
        __arc::adv_power(dstTensor, A, B, calCount);                                                        \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false, const PowerConfig &config = defaultPowerConfig>       \
    inline void Power(const LocalTensor<T> &dstTensor, A_DECL, B_DECL, const LocalTensor<uint8_t> &sharedTmpBuffer) \
    {                                                                                                       \
        Power<T, isReuseSource, config>(dstTensor, A, B, sharedTmpBuffer, (uint32_t)WHOLE.GetSize());       \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false, const PowerConfig &config = defaultPowerConfig>       \
    inline void Power(const LocalTensor<T> &dstTensor, A_DECL, B_DECL)                                      \
    {                                                                                                       \
        Power<T, isReuseSource, config>(dstTensor, A, B, (uint32_t)WHOLE.GetSize());                        \
    }
ARC_POWER_FORMS(const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor, src0Tensor, src1Tensor, src0Tensor)
ARC_POWER_FORMS(const LocalTensor<T> &src0Tensor, const T &src1Scalar, src0Tensor, src1Scalar, src0Tensor)
ARC_POWER_FORMS(const T &src0Scalar, const LocalTensor<T> &src1Tensor, src0Scalar, src1Tensor, src1Tensor)
#undef ARC_POWER_FORMS
} // namespace AscendC

#endif /* ARC_LIB_MATH_POWER_H_ */
