/* fixpipe.h - L0C out: Fixpipe (FixpipeParamsV220; NZ -> ND or NZ,
 * strides, ReLU, the quantisation modes) to GM or L1, the register-driven
 * DataCopy(CO1 -> GM, DataCopyCO12DstParams) and the block-mode DataCopy
 * of L0C fractals (layouts: "Cube unit" in csrc/device/README.md). */
#ifndef ARC_FIXPIPE_H_
#define ARC_FIXPIPE_H_

#include "arc/mmad.h"
#include "arc/fix_quant.h"

namespace AscendC {
namespace __cube {

/* The atomic mode a copy to GM combines under (SetAtomicAdd/Max/Min: "every
 * later copy whose destination is GM"); a local destination passes -1. */
static inline int gm_atomic_op() { return (int)__arc_core()->dev[__arc::SLOT_ATOMIC]; }
/* One element out: stored, or combined with what GM holds under op > 0. */
template <typename D> inline void put(D *d, D v, int op)
{
    if (op > 0) __arc::atomic_apply(d, v, op);
    else *d = v;
}
/* A plain NZ -> ND write to GM logs its rows for the race check between
 * cores with their content (fixpipe), not beforehand (fix_gm_race). */
static inline bool rows_with_sums(bool nd, int op) { return nd && op == 0 && __arc::race_gm_log(); }

/* The per-column quantisation words SetFixPipeConfig put in the Fixpipe
 * buffer (n of them), or nullptr when it was not called. */
static inline const uint64_t *fb_quant_words(uint32_t n, const char *api)
{
    uint64_t at = __arc::cube_meta()->fb_quant;
    if (!at) return nullptr;
    __detail::Arena fb = __detail::arena_of(TPosition::C2PIPE2GM);
    ARC_CHECK(at - 1 + (uint64_t)n * 8 <= fb.size, api,
              "%u per-column quantisation words at Fixpipe buffer byte %llu (SetFixPipeConfig) exceed its %llu bytes",
              n, (unsigned long long)(at - 1), (unsigned long long)fb.size);
    const uint64_t *w = (const uint64_t *)(const void *)(fb.base + at - 1);
    __arc::race(__arc::RP_FIX, 0, w, (uint64_t)n * 8, api);
    return w;
}

/* op: the atomic mode for a GM destination (gm_atomic_op()), -1 for L1. */
template <typename D, typename S>
inline void fixpipe(D *dst, const LocalTensor<S> &src, const FixpipeParamsV220 &p, bool nd, const uint64_t *cols,
                    int op, const char *api)
{
    __arc_uses(ARC_USES_CUBE);
    static_assert(__arc::is_same<S, float>::value || __arc::is_same<S, int32_t>::value,
                  "AscendC::Fixpipe: L0C holds float or int32_t");
    static_assert(__NPU_ARCH__ == 3510 || !(__arc::is_same<S, int32_t>::value && __arc::is_same<D, bfloat16_t>::value),
                  "AscendC::Fixpipe: int32_t -> bfloat16_t does not exist on dav-2201");
    if (p.nSize == 0 || p.mSize == 0 || p.ndNum == 0) return;
    ARC_CHECK(p.nSize <= 4095, api, "nSize %u exceeds 4095", (unsigned)p.nSize);
    ARC_CHECK(!nd || p.mSize <= 8192, api, "mSize %u exceeds 8192 with NZ -> ND", (unsigned)p.mSize);
    ARC_CHECK(p.srcStride >= (p.mSize + 15) / 16 * 16 || p.nSize <= 16, api,
              "srcStride %u is smaller than mSize %u rounded to 16: column blocks would overlap",
              (unsigned)p.srcStride, (unsigned)p.mSize);
    QuantMode_t mode = p.quantPre;
    ARC_CHECK((uint32_t)mode <= (uint32_t)QuantMode_t::VQF322F32_PRE, api, "quantPre %u is not a QuantMode_t", (unsigned)mode);
    ARC_CHECK(__NPU_ARCH__ == 3510 || !quant_is_950(mode), api,
              "quantPre %s is an Ascend 950 (dav-3510) mode; this kernel is compiled for dav-%d", quant_name(mode),
              (int)__NPU_ARCH__);
    ARC_CHECK((quant_types_fit<D, S>(mode)), api, "quantPre %s converts %s; this Fixpipe reads %s L0C into %s",
              quant_name(mode), quant_types_of(mode), __arc::tname<S>(), __arc::tname<D>());
    bool vec = quant_is_vec(mode);
    if (vec && !cols) cols = fb_quant_words(p.nSize, api);
    ARC_CHECK(!vec || cols, api, "per-column quantisation mode %s needs its words: the cbufWorkspace (LocalTensor<uint64_t> "
              "in C1) overload, or SetFixPipeConfig with them in the Fixpipe buffer", quant_name(mode));
    QuantWord q = quant_has_word(mode) ? decode_quant(p.deqScalar) : QuantWord{1.0f, 0, false, 0};
    uint32_t cb = (p.nSize + 15) / 16;
    uint64_t need = ((uint64_t)(p.ndNum - 1) * p.srcNdStride * 256 + (uint64_t)(cb - 1) * p.srcStride * 16 +
                     (uint64_t)(p.mSize - 1) * 16 + 16) * sizeof(S);
    check_operand(src, TPosition::CO1, need, api, "src (CO1)");
    __arc::unit_flag_wait(p.unitFlag, ARC_PIPE_M, ARC_PIPE_FIX);
    __arc::race(__arc::RP_FIX, 0, src.addr_, need, api);
    __arc::unit_flag_release(p.unitFlag, ARC_PIPE_FIX, ARC_PIPE_M);
    uint32_t f0 = frac_of(src.addr_, TPosition::CO1, 1024);
    uint64_t sub = ((const uint8_t *)src.addr_ - __detail::arena_of(TPosition::CO1).base) % 1024;
    const uint64_t *bits = __arc::cube_meta()->l0c;
    for (uint32_t i = 0; i < p.ndNum; i++)
        for (uint32_t c = 0; c < cb; c++)
            for (uint32_t j = 0; j < p.mSize; j += 16) {
                uint64_t e = (uint64_t)i * p.srcNdStride * 256 + (uint64_t)c * p.srcStride * 16 + (uint64_t)j * 16;
                uint32_t f = f0 + (uint32_t)((sub + e * sizeof(S)) / 1024);
                ARC_CHECK(__arc::frac_missing(bits, f, 1) < 0, api,
                          "reads L0C fractal %u (byte %u: rows %u.. of column block %u) that no Mmad wrote", f,
                          f * 1024, j, c);
            }
    const S *s = src.addr_;
    /* NZ output lanes per 32-byte row group: 16, 32 for 8-bit (channel merge), 8 with channel split. */
    constexpr uint32_t C0o = sizeof(D) == 1 ? 32 : 16;
    uint32_t c0o = p.isChannelSplit && sizeof(D) == 4 ? 8 : C0o;
    bool sums = rows_with_sums(nd, op);
    for (uint32_t i = 0; i < p.ndNum; i++)
        for (uint32_t j = 0; j < p.mSize; j++) {
            unsigned long long sum = 0;
            for (uint32_t c = 0; c < p.nSize; c++) {
                S x = s[(uint64_t)i * p.srcNdStride * 256 + (uint64_t)(c / 16) * p.srcStride * 16 + (uint64_t)j * 16 +
                        c % 16];
                D v;
                if (vec) {
                    QuantWord qc = decode_quant(cols[c]);
                    v = fix_value<D, S>(x, mode, qc, p.reluEn);
                } else {
                    v = fix_value<D, S>(x, mode, q, p.reluEn);
                }
                uint64_t o = nd ? (uint64_t)i * p.dstNdStride + (uint64_t)j * p.dstStride + c
                                : (uint64_t)(c / c0o) * p.dstStride * 32 / sizeof(D) + (uint64_t)j * c0o + c % c0o;
                put(dst + o, v, op);
                if (sums) sum += __arc::gm_mix(dst + o, v);
            }
            if (sums)
                __arc::race_gm_written(__arc::RP_FIX, dst + (uint64_t)i * p.dstNdStride + (uint64_t)j * p.dstStride,
                                       (uint64_t)p.nSize * sizeof(D), sum, api);
        }
}
template <typename D>
inline uint64_t fix_extent(const FixpipeParamsV220 &p, bool nd)
{
    if (p.nSize == 0 || p.mSize == 0 || p.ndNum == 0) return 0;
    if (nd) return (uint64_t)(p.ndNum - 1) * p.dstNdStride + (uint64_t)(p.mSize - 1) * p.dstStride + p.nSize;
    uint32_t c0o = sizeof(D) == 1 ? 32 : (p.isChannelSplit && sizeof(D) == 4 ? 8 : 16);
    return (uint64_t)((p.nSize - 1) / c0o) * p.dstStride * 32 / sizeof(D) + (uint64_t)p.mSize * c0o;
}
/* The GM rows a Fixpipe writes, for the race check between cores. */
template <typename D> inline void fix_gm_race(const D *dst, const FixpipeParamsV220 &p, bool nd, const char *api)
{
    int mode = gm_atomic_op();
    if (!__arc::race_gm_on() || p.nSize == 0 || p.mSize == 0 || p.ndNum == 0 || rows_with_sums(nd, mode)) return;
    int op = mode ? ARC_GM_ATOMIC : ARC_GM_WRITE;
    if (nd) {
        for (uint32_t i = 0; i < p.ndNum; i++)
            __arc::race_gm(op, __arc::RP_FIX, dst + (uint64_t)i * p.dstNdStride, p.mSize, (uint64_t)p.nSize * sizeof(D),
                           (uint64_t)p.dstStride * sizeof(D), api);
        return;
    }
    uint32_t c0o = sizeof(D) == 1 ? 32 : (p.isChannelSplit && sizeof(D) == 4 ? 8 : 16);
    __arc::race_gm(op, __arc::RP_FIX, dst, (p.nSize + c0o - 1) / c0o, (uint64_t)p.mSize * c0o * sizeof(D),
                   (uint64_t)p.dstStride * 32, api);
}
} // namespace __cube

/* L0C -> GM. */
template <typename D, typename S, const FixpipeConfig &config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<D> &dst, const LocalTensor<S> &src, const FixpipeParamsV220 &p)
{
    const char *api = "AscendC::Fixpipe";
    bool nd = config.format == CO2Layout::ROW_MAJOR;
    dst.check_range(0, __cube::fix_extent<D>(p, nd), api);
    __cube::fix_gm_race<D>(dst.addr_, p, nd, api);
    __cube::fixpipe<D, S>(dst.addr_, src, p, nd, nullptr, __cube::gm_atomic_op(), api);
}
template <typename D, typename S, const FixpipeConfig &config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<D> &dst, const LocalTensor<S> &src, const LocalTensor<uint64_t> &cbufWorkspace,
                    const FixpipeParamsV220 &p)
{
    const char *api = "AscendC::Fixpipe";
    bool nd = config.format == CO2Layout::ROW_MAJOR;
    __cube::check_operand(cbufWorkspace, __cube::where(cbufWorkspace), (uint64_t)p.nSize * 8, api,
                          "cbufWorkspace (per-column quantisation words)");
    __arc::race(__arc::RP_FIX, 0, cbufWorkspace.addr_, (uint64_t)p.nSize * 8, api);
    dst.check_range(0, __cube::fix_extent<D>(p, nd), api);
    __cube::fix_gm_race<D>(dst.addr_, p, nd, api);
    __cube::fixpipe<D, S>(dst.addr_, src, p, nd, cbufWorkspace.addr_, __cube::gm_atomic_op(), api);
}
/* L0C -> L1 (C1). */
template <typename D, typename S, const FixpipeConfig &config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<D> &dst, const LocalTensor<S> &src, const FixpipeParamsV220 &p)
{
    const char *api = "AscendC::Fixpipe";
    bool nd = config.format == CO2Layout::ROW_MAJOR;
    ARC_CHECK(__cube::is_l1(__cube::where(dst)), api,
              "dst is a %s tensor; Fixpipe writes GM or L1 (L0C -> UB does not exist on dav-2201)",
              __cube::pos_str(dst.pos_));
    __cube::check_operand(dst, __cube::where(dst), __cube::fix_extent<D>(p, nd) * sizeof(D), api, "dst (L1)");
    __arc::race(__arc::RP_FIX, 1 | ARC_RACE_SPARSE, dst.addr_, __cube::fix_extent<D>(p, nd) * sizeof(D), api);
    __cube::fixpipe<D, S>(dst.addr_, src, p, nd, nullptr, -1, api);
}
template <typename D, typename S, const FixpipeConfig &config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<D> &dst, const LocalTensor<S> &src, const LocalTensor<uint64_t> &cbufWorkspace,
                    const FixpipeParamsV220 &p)
{
    const char *api = "AscendC::Fixpipe";
    bool nd = config.format == CO2Layout::ROW_MAJOR;
    __cube::check_operand(dst, __cube::where(dst), __cube::fix_extent<D>(p, nd) * sizeof(D), api, "dst (L1)");
    __arc::race(__arc::RP_FIX, 0, cbufWorkspace.addr_, (uint64_t)p.nSize * 8, api);
    __arc::race(__arc::RP_FIX, 1 | ARC_RACE_SPARSE, dst.addr_, __cube::fix_extent<D>(p, nd) * sizeof(D), api);
    __cube::fixpipe<D, S>(dst.addr_, src, p, nd, cbufWorkspace.addr_, -1, api);
}

