/* broadcast_nd.h - the advanced API's dynamic-shape Broadcast (Ascend 950):
 * GetBroadcastTilingInfo<T[, constRank]>(rank, dstShape, srcShape,
 * srcInnerPad, tiling) and Broadcast<T[, constRank]>(dst, src, dstShape,
 * srcShape, &tiling), rank 1..9.  Both tensors dense in row-major order;
 * an axis with srcShape[i] == 1 < dstShape[i] is broadcast (its API page).
 * BroadcastTiling's contents are the API's own: here the rank and shapes,
 * from which the simulated core broadcasts directly. */
#ifndef ARC_BROADCAST_ND_H_
#define ARC_BROADCAST_ND_H_

#include "arc/misc.h"

namespace AscendC {
struct BroadcastTiling {
    uint32_t rank = 0;
    uint32_t dstShape[9] = {0};
    uint32_t srcShape[9] = {0};
};

template <class T, int constRank = -1, uint32_t *constDstShape = nullptr, uint32_t *constSrcShape = nullptr>
inline void GetBroadcastTilingInfo(uint32_t rank, const uint32_t *dstShape, const uint32_t *srcShape, bool srcInnerPad,
                                   BroadcastTiling &tiling)
{
    const char *api = "AscendC::GetBroadcastTilingInfo";
    ARC_CHECK(rank >= 1 && rank <= 9, api, "rank %u is outside [1, 9]", rank);
    ARC_CHECK(constRank < 0 || (uint32_t)constRank == rank, api, "rank %u differs from constRank %d", rank, constRank);
    ARC_CHECK(!srcInnerPad, api, "srcInnerPad must be false (the only value the API supports)");
    tiling.rank = rank;
    for (uint32_t i = 0; i < rank; i++) {
        ARC_CHECK(srcShape[i] == dstShape[i] || srcShape[i] == 1, api,
                  "axis %u: src extent %u does not broadcast to %u", i, srcShape[i], dstShape[i]);
        tiling.dstShape[i] = dstShape[i];
        tiling.srcShape[i] = srcShape[i];
    }
}

template <class T, int constRank = -1, uint32_t *constDstShape = nullptr, uint32_t *constSrcShape = nullptr,
          bool constSrcInnerPad = false>
inline void Broadcast(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t *dstShape,
                      const uint32_t *srcShape, BroadcastTiling *tiling)
{
    static_assert(__NPU_ARCH__ != 2201, "AscendC::Broadcast (dynamic shape): Ascend 950 (dav-3510) only");
    const char *api = "AscendC::Broadcast";
    ARC_CHECK(tiling != nullptr && tiling->rank >= 1, api, "the tiling is not from GetBroadcastTilingInfo");
    const uint32_t rank = tiling->rank;
    uint64_t dn = 1, sn = 1;
    for (uint32_t i = 0; i < rank; i++) {
        ARC_CHECK(dstShape[i] == tiling->dstShape[i] && srcShape[i] == tiling->srcShape[i], api,
                  "axis %u: the shapes (%u from %u) differ from the tiling's (%u from %u)", i, dstShape[i],
                  srcShape[i], tiling->dstShape[i], tiling->srcShape[i]);
        dn *= dstShape[i];
        sn *= srcShape[i];
    }
    __arc::check_cnt(dst, (int64_t)dn, api, "dst");
    __arc::check_cnt(src, (int64_t)sn, api, "src");
    __arc::check_overlap(dst, (int32_t)dn, src, (int32_t)sn, ARC_OVERLAP_NONE, api, "src");
    uint32_t pos[9] = {0};
    for (uint64_t n = 0; n < dn; n++) {
        uint64_t so = 0;
        for (uint32_t i = 0; i < rank; i++)
            so = so * srcShape[i] + (srcShape[i] == 1 ? 0 : pos[i]);
        dst.addr_[n] = src.addr_[so];
        for (int i = (int)rank - 1; i >= 0 && ++pos[i] == dstShape[i]; i--)
            pos[i] = 0;
    }
}
} // namespace AscendC

#endif /* ARC_BROADCAST_ND_H_ */
