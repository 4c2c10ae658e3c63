/* bitwise.h - the advanced API's bit and logic functions, as their pages
 * define them: BitwiseAnd/Or/Xor/Not (integers, bit by bit), LogicalAnd/
 * Or/Xor/Not and LogicalAnds/Ors (a bool dst; a source element is true
 * when it is not zero: -0.0 is false, NaN true), all Ascend 950 (dav-3510)
 * only and taking a config whose one field, isReuseSource, is reserved;
 * and the older Xor (int16_t/uint16_t, every SoC, with the sharedTmpBuffer
 * and whole-tensor forms).  None allows a source to overlap dst. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_MATH_BITWISE_H_
#define ARC_LIB_MATH_BITWISE_H_

#include "lib/adv/common.h"

namespace __arc {
template <class T> constexpr bool is_bits_v = one_of<T, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>;
template <class T> constexpr bool is_logic_src_v =
    is_bits_v<T> || one_of<T, bool, half, bfloat16_t, float>;
/* Truth of an element: not zero (floats compare as numbers). */
template <class T> inline bool truth(T v)
{
    if constexpr (is_same<T, bool>::value)
        return v;
    else if constexpr (is_float_v<T>)
        return (float)v != 0.0f;
    else
        return v != 0;
}
/* dst[i] = f(a_i, b_i) over tensor-or-scalar operands; dst and the tensor
 * operands hold n elements and do not overlap. */
template <class TD, class A, class B, class F>
inline void adv_zip(const AscendC::LocalTensor<TD> &dst, const A &a, const B &b, uint32_t n, const char *api, F f)
{
    adv_need(dst, n, api, "dst");
    opnd_need(dst, a, n, api, "src0");
    opnd_need(dst, b, n, api, "src1");
    TD *d = dst.addr_;
    for (uint32_t i = 0; i < n; i++) d[i] = f(opnd_at(a, i), opnd_at(b, i));
}
} // namespace __arc