/* Register-driven form: SetFixpipeNz2ndFlag / SetFixpipePreQuantFlag set
 * what DataCopy(GM, CO1, DataCopyCO12DstParams) uses. */
inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride)
{
    __arc::CubeMeta *m = __arc::cube_meta();
    m->nd2nd[0] = (uint64_t)ndNum + 1;
    m->nd2nd[1] = srcNdStride;
    m->nd2nd[2] = dstNdStride;
}
inline void SetFixpipePreQuantFlag(uint64_t config) { __arc::cube_meta()->prequant = config; }
/* The Fixpipe buffer tensor of per-column quantisation words (uint64_t)
 * the V* quant modes use when Fixpipe is given no cbufWorkspace.
 * isUnitFlag clears L0C's unit flags, which the simulator keeps only as the
 * race check's Mmad/Fixpipe ordering (arc/race.h), so it changes nothing
 * here; with it alone the tensor may be the L0C one (CO1), as the page says. */
template <typename T, bool setRelu = false> inline void SetFixPipeConfig(const LocalTensor<T> &preData, bool isUnitFlag = false)
{
    const char *api = "AscendC::SetFixPipeConfig";
    static_assert(!setRelu, "AscendC::SetFixPipeConfig: setRelu must be false (only the quant tensor is supported)");
    if (__cube::in_arena(preData.addr_, TPosition::CO1)) {
        ARC_CHECK(isUnitFlag, api, "an L0C (CO1) tensor only clears the unit flags: pass isUnitFlag true, or the quant "
                  "words in the Fixpipe buffer (C2PIPE2GM)");
        return;
    }
    ARC_CHECK(__cube::in_arena(preData.addr_, TPosition::C2PIPE2GM), api,
              "preData is a %s tensor; the quant words must be in the Fixpipe buffer (C2PIPE2GM)",
              __cube::pos_str(preData.pos_));
    ARC_CHECK((__arc::is_same<T, uint64_t>::value), api, "the quant tensor holds %s; its words are uint64_t",
              __arc::tname<T>());
    __arc::cube_meta()->fb_quant =
        (uint64_t)((const uint8_t *)preData.addr_ - __detail::arena_of(TPosition::C2PIPE2GM).base) + 1;
}
template <typename T>
inline void SetFixPipeConfig(const LocalTensor<T> &reluPre, const LocalTensor<T> &quantPre, bool isUnitFlag = false)
{
    (void)reluPre; /* reserved for later use, the docs say: pass an empty tensor */
    SetFixPipeConfig<T, false>(quantPre, isUnitFlag);
}
/* ClipReLU (min(clip, value) after quantisation) exists on Atlas 200I/500
 * A2 and Kirin only (SetFixPipeClipRelu's page: not on Ascend 910B/A3 nor
 * 950): refused when run, not ignored. */
