/* fma_rint_where.h - Fma, Rint and Where (advanced API, math; Ascend 950
 * only), as their pages define them.
 * - Fma(dst, a, b, c): a * b + c, half and float.  float rounds once (a
 *   fused multiply-add); half goes through float ("the implementation
 *   converts precision", the page): the float fma rounded to half.
 * - Rint: the nearest integer value, ties to even (Rint(3.5) = 4), half and
 *   float, exact.
 * - Where(dst, src0, src1, condition): condition[i] ? src0 : src1, each
 *   source a LocalTensor or a scalar of dst's type; condition is bool
 *   (any nonzero byte is true).
 * No source may overlap dst; the sharedTmpBuffer forms check its alignment
 * (the CPU twin needs no scratch). */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_MATH_FMA_RINT_WHERE_H_
#define ARC_LIB_MATH_FMA_RINT_WHERE_H_

#include "lib/math/bitwise.h" /* adv_zip */

namespace AscendC {
ARC_REUSE_CONFIG(FmaConfig, DEFAULT_FMA_CONFIG)
ARC_REUSE_CONFIG(RintConfig, DEFAULT_RINT_CONFIG)

template <const FmaConfig &config = DEFAULT_FMA_CONFIG, typename T>
inline void Fma(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                const LocalTensor<T> &src2, const uint32_t count)
{
    ARC_950_ONLY(Fma);
    static_assert(__arc::one_of<T, half, float>, "AscendC::Fma: supports half and float only");
    const char *api = "AscendC::Fma";
    __arc::adv_need(dst, count, api, "dst");
    __arc::opnd_need(dst, src0, count, api, "src0");
    __arc::opnd_need(dst, src1, count, api, "src1");
    __arc::opnd_need(dst, src2, count, api, "src2");
    T *d = dst.addr_;
    const T *a = src0.addr_, *b = src1.addr_, *c = src2.addr_;
    for (uint32_t i = 0; i < count; i++) d[i] = (T)__builtin_fmaf((float)a[i], (float)b[i], (float)c[i]);
}
template <const FmaConfig &config = DEFAULT_FMA_CONFIG, typename T>
inline void Fma(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                const LocalTensor<T> &src2, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t count)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::Fma");
    Fma<config>(dst, src0, src1, src2, count);
}

template <const RintConfig &config = DEFAULT_RINT_CONFIG, typename T>
inline void Rint(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count)
{
    ARC_950_ONLY(Rint);
    static_assert(__arc::one_of<T, half, float>, "AscendC::Rint: supports half and float only");
    /* rint rounds ties to even in the default rounding mode, which kernels never change */
    __arc::adv_zip(dst, src, (T)0, count, "AscendC::Rint", [](T x, T) -> T { return (T)__builtin_rintf((float)x); });
}
template <const RintConfig &config = DEFAULT_RINT_CONFIG, typename T>
inline void Rint(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
                 const uint32_t count)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::Rint");
    Rint<config>(dst, src, count);
}

template <typename T, typename U, typename S, typename V>
inline void Where(const LocalTensor<T> &dst, const U &src0, const S &src1, const LocalTensor<V> &condition,
                  const uint32_t count)
{
    ARC_950_ONLY(Where);
    static_assert(__arc::is_bits_v<T> || __arc::one_of<T, bool, half, bfloat16_t, float>,
                  "AscendC::Where: supports bool, 8- to 64-bit integers, half, bfloat16_t and float");
    static_assert(__arc::is_same<typename __arc::opnd_type<U>::type, T>::value &&
                      __arc::is_same<typename __arc::opnd_type<S>::type, T>::value,
                  "AscendC::Where: src0 and src1 are dst's type (a LocalTensor<T> or a T)");
    static_assert(__arc::is_same<V, bool>::value, "AscendC::Where: condition is bool");
    const char *api = "AscendC::Where";
    __arc::adv_need(dst, count, api, "dst");
    __arc::opnd_need(dst, src0, count, api, "src0");
    __arc::opnd_need(dst, src1, count, api, "src1");
    __arc::opnd_need(dst, condition, count, api, "condition");
    T *d = dst.addr_;
    for (uint32_t i = 0; i < count; i++)
        d[i] = __arc::elem_raw(condition.addr_, i) ? (T)__arc::opnd_at(src0, i) : (T)__arc::opnd_at(src1, i);
}
} // namespace AscendC

#endif /* ARC_LIB_MATH_FMA_RINT_WHERE_H_ */
