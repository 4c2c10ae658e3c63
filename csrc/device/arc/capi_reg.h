/* capi_reg.h - the SIMD C API's Reg families (dav-3510): vector_<type>
 * and vector_bool registers, asc_create_mask_b* / asc_update_mask_b*,
 * aligned loads and stores (plain, offset, post-update), asc_load/asc_store, the arithmetic,
 * scalar, compare, select, duplicate and reduce families, on arc/reg.h's
 * model (predicated lanes zeroed, as each API's page says). */
#ifndef ARC_CAPI_REG_H_
#define ARC_CAPI_REG_H_

#include "arc/reg.h"
#include "arc/vec_unary.h" /* __arc::op: what the operations compute */

#if __NPU_ARCH__ == 3510
typedef __arc::reg::vreg<int8_t> vector_int8_t;
typedef __arc::reg::vreg<uint8_t> vector_uint8_t;
typedef __arc::reg::vreg<int16_t> vector_int16_t;
typedef __arc::reg::vreg<uint16_t> vector_uint16_t;
typedef __arc::reg::vreg<half> vector_half;
typedef __arc::reg::vreg<bfloat16_t> vector_bfloat16_t;
typedef __arc::reg::vreg<int32_t> vector_int32_t;
typedef __arc::reg::vreg<uint32_t> vector_uint32_t;
typedef __arc::reg::vreg<float> vector_float;
typedef __arc::reg::vreg<int64_t> vector_int64_t;
typedef __arc::reg::vreg<uint64_t> vector_uint64_t;
typedef __arc::reg::vmask vector_bool;

enum asc_mask_pattern { PAT_ALL, PAT_VL1, PAT_VL2, PAT_VL3, PAT_VL4, PAT_VL8, PAT_VL16, PAT_VL32, PAT_VL64,
                        PAT_VL128, PAT_M3, PAT_M4, PAT_H, PAT_Q, PAT_ALLF = 15 };

inline vector_bool asc_create_mask_b8(int pat_mode) { return __arc::reg::pattern<uint8_t>(pat_mode, "asc_create_mask_b8"); }
inline vector_bool asc_create_mask_b16(int pat_mode) { return __arc::reg::pattern<uint16_t>(pat_mode, "asc_create_mask_b16"); }
inline vector_bool asc_create_mask_b32(int pat_mode) { return __arc::reg::pattern<uint32_t>(pat_mode, "asc_create_mask_b32"); }
inline vector_bool asc_update_mask_b8(uint32_t &value) { return __arc::reg::update<uint8_t>(value); }
inline vector_bool asc_update_mask_b16(uint32_t &value) { return __arc::reg::update<uint16_t>(value); }
inline vector_bool asc_update_mask_b32(uint32_t &value) { return __arc::reg::update<uint32_t>(value); }

/* Loads: VL bytes from 32-byte aligned UB (at src + offset elements). */
template <class T> inline void asc_loadalign(__arc::reg::vreg<T> &dst, __ubuf__ T *src)
{
    __arc::reg::load(dst, src, "asc_loadalign");
}
template <class T> inline void asc_loadalign(__arc::reg::vreg<T> &dst, __ubuf__ T *src, int32_t offset)
{
    __arc::reg::load(dst, src + offset, "asc_loadalign");
}
template <class T> inline void asc_loadalign_postupdate(__arc::reg::vreg<T> &dst, __ubuf__ T *&src, int32_t offset)
{
    __arc::reg::load(dst, src, "asc_loadalign_postupdate");
    src += offset;
}
/* addr_reg (asc_update_addr_reg): an offset of sum(index_i * stride_i)
 * elements, index_i the iteration of the i-th loop out from the update
 * (innermost first, up to 4; its page).  Only the compiler sees the loops:
 * the rtc's AddrRegPass (rtc/addr_reg.cpp) turns each __arc_addr_reg
 * call, expanded in the caller's own loop, into that offset in bytes. */
