/* vec_binary.h - element-wise dst = op(src0, src1): Add, Sub, Mul, Div,
 * Max, Min, And, Or, AddRelu, SubRelu, in count form and level-0 form
 * (uint64_t mask or uint64_t mask[2], repeatTime, BinaryRepeatParams). */
#ifndef ARC_VEC_BINARY_H_
#define ARC_VEC_BINARY_H_

#include "arc/mask.h"
#include "arc/complex.h"

namespace __arc {
/* Lanes per repeat of a call mixing dst and src types: the wider decides. */
template <class TD, class TS> constexpr uint32_t lanes_of() { return 256u / (sizeof(TD) > sizeof(TS) ? sizeof(TD) : sizeof(TS)); }
template <class T, class F>
inline void bin_count(const AscendC::LocalTensor<T> &d, const AscendC::LocalTensor<T> &a,
                      const AscendC::LocalTensor<T> &b, int32_t n, const char *api, F f)
{
    check_cnt(d, n, api, "dst");
    check_cnt(a, n, api, "src0");
    check_cnt(b, n, api, "src1");
    check_overlap(d, n, a, n, ARC_OVERLAP_REPEAT, api, "src0");
    check_overlap(d, n, b, n, ARC_OVERLAP_REPEAT, api, "src1");
    T *__restrict dp = d.addr_;
    const T *__restrict ap = a.addr_;
    const T *__restrict bp = b.addr_;
    for (int32_t i = 0; i < n; i++) dp[i] = f(ap[i], bp[i]);
}
template <class T, class F>
inline void bin_l0(const AscendC::LocalTensor<T> &d, const AscendC::LocalTensor<T> &a, const AscendC::LocalTensor<T> &b,
                   const Plan &p, const AscendC::BinaryRepeatParams &rp, const char *api, F f)
{
    Opnd od = opnd<T>(rp.dstBlkStride, rp.dstRepStride), oa = opnd<T>(rp.src0BlkStride, rp.src0RepStride),
         ob = opnd<T>(rp.src1BlkStride, rp.src1RepStride);
    check_l0(d, p, od, api, "dst");
    check_l0(a, p, oa, api, "src0");
    check_l0(b, p, ob, api, "src1");
    check_overlap_l0(d, p, od, a, oa, api, "src0");
    check_overlap_l0(d, p, od, b, ob, api, "src1");
    T *dp = d.addr_;
    const T *ap = a.addr_, *bp = b.addr_;
    if (full(p) && flat(p, od) && flat(p, oa) && flat(p, ob)) {
        uint64_t n = flat_n(p);
        for (uint64_t i = 0; i < n; i++) dp[i] = f(ap[i], bp[i]);
        return;
    }
    lanes(p, [&](uint32_t r, uint32_t l) { dp[off(od, r, l)] = f(ap[off(oa, r, l)], bp[off(ob, r, l)]); });
}
/* MulAddDst's element: the product rounded to T (exact for half sources
 * into float), then the sum. */
template <class T, class U> inline T mul_add_dst(T d, U a, U b)
{
    if constexpr (is_same<T, U>::value) return (T)((T)(a * b) + d);
    else return (T)((T)a * (T)b + d);
}
/* MulAddDst's level-0 form: dst and the sources each laid out by their own
 * type (a half source's repeat is 4 blocks when dst is float). */
template <class T, class U>
inline void mad_l0(const AscendC::LocalTensor<T> &d, const AscendC::LocalTensor<U> &a, const AscendC::LocalTensor<U> &b,
                   const Plan &p, const AscendC::BinaryRepeatParams &rp, const char *api)
{
    Opnd od = opnd<T>(rp.dstBlkStride, rp.dstRepStride), oa = opnd<U>(rp.src0BlkStride, rp.src0RepStride),
         ob = opnd<U>(rp.src1BlkStride, rp.src1RepStride);
    check_l0(d, p, od, api, "dst");
    check_l0(a, p, oa, api, "src0");
    check_l0(b, p, ob, api, "src1");
    if (sizeof(T) == sizeof(U)) {
        check_overlap_l0(d, p, od, a, oa, api, "src0");
        check_overlap_l0(d, p, od, b, ob, api, "src1");
    } else if (p.repeat) {
        check_overlap(d, extent(p, od), a, extent(p, oa), ARC_OVERLAP_NONE, api, "src0");
        check_overlap(d, extent(p, od), b, extent(p, ob), ARC_OVERLAP_NONE, api, "src1");
    }
    T *dp = d.addr_;
    const U *ap = a.addr_, *bp = b.addr_;
    lanes(p, [&](uint32_t r, uint32_t l) {
        T &x = dp[off(od, r, l)];
        x = mul_add_dst(x, ap[off(oa, r, l)], bp[off(ob, r, l)]);
    });
}
} // namespace __arc

