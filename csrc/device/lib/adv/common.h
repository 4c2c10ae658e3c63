/* common.h - what the advanced API's simulated implementations share:
 * float compute for half/bfloat16_t/float operands, operand checks naming
 * the API, and the element-wise loops.  The CPU twin needs no scratch, so
 * every sharedTmpBuffer form is accepted and only checked for alignment. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_ADV_COMMON_H_
#define ARC_LIB_ADV_COMMON_H_

namespace __arc {
/* A UB operand holding at least n elements, 32-byte aligned. */
template <class T>
inline void adv_need(const AscendC::LocalTensor<T> &t, uint64_t n, const char *api, const char *what)
{
    check_cnt(t, (int64_t)n, api, what);
}
inline void adv_tmp(const AscendC::LocalTensor<uint8_t> &tmp, const char *api)
{
    ARC_CHECK_ALIGN32(tmp.addr_, api, "sharedTmpBuffer");
}
template <class T> inline float f32(T v) { return (float)v; }
template <class T> inline T from_f32(float v) { return (T)v; }

/* dst[i] = f(src[i]) computed in float. */
template <class T, class F>
inline void adv_map(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src, uint32_t n,
                    const char *api, F f)
{
    adv_need(dst, n, api, "dst");
    adv_need(src, n, api, "src");
    T *d = dst.addr_;
    const T *s = src.addr_;
    for (uint32_t i = 0; i < n; i++) d[i] = (T)f((float)s[i]);
}
/* dst[i] = f(a[i], b[i]) computed in float. */
template <class T, class F>
inline void adv_map2(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &a,
                     const AscendC::LocalTensor<T> &b, uint32_t n, const char *api, F f)
{
    adv_need(dst, n, api, "dst");
    adv_need(a, n, api, "src0");
    adv_need(b, n, api, "src1");
    T *d = dst.addr_;
    const T *x = a.addr_, *y = b.addr_;
    for (uint32_t i = 0; i < n; i++) d[i] = (T)f((float)x[i], (float)y[i]);
}
/* Elements a LocalTensor holds (the "whole tensor" forms). */
template <class T> inline uint32_t adv_size(const AscendC::LocalTensor<T> &t) { return t.GetSize(); }
/* Element i as float, unpacking the packed sub-byte types (arc/types.h). */
template <class T> inline float elem_f(const T *p, uint64_t i)
{
    if constexpr (packed_per_byte<T>::value > 1)
        return (float)packed_get(p, i);
    else
        return (float)p[i];
}
/* An operand that is a LocalTensor or a scalar (Clamp's min and max,
 * Where's sources, LogicalAnds): element i of the tensor, or the scalar.
 * (Not `X`: a user's -DX=1 must not break the device API.) */
template <class Opnd> struct is_local_tensor { static constexpr bool value = false; };
template <class T> struct is_local_tensor<AscendC::LocalTensor<T>> { static constexpr bool value = true; };
/* The element type of such an operand. */
template <class Opnd> struct opnd_type { typedef Opnd type; };
template <class T> struct opnd_type<AscendC::LocalTensor<T>> { typedef T type; };
/* A bool read as its byte (UB bytes need not be 0 or 1: any nonzero byte is true). */
template <class T> inline T elem_raw(const T *p, uint64_t i)
{
    if constexpr (is_same<T, bool>::value)
        return reinterpret_cast<const uint8_t *>(p)[i] != 0;
    else
        return p[i];
}
template <class Opnd> inline typename opnd_type<Opnd>::type opnd_at(const Opnd &x, uint64_t i)
{
    if constexpr (is_local_tensor<Opnd>::value)
        return elem_raw(x.addr_, i);
    else
        return x;
}
/* A tensor operand holds n elements and does not overlap dst (d, n elements). */
template <class TD, class Opnd>
inline void opnd_need(const AscendC::LocalTensor<TD> &d, const Opnd &x, uint64_t n, const char *api, const char *what)
{
    if constexpr (is_local_tensor<Opnd>::value) {
        adv_need(x, n, api, what);
        check_overlap(d, n, x, n, ARC_OVERLAP_NONE, api, what);
    }
}
} // namespace __arc

/* The config struct of one API and its default object (the pages' names). */
#define ARC_REUSE_CONFIG(CFG, DFLT)                                                                         \
    struct CFG {                                                                                            \
        bool isReuseSource;                                                                                 \
    };                                                                                                      \
    constexpr CFG DFLT = {false};

/* An API of Ascend 950 (dav-3510) only. */
#define ARC_950_ONLY(NAME) static_assert(__NPU_ARCH__ != 2201, "AscendC::" #NAME ": Ascend 950 (dav-3510) only")
/* The advanced API's float-only operands. */
#define ARC_ADV_HF(NAME) ARC_A2_HF(NAME)

#endif /* ARC_LIB_ADV_COMMON_H_ */
