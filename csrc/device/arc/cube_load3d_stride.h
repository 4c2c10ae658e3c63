/* cube_load3d_stride.h - LoadDataWithStride (dav-3510, its page): the 3D
 * load's img2col window (arc/cube_load.h's load3d_into) into L0A as Nz,
 * K-adjacent fractals dstStride fractals apart (SetLoadDataRepeatWithStride);
 * into L0B always transposed (Zn: window column kk is B's n, row mm its
 * k), and into L0A with enTranspose the whole window and each fractal
 * transposed (the same placement: X^T as A in Nz): element (mm, kk) at
 * fractal (mm / C0) * dstStride + kk / 16, (kk % 16) * C0 + mm % C0.  One
 * iteration (repeatTime 1); more are refused.  Also the plain 3D load's
 * repeat register (SetLoadDataRepeat: only the default is simulated), its
 * L1 boundary (SetLoadDataBoundary) and its bit-mode form
 * (LoadData3DParamsV2Pro). */
#ifndef ARC_CUBE_LOAD3D_STRIDE_H_
#define ARC_CUBE_LOAD3D_STRIDE_H_

#include "arc/cube_load.h"

namespace AscendC {
struct LoadDataRepeatParamWithStride {
    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;
    uint16_t dstStride = 0;
};
inline void SetLoadDataRepeatWithStride(const LoadDataRepeatParamWithStride &r)
{
    ARC_CHECK(r.repeatTime <= 1, "AscendC::SetLoadDataRepeatWithStride",
              "repeatTime %u: more than one iteration (repeatStride, repeatMode) is not simulated yet",
              (unsigned)r.repeatTime);
    __arc::cube_meta()->load_stride = (1ull << 63) | (uint64_t)r.repeatTime << 16 | r.dstStride;
}

/* The 3D load's repeat register (SetLoadDataRepeat's page: repeatStride,
 * repeatTime, repeatMode; dstStride on Ascend 950). */
struct LoadDataRepeatParam {
    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;
    uint16_t dstStride = 0;
};
/* Only the default repeat is simulated: a repeated (or, repeatTime 0,
 * skipped) 3D load changes what the NPU loads, so it is refused when set,
 * not ignored. */
inline void SetLoadDataRepeat(const LoadDataRepeatParam &p)
{
    ARC_CHECK(p.repeatTime == 1, "AscendC::SetLoadDataRepeat",
              "repeatTime %u: a repeated (or, at 0, skipped) 3D load is not simulated yet by ascendrtc (only the "
              "default, 1)", (unsigned)p.repeatTime);
    ARC_CHECK(__NPU_ARCH__ != 3510 || p.dstStride == 0, "AscendC::SetLoadDataRepeat",
              "dstStride %u: on dav-3510 the plain 3D load (LoadData) placing its K-adjacent fractals dstStride "
              "apart is not simulated yet by ascendrtc; LoadDataWithStride with SetLoadDataRepeatWithStride is",
              (unsigned)p.dstStride);
}
/* The 3D load's L1 boundary (its page): source reads at or past it wrap to
 * L1's start (arc/cube_load.h's load3d_into); 0 is none.  In bytes: the
 * LoadData3DParamsV2 load's unit (the V1 load, in 32 bytes, does not exist
 * here).  At least 1024 (1..1023 are undefined); not on Ascend 950. */
inline void SetLoadDataBoundary(uint32_t boundaryValue)
{
    const char *api = "AscendC::SetLoadDataBoundary";
    ARC_CHECK(__NPU_ARCH__ != 3510, api, "Ascend 950 (dav-3510) has no L1 boundary register (its page: not "
              "supported; split the load to wrap by hand)");
    ARC_CHECK(boundaryValue == 0 || boundaryValue >= 1024, api,
              "a boundary of %u bytes: below the minimum 1024 the 3D load's behaviour is undefined", boundaryValue);
    __arc::cube_meta()->l1_boundary = boundaryValue;
}

/* The 3D load with its window packed in one word, as the Load3DBitModeParam
 * page lays config0 out (kStep, mStep, kPos, mPos: 16 bits each from bit 0);
 * the Feature Map and Pad registers give the rest (Load3DSetFMatrixCal,
 * SetLoadDataPaddingValue).  Only the 1x1 filter at stride 1 is simulated. */
struct LoadData3DParamsV2Pro {
    uint16_t channelSize = 0;
    bool enTranspose = false;
    bool enSmallK = false;
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
    uint64_t extConfig = 0;
    /* strideW, strideH (6 bits each), Wk, Hk, dilationW, dilationH (8 bits each): all 1 */
    uint64_t filterConfig = 1ull | 1ull << 6 | 1ull << 12 | 1ull << 20 | 1ull << 28 | 1ull << 36;
};
namespace __cube {
constexpr IsResetLoad3dConfig LOAD3D_FROM_REGISTERS = {false, false};
}
template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData3DParamsV2Pro &q)
{
    ARC_CHECK(q.filterConfig == LoadData3DParamsV2Pro().filterConfig && !q.filterSizeW && !q.filterSizeH,
              "AscendC::LoadData(LoadData3DParamsV2Pro)",
              "only the 1x1 filter at stride 1 is simulated (filterConfig 0x%llx)", (unsigned long long)q.filterConfig);
    LoadData3DParamsV2<T> p;
    p.channelSize = q.channelSize;
    p.kExtension = (uint16_t)q.extConfig;
    p.mExtension = (uint16_t)(q.extConfig >> 16);
    p.kStartPt = (uint16_t)(q.extConfig >> 32);
    p.mStartPt = (uint16_t)(q.extConfig >> 48);
    p.enTranspose = q.enTranspose;
    p.enSmallK = q.enSmallK;
    p.fMatrixCtrl = q.fMatrixCtrl;
    LoadData<T, __cube::LOAD3D_FROM_REGISTERS>(dst, src, p);
}