/* The three forms of one binary API over its operation __arc::op::NAME;
 * CHECK is an ARC_DTYPE_REQUIRE on T. */
#define ARC_BINARY_API(NAME, CHECK)                                                                      \
    template <typename T>                                                                                      \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,       \
                     const int32_t &count)                                                                     \
    {                                                                                                          \
        CHECK;                                                                                                 \
        __arc::bin_count(dst, src0, src1, count, "AscendC::" #NAME, __arc::op::NAME{});                    \
    }                                                                                                          \
    template <typename T, bool isSetMask = true>                                                               \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,       \
                     uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams &rp)                    \
    {                                                                                                          \
        CHECK;                                                                                                 \
        ARC_CX_COUNT_ONLY(NAME);                                                                               \
        __arc::Plan p = __arc::plan_len(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::" #NAME);     \
        __arc::bin_l0(dst, src0, src1, p, rp, "AscendC::" #NAME, __arc::op::NAME{});                       \
    }                                                                                                          \
    template <typename T, bool isSetMask = true>                                                               \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,       \
                     const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams &rp)            \
    {                                                                                                          \
        CHECK;                                                                                                 \
        ARC_CX_COUNT_ONLY(NAME);                                                                               \
        __arc::Plan p = __arc::plan_arr(256 / sizeof(T), repeatTime, mask, isSetMask, "AscendC::" #NAME);     \
        __arc::bin_l0(dst, src0, src1, p, rp, "AscendC::" #NAME, __arc::op::NAME{});                       \
    }

/* complex32/complex64 (dav-3510) take the count form only (the docs' "tensor
 * 前n个数据计算接口"), and only the operations whose pages list them. */
#define ARC_CX_COUNT_ONLY(NAME)                                                                              \
    static_assert(!__arc::is_complex_v<T>, "AscendC::" #NAME ": complex32/complex64 take the count form only")
#define ARC_CX_NO(NAME)                                                                                      \
    static_assert(!__arc::is_complex_v<T>, "AscendC::" #NAME ": complex32/complex64 are not supported (Add, Sub, " \
                  "Mul, Div, Adds, Subs, Muls, Divs and Abs take them)")
#define ARC_A2_ARITH(NAME)                                                                                   \
    ARC_DTYPE_REQUIRE((__NPU_ARCH__ != 2201 || __arc::one_of<T, int16_t, half, int32_t, float>),                   \
                  "AscendC::" #NAME ": dav-2201 supports int16_t, half, int32_t and float only (no bfloat16_t: Cast to float first)")
#define ARC_A2_FLOAT(NAME)                                                                                   \
    static_assert(__arc::is_float_v<T> || __arc::is_complex_v<T>,                                             \
                  "AscendC::" #NAME ": supports half and float only (and complex32/complex64 on dav-3510)"); \
    ARC_DTYPE_REQUIRE((__arc::one_of<T, half, float> || (__NPU_ARCH__ != 2201 && (__arc::is_float_v<T> ||        \
                       __arc::is_complex_v<T>))),                                                              \
                  "AscendC::" #NAME ": dav-2201 supports half and float only (no bfloat16_t: Cast to float first)")
#define ARC_A2_BITS(NAME)                                                                                    \
    ARC_DTYPE_REQUIRE((__NPU_ARCH__ != 2201 || __arc::one_of<T, int16_t, uint16_t>),                               \
                  "AscendC::" #NAME ": dav-2201 supports int16_t and uint16_t only (ReinterpretCast wider types)")

/* The binary operations: what each computes (the C++ API below and the
 * C API's memory forms, arc/capi_vec.h, both run these). */
#define ARC_BINARY_OPS(X)                                                      \
    X(Add, ARC_A2_ARITH(Add), (T)(x + y))                                      \
    X(Sub, ARC_A2_ARITH(Sub), (T)(x - y))                                      \
    X(Mul, ARC_A2_ARITH(Mul), (T)(x * y))                                      \
    X(Div, ARC_A2_FLOAT(Div), (T)(x / y))                                      \
    X(Max, ARC_A2_ARITH(Max); ARC_CX_NO(Max), (x > y ? x : y))                 \
    X(Min, ARC_A2_ARITH(Min); ARC_CX_NO(Min), (x < y ? x : y))                 \
    X(And, ARC_A2_BITS(And); ARC_CX_NO(And), (T)(x & y))                       \
    X(Or, ARC_A2_BITS(Or); ARC_CX_NO(Or), (T)(x | y))                          \
    X(AddRelu, ARC_A2_ARITH(AddRelu); ARC_CX_NO(AddRelu),                      \
      ((T)(x + y) > (T)0 ? (T)(x + y) : (T)0))                                 \
    X(SubRelu, ARC_A2_ARITH(SubRelu); ARC_CX_NO(SubRelu),                      \
      ((T)(x - y) > (T)0 ? (T)(x - y) : (T)0))
/* Also the scalar forms' (Adds ... LeakyRelu: y is the scalar). */
#define ARC_OP_FUNCTOR(NAME, CHECK, EXPR) \
    struct NAME {                         \
        template <class T> T operator()(T x, T y) const { return EXPR; } \
    };
namespace __arc {
namespace op {
ARC_BINARY_OPS(ARC_OP_FUNCTOR)
} // namespace op
} // namespace __arc

namespace AscendC {
#define ARC_BINARY_API_ROW(NAME, CHECK, EXPR) ARC_BINARY_API(NAME, CHECK)
ARC_BINARY_OPS(ARC_BINARY_API_ROW)
#undef ARC_BINARY_API_ROW

/* Three-operand forms: MulAddDst dst = src0 * src1 + dst (dst may be
 * float over half sources: the product is exact in float, one rounding);
 * FusedMulAdd dst = src0 * dst + src1.  Each product is rounded to the
 * type of dst first. */
#define ARC_MULADDDST_TYPES                                                                                    \
    static_assert(__arc::is_float_v<T> && __arc::is_float_v<U>, "AscendC::MulAddDst: supports half and float only"); \
    ARC_DTYPE_REQUIRE((__arc::is_same<T, U>::value && __arc::one_of<T, half, float>) ||                              \
                          (__arc::is_same<T, float>::value && __arc::is_same<U, half>::value),                     \
                      "AscendC::MulAddDst: dst/src types are half/half, float/float or float/half")
template <typename T, typename U>
inline void MulAddDst(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                      const int32_t &count)
{
    ARC_MULADDDST_TYPES;
    __arc::check_cnt(dst, count, "AscendC::MulAddDst", "dst");
    __arc::check_cnt(src0, count, "AscendC::MulAddDst", "src0");
    __arc::check_cnt(src1, count, "AscendC::MulAddDst", "src1");
    if (sizeof(T) != sizeof(U) && count > 0) { /* "half sources, float dst: no overlap" */
        __arc::check_overlap(dst, (uint64_t)count, src0, (uint64_t)count, ARC_OVERLAP_NONE, "AscendC::MulAddDst", "src0");
        __arc::check_overlap(dst, (uint64_t)count, src1, (uint64_t)count, ARC_OVERLAP_NONE, "AscendC::MulAddDst", "src1");
    }
    for (int32_t i = 0; i < count; i++) dst.addr_[i] = __arc::mul_add_dst(dst.addr_[i], src0.addr_[i], src1.addr_[i]);
}
template <typename T, typename U, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1, uint64_t mask,
                      const uint8_t repeatTime, const BinaryRepeatParams &rp)
{
    ARC_MULADDDST_TYPES;
    __arc::Plan p = __arc::plan_len(__arc::lanes_of<T, U>(), repeatTime, mask, isSetMask, "AscendC::MulAddDst");
    __arc::mad_l0(dst, src0, src1, p, rp, "AscendC::MulAddDst");
}
template <typename T, typename U, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                      const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams &rp)
{
    ARC_MULADDDST_TYPES;
    __arc::Plan p = __arc::plan_arr(__arc::lanes_of<T, U>(), repeatTime, mask, isSetMask, "AscendC::MulAddDst");
    __arc::mad_l0(dst, src0, src1, p, rp, "AscendC::MulAddDst");
}
#undef ARC_MULADDDST_TYPES
template <typename T>
inline void FusedMulAdd(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                        const int32_t &count)
{
    ARC_A2_FLOAT(FusedMulAdd);
    __arc::check_cnt(dst, count, "AscendC::FusedMulAdd", "dst");
    __arc::check_cnt(src0, count, "AscendC::FusedMulAdd", "src0");
    __arc::check_cnt(src1, count, "AscendC::FusedMulAdd", "src1");
    for (int32_t i = 0; i < count; i++) dst.addr_[i] = (T)((T)(src0.addr_[i] * dst.addr_[i]) + src1.addr_[i]);
}
} // namespace AscendC

#endif /* ARC_VEC_BINARY_H_ */
