/* pad.h - Pad and UnPad (advanced API) on a 2-D [height, width] UB tensor,
 * shaped by PadTiling/UnPadTiling from the host tiling functions.
 *
 * Pad(dst, src, PadParams{leftPad, rightPad, padValue}, tiling): each row
 * becomes leftPad values, the srcOriWidth valid elements, then padValue up
 * to the end of the 32-byte aligned row.  When srcWidth is already aligned
 * (the docs' second case: redundant columns) rows keep srcWidth; otherwise
 * (first case) dst rows are srcWidth + leftPad + rightPad wide, which must
 * be 32-byte aligned, and src rows are packed srcWidth apart.
 * UnPad(dst, src, UnPadParams{leftPad, rightPad}, tiling): drops leftPad
 * columns on the left and rightPad on the right of each srcWidth-wide row;
 * dst rows are packed (srcWidth - leftPad - rightPad apart).
 * Both work in place.  Types: int16_t, uint16_t, half, int32_t, uint32_t,
 * float. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_PAD_PAD_H_
#define ARC_LIB_PAD_PAD_H_

#include "lib/adv/common.h"
#include "lib/tiling/adv_tiling_data.h"

namespace AscendC {
struct PadParams {
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
    int32_t padValue = 0;
};
struct UnPadParams {
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
};
} // namespace AscendC

namespace __arc {
template <class T> constexpr bool pad_type_ok = one_of<T, int16_t, uint16_t, half, int32_t, uint32_t, float>;
}

namespace AscendC {
template <typename T>
inline void Pad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, PadParams &padParams,
                PadTiling &tiling)
{
    static_assert(__arc::pad_type_ok<T>, "AscendC::Pad: supports int16_t, uint16_t, half, int32_t, uint32_t and float");
    const char *api = "AscendC::Pad";
    const uint32_t h = tiling.srcHeight, w = tiling.srcWidth, ow = tiling.srcOriWidth ? tiling.srcOriWidth : w;
    const uint32_t l = padParams.leftPad, r = padParams.rightPad;
    const bool aligned = (w * sizeof(T)) % 32 == 0;
    const uint32_t wo = aligned ? w : w + l + r;
    ARC_CHECK(w > 0 && ow <= w, api, "tiling: srcWidth %u, srcOriWidth %u (a tiling from PadTilingFunc?)", w, ow);
    ARC_CHECK((wo * sizeof(T)) % 32 == 0, api,
              "srcWidth %u + leftPad %u + rightPad %u = %u elements of %s is not a 32-byte aligned row", w, l, r, wo,
              __arc::tname<T>());
    ARC_CHECK(l + ow + (aligned ? r : 0) <= wo, api, "leftPad %u + valid width %u + rightPad %u exceed the row of %u",
              l, ow, r, wo);
    __arc::adv_need(srcTensor, (uint64_t)h * w, api, "src");
    __arc::adv_need(dstTensor, (uint64_t)h * wo, api, "dst");
    const T pv = (T)padParams.padValue;
    for (uint32_t row = h; row-- > 0;) { /* back to front: dst rows are never behind src rows */
        T *d = dstTensor.addr_ + (uint64_t)row * wo;
        const T *s = srcTensor.addr_ + (uint64_t)row * w;
        __builtin_memmove(d + l, s, (size_t)ow * sizeof(T));
        for (uint32_t c = 0; c < l; c++) d[c] = pv;
        for (uint32_t c = l + ow; c < wo; c++) d[c] = pv;
    }
}
template <typename T>
inline void Pad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, PadParams &padParams,
                const LocalTensor<uint8_t> &sharedTmpBuffer, PadTiling &tiling)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::Pad");
    Pad<T>(dstTensor, srcTensor, padParams, tiling);
}

template <typename T>
inline void UnPad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, UnPadParams &unPadParams,
                  UnPadTiling &tiling)
{
    static_assert(__arc::pad_type_ok<T>,
                  "AscendC::UnPad: supports int16_t, uint16_t, half, int32_t, uint32_t and float");
    const char *api = "AscendC::UnPad";
    const uint32_t h = tiling.srcHeight, w = tiling.srcWidth;
    const uint32_t l = unPadParams.leftPad, r = unPadParams.rightPad;
    ARC_CHECK(w > 0, api, "tiling: srcWidth 0 (a tiling from UnPadTilingFunc?)");
    ARC_CHECK(l + r < w, api, "leftPad %u + rightPad %u leave nothing of the row of %u", l, r, w);
    const uint32_t wd = w - l - r;
    __arc::adv_need(srcTensor, (uint64_t)h * w, api, "src");
    __arc::adv_need(dstTensor, (uint64_t)h * wd, api, "dst");
    for (uint32_t row = 0; row < h; row++) /* front to back: dst rows are never ahead of src rows */
        __builtin_memmove(dstTensor.addr_ + (uint64_t)row * wd, srcTensor.addr_ + (uint64_t)row * w + l,
                          (size_t)wd * sizeof(T));
}
template <typename T>
inline void UnPad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, UnPadParams &unPadParams,
                  LocalTensor<uint8_t> &sharedTmpBuffer, UnPadTiling &tiling)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::UnPad");
    UnPad<T>(dstTensor, srcTensor, unPadParams, tiling);
}
} // namespace AscendC

#endif /* ARC_LIB_PAD_PAD_H_ */
