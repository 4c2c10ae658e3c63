/* capi_vec.h - the SIMD C API's memory-vector compute (dav-2201): asc_add,
 * asc_exp, asc_add_scalar, ... on `__ubuf__` pointers, each in its three
 * documented forms: the first `count` elements; the repeat form (`repeat`
 * iterations of 256 bytes with block and repeat strides in 32-byte blocks,
 * lanes from the mask register: asc_set_vector_mask, asc_set_mask_count);
 * and `_sync`, which waits for its own result.  Each computes what the
 * C++ API's operation of the same name computes (__arc::op, arc/vec_binary.h
 * and arc/vec_unary.h) through the same engine and checks (alignment, the
 * UB's end, overlap, the race check's PIPE_V). */
#ifndef ARC_CAPI_VEC_H_
#define ARC_CAPI_VEC_H_

#include "arc/capi.h"
#include "arc/vec_unary.h"

namespace __arc {
namespace capi {
/* A UB operand as a tensor reaching to the UB's end. */
template <class T> inline AscendC::LocalTensor<T> ub_tensor(T *p, const char *api, const char *what)
{
    arc_core *k = __arc_core();
    uintptr_t a = (uintptr_t)p, ub = (uintptr_t)k->ub;
    ARC_CHECK(a >= ub && a < ub + k->ub_size, api,
              "%s is not in this core's UB (a __ubuf__ array, or asc_get_phy_buf_addr)", what);
    return AscendC::LocalTensor<T>(p, (uint32_t)(ub + k->ub_size - a), AscendC::TPosition::VECCALC);
}
inline int32_t count_of(uint32_t n, const char *api)
{
    ARC_CHECK(n <= 0x7fffffffu, api, "count %u is too large", n);
    return (int32_t)n;
}
template <bool ok> inline void on_2201()
{
    static_assert(ok, "the memory-vector C API (asc_add ... on __ubuf__ pointers) is dav-2201's; on dav-3510 "
                      "compute in registers (asc_loadalign, asc_add on vector_<type>, asc_storealign)");
}
} // namespace capi
} // namespace __arc

