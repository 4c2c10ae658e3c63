/* device_warp_functions.h - warp functions: shuffles, votes, reductions
 * and lane queries.  No mask argument: each acts on the lanes of the warp
 * that reach it together (the active lanes; exited lanes are inactive).
 * Every one is one call of __arc_simt_warp, a point where the driver
 * gathers the warp's lanes (rt/cores/simt.c): a shuffle reading an inactive lane
 * is an error, never a plausible value.  asc_reduce_* combine in a tree:
 * lanes i and i + 16, then + 8, + 4, + 2, + 1 (inactive lanes skipped). */
#ifndef ASC_SIMT_DEVICE_WARP_FUNCTIONS_H_
#define ASC_SIMT_DEVICE_WARP_FUNCTIONS_H_

#include "simt_api/device_types.h"

extern "C" unsigned long long __arc_simt_warp(int op, unsigned long long v, int arg, int width)
    __attribute__((convergent, nothrow));

namespace __arc_simt {
template <class T> struct wt;
template <> struct wt<int32_t> { static constexpr int v = ARC_WT_I32; };
template <> struct wt<uint32_t> { static constexpr int v = ARC_WT_U32; };
template <> struct wt<float> { static constexpr int v = ARC_WT_F32; };
template <> struct wt<half> { static constexpr int v = ARC_WT_F16; };
template <> struct wt<int64_t> { static constexpr int v = ARC_WT_I64; };
template <> struct wt<uint64_t> { static constexpr int v = ARC_WT_U64; };
template <> struct wt<long long> { static constexpr int v = ARC_WT_I64; };
template <> struct wt<unsigned long long> { static constexpr int v = ARC_WT_U64; };
template <> struct wt<double> { static constexpr int v = ARC_WT_F64; };
template <> struct wt<bfloat16_t> { static constexpr int v = ARC_WT_BF16; };

template <class T> __attribute__((always_inline)) inline unsigned long long bits(T v)
{
    unsigned long long b = 0;
    __builtin_memcpy(&b, &v, sizeof v);
    return b;
}
template <class T> __attribute__((always_inline)) inline T unbits(unsigned long long b)
{
    T v;
    __builtin_memcpy(&v, &b, sizeof v);
    return v;
}
template <class T> __attribute__((always_inline)) inline T warp(int op, T v, int arg, int width)
{
    static_assert(sizeof(T) <= 8, "warp functions take scalars of at most 8 bytes");
    return unbits<T>(__arc_simt_warp(op | wt<T>::v << 8, bits(v), arg, width));
}
} // namespace __arc_simt

template <class T> __attribute__((always_inline)) inline T asc_shfl(T var, int32_t src_lane, int32_t width = 32)
{
    return ::__arc_simt::warp<T>(ARC_WARP_SHFL, var, src_lane, width);
}
template <class T> __attribute__((always_inline)) inline T asc_shfl_up(T var, uint32_t delta, int32_t width = 32)
{
    return ::__arc_simt::warp<T>(ARC_WARP_SHFL_UP, var, (int)delta, width);
}
template <class T> __attribute__((always_inline)) inline T asc_shfl_down(T var, uint32_t delta, int32_t width = 32)
{
    return ::__arc_simt::warp<T>(ARC_WARP_SHFL_DOWN, var, (int)delta, width);
}
template <class T> __attribute__((always_inline)) inline T asc_shfl_xor(T var, int32_t lane_mask, int32_t width = 32)
{
    return ::__arc_simt::warp<T>(ARC_WARP_SHFL_XOR, var, lane_mask, width);
}
__attribute__((always_inline)) inline int32_t asc_all(int32_t predicate)
{
    return (int32_t)__arc_simt_warp(ARC_WARP_ALL | ARC_WT_I32 << 8, predicate != 0, 0, 32);
}
__attribute__((always_inline)) inline int32_t asc_any(int32_t predicate)
{
    return (int32_t)__arc_simt_warp(ARC_WARP_ANY | ARC_WT_I32 << 8, predicate != 0, 0, 32);
}
__attribute__((always_inline)) inline uint32_t asc_ballot(int32_t predicate)
{
    return (uint32_t)__arc_simt_warp(ARC_WARP_BALLOT | ARC_WT_U32 << 8, predicate != 0, 0, 32);
}
__attribute__((always_inline)) inline uint32_t asc_activemask()
{
    return (uint32_t)__arc_simt_warp(ARC_WARP_ACTIVEMASK | ARC_WT_U32 << 8, 0, 0, 32);
}
template <class T> __attribute__((always_inline)) inline T asc_reduce_add(T v)
{
    return ::__arc_simt::warp<T>(ARC_WARP_RED_ADD, v, 0, 32);
}
template <class T> __attribute__((always_inline)) inline T asc_reduce_max(T v)
{
    return ::__arc_simt::warp<T>(ARC_WARP_RED_MAX, v, 0, 32);
}
template <class T> __attribute__((always_inline)) inline T asc_reduce_min(T v)
{
    return ::__arc_simt::warp<T>(ARC_WARP_RED_MIN, v, 0, 32);
}

/* Lane queries: threads are linearised x fastest and warps are runs of 32. */
__attribute__((always_inline)) inline uint32_t laneid()
{
    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u;
}
__attribute__((always_inline)) inline uint32_t lanemask_eq() { return 1u << laneid(); }
__attribute__((always_inline)) inline uint32_t lanemask_lt() { return (1u << laneid()) - 1u; }
__attribute__((always_inline)) inline uint32_t lanemask_le() { return (2u << laneid()) - 1u; }
__attribute__((always_inline)) inline uint32_t lanemask_gt() { return ~lanemask_le(); }
__attribute__((always_inline)) inline uint32_t lanemask_ge() { return ~lanemask_lt(); }

#endif
