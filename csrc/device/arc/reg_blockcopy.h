/* reg_blockcopy.h - Reg's DataBlock-strided loads and stores (dav-3510,
 * the 非连续对齐 LoadAlign/StoreAlign pages, DataCopyMode::DATA_BLOCK_COPY):
 * a register's 8 DataBlocks (32 bytes each) from / to UB blocks
 * dataBlockStride blocks apart, from 32-byte aligned srcAddr/dstAddr; the
 * post-update forms then move the address on by repeatStride blocks.  A
 * load takes a whole block when the mask selects any of its elements, and
 * 0 (reading nothing) when none; a store writes the selected elements (a
 * block none selects is not touched). */
#ifndef ARC_REG_BLOCKCOPY_H_
#define ARC_REG_BLOCKCOPY_H_

#include "arc/reg_api.h"

#if __NPU_ARCH__ == 3510
namespace AscendC {
namespace Reg {
enum class DataCopyMode { DATA_BLOCK_COPY };

namespace detail {
template <class E> inline bool block_on(const MaskReg &m, uint32_t b)
{
    constexpr uint32_t per = 32 / sizeof(E);
    for (uint32_t i = b * per; i < (b + 1) * per; i++)
        if (__arc::reg::on<E>(m, i)) return true;
    return false;
}
template <class E>
inline void block_load(__arc::reg::vreg<E> &d, const E *src, uint32_t stride, const MaskReg &m, const char *api)
{
    __arc::reg::vreg<E> r{};
    for (uint32_t b = 0; b < 8; b++)
        if (block_on<E>(m, b)) {
            const char *at = (const char *)src + (uint64_t)b * stride * 32;
            __arc::reg::ub_operand(at, 32, 32, 0, api, "srcAddr's DataBlock");
            __arc::reg::ub_read((char *)r.v + 32 * b, at, 32);
        }
    d = r;
}
template <class E>
inline void block_store(E *dst, const __arc::reg::vreg<E> &s, uint32_t stride, const MaskReg &m, const char *api)
{
    constexpr uint32_t per = 32 / sizeof(E);
    for (uint32_t b = 0; b < 8; b++)
        if (block_on<E>(m, b)) {
            E *at = (E *)((char *)dst + (uint64_t)b * stride * 32);
            __arc::reg::ub_operand(at, 32, 32, 2, api, "dstAddr's DataBlock");
            for (uint32_t i = 0; i < per; i++)
                if (__arc::reg::on<E>(m, b * per + i)) __arc::reg::ub_write(at + i, &s.v[b * per + i], sizeof(E));
        }
    if (__arc::race_on()) __arc_race_reg_use(sizeof(s.v), api);
}
} // namespace detail

template <typename T = DefaultType, DataCopyMode dataMode, typename U>
inline void LoadAlign(U &dstReg, __ubuf__ T *srcAddr, uint32_t dataBlockStride, MaskReg &mask)
{
    using E = typename detail::elem_of<U>::type;
    detail::block_load(dstReg, (const E *)srcAddr, dataBlockStride, mask, "AscendC::Reg::LoadAlign(DATA_BLOCK_COPY)");
}
template <typename T = DefaultType, DataCopyMode dataMode, PostLiteral postMode, typename U>
inline void LoadAlign(U &dstReg, __ubuf__ T *&srcAddr, uint32_t dataBlockStride, uint32_t repeatStride, MaskReg &mask)
{
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "AscendC::Reg::LoadAlign(DATA_BLOCK_COPY): POST_MODE_UPDATE");
    using E = typename detail::elem_of<U>::type;
    detail::block_load(dstReg, (const E *)srcAddr, dataBlockStride, mask, "AscendC::Reg::LoadAlign(DATA_BLOCK_COPY)");
    srcAddr = (__ubuf__ T *)((__ubuf__ char *)srcAddr + (uint64_t)repeatStride * 32);
}
template <typename T = DefaultType, DataCopyMode dataMode, typename U>
inline void StoreAlign(__ubuf__ T *dstAddr, U &srcReg, uint32_t dataBlockStride, MaskReg &mask)
{
    using E = typename detail::elem_of<U>::type;
    detail::block_store((E *)dstAddr, srcReg, dataBlockStride, mask, "AscendC::Reg::StoreAlign(DATA_BLOCK_COPY)");
}
template <typename T = DefaultType, DataCopyMode dataMode, PostLiteral postMode, typename U>
inline void StoreAlign(__ubuf__ T *&dstAddr, U &srcReg, uint32_t dataBlockStride, uint32_t repeatStride, MaskReg &mask)
{
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "AscendC::Reg::StoreAlign(DATA_BLOCK_COPY): POST_MODE_UPDATE");
    using E = typename detail::elem_of<U>::type;
    detail::block_store((E *)dstAddr, srcReg, dataBlockStride, mask, "AscendC::Reg::StoreAlign(DATA_BLOCK_COPY)");
    dstAddr = (__ubuf__ T *)((__ubuf__ char *)dstAddr + (uint64_t)repeatStride * 32);
}
} // namespace Reg
} // namespace AscendC

/* The C API's spelling (asc_loadalign/asc_storealign[_postupdate] with
 * block_stride, repeat_stride, mask; its repeat-stride pages): the same
 * blocks; the post-update forms move the address on by repeat_stride blocks. */
template <class T>
inline void asc_loadalign(__arc::reg::vreg<T> &dst, __ubuf__ T *src, uint16_t block_stride, uint16_t repeat_stride,
                          __arc::reg::vmask mask)
{
    (void)repeat_stride; /* one repeat */
    AscendC::Reg::detail::block_load(dst, (const T *)src, block_stride, mask, "asc_loadalign(block_stride)");
}
template <class T>
inline void asc_loadalign_postupdate(__arc::reg::vreg<T> &dst, __ubuf__ T *&src, uint16_t block_stride,
                                     uint16_t repeat_stride, __arc::reg::vmask mask)
{
    AscendC::Reg::detail::block_load(dst, (const T *)src, block_stride, mask, "asc_loadalign_postupdate(block_stride)");
    src = (__ubuf__ T *)((__ubuf__ char *)src + (uint64_t)repeat_stride * 32);
}
template <class T>
inline void asc_storealign(__ubuf__ T *dst, __arc::reg::vreg<T> src, uint16_t block_stride, uint16_t repeat_stride,
                           __arc::reg::vmask mask)
{
    (void)repeat_stride;
    AscendC::Reg::detail::block_store((T *)dst, src, block_stride, mask, "asc_storealign(block_stride)");
}
template <class T>
inline void asc_storealign_postupdate(__ubuf__ T *&dst, __arc::reg::vreg<T> src, uint16_t block_stride,
                                      uint16_t repeat_stride, __arc::reg::vmask mask)
{
    AscendC::Reg::detail::block_store((T *)dst, src, block_stride, mask, "asc_storealign_postupdate(block_stride)");
    dst = (__ubuf__ T *)((__ubuf__ char *)dst + (uint64_t)repeat_stride * 32);
}
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_REG_BLOCKCOPY_H_ */
