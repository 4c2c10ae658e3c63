/* nddma.h - DataCopy's multi-dimensional GM -> UB form (NDDMA, Ascend 950):
 * NdDmaLoopInfo / NdDmaParams / NdDmaConfig as the API page defines them,
 * NdDmaDci, and the older names opbase's atvoss uses for the same structs
 * (MultiCopyLoopInfo, MultiCopyParams, MultiCopyConfig).
 *
 * Dimension 0 is the innermost.  Dimension d of dst holds lp + size + rp
 * elements loopDstStride[d] apart; the middle `size` come from src
 * (loopSrcStride[d] apart), the lp left and rp right are padding: the
 * constantValue, or with isNearestValueMode the nearest element of that
 * dimension.  NdDmaConfig's loopLpSize/loopRpSize, when set (not
 * unsetPad), replace every dimension's. */
#ifndef ARC_NDDMA_H_
#define ARC_NDDMA_H_

#include "arc/data_copy.h"

namespace AscendC {
template <uint8_t dim> struct NdDmaLoopInfo {
    uint64_t loopSrcStride[dim] = {0};
    uint32_t loopDstStride[dim] = {0};
    uint32_t loopSize[dim] = {0};
    uint8_t loopLpSize[dim] = {0};
    uint8_t loopRpSize[dim] = {0};
};
template <typename T, uint8_t dim> struct NdDmaParams {
    NdDmaLoopInfo<dim> loopInfo;
    T constantValue;
};
struct NdDmaConfig {
    static constexpr uint16_t unsetPad = 0xffff;
    bool isNearestValueMode = false;
    uint16_t loopLpSize = unsetPad;
    uint16_t loopRpSize = unsetPad;
    bool ascOptimize = false;
};
constexpr NdDmaConfig kDefaultNdDmaConfig = {};
/* Refreshes the NDDMA cache; the simulated core reads GM directly. */
inline void NdDmaDci() {}

template <uint8_t dim> using MultiCopyLoopInfo = NdDmaLoopInfo<dim>;
template <typename T, uint8_t dim> using MultiCopyParams = NdDmaParams<T, dim>;
using MultiCopyConfig = NdDmaConfig;
constexpr NdDmaConfig kDefaultMultiCopyConfig = {};

template <typename T, uint8_t dim, const NdDmaConfig &config = kDefaultNdDmaConfig>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const NdDmaParams<T, dim> &params)
{
    static_assert(dim >= 1 && dim <= 5, "AscendC::DataCopy (NDDMA): dim must be in [1, 5]");
    static_assert(__NPU_ARCH__ != 2201, "AscendC::DataCopy (NDDMA): Ascend 950 (dav-3510) only");
    const char *api = "AscendC::DataCopy (NDDMA)";
    const NdDmaLoopInfo<dim> &li = params.loopInfo;
    uint32_t lp[dim], rp[dim], ext[dim];
    uint64_t src_hull = 1, dst_hull = 1, total = 1;
    for (int d = 0; d < dim; d++) {
        lp[d] = config.loopLpSize != NdDmaConfig::unsetPad ? config.loopLpSize : li.loopLpSize[d];
        rp[d] = config.loopRpSize != NdDmaConfig::unsetPad ? config.loopRpSize : li.loopRpSize[d];
        ARC_CHECK(li.loopSize[d] >= 1 && li.loopSize[d] < (1u << 20), api, "loopSize[%d] = %u is outside [1, 2^20)", d,
                  li.loopSize[d]);
        ARC_CHECK(lp[d] < 256 && rp[d] < 256, api, "padding of dimension %d (%u left, %u right) exceeds 255", d, lp[d],
                  rp[d]);
        ext[d] = lp[d] + li.loopSize[d] + rp[d];
        src_hull += (uint64_t)(li.loopSize[d] - 1) * li.loopSrcStride[d];
        dst_hull += (uint64_t)(ext[d] - 1) * li.loopDstStride[d];
        total *= ext[d];
    }
    src.check_range(0, src_hull, api);
    __detail::check_local(dst, dst_hull * sizeof(T), api, "dst (local) extent", true);
    __detail::gm_in(src.addr_, 1, src_hull * sizeof(T), 0, api);
    uint32_t pos[dim] = {0};
    for (uint64_t n = 0; n < total; n++) {
        uint64_t so = 0, dofs = 0;
        bool pad = false;
        for (int d = 0; d < dim; d++) {
            int64_t i = (int64_t)pos[d] - lp[d];
            if (i < 0 || i >= (int64_t)li.loopSize[d]) {
                pad = true;
                i = i < 0 ? 0 : (int64_t)li.loopSize[d] - 1;   /* the nearest element */
            }
            so += (uint64_t)i * li.loopSrcStride[d];
            dofs += (uint64_t)pos[d] * li.loopDstStride[d];
        }
        T v = params.constantValue;
        if (!pad || config.isNearestValueMode)
            __arc::copy_bytes(&v, src.addr_ + so, sizeof(T));
        __arc::copy_bytes(dst.addr_ + dofs, &v, sizeof(T));
        for (int d = 0; d < dim && ++pos[d] == ext[d]; d++)
            pos[d] = 0;
    }
}
} // namespace AscendC

#endif /* ARC_NDDMA_H_ */
