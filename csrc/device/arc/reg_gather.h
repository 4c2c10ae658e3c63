/* reg_gather.h - the Reg gathers of dav-3510 in both spellings, each
 * defined once:
 *   Gather(dst, src, index) = asc_gather(dst, src, index): dst[i] =
 *   src[index[i] % N] within a register (an index as wide as the element);
 *   Gather(dst, base, index, mask) = asc_gather(dst, base, index, mask):
 *   dst[i] = base[index[i]] from UB (elements; int8/uint8 widen to 16 bits);
 *   GatherB = asc_gather_datablock: dst's block b (32 bytes) = the block at
 *   byte offset index[b] of base, for b < 8, the mask's b32 lanes 0..7
 *   selecting blocks.
 * Unselected lanes and blocks are 0, and read nothing: the UB check covers
 * the bytes the selected ones read (32-byte aligned base, the UB's end),
 * on PIPE_V for the race check.
 *   Scatter(base, src, index, mask) = asc_scatter: base[index[i]] = src[i]
 *   for the selected lanes (16- and 32-bit elements, the index as wide; the
 *   pages' b8 and b64 forms are refused at compile time); two selected
 *   lanes with one index keep an unknown one of them (the pages): refused. */
#ifndef ARC_REG_GATHER_H_
#define ARC_REG_GATHER_H_

#include "arc/reg_api.h"

#if __NPU_ARCH__ == 3510
namespace __arc {
namespace reg {
template <class T, class I> inline void gather_reg(vreg<T> &d, const vreg<T> &s, const vreg<I> &idx)
{
    static_assert(sizeof(I) == sizeof(T), "Gather (asc_gather) in a register: the index is as wide as the element");
    constexpr uint32_t N = vreg<T>::N;
    vreg<T> r;
    for (uint32_t i = 0; i < N; i++) r.v[i] = s.v[(uint64_t)idx.v[i] % N];
    d = r;
}
template <class TD, class TS, class I>
inline void gather_ub(vreg<TD> &d, const TS *base, const vreg<I> &idx, const vmask &m, const char *api)
{
    static_assert(sizeof(TD) == sizeof(TS) || (sizeof(TS) == 1 && sizeof(TD) == 2),
                  "Gather (asc_gather) from UB: dst elements as wide as src's, or b8 -> b16");
    constexpr uint32_t N = vreg<TD>::N;
    uint64_t hi = 0;
    bool any = false;
    for (uint32_t i = 0; i < N && i < vreg<I>::N; i++)
        if (on<TD>(m, i)) {
            any = true;
            hi = (uint64_t)idx.v[i] + 1 > hi ? (uint64_t)idx.v[i] + 1 : hi;
        }
    ub_operand(base, any ? hi * sizeof(TS) : 0, 32, 0, api, "src");
    vreg<TD> r{};
    for (uint32_t i = 0; i < N && i < vreg<I>::N; i++)
        if (on<TD>(m, i)) {
            TS v;
            ub_read(&v, base + idx.v[i], sizeof v);
            r.v[i] = (TD)v;
        }
    d = r;
}
template <class T, class I>
inline void gather_blocks(vreg<T> &d, const T *base, const vreg<I> &idx, const vmask &m, const char *api)
{
    static_assert(sizeof(I) == 4, "GatherB (asc_gather_datablock): the index is uint32_t");
    uint64_t hi = 0;
    for (uint32_t b = 0; b < 8; b++)
        if (on<uint32_t>(m, b)) {
            ARC_CHECK(idx.v[b] % 32 == 0, api, "index[%u] = %u bytes is not a multiple of 32 (a DataBlock)", b,
                      (unsigned)idx.v[b]);
            hi = (uint64_t)idx.v[b] + 32 > hi ? (uint64_t)idx.v[b] + 32 : hi;
        }
    ub_operand(base, hi, 32, 0, api, "src");
    vreg<T> r{};
    for (uint32_t b = 0; b < 8; b++)
        if (on<uint32_t>(m, b)) ub_read((char *)r.v + 32 * b, (const char *)base + idx.v[b], 32);
    d = r;
}
template <class T, class I>
inline void scatter_ub(T *base, const vreg<T> &s, const vreg<I> &idx, const vmask &m, const char *api)
{
    static_assert((sizeof(T) == 2 || sizeof(T) == 4) && sizeof(I) == sizeof(T),
                  "Scatter (asc_scatter): 16- or 32-bit elements with an index as wide are simulated");
    constexpr uint32_t N = vreg<T>::N;
    uint64_t hi = 0;
    bool any = false;
    for (uint32_t i = 0; i < N; i++)
        if (on<T>(m, i)) {
            any = true;
            hi = (uint64_t)idx.v[i] + 1 > hi ? (uint64_t)idx.v[i] + 1 : hi;
            for (uint32_t j = 0; j < i; j++)
                ARC_CHECK(!on<T>(m, j) || idx.v[j] != idx.v[i], api,
                          "lanes %u and %u both scatter to index %llu: the NPU keeps an unspecified one", j, i,
                          (unsigned long long)idx.v[i]);
        }
    ub_operand(base, any ? hi * sizeof(T) : 0, 32, 1 | ARC_RACE_SPARSE, api, "dst");
    if (race_on()) __arc_race_reg_use(sizeof(s.v), api);
    for (uint32_t i = 0; i < N; i++)
        if (on<T>(m, i)) ub_write(base + idx.v[i], &s.v[i], sizeof(T));
}
} // namespace reg
} // namespace __arc

