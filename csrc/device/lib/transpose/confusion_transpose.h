#include "kernel_operator.h" /* first: it brings in every family in order */
/* confusion_transpose.h - ConfusionTranspose (advanced API, transpose): the
 * seven documented layout changes of a [B, N, S, H/N] tensor (written here
 * as d = H/N; an NZ matrix of rows x cols is stored as [cols/16, rows/16,
 * 16, 16] fractals, every dimension it tiles a multiple of 16):
 *   1 NZ2ND_0213         NZ [B,N,S,d]  -> ND [B,S,N,d]
 *   2 NZ2NZ_0213         NZ [B,N,S,d]  -> NZ [B,S,N,d]
 *   3 NZ2NZ_012_WITH_N   NZ [B,S,H]    -> NZ [B,N,S,d]
 *   4 NZ2ND_012_WITH_N   NZ [B,S,H]    -> ND [B,N,S,d]
 *   5 NZ2ND_012_WITHOUT_N NZ [B,N,S,d] -> ND [B,S,H]
 *   6 NZ2NZ_012_WITHOUT_N NZ [B,N,S,d] -> NZ [B,S,H]
 *   7 ND2ND_ONLY         ND [H,W]      -> ND [W,H]
 * The shape comes from the ConfusionTransposeTiling of the host functions
 * (csrc/host_api/lib/adv_tiling.h); the scenario passed must be the one it
 * was made for.  Any element type (the bits are moved). */
#ifndef ARC_LIB_TRANSPOSE_CONFUSION_TRANSPOSE_H_
#define ARC_LIB_TRANSPOSE_CONFUSION_TRANSPOSE_H_

#include "lib/adv/common.h"
#include "lib/tiling/adv_tiling_data.h"

namespace __arc {
/* Offset of (r, c) in an NZ matrix of `rows` rows (a multiple of 16). */
inline uint64_t nz_at(uint32_t rows, uint32_t r, uint32_t c)
{
    return (((uint64_t)(c / 16) * (rows / 16) + r / 16) * 16 + r % 16) * 16 + c % 16;
}
} // namespace __arc

namespace AscendC {
template <typename T>
inline void ConfusionTranspose(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                               TransposeType transposeType, ConfusionTransposeTiling &tiling)
{
    const char *api = "AscendC::ConfusionTranspose";
    const uint32_t kind = (uint32_t)transposeType;
    ARC_CHECK(kind >= 1 && kind <= 7, api, "transposeType %u is not one of the 7 scenarios", kind);
    ARC_CHECK(tiling.param0 == kind, api,
              "the tiling was made for scenario %u, the call asks for %u (GetConfusionTransposeTilingInfo's "
              "transposeTypeIn)", tiling.param0, kind);
    const uint32_t B = tiling.param1, N = tiling.param2, S = tiling.param3, d = tiling.param4, H = N * d;
    const uint64_t total = (uint64_t)B * N * S * d;
    __arc::adv_need(srcTensor, total, api, "src");
    __arc::adv_need(dstTensor, total, api, "dst");
    ARC_CHECK(srcTensor.addr_ + total <= dstTensor.addr_ || dstTensor.addr_ + total <= srcTensor.addr_, api,
              "src and dst overlap");
    const T *s = srcTensor.addr_;
    T *o = dstTensor.addr_;
    if (kind == 7) { /* [S, d] -> [d, S] */
        for (uint32_t r = 0; r < S; r++)
            for (uint32_t c = 0; c < d; c++) o[(uint64_t)c * S + r] = s[(uint64_t)r * d + c];
        return;
    }
    for (uint32_t b = 0; b < B; b++)
        for (uint32_t n = 0; n < N; n++)
            for (uint32_t q = 0; q < S; q++)
                for (uint32_t e = 0; e < d; e++) {
                    uint64_t from = (kind == 3 || kind == 4)
                                        ? (uint64_t)b * S * H + __arc::nz_at(S, q, n * d + e)        /* NZ [B,S,H] */
                                        : ((uint64_t)b * N + n) * S * d + __arc::nz_at(S, q, e);      /* NZ [B,N,S,d] */
                    uint64_t to;
                    switch (kind) {
                    case 1: to = (((uint64_t)b * S + q) * N + n) * d + e; break;                     /* ND [B,S,N,d] */
                    case 2: to = ((uint64_t)b * S + q) * N * d + __arc::nz_at(N, n, e); break;       /* NZ [B,S,N,d] */
                    case 3: to = ((uint64_t)b * N + n) * S * d + __arc::nz_at(S, q, e); break;       /* NZ [B,N,S,d] */
                    case 4: to = (((uint64_t)b * N + n) * S + q) * d + e; break;                     /* ND [B,N,S,d] */
                    case 5: to = ((uint64_t)b * S + q) * H + n * d + e; break;                       /* ND [B,S,H] */
                    default: to = (uint64_t)b * S * H + __arc::nz_at(S, q, n * d + e); break;        /* NZ [B,S,H] */
                    }
                    o[to] = s[from];
                }
}
template <typename T>
inline void ConfusionTranspose(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                               const LocalTensor<uint8_t> &sharedTmpBuffer, TransposeType transposeType,
                               ConfusionTransposeTiling &tiling)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::ConfusionTranspose");
    ConfusionTranspose<T>(dstTensor, srcTensor, transposeType, tiling);
}
/* Transpose with a TransposeType and a ConfusionTransposeTiling: the
 * advanced API's newer name of ConfusionTranspose (its page lists the same
 * scenarios 1-7 and the Ascend 950 ones, 13-16, which ConfusionTranspose
 * refuses by number). */
template <typename T>
inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src, TransposeType transposeType,
                      ConfusionTransposeTiling &tiling)
{
    ConfusionTranspose<T>(dst, src, transposeType, tiling);
}
template <typename T>
inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
                      TransposeType transposeType, ConfusionTransposeTiling &tiling)
{
    ConfusionTranspose<T>(dst, src, sharedTmpBuffer, transposeType, tiling);
}
} // namespace AscendC

#endif /* ARC_LIB_TRANSPOSE_CONFUSION_TRANSPOSE_H_ */
