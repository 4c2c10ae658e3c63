/* transpose.h - the basic API's Transpose, as its page defines it:
 * - Transpose(dst, src): one 16 x 16 block of 16-bit elements transposed;
 *   dst may be src (the page allows reuse).
 * - Transpose(dst, src, sharedTmpBuffer, TransposeParamsExt): the same
 *   block (TRANSPOSE_ND2ND_B16), or [N, C, H, W] <-> [N, H, W, C]
 *   (TRANSPOSE_NCHW2NHWC / TRANSPOSE_NHWC2NCHW; any size 0 writes nothing;
 *   cSize <= 4095, hSize * wSize <= 4095 and 32-byte aligned in bytes; no
 *   reuse of src as dst).  The page gives the scratch these need:
 *   (cSize + 2) (NCHW2NHWC) or (2 * cSize + 1) (NHWC2NCHW) blocks of
 *   h0 x w0 elements, h0 = 32 for 8-bit types else 16, w0 = 32 / sizeof(T);
 *   a smaller sharedTmpBuffer stops the kernel, as it would fail on the NPU.
 * TransposeType is also the advanced ConfusionTranspose's (the one enum). */
#ifndef ARC_TRANSPOSE_H_
#define ARC_TRANSPOSE_H_

#include "arc/vec_unary.h"

namespace AscendC {
enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW
};
struct TransposeParamsExt {
    TransposeParamsExt() {}
    TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn, const uint16_t wSizeIn,
                       const TransposeType transposeTypeIn)
        : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn) {}
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

/* 16 x 16 transpose of 16-bit data (in place too). */
template <typename T> inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src)
{
    static_assert(sizeof(T) == 2, "AscendC::Transpose: supports 16-bit types (16 x 16 blocks)");
    const char *api = "AscendC::Transpose";
    __arc::check_cnt(dst, 256, api, "dst");
    __arc::check_cnt(src, 256, api, "src");
    __arc::check_overlap(dst, 256, src, 256, ARC_OVERLAP_NONE, api, "src"); /* the same bytes, or apart */
    T t[256];
    for (int i = 0; i < 256; i++) t[i] = src.addr_[i];
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) dst.addr_[i * 16 + j] = t[j * 16 + i];
}

template <typename T>
inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
                      const TransposeParamsExt &transposeParams)
{
    const char *api = "AscendC::Transpose";
    const TransposeParamsExt &p = transposeParams;
    if (p.transposeType == TransposeType::TRANSPOSE_ND2ND_B16) {
        if constexpr (sizeof(T) == 2) {
            ARC_DTYPE_REQUIRE((__NPU_ARCH__ != 2201 || __arc::is_same<T, uint16_t>::value),
                              "AscendC::Transpose: TRANSPOSE_ND2ND_B16 takes uint16_t on dav-2201");
            Transpose(dst, src);
        } else {
            __arc_trap(api, "TRANSPOSE_ND2ND_B16 transposes 16-bit elements, not %s", __arc::tname<T>());
        }
        return;
    }
    const bool to_nhwc = p.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
    ARC_CHECK(to_nhwc || p.transposeType == TransposeType::TRANSPOSE_NHWC2NCHW, api,
              "transposeType %u is not TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC or TRANSPOSE_NHWC2NCHW (the page: "
              "the others are not supported)", (unsigned)p.transposeType);
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "AscendC::Transpose: [N,C,H,W] <-> [N,H,W,C] moves 8-, 16- or 32-bit elements");
    ARC_DTYPE_REQUIRE((__NPU_ARCH__ != 2201 || !__arc::is_float_v<T> || __arc::one_of<T, half, float>),
                      "AscendC::Transpose: dav-2201 transposes no bfloat16_t");
    const uint64_t n = p.nSize, c = p.cSize, hw = (uint64_t)p.hSize * p.wSize;
    if (n == 0 || c == 0 || hw == 0)
        return; /* the page: nothing is written */
    ARC_CHECK(c <= 4095 && hw <= 4095 && hw * sizeof(T) % 32 == 0, api,
              "{cSize %u, hSize %u, wSize %u}: cSize and hSize * wSize must be at most 4095, hSize * wSize * "
              "sizeof(%s) a multiple of 32 bytes", p.cSize, p.hSize, p.wSize, __arc::tname<T>());
    const uint64_t h0 = sizeof(T) == 1 ? 32 : 16, w0 = 32 / sizeof(T);
    const uint64_t need = (to_nhwc ? c + 2 : 2 * c + 1) * h0 * w0 * sizeof(T);
    ARC_CHECK_ALIGN32(sharedTmpBuffer.addr_, api, "sharedTmpBuffer");
    ARC_CHECK(sharedTmpBuffer.GetSize() >= need, api,
              "sharedTmpBuffer holds %u bytes; the page's rule needs %llu for cSize %u of %s", sharedTmpBuffer.GetSize(),
              (unsigned long long)need, p.cSize, __arc::tname<T>());
    const uint64_t total = n * c * hw;
    __arc::check_cnt(dst, (int64_t)total, api, "dst");
    __arc::check_cnt(src, (int64_t)total, api, "src");
    __arc::check_overlap(dst, total, src, total, ARC_OVERLAP_NONE, api, "src");
    ARC_CHECK(dst.addr_ != src.addr_, api, "dst may not be src for [N,C,H,W] <-> [N,H,W,C] (the page)");
    typedef typename __arc::uint_of<sizeof(T)>::type U;
    U *d = (U *)dst.addr_;
    const U *s = (const U *)src.addr_;
    for (uint64_t b = 0; b < n; b++)
        for (uint64_t k = 0; k < c; k++)
            for (uint64_t i = 0; i < hw; i++) {
                const uint64_t chw = (b * c + k) * hw + i, hwc = (b * hw + i) * c + k;
                if (to_nhwc) d[hwc] = s[chw];
                else d[chw] = s[hwc];
            }
}
} // namespace AscendC

#endif /* ARC_TRANSPOSE_H_ */