namespace AscendC {
ARC_REUSE_CONFIG(BitwiseAndConfig, DEFAULT_BITWISE_AND_CONFIG)
ARC_REUSE_CONFIG(BitwiseOrConfig, DEFAULT_BITWISE_OR_CONFIG)
ARC_REUSE_CONFIG(BitwiseXorConfig, DEFAULT_BITWISE_XOR_CONFIG)
ARC_REUSE_CONFIG(BitwiseNotConfig, DEFAULT_BITWISE_NOT_CONFIG)
ARC_REUSE_CONFIG(LogicalAndConfig, DEFAULT_LOGICAL_AND_CONFIG)
ARC_REUSE_CONFIG(LogicalOrConfig, DEFAULT_LOGICAL_OR_CONFIG)
ARC_REUSE_CONFIG(LogicalXorConfig, DEFAULT_LOGICAL_XOR_CONFIG)
ARC_REUSE_CONFIG(LogicalNotConfig, DEFAULT_LOGICAL_NOT_CONFIG)
ARC_REUSE_CONFIG(LogicalAndsConfig, DEFAULT_LOGICAL_ANDS_CONFIG)
ARC_REUSE_CONFIG(LogicalOrsConfig, DEFAULT_LOGICAL_ORS_CONFIG)

#define ARC_BITWISE2(NAME, CFG, DFLT, OP)                                                                   \
    template <const CFG &config = DFLT, typename T>                                                         \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,    \
                     const uint32_t count)                                                                  \
    {                                                                                                       \
        ARC_950_ONLY(NAME);                                                                                 \
        static_assert(__arc::is_bits_v<T>, "AscendC::" #NAME ": supports 8- to 64-bit integers only");     \
        __arc::adv_zip(dst, src0, src1, count, "AscendC::" #NAME, [](T a, T b) -> T { return (T)(a OP b); }); \
    }
ARC_BITWISE2(BitwiseAnd, BitwiseAndConfig, DEFAULT_BITWISE_AND_CONFIG, &)
ARC_BITWISE2(BitwiseOr, BitwiseOrConfig, DEFAULT_BITWISE_OR_CONFIG, |)
ARC_BITWISE2(BitwiseXor, BitwiseXorConfig, DEFAULT_BITWISE_XOR_CONFIG, ^)
#undef ARC_BITWISE2

template <const BitwiseNotConfig &config = DEFAULT_BITWISE_NOT_CONFIG, typename T>
inline void BitwiseNot(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count)
{
    ARC_950_ONLY(BitwiseNot);
    static_assert(__arc::is_bits_v<T>, "AscendC::BitwiseNot: supports 8- to 64-bit integers only");
    __arc::adv_zip(dst, src, (T)0, count, "AscendC::BitwiseNot", [](T a, T) -> T { return (T)~a; });
}

/* LogicalAnd/Or/Xor take two tensors; LogicalAnds/Ors a tensor and a scalar
 * in either order (U and S each a LocalTensor or a scalar). */
#define ARC_LOGICAL2(NAME, CFG, DFLT, OP, A_T, B_T)                                                        \
    template <const CFG &config = DFLT, typename T, typename U, typename S>                                \
    inline void NAME(const LocalTensor<T> &dst, const A_T &src0, const B_T &src1, const uint32_t count)    \
    {                                                                                                       \
        ARC_950_ONLY(NAME);                                                                                 \
        static_assert(__arc::is_same<T, bool>::value, "AscendC::" #NAME ": dst is bool");                  \
        typedef typename __arc::opnd_type<A_T>::type EA;                                                    \
        typedef typename __arc::opnd_type<B_T>::type EB;                                                    \
        static_assert(__arc::is_logic_src_v<EA> && __arc::is_logic_src_v<EB>,                               \
                      "AscendC::" #NAME ": a source is bool, an 8- to 64-bit integer, half, bfloat16_t or float"); \
        __arc::adv_zip(dst, src0, src1, count, "AscendC::" #NAME,                                           \
                       [](EA a, EB b) -> bool { return __arc::truth(a) OP __arc::truth(b); });              \
    }
ARC_LOGICAL2(LogicalAnd, LogicalAndConfig, DEFAULT_LOGICAL_AND_CONFIG, &&, LocalTensor<U>, LocalTensor<S>)
ARC_LOGICAL2(LogicalOr, LogicalOrConfig, DEFAULT_LOGICAL_OR_CONFIG, ||, LocalTensor<U>, LocalTensor<S>)
ARC_LOGICAL2(LogicalXor, LogicalXorConfig, DEFAULT_LOGICAL_XOR_CONFIG, !=, LocalTensor<U>, LocalTensor<S>)
ARC_LOGICAL2(LogicalAnds, LogicalAndsConfig, DEFAULT_LOGICAL_ANDS_CONFIG, &&, U, S)
ARC_LOGICAL2(LogicalOrs, LogicalOrsConfig, DEFAULT_LOGICAL_ORS_CONFIG, ||, U, S)
#undef ARC_LOGICAL2

template <const LogicalNotConfig &config = DEFAULT_LOGICAL_NOT_CONFIG, typename T, typename U>
inline void LogicalNot(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint32_t count)
{
    ARC_950_ONLY(LogicalNot);
    static_assert(__arc::is_same<T, bool>::value, "AscendC::LogicalNot: dst is bool");
    static_assert(__arc::is_logic_src_v<U>, "AscendC::LogicalNot: src is bool, an 8- to 64-bit integer, half, "
                                            "bfloat16_t or float");
    __arc::adv_zip(dst, src, false, count, "AscendC::LogicalNot", [](U a, bool) -> bool { return !__arc::truth(a); });
}

/* The older Xor: int16_t/uint16_t on every SoC; the tmp buffer is scratch
 * the CPU twin does not need (checked for alignment). */
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor,
                const uint32_t calCount)
{
    static_assert(__arc::one_of<T, int16_t, uint16_t>, "AscendC::Xor: supports int16_t and uint16_t only");
    __arc::adv_zip(dstTensor, src0Tensor, src1Tensor, calCount, "AscendC::Xor", [](T a, T b) -> T { return (T)(a ^ b); });
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor,
                const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::Xor");
    Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, calCount);
}
/* The whole-tensor forms: every element of src0 takes part. */
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor,
                const LocalTensor<uint8_t> &sharedTmpBuffer)
{
    Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, (uint32_t)src0Tensor.GetSize());
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor)
{
    Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, (uint32_t)src0Tensor.GetSize());
}
} // namespace AscendC

#endif /* ARC_LIB_MATH_BITWISE_H_ */
