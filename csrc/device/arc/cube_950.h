/* cube_950.h - Ascend 950's (dav-3510) own cube moves: LoadData with
 * LoadData2DParamsV2 (L1 -> L0A/L0B, the LoadData_2D_V2 page) and Fixpipe
 * with FixpipeParamsArch3510 to GM or L1 (the Fixpipe L0C-to-GM and
 * L0C-to-L1 pages; per-column words in L1 or the Fixpipe buffer), as the
 * dav-2201 Fixpipe computes them.  On dav-3510 L0A holds A in Nz (the
 * "key fractal formats" page: Nz x Zn = Nz), which arc/mmad.h reads.
 * What is not simulated yet is refused by name: the b8/b4/b32 fractal
 * transposes, NZ2DN, the dual-destination split, L0C -> UB. */
#ifndef ARC_CUBE_950_H_
#define ARC_CUBE_950_H_

#include "arc/cube_load.h"
#include "arc/fixpipe.h"

namespace AscendC {
namespace __cube {
template <bool is3510> inline void only_950()
{
    static_assert(is3510, "LoadData2DParamsV2 / FixpipeParamsArch3510: Ascend 950 (dav-3510) only");
}
} // namespace __cube

/* mStep x kStep fractals (512 bytes) from (mStartPosition, kStartPosition)
 * of an L1 matrix whose K-adjacent fractals are srcStride apart: fractal
 * (m, k) of the step comes from (kStart + k) * srcStride + mStart + m and
 * goes to k * dstStride + m (Nz -> Nz), or, with ifTranspose (16-bit),
 * transposed to m * dstStride + k (Nz -> Zn, B into L0B). */
template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData2DParamsV2 &p)
{
    __cube::only_950<__NPU_ARCH__ == 3510>();
    const char *api = "AscendC::LoadData(LoadData2DParamsV2)";
    constexpr uint32_t F = 512 / sizeof(T);
    if (p.mStep == 0 || p.kStep == 0) return;
    ARC_CHECK(!p.ifTranspose || sizeof(T) == 2, api,
              "ifTranspose with %u-bit %s: only the 16-bit fractal transpose is simulated yet", (unsigned)sizeof(T) * 8,
              __arc::tname<T>());
    TPosition sp = __cube::where(src), dp = __cube::where(dst);
    ARC_CHECK(__cube::is_l1(sp), api, "src is a %s tensor; this LoadData reads L1 (A1, B1)", __cube::pos_str(src.pos_));
    ARC_CHECK(dp == TPosition::A2 || dp == TPosition::B2, api, "dst is a %s tensor; this LoadData writes L0A (A2) or L0B (B2)",
              __cube::pos_str(dst.pos_));
    int64_t stride = p.srcStride, first = (int64_t)p.kStartPosition * stride + p.mStartPosition;
    int64_t lastk = first + (int64_t)(p.kStep - 1) * stride, lo = first < lastk ? first : lastk;
    int64_t hi = (first > lastk ? first : lastk) + p.mStep - 1;
    ARC_CHECK(lo >= 0, api, "the first source fractal (%lld) is before the source", (long long)lo);
    __cube::check_operand(src, sp, (uint64_t)(hi + 1) * 512, api, "src");
    uint64_t last = p.ifTranspose ? (uint64_t)(p.mStep - 1) * p.dstStride + p.kStep - 1
                                  : (uint64_t)(p.kStep - 1) * p.dstStride + p.mStep - 1;
    __cube::check_operand(dst, dp, (last + 1) * 512, api, "dst");
    __arc::race(__arc::RP_MTE1, 0, src.addr_ + lo * F, (uint64_t)(hi - lo + 1) * 512, api);
    __arc::race(__arc::RP_MTE1, 1 | ARC_RACE_SPARSE, dst.addr_, (last + 1) * 512, api);
    uint32_t f0 = __cube::frac_of(dst.addr_, dp, 512);
    for (uint32_t k = 0; k < p.kStep; k++)
        for (uint32_t m = 0; m < p.mStep; m++) {
            uint64_t d = p.ifTranspose ? (uint64_t)m * p.dstStride + k : (uint64_t)k * p.dstStride + m;
            __cube::move_fractal(dst.addr_ + d * F, src.addr_ + (first + (int64_t)k * stride + m) * (int64_t)F,
                                 p.ifTranspose);
            __arc::frac_mark(__cube::l0_bits(dp), f0 + (uint32_t)d, 1);
        }
}

