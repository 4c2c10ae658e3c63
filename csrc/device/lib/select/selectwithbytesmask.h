/* selectwithbytesmask.h - SelectWithBytesMask (advanced API, select):
 * element-wise choice between a tensor and a scalar by a byte (not bit)
 * mask.  As the public docs state: the mask value 0 selects src0, any other
 * value src1; src is [firstAxis, srcLastAxis], the mask
 * [firstAxis, maskLastAxis] with maskLastAxis >= srcLastAxis (the extra
 * mask columns are ignored); src's last axis is 32-byte aligned, the mask's
 * 32-byte aligned and a multiple of 16 elements.  isReuseMask lets the NPU
 * overwrite the mask; the CPU twin leaves it unchanged. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_SELECT_SELECTWITHBYTESMASK_H_
#define ARC_LIB_SELECT_SELECTWITHBYTESMASK_H_

#include "lib/adv/common.h"

namespace AscendC {
/* The shape SelectWithBytesMask works on. */
struct SelectWithBytesMaskShapeInfo {
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
} // namespace AscendC

namespace __arc {
/* scalar_first: dst = mask ? tensor : scalar (scalar is src0). */
template <class T, class U>
inline void select_bytes_mask(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src, T scalar,
                              const AscendC::LocalTensor<U> &mask, const AscendC::LocalTensor<uint8_t> &tmp,
                              const AscendC::SelectWithBytesMaskShapeInfo &info, bool scalar_first)
{
    const char *api = "AscendC::SelectWithBytesMask";
    const uint32_t rows = info.firstAxis, sk = info.srcLastAxis, mk = info.maskLastAxis;
    ARC_CHECK(mk >= sk, api, "maskLastAxis %u is less than srcLastAxis %u", mk, sk);
    ARC_CHECK(((uint64_t)sk * sizeof(T)) % 32 == 0, api, "srcLastAxis %u is not 32-byte aligned for %s", sk,
              tname<T>());
    ARC_CHECK(((uint64_t)mk * sizeof(U)) % 32 == 0 && mk % 16 == 0, api,
              "maskLastAxis %u is not 32-byte aligned and a multiple of 16 elements", mk);
    adv_tmp(tmp, api);
    adv_need(src, (uint64_t)rows * sk, api, "src");
    adv_need(mask, (uint64_t)rows * mk, api, "mask");
    adv_need(dst, (uint64_t)rows * sk, api, "dst");
    for (uint32_t r = 0; r < rows; r++) {
        const U *m = mask.addr_ + (uint64_t)r * mk;
        const T *s = src.addr_ + (uint64_t)r * sk;
        T *d = dst.addr_ + (uint64_t)r * sk;
        for (uint32_t c = 0; c < sk; c++) {
            bool one = (float)m[c] != 0.0f;
            d[c] = one == scalar_first ? s[c] : scalar;
        }
    }
}
} // namespace __arc

namespace AscendC {
/* src0 a tensor, src1 a scalar: dst = mask == 0 ? src0 : src1. */
template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, T src1,
                                const LocalTensor<U> &mask, const LocalTensor<uint8_t> &sharedTmpBuffer,
                                const SelectWithBytesMaskShapeInfo &info)
{
    ARC_ADV_HF(SelectWithBytesMask);
    __arc::select_bytes_mask(dst, src0, src1, mask, sharedTmpBuffer, info, false);
}
/* src0 a scalar, src1 a tensor: dst = mask == 0 ? src0 : src1. */
template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T> &dst, T src0, const LocalTensor<T> &src1,
                                const LocalTensor<U> &mask, const LocalTensor<uint8_t> &sharedTmpBuffer,
                                const SelectWithBytesMaskShapeInfo &info)
{
    ARC_ADV_HF(SelectWithBytesMask);
    __arc::select_bytes_mask(dst, src1, src0, mask, sharedTmpBuffer, info, true);
}
/* Select: CANN 9.1's name of SelectWithBytesMask (the same forms). */
template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<T> &src0, T src1, const LocalTensor<U> &mask,
                   const LocalTensor<uint8_t> &sharedTmpBuffer, const SelectWithBytesMaskShapeInfo &info)
{
    SelectWithBytesMask<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info);
}
template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T> &dst, T src0, const LocalTensor<T> &src1, const LocalTensor<U> &mask,
                   const LocalTensor<uint8_t> &sharedTmpBuffer, const SelectWithBytesMaskShapeInfo &info)
{
    SelectWithBytesMask<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info);
}
} // namespace AscendC

#endif /* ARC_LIB_SELECT_SELECTWITHBYTESMASK_H_ */
