/* reg_squeeze.h - Reg::Squeeze = asc_squeeze (dav-3510): the active
 * elements of src, in order, at the front of dst, the rest 0.  With
 * GatherMaskMode::STORE_REG the kept bytes go to the AR register
 * (ClearSpr<AR> zeroes it), and the AR form of StoreUnAlign stores that
 * many bytes of a register at any byte address: at dstAddr plus what the
 * UnalignRegForStore has stored there so far (POST_MODE_UPDATE), or at
 * dstAddr (POST_MODE_NORMAL).  The simulator writes those bytes when the
 * store is made, so StoreUnAlignPost has nothing left to write. */
#ifndef ARC_REG_SQUEEZE_H_
#define ARC_REG_SQUEEZE_H_

#include "arc/reg_api.h"

#if __NPU_ARCH__ == 3510
namespace __arc {
namespace reg {
template <class T> inline uint32_t squeeze(vreg<T> &d, const vreg<T> &s, const vmask &m)
{
    vreg<T> r{};
    uint32_t k = 0;
    for (uint32_t i = 0; i < vreg<T>::N; i++)
        if (on<T>(m, i)) r.v[k++] = s.v[i];
    d = r;
    return k * (uint32_t)sizeof(T);
}
} // namespace reg
} // namespace __arc

namespace AscendC {
enum class SpecialPurposeReg { AR };
namespace Reg {
enum class GatherMaskMode { NO_STORE_REG, STORE_REG };
struct UnalignRegForStore {
    const void *base = nullptr; /* the dstAddr of the run being stored */
    uint64_t done = 0;          /* bytes stored at it so far */
};

template <SpecialPurposeReg r> inline void ClearSpr() { __arc_core()->dev[__arc::SLOT_AR] = 0; }

template <typename T = DefaultType, GatherMaskMode store = GatherMaskMode::NO_STORE_REG, typename U>
inline void Squeeze(U &dstReg, U &srcReg, MaskReg &mask)
{
    uint32_t bytes = __arc::reg::squeeze(dstReg, U(srcReg), mask);
    if constexpr (store == GatherMaskMode::STORE_REG) __arc_core()->dev[__arc::SLOT_AR] = bytes;
}
/* The AR form: AR bytes of srcReg. */
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
inline void StoreUnAlign(__ubuf__ T *dstAddr, U &srcReg, UnalignRegForStore &ureg)
{
    const char *api = "AscendC::Reg::StoreUnAlign";
    uint64_t n = __arc_core()->dev[__arc::SLOT_AR];
    ARC_CHECK(n <= sizeof(srcReg.v), api, "the AR register holds %llu bytes, more than a register's %u",
              (unsigned long long)n, (unsigned)sizeof(srcReg.v));
    if (ureg.base != (const void *)dstAddr) {
        ureg.base = dstAddr;
        ureg.done = 0;
    }
    __ubuf__ char *at = (__ubuf__ char *)dstAddr + (postMode == PostLiteral::POST_MODE_UPDATE ? ureg.done : 0);
    __arc::reg::ub_operand(at, n, 1, 2, api, "dst");
    if (__arc::race_on()) __arc_race_reg_use(n, api);
    __arc::reg::ub_write(at, srcReg.v, n);
    if (postMode == PostLiteral::POST_MODE_UPDATE) ureg.done += n;
}
template <typename T> inline void StoreUnAlignPost(__ubuf__ T *dstAddr, UnalignRegForStore &ureg)
{
    (void)dstAddr;
    ureg = UnalignRegForStore{};
}
} // namespace Reg
} // namespace AscendC

template <class T> inline void asc_squeeze(__arc::reg::vreg<T> &dst, __arc::reg::vreg<T> src, __arc::reg::vmask mask)
{
    __arc::reg::squeeze(dst, src, mask);
}
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_REG_SQUEEZE_H_ */
