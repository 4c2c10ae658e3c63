/* reg_unalign.h - Reg's runs of unaligned loads and stores (dav-3510,
 * the LoadUnAlign / StoreUnAlign pages):
 *   LoadUnAlignPre(ureg, src[, areg]) caches the 32-byte block src is in;
 *   LoadUnAlign(dst, ureg, src) (also post-update: src += stride elements
 *   after; and src + an AddrReg's offset) joins that block's bytes from src
 *   on with the aligned bytes after it: one VL from src, any element-aligned
 *   address; the block src + VL is in is cached for the next load (the
 *   post-update form caches the block of the updated src, whatever the
 *   stride: asc-devkit's reg_move steps 8 bytes a load).  A load whose src
 *   is not in the cached block would join stale bytes: refused.
 *   StoreUnAlign(dst, reg, ureg, stride) (post-update): the register's first
 *   `stride` elements at dst, then dst += stride.  The NPU keeps a partial
 *   last block in the UnalignRegForStore until the next store or
 *   StoreUnAlignPost; the simulator writes it at once, so StoreUnAlignPost
 *   only moves dst on. */
#ifndef ARC_REG_UNALIGN_H_
#define ARC_REG_UNALIGN_H_

#include "arc/reg_addr.h"

#if __NPU_ARCH__ == 3510
namespace AscendC {
namespace Reg {
struct UnalignRegForLoad {
    uintptr_t block = 0; /* the UB address of the 32-byte block cached; 0: none */
};

namespace detail {
inline void unalign_pre(UnalignRegForLoad &ureg, const void *src, const char *api)
{
    const uintptr_t b = (uintptr_t)src & ~(uintptr_t)31;
    __arc::reg::ub_operand((const void *)b, 32, 32, 0, api, "srcAddr's block");
    ureg.block = b;
}
template <class E> inline void unalign_load(__arc::reg::vreg<E> &dst, UnalignRegForLoad &ureg, const E *src, const char *api)
{
    const uintptr_t b = (uintptr_t)src & ~(uintptr_t)31;
    ARC_CHECK(ureg.block == b, api,
              "srcAddr (UB byte %% 32 = %u) is not in the 32-byte block the UnalignRegForLoad holds: the load would "
              "join stale bytes (call LoadUnAlignPre at srcAddr first; a run goes on VL bytes a load)",
              (unsigned)((uintptr_t)src & 31));
    __arc::reg::ub_operand(src, 256, (uint32_t)sizeof(E), ARC_RACE_REG, api, "srcAddr");
    __arc::reg::ub_read(dst.v, src, 256);
    ureg.block = ((uintptr_t)src + 256) & ~(uintptr_t)31;
}
template <class E> inline void unalign_store(E *dst, const __arc::reg::vreg<E> &s, uint32_t n, const char *api)
{
    ARC_CHECK(n <= __arc::reg::vreg<E>::N, api, "postUpdateStride %u is over a register's %u elements", n,
              __arc::reg::vreg<E>::N);
    __arc::reg::ub_operand(dst, (uint64_t)n * sizeof(E), (uint32_t)sizeof(E), 1, api, "dstAddr");
    if (__arc::race_on()) __arc_race_reg_use((unsigned long long)n * sizeof(E), api);
    __arc::reg::ub_write(dst, s.v, (uint64_t)n * sizeof(E));
}
} // namespace detail

template <typename T> inline void LoadUnAlignPre(UnalignRegForLoad &ureg, __ubuf__ T *srcAddr)
{
    detail::unalign_pre(ureg, srcAddr, "AscendC::Reg::LoadUnAlignPre");
}
template <typename T> inline void LoadUnAlignPre(UnalignRegForLoad &ureg, __ubuf__ T *srcAddr, AddrReg &areg)
{
    detail::unalign_pre(ureg, (__ubuf__ char *)srcAddr + areg.bytes, "AscendC::Reg::LoadUnAlignPre");
}
template <typename T = DefaultType, typename U>
inline void LoadUnAlign(U &dstReg, UnalignRegForLoad &ureg, __ubuf__ T *srcAddr)
{
    using E = typename detail::elem_of<U>::type;
    detail::unalign_load(dstReg, ureg, (const E *)srcAddr, "AscendC::Reg::LoadUnAlign");
}
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
inline void LoadUnAlign(U &dstReg, UnalignRegForLoad &ureg, __ubuf__ T *&srcAddr, uint32_t postUpdateStride)
{
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "AscendC::Reg::LoadUnAlign: POST_MODE_UPDATE only");
    using E = typename detail::elem_of<U>::type;
    detail::unalign_load(dstReg, ureg, (const E *)srcAddr, "AscendC::Reg::LoadUnAlign");
    srcAddr += postUpdateStride;
    ureg.block = (uintptr_t)srcAddr & ~(uintptr_t)31;
}
template <typename T = DefaultType, typename U>
inline void LoadUnAlign(U &dstReg, UnalignRegForLoad &ureg, __ubuf__ T *&srcAddr, AddrReg &areg, uint32_t inc)
{
    (void)inc; /* unused, its page says */
    using E = typename detail::elem_of<U>::type;
    detail::unalign_load(dstReg, ureg, (const E *)((__ubuf__ char *)srcAddr + areg.bytes), "AscendC::Reg::LoadUnAlign");
}
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
inline void StoreUnAlign(__ubuf__ T *&dstAddr, U &srcReg, UnalignRegForStore &ureg, uint32_t postUpdateStride)
{
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "AscendC::Reg::StoreUnAlign: POST_MODE_UPDATE only");
    (void)ureg;
    using E = typename detail::elem_of<U>::type;
    detail::unalign_store((E *)dstAddr, srcReg, postUpdateStride, "AscendC::Reg::StoreUnAlign");
    dstAddr += postUpdateStride;
}
template <typename T, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE>
inline void StoreUnAlignPost(__ubuf__ T *&dstAddr, UnalignRegForStore &ureg, int32_t postUpdateStride)
{
    ureg = UnalignRegForStore{};
    dstAddr += postUpdateStride;
}
} // namespace Reg
} // namespace AscendC
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_REG_UNALIGN_H_ */
