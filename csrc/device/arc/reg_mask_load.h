/* reg_mask_load.h - a mask register loaded from UB (dav-3510), in both
 * spellings: Reg::LoadAlign(MaskReg&, src) with MaskDist and the
 * post-update form (the stride in bytes, as the page says), and
 * asc_loadalign[_upsample|_downsample][_postupdate](vector_bool&, src);
 * the store, asc_storealign[_postupdate](dst, vector_bool).
 * DIST_NORM reads VL/8 bytes as the register's bits (bit k: byte lane k);
 * DIST_US reads VL/16 bytes and repeats each bit twice; DIST_DS reads VL/4
 * bytes and keeps every other bit.  Each read is checked for its alignment
 * (VL/8, VL/16, min(32, VL/4) bytes) and the UB's end, on PIPE_V.
 * Reg::StoreAlign(dst, MaskReg&) (plain, post-update by bytes, AddrReg)
 * is the store (its page): DIST_NORM writes the VL/8 bytes, DIST_PACK
 * keeps every other bit, VL/16 bytes (aligned to what it writes). */
#ifndef ARC_REG_MASK_LOAD_H_
#define ARC_REG_MASK_LOAD_H_

#include "arc/reg_api.h"

#if __NPU_ARCH__ == 3510
namespace __arc {
namespace reg {
enum { MASK_NORM = 0, MASK_US, MASK_DS };
inline void load_mask(vmask &m, const void *src, int dist, const char *api)
{
    constexpr uint32_t B = sizeof(vmask::b); /* VL / 8 */
    const uint32_t bytes = dist == MASK_NORM ? B : dist == MASK_US ? B / 2 : 2 * B;
    const uint32_t align = dist == MASK_US ? B / 2 : 32;
    ub_operand(src, bytes, align, 0, api, "src");
    uint8_t in[2 * B];
    ub_read(in, src, bytes);
    vmask r{};
    for (uint32_t k = 0; k < 8 * B; k++) {
        uint32_t from = dist == MASK_NORM ? k : dist == MASK_US ? k / 2 : 2 * k;
        if ((in[from >> 3] >> (from & 7)) & 1u) r.b[k >> 3] |= (uint8_t)(1u << (k & 7));
    }
    m = r;
}
inline void store_mask(void *dst, const vmask &m, bool pack, const char *api)
{
    constexpr uint32_t B = sizeof(vmask::b); /* VL / 8 */
    const uint32_t bytes = pack ? B / 2 : B;
    ub_operand(dst, bytes, bytes, 1, api, "dst");
    uint8_t out[B] = {};
    for (uint32_t k = 0; k < 8 * bytes; k++) {
        uint32_t from = pack ? 2 * k : k;
        if ((m.b[from >> 3] >> (from & 7)) & 1u) out[k >> 3] |= (uint8_t)(1u << (k & 7));
    }
    ub_write(dst, out, bytes);
}
} // namespace reg
} // namespace __arc

