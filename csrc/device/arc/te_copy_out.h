/* te_copy_out.h - the Tensor API's Mmad and its copies out of the cube
 * (矩阵计算的搬出): L0C -> GM as the C++ API's Fixpipe with
 * FixpipeParamsArch3510 (NZ -> ND, NZ -> NZ, the convolution outputs
 * NHWC and NC1HWC0; no quantisation, float -> half / bfloat16_t, a scalar
 * or an L1 tensor of quantisation words, RoundMode::HYBRID for float ->
 * hifloat8_t) and, element by element with the
 * Fixpipe's conversion and checks, NZ -> DN and NCHW; UB -> GM; the Copy
 * and Mmad entry points over the atoms.  Refused by name where the C++
 * API's simulation stops: L0C -> UB goes element by element into the MIX
 * block's AIV UBs.  MmadType::MX runs the C++ API's MmadMx. */
#ifndef ARC_TE_COPY_OUT_H_
#define ARC_TE_COPY_OUT_H_

#include "arc/cube_950.h"
#include "arc/te_copy_in.h"

namespace AscendC {
namespace Te {
namespace __te {

/* The Fixpipe mode of an L0C (S) -> D copy: with a quantisation word
 * (`scalar`) or words (`vec`), or without; `hybrid` (RoundMode::HYBRID)
 * picks the hybrid-rounding HiFloat8 mode.  The pairs are the Copy (L0C to
 * GM) page's table 5; Ascend 950's modes are arc/fix_quant.h's. */
template <typename D, typename S>
__aicore__ inline QuantMode_t quant_mode(bool quant, bool vec, bool hybrid, const char *api)
{
    constexpr bool f = std::is_same<S, float>::value, i32 = std::is_same<S, int32_t>::value;
    ARC_CHECK(!hybrid || (f && std::is_same<D, hifloat8_t>::value && quant), api,
              "RoundMode::HYBRID is for a quantised float -> hifloat8_t copy only (this is %s -> %s%s)",
              __arc::tname<S>(), __arc::tname<D>(), quant ? "" : " without quant");
    if (!quant) {
        if constexpr (std::is_same<D, S>::value) return QuantMode_t::NoQuant;
        else if constexpr (f && std::is_same<D, half>::value) return QuantMode_t::F322F16;
        else if constexpr (f && std::is_same<D, bfloat16_t>::value) return QuantMode_t::F322BF16;
        ARC_TRAP(api, "%s -> %s needs a quantisation parameter (Copy(atom, dst, src, quant))", __arc::tname<S>(),
                 __arc::tname<D>());
        return QuantMode_t::NoQuant;
    }
    constexpr bool b8 = std::is_same<D, int8_t>::value || std::is_same<D, uint8_t>::value;
    if constexpr (i32 && std::is_same<D, half>::value) return vec ? QuantMode_t::VDEQF16 : QuantMode_t::DEQF16;
    else if constexpr (i32 && b8) return vec ? QuantMode_t::VREQ8 : QuantMode_t::REQ8;
    else if constexpr (f && b8) return vec ? QuantMode_t::VQF322B8_PRE : QuantMode_t::QF322B8_PRE;
    else if constexpr (f && std::is_same<D, fp8_e4m3fn_t>::value)
        return vec ? QuantMode_t::VQF322FP8_PRE : QuantMode_t::QF322FP8_PRE;
    else if constexpr (f && std::is_same<D, hifloat8_t>::value)
        return hybrid ? (vec ? QuantMode_t::VQF322HIF8_PRE_HYBRID : QuantMode_t::QF322HIF8_PRE_HYBRID)
                      : (vec ? QuantMode_t::VQF322HIF8_PRE : QuantMode_t::QF322HIF8_PRE);
    else if constexpr (i32 && std::is_same<D, bfloat16_t>::value)
        return vec ? QuantMode_t::VQS322BF16_PRE : QuantMode_t::QS322BF16_PRE;
    else if constexpr (f && std::is_same<D, half>::value) return vec ? QuantMode_t::VQF322F16_PRE : QuantMode_t::QF322F16_PRE;
    else if constexpr (f && std::is_same<D, bfloat16_t>::value)
        return vec ? QuantMode_t::VQF322BF16_PRE : QuantMode_t::QF322BF16_PRE;
    else if constexpr (f && std::is_same<D, float>::value) return vec ? QuantMode_t::VQF322F32_PRE : QuantMode_t::QF322F32_PRE;
    ARC_TRAP(api, "quantised %s -> %s is not a Fixpipe mode (the Copy page's table 5)", __arc::tname<S>(),
             __arc::tname<D>());
    return QuantMode_t::NoQuant;
}

/* L0C (NZ) -> GM column-major (NZ2DN: DN matrices, NCHW maps), which the
 * C++ API's Fixpipe does not simulate: element (r, c) goes to r + c * ld,
 * each value through the Fixpipe's own conversion (quantisation, ReLU),
 * with its checks: L0C's bounds and written fractals, GM's allocation,
 * the unit flag and the pipe race check. */
template <typename S>
__aicore__ inline void l0c_read(const LocalTensor<S> &c, const Mat &s, int64_t rows, int64_t cols, uint8_t unit,
                                const char *api)
{
    __arc_uses(ARC_USES_CUBE);
    int64_t cb = ceil_div(cols, 16), rb = ceil_div(rows, 16);
    uint64_t need = (uint64_t)((cb - 1) * s.sc1 + rb * 256) * sizeof(S);
    __cube::check_operand(c, TPosition::CO1, need, api, "src (CO1)");
    const uint64_t *bits = __arc::cube_meta()->l0c;
    uint32_t f0 = __cube::frac_of(c.addr_, TPosition::CO1, 1024);
    for (int64_t j = 0; j < cb; j++)
        for (int64_t i = 0; i < rb; i++) {
            uint32_t f = f0 + (uint32_t)((uint64_t)(j * s.sc1 + i * 256) * sizeof(S) / 1024);
            ARC_CHECK(__arc::frac_missing(bits, f, 1) < 0, api, "reads L0C fractal %u that no Mmad wrote", f);
        }
    __arc::unit_flag_wait(unit, ARC_PIPE_M, ARC_PIPE_FIX);
    __arc::race(__arc::RP_FIX, 0, c.addr_, need, api);
    __arc::unit_flag_release(unit, ARC_PIPE_FIX, ARC_PIPE_M);
}
/* L0C's element (r, c) (NZ, 16 x 16 fractals). */
template <typename S> __aicore__ inline S l0c_at(const LocalTensor<S> &c, const Mat &s, int64_t r, int64_t x)
{
    return c.addr_[(r % 16) * 16 + (r / 16) * 256 + x % 16 + (x / 16) * s.sc1];
}
template <typename D, typename S>
__aicore__ inline void l0c_to_dn(D *g, int64_t ld, const LocalTensor<S> &c, const Mat &s, int64_t rows, int64_t cols,
                                 QuantMode_t mode, const uint64_t *word, const uint64_t *words, bool relu, uint8_t unit,
                                 const char *api)
{
    if (rows <= 0 || cols <= 0) return;
    l0c_read(c, s, rows, cols, unit, api);
    __arc::gm_access(g, (uint64_t)((cols - 1) * ld + rows) * sizeof(D), api);
    int op = __cube::gm_atomic_op();
    if (__arc::race_gm_on())
        __arc::race_gm(op ? ARC_GM_ATOMIC : ARC_GM_WRITE, __arc::RP_FIX, g, (uint64_t)cols, (uint64_t)rows * sizeof(D),
                       (uint64_t)ld * sizeof(D), api);
    __cube::QuantWord q = word ? __cube::decode_quant(*word) : __cube::QuantWord{1.0f, 0, false, 0};
    for (int64_t x = 0; x < cols; x++) {
        __cube::QuantWord qc = words ? __cube::decode_quant(words[x]) : q;
        for (int64_t r = 0; r < rows; r++)
            __cube::put(g + r + x * ld, __cube::fix_value<D, S>(l0c_at(c, s, r, x), mode, qc, relu), op);
    }
}

/* L0C -> UB (a MIX kernel's AIC writes its AIVs' UBs, at the offset the
 * destination has in the AIC's own): to the AIV FixpipeParams::subBlockId
 * names, or split between both by rows (DUAL_DST_SPLIT_M: AIV 0 the first
 * half) or columns (DUAL_DST_SPLIT_N), each half from the destination's
 * origin.  ND destinations; the values through the Fixpipe's conversion.
 * The race check sees the L0C read, not the writes into the other cores. */
template <typename Tr, typename Prm, typename D, typename LD, typename S, typename LS>
__aicore__ inline void l0c2ub(const CopyAtom<CopyL0C2UB, Tr, Prm> &atom, const TeTensor<D, LD> &dst,
                              const TeTensor<S, LS> &src)
{
    const char *api = "AscendC::Te::Copy(CopyL0C2UB)";
    constexpr CopyL0C2UBTrait tr = Tr::value;
    static_assert(std::is_same<typename LS::pattern, NZLayoutPtn>::value, "AscendC::Te::Copy(CopyL0C2UB): L0C holds NZ");
    LocalTensor<S> c = local_of(src, TPosition::CO1, api, "src");
    ARC_CHECK(dst.Position() == TPosition::VECCALC, api, "dst is in %s; this path needs it in UB", loc_name(dst.Position()));
    Mat s = mat(src.Layout()), d = mat(dst.Layout());
    ARC_CHECK(d.r0 == 1 && d.c0 == 1 && d.sc1 == 1 && d.batch == 1 && s.batch == 1, api,
              "an ND destination without batch (others are not simulated yet)");
    ARC_CHECK(!tr.enableChannelSplit && tr.roundMode == RoundMode::DEFAULT, api,
              "enableChannelSplit and RoundMode::HYBRID are not simulated yet");
    int64_t rows = d.rows, cols = d.cols;
    ARC_CHECK(rows <= s.rows && cols <= s.cols, api, "the destination's %lld x %lld exceeds L0C's %lld x %lld",
              (long long)rows, (long long)cols, (long long)s.rows, (long long)s.cols);
    QuantMode_t mode = quant_mode<D, S>(false, false, false, api);
    uint8_t unit = 0, sub = 0;
    if constexpr (std::is_same<Prm, FixpipeParams>::value) unit = atom.params.unitFlag, sub = atom.params.subBlockId;
    const bool split_m = tr.dualDstCtl == DUAL_DST_SPLIT_M, split_n = tr.dualDstCtl == DUAL_DST_SPLIT_N;
    ARC_CHECK(!split_m || rows % 2 == 0, api, "DUAL_DST_SPLIT_M halves %lld rows: an even count is needed", (long long)rows);
    ARC_CHECK(!split_n || cols % 32 == 0, api, "DUAL_DST_SPLIT_N halves %lld columns: a multiple of 32 is needed",
              (long long)cols);
    if (rows == 0 || cols == 0) return;
    const int parts = split_m || split_n ? 2 : 1;
    for (int k = 0; k < parts; k++)
        ARC_CHECK(__arc_mix_ub(parts == 2 ? k : sub), api,
                  "there is no AIV %d to write: L0C -> UB runs on the AIC of a MIX kernel with that AIV",
                  parts == 2 ? k : (int)sub);
    l0c_read(c, s, rows, cols, unit, api);
    const unsigned char *own = __arc_core()->ub;
    uint64_t off = (uint64_t)((const unsigned char *)dst.Data() - own), room = __arc_core()->ub_size;
    const int64_t pr = split_m ? rows / 2 : rows, pc = split_n ? cols / 2 : cols;
    __cube::QuantWord q{1.0f, 0, false, 0};
    for (int k = 0; k < parts; k++) {
        int aiv = parts == 2 ? k : sub;
        unsigned char *ub = (unsigned char *)__arc_mix_ub(aiv);
        ARC_CHECK(off + (uint64_t)span(d, pr, pc, 1) * sizeof(D) <= room, api,
                  "%lld x %lld values from UB byte %llu run past AIV %d's UB (%llu bytes)", (long long)pr, (long long)pc,
                  (unsigned long long)off, aiv, (unsigned long long)room);
        D *o = (D *)(void *)(ub + off);
        int64_t r0 = split_m ? k * pr : 0, x0 = split_n ? k * pc : 0;
        for (int64_t r = 0; r < pr; r++)
            for (int64_t x = 0; x < pc; x++)
                o[d.at(r, x)] = __cube::fix_value<D, S>(l0c_at(c, s, r0 + r, x0 + x), mode, q, tr.enableRelu);
    }
}
} // namespace __te

namespace __te {
/* L0C -> GM.  Q: void (no quantisation), uint64_t (a word) or a tensor of
 * uint64_t words in L1. */
template <typename Tr, typename Prm, typename D, typename LD, typename S, typename LS, typename Q>
__aicore__ inline void l0c2gm(const CopyAtom<CopyL0C2GM, Tr, Prm> &atom, const TeTensor<D, LD> &dst,
                              const TeTensor<S, LS> &src, const Q *quant)
{
    const char *api = "AscendC::Te::Copy(CopyL0C2GM)";
    using PD = typename LD::pattern;
    constexpr CopyL0C2GMTrait tr = Tr::value;
    static_assert(std::is_same<typename LS::pattern, NZLayoutPtn>::value, "AscendC::Te::Copy(CopyL0C2GM): L0C holds NZ");
    GlobalTensor<D> g = global_of(dst, api, "dst");
    LocalTensor<S> c = local_of(src, TPosition::CO1, api, "src");
    Mat s = mat(src.Layout());
    ARC_CHECK(s.r0 == 16 && s.c0 == 16 && s.sr0 == 16 && s.sr1 == 256 && s.sc1 % 16 == 0, api,
              "L0C's layout is not NZ with 16 x 16 fractals (MakeFrameLayout<NZLayoutPtn>(m, n))");
    /* the destination as rows x cols with a row stride (ND) or a column-block stride (NZ) */
    bool nz = false, dn = false;
    int64_t rows, cols, stride, nb = s.batch, dbs = 0;
    if constexpr (std::is_same<PD, NHWCLayoutPtn>::value || std::is_same<PD, NC1HWC0LayoutPtn>::value) {
        const auto &sh = dst.Layout().Shape();
        const auto &st = dst.Layout().Stride();
        ARC_CHECK(lay_val(std::get<0>(sh)) == 1, api, "the convolution output supports N = 1 only");
        rows = lay_val(std::get<1>(sh)) * lay_val(std::get<2>(sh));
        if constexpr (std::is_same<PD, NHWCLayoutPtn>::value) {
            cols = lay_val(std::get<3>(sh)), stride = lay_val(std::get<2>(st));
        } else {
            rows = lay_val(std::get<2>(sh)) * lay_val(std::get<3>(sh));
            cols = lay_val(std::get<1>(sh)) * lay_val(std::get<4>(sh)), stride = lay_val(std::get<1>(st)), nz = true;
            ARC_CHECK(lay_val(std::get<4>(sh)) == 16, api, "an NC1HWC0 output has C0 16 (got %lld)",
                      (long long)lay_val(std::get<4>(sh)));
        }
        nb = 1;
    } else if constexpr (std::is_same<PD, NCHWLayoutPtn>::value) {
        const auto &sh = dst.Layout().Shape();
        ARC_CHECK(lay_val(std::get<0>(sh)) == 1, api, "the convolution output supports N = 1 only");
        rows = lay_val(std::get<2>(sh)) * lay_val(std::get<3>(sh)), cols = lay_val(std::get<1>(sh));
        stride = lay_val(std::get<1>(dst.Layout().Stride())), dn = true, nb = 1;
    } else if constexpr (std::is_same<PD, DNLayoutPtn>::value || std::is_same<PD, DNExtLayoutPtn>::value) {
        Mat d = mat(dst.Layout());
        ARC_CHECK(d.r0 == 1 && d.c0 == 1 && d.sr1 == 1, api, "a DN output needs unit row stride");
        rows = d.rows, cols = d.cols, nb = batch_of(d, s), dbs = d.bstride, stride = d.sc1, dn = true;
    } else {
        Mat d = mat(dst.Layout());
        rows = d.rows, cols = d.cols, nb = batch_of(d, s), dbs = d.bstride;
        if constexpr (std::is_same<PD, NZLayoutPtn>::value) {
            nz = true, stride = d.sc1;
            ARC_CHECK(d.c0 == 16 || (sizeof(D) == 1 && d.c0 == 32), api, "an NZ output has C0 16 (32 for 8-bit types)");
        } else {
            ARC_CHECK(d.r0 == 1 && d.c0 == 1 && d.sc1 == 1, api, "an ND output needs unit column stride");
            stride = d.sr1;
        }
    }
    ARC_CHECK(rows <= s.rows && cols <= s.cols, api, "the destination's %lld x %lld exceeds L0C's %lld x %lld",
              (long long)rows, (long long)cols, (long long)s.rows, (long long)s.cols);
    ARC_CHECK(!tr.enableChannelSplit || (nz && std::is_same<S, float>::value && std::is_same<D, float>::value), api,
              "enableChannelSplit needs float -> float into NZ");
    constexpr bool has_q = !std::is_same<Q, void>::value;
    constexpr bool vec = has_q && !std::is_same<Q, uint64_t>::value;
    QuantMode_t mode = quant_mode<D, S>(has_q, vec, tr.roundMode == RoundMode::HYBRID, api);
    uint8_t unit = 0;
    if constexpr (std::is_same<Prm, FixpipeParams>::value) unit = atom.params.unitFlag;
    if (dn) {
        ARC_CHECK(!tr.enableChannelSplit, api, "enableChannelSplit needs an NZ output");
        const uint64_t *word = nullptr, *words = nullptr;
        if constexpr (std::is_same<Q, uint64_t>::value) word = quant;
        if constexpr (vec) {
            LocalTensor<uint64_t> w = local_of(*quant, TPosition::A1, api, "quant");
            __cube::check_operand(w, TPosition::A1, (uint64_t)cols * 8, api, "quant (per-column words)");
            __arc::race(__arc::RP_FIX, 0, w.addr_, (uint64_t)cols * 8, api);
            words = w.addr_;
        }
        for (int64_t b = 0; b < nb; b++)
            l0c_to_dn<D, S>(g[(uint64_t)(b * dbs)].addr_, stride, c[(uint32_t)(b * s.bstride)], s, rows, cols, mode, word,
                            words, tr.enableRelu, unit, api);
        return;
    }
    auto fill = [&](auto &q) {
        q.nSize = (uint32_t)cols, q.mSize = (uint32_t)rows, q.srcStride = (uint32_t)(s.sc1 / 16);
        q.dstStride = (uint32_t)stride, q.quantPre = mode, q.reluEn = tr.enableRelu, q.unitFlag = unit;
        q.isChannelSplit = tr.enableChannelSplit;
        if constexpr (std::is_same<Q, uint64_t>::value) q.deqScalar = *quant;
    };
    FixpipeParamsV220 p;
    if (nz) {
        FixpipeParamsArch3510<CO2Layout::NZ> q;
        fill(q);
        p = __cube::v220_of<D, CO2Layout::NZ>(q, api);
    } else {
        FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> q;
        fill(q);
        q.params.ndNum = 1;
        p = __cube::v220_of<D, CO2Layout::ROW_MAJOR>(q, api);
    }
    for (int64_t b = 0; b < nb; b++) {
        GlobalTensor<D> gb = g[(uint64_t)(b * dbs)];
        LocalTensor<S> cb = c[(uint32_t)(b * s.bstride)];
        if constexpr (vec) {
            LocalTensor<uint64_t> w = local_of(*quant, TPosition::A1, api, "quant");
            if (nz) Fixpipe<D, S, CFG_NZ>(gb, cb, w, p);
            else Fixpipe<D, S, CFG_ROW_MAJOR>(gb, cb, w, p);
        } else {
            if (nz) Fixpipe<D, S, CFG_NZ>(gb, cb, p);
            else Fixpipe<D, S, CFG_ROW_MAJOR>(gb, cb, p);
        }
    }
}

/* UB -> GM of a matrix (the vector cores' copy out). */
template <typename Elem, typename LD, typename LS>
__aicore__ inline void ub2gm(const TeTensor<Elem, LD> &dst, const TeTensor<Elem, LS> &src)
{
    const char *api = "AscendC::Te::Copy(CopyUB2GM)";
    global_of(dst, api, "dst");
    local_of(src, TPosition::VECCALC, api, "src");
    Mat d = mat(dst.Layout()), s = mat(src.Layout());
    int64_t rows = d.rows < s.rows ? d.rows : s.rows, cols = d.cols < s.cols ? d.cols : s.cols;
    move(dst, d, src, s, rows, cols, rows, cols, batch_of(d, s), __arc::RP_MTE3, api);
}
} // namespace __te

/* Copy(atom, dst, src): the path is the atom's; each side must be in the
 * memory the path names. */
template <typename Op, typename Tr, typename Prm, typename D, typename LD, typename S, typename LS>
__aicore__ inline void Copy(const CopyAtom<Op, Tr, Prm> &atom, const TeTensor<D, LD> &dst, const TeTensor<S, LS> &src)
{
    if constexpr (std::is_same<Op, CopyL0C2GM>::value) {
        __te::l0c2gm(atom, dst, src, (const void *)nullptr);
    } else if constexpr (std::is_same<Op, CopyL0C2UB>::value) {
        __te::l0c2ub(atom, dst, src);
    } else if constexpr (std::is_same<Op, CopyL12BT>::value) {
        __te::l12bt(dst, src);
    } else {
        static_assert(std::is_same<D, S>::value, "AscendC::Te::Copy: source and destination have one data type");
        if constexpr (std::is_same<Op, CopyGM2L1>::value) {
            using PS = typename LS::pattern;
            if constexpr (std::is_same<PS, NHWCLayoutPtn>::value || std::is_same<PS, NCHWLayoutPtn>::value ||
                          std::is_same<PS, NC1HWC0LayoutPtn>::value)
                __te::conv_in(dst, src);
            else __te::gm2l1(dst, src);
        } else if constexpr (std::is_same<Op, CopyL12L0A>::value) {
            if constexpr (!std::is_same<Prm, NoParams>::value) __te::img2col(dst, src, atom.params);
            else __te::l12l0(dst, src, TPosition::A2, "AscendC::Te::Copy(CopyL12L0A)");
        } else if constexpr (std::is_same<Op, CopyL12L0B>::value) {
            __te::l12l0(dst, src, TPosition::B2, "AscendC::Te::Copy(CopyL12L0B)");
        } else if constexpr (std::is_same<Op, CopyL12FB>::value) {
            __te::l12fb(dst, src);
        } else if constexpr (std::is_same<Op, CopyUB2GM>::value) {
            __te::ub2gm(dst, src);
        } else if constexpr (std::is_same<Op, CopyL12L0ScaleA>::value) {
            __te::l12scale(dst, src, TPosition::A2, "AscendC::Te::Copy(CopyL12L0ScaleA)");
        } else {
            static_assert(std::is_same<Op, CopyL12L0ScaleB>::value, "AscendC::Te::Copy: not a copy operation");
            __te::l12scale(dst, src, TPosition::B2, "AscendC::Te::Copy(CopyL12L0ScaleB)");
        }
    }
}
/* Copy(atom, dst, src, quant): L0C -> GM with a quantisation word or an
 * L1 tensor of them. */
template <typename Op, typename Tr, typename Prm, typename D, typename LD, typename S, typename LS, typename Q>
__aicore__ inline void Copy(const CopyAtom<Op, Tr, Prm> &atom, const TeTensor<D, LD> &dst, const TeTensor<S, LS> &src,
                            const Q &quant)
{
    static_assert(std::is_same<Op, CopyL0C2GM>::value, "AscendC::Te::Copy with a quantisation parameter: CopyL0C2GM only");
    if constexpr (std::is_integral<Q>::value) {
        const uint64_t w = (uint64_t)quant;
        __te::l0c2gm(atom, dst, src, &w);
    } else {
        static_assert(std::is_same<typename Q::elementType, uint64_t>::value,
                      "AscendC::Te::Copy(CopyL0C2GM): quantisation words are uint64_t");
        __te::l0c2gm(atom, dst, src, &quant);
    }
}

namespace __te {
/* The type combinations the C++ API's Mmad computes. */
template <typename TA, typename TC> constexpr bool mmad_float_v =
    (std::is_same<TA, half>::value || std::is_same<TA, bfloat16_t>::value || std::is_same<TA, float>::value) &&
    std::is_same<TC, float>::value;
template <typename TA, typename TC> constexpr bool mmad_int8_v =
    std::is_same<TA, int8_t>::value && std::is_same<TC, int32_t>::value;
} // namespace __te

/* Mmad(atom, C, A, B[, bias]): the C++ API's Mmad on the tensors' memory;
 * a bias row starts C (cmatrixInitVal is then ignored). */
template <typename Tr, typename Prm, typename TC, typename LC, typename TA, typename LA, typename TB, typename LB,
          typename... Bias>
__aicore__ inline void Mmad(const MmadAtom<Tr, Prm> &atom, const TeTensor<TC, LC> &dst, const TeTensor<TA, LA> &fm,
                            const TeTensor<TB, LB> &filter, const Bias &...bias)
{
    static_assert(sizeof...(Bias) <= 1, "AscendC::Te::Mmad: at most one bias tensor");
    const char *api = "AscendC::Te::Mmad";
    constexpr MmadTrait tr = Tr::value;
    if constexpr (tr.mmadType == MmadType::MX) {
        /* the scales are where the C++ API's MmadMx finds them: at fm's and
         * filter's L0A/L0B addresses / 16 in L0A_MX / L0B_MX */
        AscendC::MmadParams p;
        p.m = atom.params.m;
        p.n = atom.params.n;
        p.k = atom.params.k;
        p.unitFlag = atom.params.unitFlag;
        p.cmatrixSource = tr.cmatrixSource;
        p.cmatrixInitVal = sizeof...(Bias) == 0 && atom.params.cmatrixInitVal;
        LocalTensor<TC> c = __te::local_of(dst, TPosition::CO1, api, "dst");
        LocalTensor<TA> a = __te::local_of(fm, TPosition::A2, api, "fm");
        LocalTensor<TB> b = __te::local_of(filter, TPosition::B2, api, "filter");
        if constexpr (sizeof...(Bias) == 1)
            AscendC::MmadMx(c, a, b, __te::local_of(bias..., TPosition::C2, api, "bias"), p);
        else AscendC::MmadMx(c, a, b, p);
    } else if constexpr (!std::is_same<TA, TB>::value || !(__te::mmad_float_v<TA, TC> || __te::mmad_int8_v<TA, TC>)) {
        ARC_TRAP(api, "%s x %s -> %s is not simulated yet", __arc::tname<TA>(), __arc::tname<TB>(), __arc::tname<TC>());
    } else {
        AscendC::MmadParams p;
        p.m = atom.params.m;
        p.n = atom.params.n;
        p.k = atom.params.k;
        p.unitFlag = atom.params.unitFlag;
        p.kDirectionAlign = tr.kDirectionAlign;
        p.cmatrixSource = tr.cmatrixSource;
        p.cmatrixInitVal = sizeof...(Bias) == 0 && atom.params.cmatrixInitVal;
        /* m = 1 without GEMV (disableGemv, the default) is a whole 16-row
         * fractal of A whose 15 padding rows' results are never read; the
         * C++ API's m = 1 is the GEMV mode (A a plain row) */
        if (p.m == 1 && tr.disableGemv) p.m = 16;
        LocalTensor<TC> c = __te::local_of(dst, TPosition::CO1, api, "dst");
        LocalTensor<TA> a = __te::local_of(fm, TPosition::A2, api, "fm");
        LocalTensor<TB> b = __te::local_of(filter, TPosition::B2, api, "filter");
        if constexpr (sizeof...(Bias) == 1)
            AscendC::Mmad(c, a, b, __te::local_of(bias..., TPosition::C2, api, "bias"), p);
        else AscendC::Mmad(c, a, b, p);
    }
}
} // namespace Te
} // namespace AscendC

#endif /* ARC_TE_COPY_OUT_H_ */