template <typename T, const IsResetLoad3dConfig &cfg = IS_RESER_LOAD3D_DEFAULT_CONFIG>
inline void LoadDataWithStride(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData3DParamsV2<T> &params)
{
    static_assert(__NPU_ARCH__ == 3510, "AscendC::LoadDataWithStride: Ascend 950 (dav-3510) only");
    static_assert(sizeof(T) <= 4 && __arc::packed_per_byte<T>::value == 1,
                  "AscendC::LoadDataWithStride: 8-, 16- or 32-bit elements (b4 is not simulated yet)");
    __arc_uses(ARC_USES_CUBE);
    const char *api = "AscendC::LoadDataWithStride";
    const uint64_t reg = __arc::cube_meta()->load_stride;
    ARC_CHECK(reg >> 63, api, "dstStride was never set: call SetLoadDataRepeatWithStride first");
    const LoadData3DParamsV2<T> p = __cube::load3d_registers(params, cfg.isSetFMatrix, cfg.isSetPadding, api);
    constexpr uint32_t C0 = __cube::c0_of<T>();
    if ((reg >> 16 & 0xff) == 0 || p.l1H == 0 || p.l1W == 0 || p.channelSize == 0 || p.kExtension == 0 ||
        p.mExtension == 0)
        return;
    TPosition sp = __cube::where(src), dp = __cube::where(dst);
    ARC_CHECK(__cube::is_l1(sp), api, "src is a %s tensor; the 3D load reads L1", __cube::pos_str(src.pos_));
    ARC_CHECK(dp == TPosition::A2 || dp == TPosition::B2, api, "dst is a %s tensor; it writes L0A (A2) or L0B (B2)",
              __cube::pos_str(dst.pos_));
    ARC_CHECK(!p.fMatrixCtrl, api, "fMatrixCtrl must be false");
    const bool tr = dp == TPosition::B2 || p.enTranspose;
    /* whole fractal rows of C0; a transposed window's last 16 columns may be partial (the page: no multiple
     * is needed where the window covers the last fractal), the rest of that fractal is not written */
    ARC_CHECK(p.kExtension % C0 == 0 && p.mExtension % (tr ? C0 : 16) == 0 && p.channelSize % C0 == 0, api,
              "kExtension %u must be a multiple of C0 = %u, mExtension %u of %u, channelSize %u of C0",
              (unsigned)p.kExtension, C0, (unsigned)p.mExtension, tr ? C0 : 16u, (unsigned)p.channelSize);
    const uint64_t ds = reg & 0xffff;
    const uint64_t need = tr ? (p.kExtension + 15) / 16 : (p.mExtension + 15) / 16; /* fractals along dstStride */
    ARC_CHECK(ds >= need, api, "dstStride %llu fractals is below the %llu the window's %s take: K-adjacent fractals "
              "would overlap", (unsigned long long)ds, (unsigned long long)need, tr ? "kExtension" : "mExtension");
    auto at = [&](uint64_t mm, uint64_t kk) -> uint64_t {
        if (!tr) return ((kk / C0) * ds + mm / 16) * 16 * C0 + (mm % 16) * C0 + kk % C0;
        return ((mm / C0) * ds + kk / 16) * 16 * C0 + (kk % 16) * C0 + mm % C0;
    };
    __cube::load3d_into(dst, src, p, at, "dst", api);
}
} // namespace AscendC

#endif /* ARC_CUBE_LOAD3D_STRIDE_H_ */