namespace AscendC {
namespace Reg {
enum class MaskDist { DIST_NORM, DIST_US, DIST_DS, DIST_PACK };

template <typename T = DefaultType, int16_t offset, typename U> inline void MaskGenWithRegTensor(MaskReg &dst, U &srcReg)
{
    using E = typename detail::elem_of<U>::type;
    static_assert(sizeof(E) == 2 || sizeof(E) == 4, "AscendC::Reg::MaskGenWithRegTensor: b16 or b32 elements");
    constexpr uint32_t w = sizeof(E), blk = 32 / w; /* bits per element's mask; block bytes */
    static_assert(offset >= 0 && offset < (int)(256 / blk), "AscendC::Reg::MaskGenWithRegTensor: offset out of range");
    const uint8_t *in = (const uint8_t *)srcReg.v + offset * blk;
    MaskReg r{};
    for (uint32_t k = 0; k < 256; k++) {
        uint32_t j = k / w;
        if ((in[j >> 3] >> (j & 7)) & 1u) r.b[k >> 3] |= (uint8_t)(1u << (k & 7));
    }
    dst = r;
}
template <typename T, MaskDist dist = MaskDist::DIST_NORM> inline void StoreAlign(__ubuf__ T *dstAddr, MaskReg &mask)
{
    static_assert(dist == MaskDist::DIST_NORM || dist == MaskDist::DIST_PACK,
                  "AscendC::Reg::StoreAlign(MaskReg): DIST_NORM or DIST_PACK");
    __arc::reg::store_mask(dstAddr, mask, dist == MaskDist::DIST_PACK, "AscendC::Reg::StoreAlign(MaskReg)");
}
/* The post-update form: dstAddr advances by `offset` bytes. */
template <typename T, PostLiteral postMode, MaskDist dist = MaskDist::DIST_NORM>
inline void StoreAlign(__ubuf__ T *&dstAddr, MaskReg &mask, int32_t offset)
{
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE,
                  "AscendC::Reg::StoreAlign(MaskReg): the post-update form takes POST_MODE_UPDATE");
    StoreAlign<T, dist>(dstAddr, mask);
    dstAddr = (__ubuf__ T *)((__ubuf__ char *)dstAddr + offset);
}

template <typename T, MaskDist dist = MaskDist::DIST_NORM> inline void LoadAlign(MaskReg &mask, __ubuf__ T *srcAddr)
{
    static_assert(dist != MaskDist::DIST_PACK, "AscendC::Reg::LoadAlign(MaskReg): DIST_PACK is a store's");
    __arc::reg::load_mask(mask, srcAddr, (int)dist, "AscendC::Reg::LoadAlign(MaskReg)");
}
/* The post-update form: srcAddr advances by `offset` bytes. */
template <typename T, PostLiteral postMode, MaskDist dist = MaskDist::DIST_NORM>
inline void LoadAlign(MaskReg &mask, __ubuf__ T *&srcAddr, int32_t offset)
{
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE,
                  "AscendC::Reg::LoadAlign(MaskReg): the post-update form takes POST_MODE_UPDATE");
    static_assert(dist != MaskDist::DIST_PACK, "AscendC::Reg::LoadAlign(MaskReg): DIST_PACK is a store's");
    __arc::reg::load_mask(mask, srcAddr, (int)dist, "AscendC::Reg::LoadAlign(MaskReg)");
    srcAddr = (__ubuf__ T *)((__ubuf__ char *)srcAddr + offset);
}
} // namespace Reg
} // namespace AscendC

#define ARC_CAPI_MASK_LOAD(NAME, DIST)                                                                   \
    inline void NAME(__arc::reg::vmask &dst, __ubuf__ uint32_t *src)                                     \
    {                                                                                                    \
        __arc::reg::load_mask(dst, src, __arc::reg::DIST, #NAME);                                        \
    }                                                                                                    \
    inline void NAME##_postupdate(__arc::reg::vmask &dst, __ubuf__ uint32_t *&src, int32_t offset)      \
    {                                                                                                    \
        __arc::reg::load_mask(dst, src, __arc::reg::DIST, #NAME "_postupdate");                          \
        src = (__ubuf__ uint32_t *)((__ubuf__ char *)src + offset); /* bytes, as the C++ form's */        \
    }
ARC_CAPI_MASK_LOAD(asc_loadalign, MASK_NORM)
ARC_CAPI_MASK_LOAD(asc_loadalign_upsample, MASK_US)
ARC_CAPI_MASK_LOAD(asc_loadalign_downsample, MASK_DS)
#undef ARC_CAPI_MASK_LOAD
/* asc_storealign[_postupdate](dst, vector_bool): the register's VL/8 bytes
 * (the C++ form's DIST_NORM) to a uint32_t, uint16_t or uint8_t address;
 * the post-update offset is in bytes, as the load's. */
#define ARC_CAPI_MASK_STORE(E)                                                                           \
    inline void asc_storealign(__ubuf__ E *dst, __arc::reg::vmask src)                                   \
    {                                                                                                    \
        __arc::reg::store_mask(dst, src, false, "asc_storealign(vector_bool)");                          \
    }                                                                                                    \
    inline void asc_storealign_postupdate(__ubuf__ E *&dst, __arc::reg::vmask src, int32_t offset)      \
    {                                                                                                    \
        __arc::reg::store_mask(dst, src, false, "asc_storealign_postupdate(vector_bool)");               \
        dst = (__ubuf__ E *)((__ubuf__ char *)dst + offset);                                             \
    }
ARC_CAPI_MASK_STORE(uint32_t)
ARC_CAPI_MASK_STORE(uint16_t)
ARC_CAPI_MASK_STORE(uint8_t)
#undef ARC_CAPI_MASK_STORE
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_REG_MASK_LOAD_H_ */