#define ARC_CAPI_ON_2201(NAME, TYPES)                                                  \
    __arc::capi::on_2201<__NPU_ARCH__ == 2201>();                                      \
    static_assert(__arc::one_of<T, ARC_UNPAREN TYPES>, #NAME ": supports " #TYPES " only")

/* dst = op(src0, src1) */
#define ARC_CAPI_MEM_BINARY(NAME, OP, TYPES)                                                                    \
    template <class T> inline void NAME(__ubuf__ T *dst, __ubuf__ T *src0, __ubuf__ T *src1, uint32_t count)    \
    {                                                                                                           \
        ARC_CAPI_ON_2201(NAME, TYPES);                                                                          \
        const char *api = #NAME;                                                                                \
        __arc::bin_count(__arc::capi::ub_tensor(dst, api, "dst"), __arc::capi::ub_tensor(src0, api, "src0"),   \
                         __arc::capi::ub_tensor(src1, api, "src1"), __arc::capi::count_of(count, api), api,     \
                         __arc::op::OP{});                                                                      \
    }                                                                                                           \
    template <class T>                                                                                          \
    inline void NAME(__ubuf__ T *dst, __ubuf__ T *src0, __ubuf__ T *src1, uint8_t repeat, uint8_t dst_block_stride, \
                     uint8_t src0_block_stride, uint8_t src1_block_stride, uint8_t dst_repeat_stride,           \
                     uint8_t src0_repeat_stride, uint8_t src1_repeat_stride)                                    \
    {                                                                                                           \
        ARC_CAPI_ON_2201(NAME, TYPES);                                                                          \
        const char *api = #NAME;                                                                                \
        AscendC::BinaryRepeatParams rp(dst_block_stride, src0_block_stride, src1_block_stride, dst_repeat_stride, \
                                       src0_repeat_stride, src1_repeat_stride);                                 \
        __arc::bin_l0(__arc::capi::ub_tensor(dst, api, "dst"), __arc::capi::ub_tensor(src0, api, "src0"),      \
                      __arc::capi::ub_tensor(src1, api, "src1"),                                                \
                      __arc::plan_len(256 / sizeof(T), repeat, 0, false, api), rp, api, __arc::op::OP{});       \
    }                                                                                                           \
    template <class T>                                                                                          \
    inline void NAME##_sync(__ubuf__ T *dst, __ubuf__ T *src0, __ubuf__ T *src1, uint32_t count)                \
    {                                                                                                           \
        NAME(dst, src0, src1, count);                                                                           \
        __arc::capi::drain(PIPE_V);                                                                             \
    }

/* dst = op(src) */
#define ARC_CAPI_MEM_UNARY(NAME, OP, TYPES)                                                                     \
    template <class T> inline void NAME(__ubuf__ T *dst, __ubuf__ T *src, uint32_t count)                       \
    {                                                                                                           \
        ARC_CAPI_ON_2201(NAME, TYPES);                                                                          \
        const char *api = #NAME;                                                                                \
        __arc::un_count(__arc::capi::ub_tensor(dst, api, "dst"), __arc::capi::ub_tensor(src, api, "src"),      \
                        __arc::capi::count_of(count, api), api, __arc::op::OP{});                               \
    }                                                                                                           \
    template <class T>                                                                                          \
    inline void NAME(__ubuf__ T *dst, __ubuf__ T *src, uint8_t repeat, uint16_t dst_block_stride,               \
                     uint16_t src_block_stride, uint16_t dst_repeat_stride, uint16_t src_repeat_stride)         \
    {                                                                                                           \
        ARC_CAPI_ON_2201(NAME, TYPES);                                                                          \
        const char *api = #NAME;                                                                                \
        AscendC::UnaryRepeatParams rp(dst_block_stride, src_block_stride, (uint8_t)dst_repeat_stride,           \
                                      (uint8_t)src_repeat_stride);                                              \
        __arc::un_l0(__arc::capi::ub_tensor(dst, api, "dst"), __arc::capi::ub_tensor(src, api, "src"),         \
                     __arc::plan_len(256 / sizeof(T), repeat, 0, false, api), rp, api, __arc::op::OP{});        \
    }                                                                                                           \
    template <class T> inline void NAME##_sync(__ubuf__ T *dst, __ubuf__ T *src, uint32_t count)                \
    {                                                                                                           \
        NAME(dst, src, count);                                                                                  \
        __arc::capi::drain(PIPE_V);                                                                             \
    }

/* dst = op(src, value) */
#define ARC_CAPI_MEM_SCALAR(NAME, OP, TYPES)                                                                    \
    template <class T>                                                                                          \
    inline void NAME(__ubuf__ T *dst, __ubuf__ T *src, __arc::ident_t<T> value, uint32_t count)                 \
    {                                                                                                           \
        ARC_CAPI_ON_2201(NAME, TYPES);                                                                          \
        const char *api = #NAME;                                                                                \
        const T s = value;                                                                                      \
        __arc::un_count(__arc::capi::ub_tensor(dst, api, "dst"), __arc::capi::ub_tensor(src, api, "src"),      \
                        __arc::capi::count_of(count, api), api, [s](T x) -> T { return __arc::op::OP{}(x, s); }); \
    }                                                                                                           \
    template <class T>                                                                                          \
    inline void NAME(__ubuf__ T *dst, __ubuf__ T *src, __arc::ident_t<T> value, uint8_t repeat,                 \
                     uint16_t dst_block_stride, uint16_t src_block_stride, uint16_t dst_repeat_stride,          \
                     uint16_t src_repeat_stride)                                                                \
    {                                                                                                           \
        ARC_CAPI_ON_2201(NAME, TYPES);                                                                          \
        const char *api = #NAME;                                                                                \
        const T s = value;                                                                                      \
        AscendC::UnaryRepeatParams rp(dst_block_stride, src_block_stride, (uint8_t)dst_repeat_stride,           \
                                      (uint8_t)src_repeat_stride);                                              \
        __arc::un_l0(__arc::capi::ub_tensor(dst, api, "dst"), __arc::capi::ub_tensor(src, api, "src"),         \
                     __arc::plan_len(256 / sizeof(T), repeat, 0, false, api), rp, api,                          \
                     [s](T x) -> T { return __arc::op::OP{}(x, s); });                                          \
    }                                                                                                           \
    template <class T>                                                                                          \
    inline void NAME##_sync(__ubuf__ T *dst, __ubuf__ T *src, __arc::ident_t<T> value, uint32_t count)          \
    {                                                                                                           \
        NAME(dst, src, value, count);                                                                           \
        __arc::capi::drain(PIPE_V);                                                                             \
    }

/* The operations and element types of each API's page. */
ARC_CAPI_MEM_BINARY(asc_add, Add, (int16_t, half, int32_t, float))
ARC_CAPI_MEM_BINARY(asc_sub, Sub, (int16_t, half, int32_t, float))
ARC_CAPI_MEM_BINARY(asc_mul, Mul, (int16_t, half, int32_t, float))
ARC_CAPI_MEM_BINARY(asc_div, Div, (half, float))
ARC_CAPI_MEM_BINARY(asc_max, Max, (int16_t, half, int32_t, float))
ARC_CAPI_MEM_BINARY(asc_min, Min, (int16_t, half, int32_t, float))
ARC_CAPI_MEM_BINARY(asc_and, And, (int16_t, uint16_t))
ARC_CAPI_MEM_BINARY(asc_or, Or, (int16_t, uint16_t))
ARC_CAPI_MEM_BINARY(asc_add_relu, AddRelu, (int16_t, half, float))
ARC_CAPI_MEM_BINARY(asc_sub_relu, SubRelu, (int16_t, half, float))
ARC_CAPI_MEM_UNARY(asc_abs, Abs, (half, float))
ARC_CAPI_MEM_UNARY(asc_exp, Exp, (half, float))
ARC_CAPI_MEM_UNARY(asc_log, Ln, (half, float))
ARC_CAPI_MEM_UNARY(asc_sqrt, Sqrt, (half, float))
ARC_CAPI_MEM_UNARY(asc_rsqrt, Rsqrt, (half, float))
ARC_CAPI_MEM_UNARY(asc_rcp, Reciprocal, (half, float))
ARC_CAPI_MEM_UNARY(asc_relu, Relu, (half, int32_t, float))
ARC_CAPI_MEM_UNARY(asc_not, Not, (int16_t, uint16_t))
ARC_CAPI_MEM_SCALAR(asc_add_scalar, Adds, (int16_t, half, int32_t, float))
ARC_CAPI_MEM_SCALAR(asc_sub_scalar, Subs, (int16_t, half, int32_t, float))
ARC_CAPI_MEM_SCALAR(asc_mul_scalar, Muls, (int16_t, half, int32_t, float))
ARC_CAPI_MEM_SCALAR(asc_max_scalar, Maxs, (int16_t, half, int32_t, float))
ARC_CAPI_MEM_SCALAR(asc_min_scalar, Mins, (int16_t, half, int32_t, float))
ARC_CAPI_MEM_SCALAR(asc_leakyrelu, LeakyRelu, (half, float))
#undef ARC_CAPI_MEM_BINARY
#undef ARC_CAPI_MEM_UNARY
#undef ARC_CAPI_MEM_SCALAR

/* The mask register the repeat forms read (AscendC::SetVectorMask ...). */
inline void asc_set_vector_mask(uint64_t mask1, uint64_t mask0) { AscendC::SetVectorMask<uint16_t>(mask1, mask0); }
inline void asc_set_mask_count() { AscendC::SetMaskCount(); }
inline void asc_set_mask_norm() { AscendC::SetMaskNorm(); }

#endif /* ARC_CAPI_VEC_H_ */