inline void SetFixPipeClipRelu(uint64_t)
{
    ARC_TRAP("AscendC::SetFixPipeClipRelu", "ClipReLU is not on dav-%d (its page: Atlas 200I/500 A2 and Kirin only)",
             (int)__NPU_ARCH__);
}
inline void SetFixpipeClipRelu(uint64_t config) { SetFixPipeClipRelu(config); }

template <typename D, typename S>
inline void DataCopy(const GlobalTensor<D> &dst, const LocalTensor<S> &src, const DataCopyCO12DstParams &q)
{
    const char *api = "AscendC::DataCopy(CO1 -> GM)";
    ARC_CHECK(q.clipReluPre == 0, api, "clipReluPre %u: ClipReLU is not on dav-%d (the page: Atlas 200I/500 A2 only)",
              (unsigned)q.clipReluPre, (int)__NPU_ARCH__);
    __arc::CubeMeta *m = __arc::cube_meta();
    FixpipeParamsV220 p;
    p.nSize = q.nSize;
    p.mSize = q.mSize;
    p.srcStride = q.srcStride;
    p.dstStride = q.dstStride;
    p.quantPre = q.quantPre;
    p.deqScalar = m->prequant;
    p.reluEn = q.reluPre;
    p.isChannelSplit = q.channelSplit;
    if (q.nz2ndEn && m->nd2nd[0]) {
        p.ndNum = (uint16_t)(m->nd2nd[0] - 1);
        p.srcNdStride = (uint16_t)m->nd2nd[1];
        p.dstNdStride = (uint16_t)m->nd2nd[2];
    }
    dst.check_range(0, __cube::fix_extent<D>(p, q.nz2ndEn), api);
    __cube::fix_gm_race<D>(dst.addr_, p, q.nz2ndEn, api);
    __cube::fixpipe<D, S>(dst.addr_, src, p, q.nz2ndEn, nullptr, __cube::gm_atomic_op(), api);
}