struct addr_reg {
    uint64_t bytes;
};
typedef addr_reg iter_reg; /* the deprecated asc_create_iter_reg_*'s name */
extern "C" unsigned long long __arc_addr_reg(unsigned esize, unsigned s0, unsigned s1, unsigned s2, unsigned s3);
#define ARC_ADDR_REG_(e, s0, s1, s2, s3, ...) (addr_reg{__arc_addr_reg((e), (s0), (s1), (s2), (s3))})
#define asc_update_addr_reg_b8(...) ARC_ADDR_REG_(1, __VA_ARGS__, 0, 0, 0, 0)
#define asc_update_addr_reg_b16(...) ARC_ADDR_REG_(2, __VA_ARGS__, 0, 0, 0, 0)
#define asc_update_addr_reg_b32(...) ARC_ADDR_REG_(4, __VA_ARGS__, 0, 0, 0, 0)
#define asc_create_iter_reg_b8(...) ARC_ADDR_REG_(1, __VA_ARGS__, 0, 0, 0, 0)
#define asc_create_iter_reg_b16(...) ARC_ADDR_REG_(2, __VA_ARGS__, 0, 0, 0, 0)
#define asc_create_iter_reg_b32(...) ARC_ADDR_REG_(4, __VA_ARGS__, 0, 0, 0, 0)
template <class T> inline void asc_loadalign(__arc::reg::vreg<T> &dst, __ubuf__ T *src, addr_reg offset)
{
    __arc::reg::load(dst, (__ubuf__ T *)((__ubuf__ uint8_t *)src + offset.bytes), "asc_loadalign(addr_reg)");
}
template <class T>
inline void asc_storealign(__ubuf__ T *dst, __arc::reg::vreg<T> src, addr_reg offset, vector_bool mask)
{
    __arc::reg::store((__ubuf__ T *)((__ubuf__ uint8_t *)dst + offset.bytes), src, mask, "asc_storealign(addr_reg)");
}

/* Stores: the active elements to 32-byte aligned UB. */
template <class T>
inline void asc_storealign(__ubuf__ T *dst, __arc::reg::vreg<T> src, vector_bool mask)
{
    __arc::reg::store(dst, src, mask, "asc_storealign");
}
template <class T>
inline void asc_storealign(__ubuf__ T *dst, __arc::reg::vreg<T> src, int32_t offset, vector_bool mask)
{
    __arc::reg::store(dst + offset, src, mask, "asc_storealign");
}
template <class T>
inline void asc_storealign_postupdate(__ubuf__ T *&dst, __arc::reg::vreg<T> src, int32_t offset, vector_bool mask)
{
    __arc::reg::store(dst, src, mask, "asc_storealign_postupdate");
    dst += offset;
}
/* asc_load / asc_store: the same at any element-aligned UB address (their
 * pages: no 32-byte rule); asc_store writes VL bytes, or its first count
 * elements, with no predicate. */
template <class T> inline void asc_load(__arc::reg::vreg<T> &dst, __ubuf__ T *src)
{
    __arc::reg::ub_operand(src, 256, (uint32_t)sizeof(T), ARC_RACE_REG, "asc_load", "src");
    __arc::reg::ub_read(dst.v, src, 256);
}
template <class T> inline void asc_store(__ubuf__ T *dst, __arc::reg::vreg<T> src, uint32_t count)
{
    ARC_CHECK(count <= __arc::reg::vreg<T>::N, "asc_store", "count %u is over a register's %u elements of %s",
              count, __arc::reg::vreg<T>::N, __arc::tname<T>());
    __arc::reg::ub_operand(dst, (uint64_t)count * sizeof(T), (uint32_t)sizeof(T), 1, "asc_store", "dst");
    if (__arc::race_on()) __arc_race_reg_use((unsigned long long)count * sizeof(T), "asc_store");
    __arc::reg::ub_write(dst, src.v, (uint64_t)count * sizeof(T));
}
template <class T> inline void asc_store(__ubuf__ T *dst, __arc::reg::vreg<T> src)
{
    asc_store(dst, src, __arc::reg::vreg<T>::N);
}

namespace __arc {
namespace capi {
template <class T> constexpr bool fp_v = is_same<T, float>::value || is_same<T, half>::value;
template <class T> constexpr bool arith_v = !is_same<T, int64_t>::value && !is_same<T, uint64_t>::value;
/* asc_div's page: half, float, int16/uint16, int32/uint32 (an integer zero
 * divisor follows the compiler's integer-division rule: rtc/int_div.cpp). */
template <class T>
constexpr bool div_v = fp_v<T> || is_same<T, int16_t>::value || is_same<T, uint16_t>::value ||
                       is_same<T, int32_t>::value || is_same<T, uint32_t>::value;
template <class T> using elem = typename reg::vreg<T>::elem;
} // namespace capi
} // namespace __arc