namespace __cube {
/* FixpipeParamsArch3510 as the dav-2201 Fixpipe's parameters: the same
 * moves, with NZ's dstStride in elements and NZ2ND's srcNdStride in C0
 * (16 values) instead of 32-byte blocks and fractals. */
template <typename D, CO2Layout L> inline FixpipeParamsV220 v220_of(const FixpipeParamsArch3510<L> &q, const char *api)
{
    ARC_CHECK(L != CO2Layout::COLUMN_MAJOR, api, "NZ2DN (CO2Layout::COLUMN_MAJOR) is not simulated yet");
    ARC_CHECK(q.dualDstCtl == 0, api, "dualDstCtl %u (the matrix split over two AIVs' UBs) is not simulated yet",
              (unsigned)q.dualDstCtl);
    ARC_CHECK(q.nSize <= 4095 && q.mSize <= 65535 && q.srcStride <= 65535, api,
              "nSize %u, mSize %u or srcStride %u out of range (4095, 65535, 65535)", q.nSize, q.mSize, q.srcStride);
    FixpipeParamsV220 p;
    p.nSize = (uint16_t)q.nSize;
    p.mSize = (uint16_t)q.mSize;
    p.srcStride = (uint16_t)q.srcStride;
    p.quantPre = q.quantPre;
    p.deqScalar = q.deqScalar;
    p.reluEn = q.reluEn;
    p.unitFlag = q.unitFlag;
    p.isChannelSplit = q.isChannelSplit;
    if constexpr (L == CO2Layout::ROW_MAJOR) {
        ARC_CHECK(q.params.srcNdStride % 16 == 0 && q.params.dstNdStride <= 65535, api,
                  "Nz2NdParams srcNdStride %u (C0 units) must be whole fractals (a multiple of 16), dstNdStride %u "
                  "at most 65535", (unsigned)q.params.srcNdStride, q.params.dstNdStride);
        p.dstStride = q.dstStride;
        p.ndNum = q.params.ndNum;
        p.srcNdStride = (uint16_t)(q.params.srcNdStride / 16);
        p.dstNdStride = (uint16_t)q.params.dstNdStride;
    } else {
        ARC_CHECK(q.dstStride * sizeof(D) % 32 == 0, api, "NZ dstStride %u elements is not a whole number of 32-byte blocks",
                  q.dstStride);
        p.dstStride = q.dstStride * (uint32_t)sizeof(D) / 32;
    }
    return p;
}
} // namespace __cube

/* L0C -> GM, with per-column words in L1 (cbufWorkspace) or not. */
template <typename D, typename S, const FixpipeConfig &config = CFG_ROW_MAJOR, CO2Layout L>
inline void Fixpipe(const GlobalTensor<D> &dst, const LocalTensor<S> &src, const FixpipeParamsArch3510<L> &q)
{
    __cube::only_950<__NPU_ARCH__ == 3510>();
    static_assert(!config.isToUB, "AscendC::Fixpipe: a FixpipeConfig with isToUB writes a UB tensor, not GM");
    static_assert(config.format == L, "AscendC::Fixpipe: the FixpipeConfig's layout and FixpipeParamsArch3510's differ");
    Fixpipe<D, S, config>(dst, src, __cube::v220_of<D, L>(q, "AscendC::Fixpipe"));
}
template <typename D, typename S, const FixpipeConfig &config = CFG_ROW_MAJOR, CO2Layout L>
inline void Fixpipe(const GlobalTensor<D> &dst, const LocalTensor<S> &src, const LocalTensor<uint64_t> &cbufWorkspace,
                    const FixpipeParamsArch3510<L> &q)
{
    __cube::only_950<__NPU_ARCH__ == 3510>();
    static_assert(!config.isToUB, "AscendC::Fixpipe: a FixpipeConfig with isToUB writes a UB tensor, not GM");
    static_assert(config.format == L, "AscendC::Fixpipe: the FixpipeConfig's layout and FixpipeParamsArch3510's differ");
    Fixpipe<D, S, config>(dst, src, cbufWorkspace, __cube::v220_of<D, L>(q, "AscendC::Fixpipe"));
}
/* L0C -> L1 (the Fixpipe L0C-to-L1 page), with or without cbufWorkspace;
 * L0C -> UB (a FixpipeConfig with isToUB, or a UB tensor) is refused. */
namespace __cube {
template <typename D> inline void only_l1(const LocalTensor<D> &dst, bool to_ub)
{
    ARC_CHECK(!to_ub && is_l1(where(dst)), "AscendC::Fixpipe",
              "L0C -> %s (FixpipeParamsArch3510 to a local tensor) is not simulated yet; L0C -> L1 is",
              pos_str(dst.pos_));
}
} // namespace __cube
template <typename D, typename S, const FixpipeConfig &config = CFG_ROW_MAJOR, CO2Layout L>
inline void Fixpipe(const LocalTensor<D> &dst, const LocalTensor<S> &src, const FixpipeParamsArch3510<L> &q)
{
    __cube::only_950<__NPU_ARCH__ == 3510>();
    static_assert(config.format == L, "AscendC::Fixpipe: the FixpipeConfig's layout and FixpipeParamsArch3510's differ");
    __cube::only_l1(dst, config.isToUB);
    Fixpipe<D, S, config>(dst, src, __cube::v220_of<D, L>(q, "AscendC::Fixpipe"));
}
template <typename D, typename S, const FixpipeConfig &config = CFG_ROW_MAJOR, CO2Layout L>
inline void Fixpipe(const LocalTensor<D> &dst, const LocalTensor<S> &src, const LocalTensor<uint64_t> &cbufWorkspace,
                    const FixpipeParamsArch3510<L> &q)
{
    __cube::only_950<__NPU_ARCH__ == 3510>();
    static_assert(config.format == L, "AscendC::Fixpipe: the FixpipeConfig's layout and FixpipeParamsArch3510's differ");
    __cube::only_l1(dst, config.isToUB);
    Fixpipe<D, S, config>(dst, src, cbufWorkspace, __cube::v220_of<D, L>(q, "AscendC::Fixpipe"));
}
} // namespace AscendC

#endif /* ARC_CUBE_950_H_ */