/* Block-mode copies of L0C fractals (BLOCK_MODE_MATRIX: units of one
 * 16x16 fractal; strides in fractals), to GM (combining under op, as
 * fixpipe) or a local buffer. */
namespace __cube {
template <typename D, typename S>
inline void matrix_blocks(D *dst, const LocalTensor<S> &src, const DataCopyParams &p, int op, const char *api)
{
    if (p.blockCount == 0 || p.blockLen == 0) return;
    uint64_t need = ((uint64_t)(p.blockCount - 1) * (p.blockLen + p.srcStride) + p.blockLen) * 256 * sizeof(S);
    check_operand(src, TPosition::CO1, need, api, "src (CO1)");
    uint32_t f0 = frac_of(src.addr_, TPosition::CO1, 1024);
    for (uint32_t b = 0; b < p.blockCount; b++)
        for (uint32_t k = 0; k < p.blockLen; k++) {
            uint32_t f = f0 + b * (p.blockLen + p.srcStride) + k;
            ARC_CHECK(__arc::frac_missing(__arc::cube_meta()->l0c, f, 1) < 0, api,
                      "reads L0C fractal %u that no Mmad wrote", f);
            const S *s = src.addr_ + ((uint64_t)b * (p.blockLen + p.srcStride) + k) * 256;
            D *d = dst + ((uint64_t)b * (p.blockLen + p.dstStride) + k) * 256;
            for (uint32_t e = 0; e < 256; e++) put(d + e, (D)s[e], op);
        }
}
} // namespace __cube
template <typename D, typename S>
inline void DataCopy(const LocalTensor<D> &dst, const LocalTensor<S> &src, const DataCopyParams &p,
                     const DataCopyEnhancedParams &e)
{
    const char *api = "AscendC::DataCopy(DataCopyEnhancedParams)";
    if (e.blockMode == BlockMode::BLOCK_MODE_MATRIX || __cube::where(src) == TPosition::CO1) {
        if (p.blockCount && p.blockLen) {
            uint64_t need = ((uint64_t)(p.blockCount - 1) * (p.blockLen + p.dstStride) + p.blockLen) * 256 * sizeof(D);
            ARC_CHECK(need <= dst.bytes_, api, "dst: %llu bytes exceed the tensor's %u bytes", (unsigned long long)need,
                      dst.bytes_);
        }
        __cube::matrix_blocks(dst.addr_, src, p, -1, api);
        return;
    }
    if constexpr (__arc::is_same<D, S>::value) DataCopy(dst, src, p);
    else ARC_TRAP(api, "copying %s to %s needs BLOCK_MODE_MATRIX from CO1", __arc::tname<S>(), __arc::tname<D>());
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p,
                     const DataCopyEnhancedParams &e)
{
    const char *api = "AscendC::DataCopy(DataCopyEnhancedParams)";
    if (e.blockMode == BlockMode::BLOCK_MODE_MATRIX || __cube::where(src) == TPosition::CO1) {
        if (p.blockCount && p.blockLen)
            dst.check_range(0, ((uint64_t)(p.blockCount - 1) * (p.blockLen + p.dstStride) + p.blockLen) * 256, api);
        __cube::matrix_blocks(dst.addr_, src, p, __cube::gm_atomic_op(), api);
        return;
    }
    DataCopy(dst, src, p);
}

} // namespace AscendC

#endif /* ARC_FIXPIPE_H_ */