namespace AscendC {
namespace Reg {
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V>
inline void Scatter(__ubuf__ T *baseAddr, S &srcReg, V &index, MaskReg &mask)
{
    __arc::reg::scatter_ub((typename detail::elem_of<S>::type *)baseAddr, srcReg, index, mask, "AscendC::Reg::Scatter");
}
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V>
inline void Gather(S &dstReg, S &srcReg, V &indexReg)
{
    __arc::reg::gather_reg(dstReg, S(srcReg), indexReg);
}
template <typename T0 = DefaultType, typename T1, typename T2 = DefaultType, typename T3, typename T4>
inline void Gather(T3 &dstReg, __ubuf__ T1 *baseAddr, T4 &index, MaskReg &mask)
{
    __arc::reg::gather_ub(dstReg, baseAddr, index, mask, "AscendC::Reg::Gather");
}
template <typename T = DefaultType, typename U, typename S>
inline void GatherB(U &dstReg, __ubuf__ T *baseAddr, S &index, MaskReg &mask)
{
    __arc::reg::gather_blocks(dstReg, (const typename detail::elem_of<U>::type *)baseAddr, index, mask,
                              "AscendC::Reg::GatherB");
}
} // namespace Reg
} // namespace AscendC

template <class T, class I>
inline void asc_gather(__arc::reg::vreg<T> &dst, __arc::reg::vreg<T> src, __arc::reg::vreg<I> index)
{
    __arc::reg::gather_reg(dst, src, index);
}
template <class TD, class TS, class I>
inline void asc_gather(__arc::reg::vreg<TD> &dst, __ubuf__ TS *src, __arc::reg::vreg<I> index, __arc::reg::vmask mask)
{
    __arc::reg::gather_ub(dst, src, index, mask, "asc_gather");
}
template <class T, class I>
inline void asc_scatter(__ubuf__ T *dst, __arc::reg::vreg<T> src, __arc::reg::vreg<I> index, __arc::reg::vmask mask)
{
    __arc::reg::scatter_ub(dst, src, index, mask, "asc_scatter");
}
template <class T>
inline void asc_gather_datablock(__arc::reg::vreg<T> &dst, __ubuf__ T *src, __arc::reg::vreg<uint32_t> index,
                                 __arc::reg::vmask mask)
{
    __arc::reg::gather_blocks(dst, src, index, mask, "asc_gather_datablock");
}
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_REG_GATHER_H_ */
