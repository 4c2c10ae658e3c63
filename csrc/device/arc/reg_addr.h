/* reg_addr.h - Reg address registers and the older load/store name of
 * dav-3510 (AscendC::Reg):
 *   AddrReg / CreateAddrReg<T>(index0, stride0[, ... index3, stride3]):
 *   an offset of sum(index_i * stride_i) elements of T (its page), taken
 *   by the LoadAlign/StoreAlign forms with an AddrReg argument (the address
 *   plus that offset, with the aligned form's checks);
 *   DataCopy: the name CANN's op libraries still call for LoadAlign (the
 *   first argument a register) and StoreAlign (the first a UB pointer),
 *   with the same template arguments and every form those two have. */
#ifndef ARC_REG_ADDR_H_
#define ARC_REG_ADDR_H_

#include "arc/reg_api.h"
#include "arc/reg_mask_load.h"
#include "arc/reg_squeeze.h"

#if __NPU_ARCH__ == 3510
namespace AscendC {
namespace Reg {
struct AddrReg {
    uint64_t bytes = 0; /* the offset, in bytes */
};
template <typename T> inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0)
{
    return AddrReg{(uint64_t)index0 * stride0 * sizeof(T)};
}
template <typename T> inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1)
{
    return AddrReg{((uint64_t)index0 * stride0 + (uint64_t)index1 * stride1) * sizeof(T)};
}
template <typename T>
inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1, uint16_t index2,
                             uint32_t stride2)
{
    return AddrReg{((uint64_t)index0 * stride0 + (uint64_t)index1 * stride1 + (uint64_t)index2 * stride2) * sizeof(T)};
}
template <typename T>
inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1, uint16_t index2,
                             uint32_t stride2, uint16_t index3, uint32_t stride3)
{
    return AddrReg{((uint64_t)index0 * stride0 + (uint64_t)index1 * stride1 + (uint64_t)index2 * stride2 +
                    (uint64_t)index3 * stride3) * sizeof(T)};
}

namespace detail {
template <class T> inline __ubuf__ T *at(__ubuf__ T *p, const AddrReg &o)
{
    return (__ubuf__ T *)((__ubuf__ uint8_t *)p + o.bytes);
}
} // namespace detail

template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>
inline void LoadAlign(U &dstReg, __ubuf__ T *srcAddr, AddrReg offset)
{
    LoadAlign<T, dist>(dstReg, detail::at(srcAddr, offset));
}
template <typename T = DefaultType, LoadDist dist, typename U>
inline void LoadAlign(U &dstReg0, U &dstReg1, __ubuf__ T *srcAddr, AddrReg offset)
{
    LoadAlign<T, dist>(dstReg0, dstReg1, detail::at(srcAddr, offset));
}
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>
inline void StoreAlign(__ubuf__ T *dstAddr, U &srcReg, AddrReg offset, MaskReg &mask)
{
    StoreAlign<T, dist>(detail::at(dstAddr, offset), srcReg, mask);
}

namespace detail {
/* The element type of the first pointer among A (void if none). */
template <class... A> struct first_ptr { using type = void; };
template <class A0, class... A> struct first_ptr<A0, A...> {
    using B = typename std::remove_reference<A0>::type;
    using type = typename __arc::conditional<std::is_pointer<B>::value, typename std::remove_pointer<B>::type,
                                             typename first_ptr<A...>::type>::type;
};
} // namespace detail

/* DataCopy<T, args...>(...): LoadAlign when the first argument is a
 * register, StoreAlign when it is a UB address; T defaults to the UB
 * address's element type (deduced, as those two deduce it). */
template <typename T = DefaultType, auto... Args, typename A0, typename... A>
inline void DataCopy(A0 &&a0, A &&...a)
{
    using P = typename std::remove_cv<typename detail::first_ptr<A0, A...>::type>::type;
    static_assert(!__arc::is_same<P, void>::value, "AscendC::Reg::DataCopy: takes a UB address");
    using E = typename __arc::conditional<__arc::is_same<T, DefaultType>::value, P, T>::type;
    if constexpr (std::is_pointer<typename std::remove_reference<A0>::type>::value)
        StoreAlign<E, Args...>(static_cast<A0 &&>(a0), static_cast<A &&>(a)...);
    else
        LoadAlign<E, Args...>(static_cast<A0 &&>(a0), static_cast<A &&>(a)...);
}
} // namespace Reg
} // namespace AscendC
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_REG_ADDR_H_ */