#define ARC_CAPI_BINARY(NAME, OK, OP)                                                                        \
    template <class T>                                                                                         \
    inline void NAME(__arc::reg::vreg<T> &dst, __arc::reg::vreg<T> src0, __arc::reg::vreg<T> src1,             \
                     vector_bool mask)                                                                         \
    {                                                                                                          \
        static_assert(OK, #NAME ": this vector type is not supported (see the API's page)");                   \
        __arc::reg::map2(dst, src0, src1, mask, __arc::op::OP{});                                              \
    }
ARC_CAPI_BINARY(asc_add, __arc::capi::arith_v<T>, Add)
ARC_CAPI_BINARY(asc_sub, __arc::capi::arith_v<T>, Sub)
ARC_CAPI_BINARY(asc_mul, __arc::capi::arith_v<T>, Mul)
ARC_CAPI_BINARY(asc_div, __arc::capi::div_v<T>, Div)
ARC_CAPI_BINARY(asc_max, __arc::capi::arith_v<T>, Max)
ARC_CAPI_BINARY(asc_min, __arc::capi::arith_v<T>, Min)
#undef ARC_CAPI_BINARY

#define ARC_CAPI_SCALAR(NAME, OP)                                                                            \
    template <class T>                                                                                         \
    inline void NAME(__arc::reg::vreg<T> &dst, __arc::reg::vreg<T> src, __arc::capi::elem<T> value,            \
                     vector_bool mask)                                                                         \
    {                                                                                                          \
        static_assert(__arc::capi::arith_v<T>, #NAME ": this vector type is not supported (see the API's page)"); \
        const T y = value;                                                                                     \
        __arc::reg::map1(dst, src, mask, [y](T x) -> T { return __arc::op::OP{}(x, y); });                     \
    }
ARC_CAPI_SCALAR(asc_add_scalar, Adds)
ARC_CAPI_SCALAR(asc_mul_scalar, Muls)
ARC_CAPI_SCALAR(asc_max_scalar, Maxs)
ARC_CAPI_SCALAR(asc_min_scalar, Mins)
#undef ARC_CAPI_SCALAR

#define ARC_CAPI_UNARY(NAME, OK, OP)                                                                         \
    template <class T> inline void NAME(__arc::reg::vreg<T> &dst, __arc::reg::vreg<T> src, vector_bool mask)  \
    {                                                                                                          \
        static_assert(OK, #NAME ": this vector type is not supported (see the API's page)");                   \
        __arc::reg::map1(dst, src, mask, __arc::op::OP{});                                                     \
    }
ARC_CAPI_UNARY(asc_abs, __arc::capi::arith_v<T>, Abs)
ARC_CAPI_UNARY(asc_neg, __arc::capi::arith_v<T>, Neg)
ARC_CAPI_UNARY(asc_relu, __arc::capi::arith_v<T>, Relu)
ARC_CAPI_UNARY(asc_exp, __arc::capi::fp_v<T>, Exp)
ARC_CAPI_UNARY(asc_ln, __arc::capi::fp_v<T>, Ln)
ARC_CAPI_UNARY(asc_sqrt, __arc::capi::fp_v<T>, Sqrt)
#undef ARC_CAPI_UNARY

/* Compares: dst's bit of an element is set where the mask selects it and
 * the relation holds. */
#define ARC_CAPI_CMP(NAME, OP)                                                                                 \
    template <class T>                                                                                         \
    inline void NAME(vector_bool &dst, __arc::reg::vreg<T> src0, __arc::reg::vreg<T> src1, vector_bool mask)  \
    {                                                                                                          \
        dst = __arc::reg::cmp(src0, src1, mask, [](T x, T y) { return x OP y; });                              \
    }                                                                                                          \
    template <class T>                                                                                         \
    inline void NAME##_scalar(vector_bool &dst, __arc::reg::vreg<T> src, __arc::capi::elem<T> value,           \
                              vector_bool mask)                                                                \
    {                                                                                                          \
        __arc::reg::vreg<T> b;                                                                                 \
        for (uint32_t i = 0; i < __arc::reg::vreg<T>::N; i++) b.v[i] = value;                                  \
        dst = __arc::reg::cmp(src, b, mask, [](T x, T y) { return x OP y; });                                  \
    }
ARC_CAPI_CMP(asc_gt, >)
ARC_CAPI_CMP(asc_ge, >=)
ARC_CAPI_CMP(asc_lt, <)
ARC_CAPI_CMP(asc_le, <=)
ARC_CAPI_CMP(asc_eq, ==)
ARC_CAPI_CMP(asc_ne, !=)
#undef ARC_CAPI_CMP

/* The logic family (reg/logic_compute): __arc::reg::bitwise / maskwise (arc/reg.h). */
#define ARC_CAPI_LOGIC(NAME, OP)                                                                               \
    template <class T>                                                                                         \
    inline void NAME(__arc::reg::vreg<T> &dst, __arc::reg::vreg<T> src0, __arc::reg::vreg<T> src1,             \
                     vector_bool mask)                                                                         \
    {                                                                                                          \
        __arc::reg::map2(dst, src0, src1, mask, [](T x, T y) -> T {                                            \
            return __arc::reg::bitwise(x, y, [](unsigned long long a, unsigned long long b) { return a OP b; }); \
        });                                                                                                    \
    }                                                                                                          \
    inline void NAME(vector_bool &dst, vector_bool src0, vector_bool src1, vector_bool mask)                  \
    {                                                                                                          \
        dst = __arc::reg::maskwise(src0, src1, mask, [](unsigned a, unsigned b) { return a OP b; });          \
    }
ARC_CAPI_LOGIC(asc_and, &)
ARC_CAPI_LOGIC(asc_or, |)
ARC_CAPI_LOGIC(asc_xor, ^)
#undef ARC_CAPI_LOGIC
template <class T> inline void asc_not(__arc::reg::vreg<T> &dst, __arc::reg::vreg<T> src, vector_bool mask)
{
    __arc::reg::map1(dst, src, mask, [](T x) -> T {
        return __arc::reg::bitwise(x, x, [](unsigned long long a, unsigned long long) { return ~a; });
    });
}
inline void asc_not(vector_bool &dst, vector_bool src, vector_bool mask)
{
    dst = __arc::reg::maskwise(src, src, mask, [](unsigned a, unsigned) { return ~a; });
}

/* asc_select: src0 where mask is set, else src1. */
template <class T>
inline void asc_select(__arc::reg::vreg<T> &dst, __arc::reg::vreg<T> src0, __arc::reg::vreg<T> src1, vector_bool mask)
{
    __arc::reg::select(dst, src0, src1, mask);
}
/* asc_duplicate_scalar: value in every (selected) element, the rest 0;
 * asc_duplicate: src's lowest element likewise. */
template <class T> inline void asc_duplicate_scalar(__arc::reg::vreg<T> &dst, __arc::capi::elem<T> value)
{
    __arc::reg::dup(dst, (T)value, __arc::reg::first<T>(__arc::reg::vreg<T>::N));
}
template <class T>
inline void asc_duplicate_scalar(__arc::reg::vreg<T> &dst, __arc::capi::elem<T> value, vector_bool mask)
{
    __arc::reg::dup(dst, (T)value, mask);
}
template <class T> inline void asc_duplicate(__arc::reg::vreg<T> &dst, __arc::reg::vreg<T> src, vector_bool mask)
{
    __arc::reg::dup(dst, src.v[0], mask);
}
/* asc_reduce_sum: the sum of the selected elements in element 0, the rest 0. */
template <class T> inline void asc_reduce_sum(__arc::reg::vreg<T> &dst, __arc::reg::vreg<T> src, vector_bool mask)
{
    static_assert(__arc::capi::arith_v<T> || __arc::is_same<T, int64_t>::value,
                  "asc_reduce_sum: this vector type is not supported (see the API's page)");
    __arc::reg::reduce(dst, src, mask, (T)0, [](T a, T b) -> T { return (T)(a + b); });
}
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_CAPI_REG_H_ */
