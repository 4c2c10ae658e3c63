/* te_copy_in.h - the Tensor API's copies towards the cube (矩阵计算的搬入):
 * GM -> L1 (ND2NZ and DN2ZN as the C++ API's DataCopy with Nd2NzParams;
 * ND2ND, NZ2NZ, ZN2ZN, ND2ZN, DN2NZ and the convolution feature maps
 * NHWC / NCHW / NC1HWC0 -> NC1HWC0 element by element with the same
 * checks), L1 -> L0A / L0B (the C++ API's LoadData with
 * LoadData2DParamsV2: NZ2NZ, ZN2NZ, ZN2ZN, NZ2ZN), L1 -> BiasTable and
 * L1 -> Fixpipe buffer (its DataCopy forms).  Each takes its parameters
 * from the two layouts; a batched layout copies each matrix. */
#ifndef ARC_TE_COPY_IN_H_
#define ARC_TE_COPY_IN_H_

#include "arc/te_atom.h"

namespace AscendC {
namespace Te {
namespace __te {

/* The highest element + 1 of rows x cols (and the batch) of a matrix. */
__aicore__ inline int64_t span(const Mat &m, int64_t rows, int64_t cols, int64_t nb)
{
    if (rows <= 0 || cols <= 0 || nb <= 0) return 0;
    auto hi = [](int64_t n, int64_t inner, int64_t si, int64_t so) {
        return (inner > 1 ? ((n < inner ? n : inner) - 1) * si : 0) + ((n - 1) / inner) * so;
    };
    return (nb - 1) * m.bstride + hi(rows, m.r0, m.sr0, m.sr1) + hi(cols, m.c0, m.sc0, m.sc1) + 1;
}
/* Checks one side of an element-wise move: its memory's bounds (the C++
 * API's operand check for a local side, the allocation for GM) and its
 * pipe access for the race check. */
template <typename Elem, typename L>
__aicore__ inline void side(const TeTensor<Elem, L> &t, int64_t elems, bool write, __arc::RacePipe pipe, const char *api,
                            const char *what)
{
    uint64_t bytes = (uint64_t)elems * sizeof(Elem);
    if (bytes == 0) return;
    if (t.IsGlobal()) {
        __arc::gm_access(t.Data(), bytes, api);
        return;
    }
    if (t.Position() != TPosition::VECCALC) __arc_uses(ARC_USES_CUBE); /* the kernel type CANN infers */
    LocalTensor<Elem> lt = local_of(t, t.Position(), api, what);
    __cube::check_operand(lt, t.Position(), bytes, api, what);
    __arc::race(pipe, write ? 1 | ARC_RACE_SPARSE : 0, t.Data(), bytes, api);
}
/* rows x cols of each of nb matrices, src -> dst, element by element; dst
 * is zero-filled to prow x pcol (its fractals' 32-byte rows). */
template <typename Elem, typename LD, typename LS>
__aicore__ inline void move(const TeTensor<Elem, LD> &dst, const Mat &d, const TeTensor<Elem, LS> &src, const Mat &s,
                            int64_t rows, int64_t cols, int64_t prow, int64_t pcol, int64_t nb, __arc::RacePipe pipe,
                            const char *api)
{
    if constexpr (per_v<Elem> > 1) {
        ARC_TRAP(api, "this layout pair of %s (two per byte) is not simulated yet", __arc::tname<Elem>());
    } else {
    ARC_CHECK(rows <= d.rows && pcol <= d.cols && prow <= d.rows, api,
              "the source's %lld x %lld does not fit the destination's %lld x %lld", (long long)rows, (long long)cols,
              (long long)d.rows, (long long)d.cols);
    side(src, span(s, rows, cols, nb), false, pipe, api, "src");
    side(dst, span(d, prow, pcol, nb), true, pipe, api, "dst");
    Elem *o = dst.Data(), zero;
    const Elem *in = src.Data();
    __builtin_memset((void *)&zero, 0, sizeof zero); /* the padding is zero bytes */
    for (int64_t b = 0; b < nb; b++)
        for (int64_t r = 0; r < prow; r++)
            for (int64_t c = 0; c < pcol; c++)
                o[b * d.bstride + d.at(r, c)] = r < rows && c < cols ? in[b * s.bstride + s.at(r, c)] : zero;
    }
}
__aicore__ inline int64_t align_up(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

/* GM -> L1 of matrices. */
template <typename Elem, typename LD, typename LS>
__aicore__ inline void gm2l1(const TeTensor<Elem, LD> &dst, const TeTensor<Elem, LS> &src)
{
    const char *api = "AscendC::Te::Copy(CopyGM2L1)";
    global_of(src, api, "src");
    LocalTensor<Elem> l1 = local_of(dst, TPosition::A1, api, "dst");
    Mat d = mat(dst.Layout()), s = mat(src.Layout());
    int64_t nb = batch_of(d, s);
    constexpr int64_t C0 = 32 * per_v<Elem> / (int64_t)sizeof(Elem);
    using PD = typename LD::pattern;
    const bool plain_s = s.r0 == 1 && s.c0 == 1;
    /* ND -> NZ (and DN -> ZN, its transpose) as the C++ API's ND2NZ copy */
    const bool nd2nz = plain_s && s.sc1 == 1 && std::is_same<PD, NZLayoutPtn>::value && d.r0 == 16 && d.c0 == C0 &&
                       d.sr0 == C0 && d.sc0 == 1 && d.sr1 == 16 * C0 && d.sc1 % C0 == 0;
    const bool dn2zn = plain_s && s.sr1 == 1 && std::is_same<PD, ZNLayoutPtn>::value && d.r0 == C0 && d.c0 == 16 &&
                       d.sr0 == 1 && d.sc0 == C0 && d.sc1 == 16 * C0 && d.sr1 % C0 == 0;
    if constexpr (sizeof(Elem) <= 4) {
        if (nd2nz || dn2zn) {
            /* packed 4-bit values move as bytes (the C++ API counts their ND2NZ lengths in bytes) */
            constexpr int64_t per = per_v<Elem>;
            int64_t n = nd2nz ? s.rows : s.cols, dv = nd2nz ? s.cols : s.rows, ld = nd2nz ? s.sr1 : s.sc1;
            ARC_CHECK(n <= (nd2nz ? d.rows : d.cols) && dv <= (nd2nz ? d.cols : d.rows), api,
                      "the source's %lld x %lld does not fit the destination's %lld x %lld", (long long)s.rows,
                      (long long)s.cols, (long long)d.rows, (long long)d.cols);
            ARC_CHECK(dv % per == 0 && ld % per == 0 && s.bstride % per == 0, api,
                      "%s rows of %lld values (stride %lld) do not fill whole bytes", __arc::tname<Elem>(),
                      (long long)dv, (long long)ld);
            Nd2NzParams p;
            p.ndNum = (uint16_t)nb;
            p.nValue = (uint16_t)n;
            p.dValue = (uint16_t)(dv / per);
            p.srcNdMatrixStride = (uint16_t)(s.bstride / per);
            p.srcDValue = (uint16_t)(ld / per);
            p.dstNzC0Stride = (uint16_t)((nd2nz ? d.sc1 : d.sr1) / C0);
            p.dstNzNStride = 1;
            p.dstNzMatrixStride = (uint16_t)(d.bstride / per);
            ARC_CHECK(s.bstride <= 65535 && d.bstride <= 65535 && n <= 65535 && dv <= 65535, api,
                      "a batch stride (%lld, %lld) or an extent (%lld, %lld) exceeds the ND2NZ copy's 16-bit fields",
                      (long long)s.bstride, (long long)d.bstride, (long long)n, (long long)dv);
            DataCopy(l1, global_of(src, api, "src"), p);
            return;
        }
    }
    /* Everything else element by element; a fractal destination's 32-byte
     * rows are zero-filled past the source, as ND2NZ does. */
    int64_t prow = s.rows, pcol = s.cols;
    if (is_frac_v<PD> && d.sc0 == 1 && d.c0 > 1) pcol = align_up(s.cols, d.c0);
    if (is_frac_v<PD> && d.sr0 == 1 && d.r0 > 1) prow = align_up(s.rows, d.r0);
    move(dst, d, src, s, s.rows, s.cols, prow, pcol, nb, __arc::RP_MTE2, api);
}

/* GM (NHWC, NCHW, NC1HWC0) -> L1 (NC1HWC0), N = 1: C splits into C1 x C0,
 * channels past C are zeros. */
template <typename Elem, typename LD, typename LS>
__aicore__ inline void conv_in(const TeTensor<Elem, LD> &dst, const TeTensor<Elem, LS> &src)
{
    const char *api = "AscendC::Te::Copy(CopyGM2L1, feature map)";
    using PS = typename LS::pattern;
    static_assert(std::is_same<typename LD::pattern, NC1HWC0LayoutPtn>::value,
                  "AscendC::Te::Copy(CopyGM2L1): a feature map goes into an NC1HWC0 layout in L1");
    const auto &ds = dst.Layout().Shape();
    const auto &dd = dst.Layout().Stride();
    const auto &ss = src.Layout().Shape();
    const auto &sd = src.Layout().Stride();
    int64_t c1 = lay_val(std::get<1>(ds)), h = lay_val(std::get<2>(ds)), w = lay_val(std::get<3>(ds)), c0 = lay_val(std::get<4>(ds));
    ARC_CHECK(lay_val(std::get<0>(ds)) == 1 && lay_val(std::get<0>(ss)) == 1, api, "only N = 1 is supported (the page's limit)");
    int64_t sh, sw, sc, hs, ws, cs;
    if constexpr (std::is_same<PS, NHWCLayoutPtn>::value) {
        sh = lay_val(std::get<1>(ss)), sw = lay_val(std::get<2>(ss)), sc = lay_val(std::get<3>(ss));
        hs = lay_val(std::get<1>(sd)), ws = lay_val(std::get<2>(sd)), cs = lay_val(std::get<3>(sd));
    } else if constexpr (std::is_same<PS, NCHWLayoutPtn>::value) {
        sc = lay_val(std::get<1>(ss)), sh = lay_val(std::get<2>(ss)), sw = lay_val(std::get<3>(ss));
        cs = lay_val(std::get<1>(sd)), hs = lay_val(std::get<2>(sd)), ws = lay_val(std::get<3>(sd));
    } else {
        static_assert(std::is_same<PS, NC1HWC0LayoutPtn>::value,
                      "AscendC::Te::Copy(CopyGM2L1): a feature map comes from NHWC, NCHW or NC1HWC0");
        ARC_CHECK(lay_val(std::get<4>(ss)) == c0, api, "the source's C0 %lld differs from the destination's %lld",
                  (long long)lay_val(std::get<4>(ss)), (long long)c0);
        sh = lay_val(std::get<2>(ss)), sw = lay_val(std::get<3>(ss)), sc = lay_val(std::get<1>(ss)) * c0;
        hs = lay_val(std::get<2>(sd)), ws = lay_val(std::get<3>(sd)), cs = 0;
    }
    ARC_CHECK(sh == h && sw == w && sc <= c1 * c0, api,
              "the source's H %lld, W %lld, C %lld do not match the destination's H %lld, W %lld, C1 x C0 %lld",
              (long long)sh, (long long)sw, (long long)sc, (long long)h, (long long)w, (long long)(c1 * c0));
    int64_t n = c1 * h * w * c0;
    int64_t last = (h - 1) * hs + (w - 1) * ws + 1 + (std::is_same<PS, NC1HWC0LayoutPtn>::value
                                                            ? (lay_val(std::get<1>(ss)) - 1) * lay_val(std::get<1>(sd)) + c0 - 1
                                                            : (sc - 1) * cs);
    side(src, last, false, __arc::RP_MTE2, api, "src");
    side(dst, n, true, __arc::RP_MTE2, api, "dst");
    Elem *o = dst.Data(), zero;
    const Elem *in = src.Data();
    __builtin_memset((void *)&zero, 0, sizeof zero);
    for (int64_t a = 0; a < c1; a++)
        for (int64_t y = 0; y < h; y++)
            for (int64_t x = 0; x < w; x++)
                for (int64_t z = 0; z < c0; z++) {
                    int64_t c = a * c0 + z, at;
                    if constexpr (std::is_same<PS, NC1HWC0LayoutPtn>::value)
                        at = a * lay_val(std::get<1>(sd)) + y * hs + x * ws + z;
                    else at = y * hs + x * ws + c * cs;
                    o[a * lay_val(std::get<1>(dd)) + y * lay_val(std::get<2>(dd)) + x * lay_val(std::get<3>(dd)) + z] =
                        c < sc ? in[at] : zero;
                }
}

/* L1 -> L0A / L0B: whole 512-byte fractals through LoadData2DParamsV2.
 * `m` is the direction whose fractals are adjacent in both buffers. */
template <typename Elem, typename LD, typename LS>
__aicore__ inline void l12l0(const TeTensor<Elem, LD> &dst, const TeTensor<Elem, LS> &src, TPosition want, const char *api)
{
    using PD = typename LD::pattern;
    using PS = typename LS::pattern;
    constexpr bool a_side = std::is_same<PD, NZLayoutPtn>::value;
    static_assert(is_frac_v<PD> && is_frac_v<PS>, "AscendC::Te::Copy(L1 -> L0): NZ or ZN layouts on both sides");
    LocalTensor<Elem> l0 = local_of(dst, want, api, "dst");
    LocalTensor<Elem> l1 = local_of(src, TPosition::A1, api, "src");
    Mat d = mat(dst.Layout()), s = mat(src.Layout());
    const int64_t F = 512 / (int64_t)sizeof(Elem) * per_v<Elem>;
    const bool tr = !std::is_same<PD, PS>::value;
    /* fractal counts of the source: rows and columns in fractals */
    int64_t rf = s.rows / s.r0, cf = s.cols / s.c0;
    ARC_CHECK(s.r0 * s.c0 == F && d.r0 * d.c0 == F, api, "the layouts' fractals are not 512 bytes of %s",
              __arc::tname<Elem>());
    ARC_CHECK(s.rows <= d.rows && s.cols <= d.cols, api,
              "the source's %lld x %lld does not fit the destination's %lld x %lld", (long long)s.rows,
              (long long)s.cols, (long long)d.rows, (long long)d.cols);
    /* NZ's row fractals and ZN's column fractals are adjacent */
    const bool s_nz = std::is_same<PS, NZLayoutPtn>::value;
    int64_t s_unit = s_nz ? s.sr1 : s.sc1, s_far = s_nz ? s.sc1 : s.sr1;
    int64_t d_unit = a_side ? d.sr1 : d.sc1, d_far = a_side ? d.sc1 : d.sr1;
    ARC_CHECK(s_unit == F && d_unit == F && s_far % F == 0 && d_far % F == 0, api,
              "the layouts' fractals are not whole and adjacent (strides %lld, %lld of the source, %lld, %lld of the "
              "destination; %lld elements per fractal)", (long long)s_unit, (long long)s_far, (long long)d_unit,
              (long long)d_far, (long long)F);
    int64_t nb = batch_of(d, s);
    if (tr && sizeof(Elem) != 2) {
        /* b8 / b32 transposes: the matrix moves element by element (its
         * fractals transposed 16 x 16 at a time on the NPU), with the
         * page's alignment rules */
        int64_t kdim = a_side ? s.cols : s.rows, other = a_side ? s.rows : s.cols;
        ARC_CHECK(sizeof(Elem) != 4 || kdim % 16 == 0, api,
                  "a b32 transposing copy needs K (%lld) a multiple of 16", (long long)kdim);
        ARC_CHECK(sizeof(Elem) != 1 || other % 32 == 0, api,
                  "a b8 transposing copy needs %s (%lld) a multiple of 32", a_side ? "M" : "N", (long long)other);
        move(dst, d, src, s, s.rows, s.cols, s.rows, s.cols, nb, __arc::RP_MTE1, api);
        uint64_t *bits = __cube::l0_bits(want);
        uint32_t f0 = __cube::frac_of(l0.addr_, want, 512);
        for (int64_t b = 0; b < nb; b++)
            for (int64_t rb = 0; rb < ceil_div(s.rows, d.r0); rb++)
                for (int64_t cb = 0; cb < ceil_div(s.cols, d.c0); cb++)
                    __arc::frac_mark(bits, f0 + (uint32_t)((b * d.bstride + rb * d.sr1 + cb * d.sc1) / F), 1);
        return;
    }
    LoadData2DParamsV2 p;
    p.mStep = (uint16_t)(s_nz ? rf : cf);
    p.kStep = (uint16_t)(s_nz ? cf : rf);
    p.srcStride = (int32_t)(s_far / F);
    p.dstStride = (uint16_t)(d_far / F);
    p.ifTranspose = tr;
    for (int64_t b = 0; b < nb; b++)
        LoadData(l0[(uint32_t)(b * d.bstride / mx_per<Elem>::value)], l1[(uint32_t)(b * s.bstride / mx_per<Elem>::value)], p);
}

/* L1 -> L0ScaleA (ZZ) / L0ScaleB (NN): the MX scales' 32-byte fractals (16
 * rows x 2 scales of A, 2 scales x 16 columns of B) through the C++ API's
 * MX scale load, which marks them for MmadMx's check. */
template <typename Elem, typename LD, typename LS>
__aicore__ inline void l12scale(const TeTensor<Elem, LD> &dst, const TeTensor<Elem, LS> &src, TPosition side,
                                const char *api)
{
    static_assert(std::is_same<Elem, fp8_e8m0_t>::value, "AscendC::Te::Copy(CopyL12L0ScaleA/B): scales are fp8_e8m0_t");
    const bool a_side = side == TPosition::A2;
    using P = std::conditional_t<std::is_same<typename LD::pattern, NNLayoutPtn>::value, NNLayoutPtn, ZZLayoutPtn>;
    static_assert(std::is_same<typename LD::pattern, P>::value && std::is_same<typename LS::pattern, P>::value,
                  "AscendC::Te::Copy(CopyL12L0ScaleA/B): ZZ (scaleA) or NN (scaleB) layouts on both sides");
    TPosition want = a_side ? SCALE_A : SCALE_B;
    ARC_CHECK(dst.Position() == want, api, "dst is in %s; this path needs it in %s", loc_name(dst.Position()),
              loc_name(want));
    ARC_CHECK(a_side == (std::is_same<P, ZZLayoutPtn>::value), api, "scaleA is ZZ, scaleB is NN");
    local_of(src, TPosition::A1, api, "src");
    Mat d = mat(dst.Layout()), s = mat(src.Layout());
    ARC_CHECK(d.batch == 1 && s.batch == 1, api, "batched scales are not simulated yet");
    ARC_CHECK(s.rows <= d.rows && s.cols <= d.cols, api, "the source's %lld x %lld does not fit the destination's %lld x %lld",
              (long long)s.rows, (long long)s.cols, (long long)d.rows, (long long)d.cols);
    /* x: the fractals' far direction, y: the adjacent one (32 bytes apart) */
    int64_t xs, ys, ss, ds;
    if (a_side) xs = ceil_div(s.rows, 16), ys = ceil_div(s.cols, 2), ss = s.sr1 / 32, ds = d.sr1 / 32;
    else xs = ceil_div(s.cols, 16), ys = ceil_div(s.rows, 2), ss = s.sc1 / 32, ds = d.sc1 / 32;
    __arc_uses(ARC_USES_CUBE);
    uint32_t off = (uint32_t)((const uint8_t *)dst.Data() - __arc::mx::buf(side));
    __arc::mx::load_scales(side, off, (const uint8_t *)src.Data(), src.BytesLeft(), 0, 0, (uint32_t)xs, (uint32_t)ys,
                           (int32_t)ss, (uint32_t)ds, api);
}

/* Img2Col: L1 NC1HWC0 (N = 1) -> L0A NZ, the C++ API's 3D load window
 * (arc/cube_load.h's load3d_into: row m is output pixel (m / Wout,
 * m % Wout), column k is (c1, kh, kw, c0), c0 fastest; pixels in the
 * padding take padValue) placed by the NZ layout of the destination. */
template <typename Elem, typename LD, typename LS>
__aicore__ inline void img2col(const TeTensor<Elem, LD> &dst, const TeTensor<Elem, LS> &src, const Img2ColParams<Elem> &p)
{
    const char *api = "AscendC::Te::Copy(CopyL12L0A, Img2ColParams)";
    static_assert(std::is_same<typename LS::pattern, NC1HWC0LayoutPtn>::value &&
                      std::is_same<typename LD::pattern, NZLayoutPtn>::value,
                  "AscendC::Te::Copy(CopyL12L0A, Img2ColParams): an NC1HWC0 source in L1, an NZ destination in L0A");
    static_assert(per_v<Elem> == 1, "AscendC::Te::Copy(CopyL12L0A, Img2ColParams): no b4 types (the page)");
    LocalTensor<Elem> l0 = local_of(dst, TPosition::A2, api, "dst");
    LocalTensor<Elem> l1 = local_of(src, TPosition::A1, api, "src");
    ARC_CHECK(!p.transpose && !p.fMatrixCtrl, api, "transpose and fMatrixCtrl are not simulated yet");
    const auto &ss = src.Layout().Shape();
    const auto &sd = src.Layout().Stride();
    int64_t c1n = lay_val(std::get<1>(ss)), ih_n = lay_val(std::get<2>(ss)), iw_n = lay_val(std::get<3>(ss)), c0n = lay_val(std::get<4>(ss));
    ARC_CHECK(lay_val(std::get<0>(ss)) == 1, api, "only N = 1 is supported (the page's limit)");
    constexpr int64_t C0 = 32 / (int64_t)sizeof(Elem);
    ARC_CHECK(c0n == C0, api, "the source's C0 %lld is not 32 bytes of %s (%lld)", (long long)c0n, __arc::tname<Elem>(),
              (long long)C0);
    ARC_CHECK(lay_val(std::get<1>(sd)) == ih_n * iw_n * C0 && lay_val(std::get<2>(sd)) == iw_n * C0 && lay_val(std::get<3>(sd)) == C0,
              api, "the source feature map must be contiguous NC1HWC0");
    Mat d = mat(dst.Layout());
    ARC_CHECK(d.r0 == 16 && d.c0 == C0 && d.sr0 == C0 && d.sr1 == 16 * C0, api, "the destination is not NZ of %s",
              __arc::tname<Elem>());
    int64_t me = p.mExtension, ke = p.kExtension;
    if (me == 0 || ke == 0) return;
    ARC_CHECK(me <= d.rows && ke <= d.cols, api, "mExtension %lld x kExtension %lld exceed the destination's %lld x %lld",
              (long long)me, (long long)ke, (long long)d.rows, (long long)d.cols);
    ARC_CHECK((me % 16 == 0 || align_up(me, 16) == d.rows) && ke % C0 == 0, api,
              "mExtension %lld must be a multiple of 16 unless it reaches the destination's last fractal row, "
              "kExtension %lld a multiple of %lld", (long long)me, (long long)ke, (long long)C0);
    ARC_CHECK(c1n * C0 <= 65535 && ih_n <= 32767 && iw_n <= 32767, api, "the feature map (C %lld, H %lld, W %lld) is "
              "beyond the 3D load's fields", (long long)(c1n * C0), (long long)ih_n, (long long)iw_n);
    LoadData3DParamsV2<Elem> q;
    for (uint32_t i = 0; i < PAD_SIZE; i++) q.padList[i] = p.padList[i];
    q.l1H = (uint16_t)ih_n, q.l1W = (uint16_t)iw_n, q.channelSize = (uint16_t)(c1n * C0);
    q.kExtension = (uint16_t)ke, q.mExtension = (uint16_t)me;
    q.strideW = p.strideW, q.strideH = p.strideH, q.filterW = p.filterW, q.filterH = p.filterH;
    q.dilationFilterW = p.dilationFilterW, q.dilationFilterH = p.dilationFilterH;
    q.filterSizeW = p.filterSizeW, q.filterSizeH = p.filterSizeH, q.padValue = p.padValue;
    __arc_uses(ARC_USES_CUBE);
    __cube::load3d_into(l0, l1, q, [&](uint64_t mm, uint64_t kk) { return (uint64_t)d.at((int64_t)mm, (int64_t)kk); },
                        "dst", api);
}

/* L1 -> BiasTable (float / int32_t; half becomes float) and L1 -> Fixpipe buffer (uint64_t). */
template <typename Ed, typename Es, typename LD, typename LS>
__aicore__ inline void l12bt(const TeTensor<Ed, LD> &dst, const TeTensor<Es, LS> &src)
{
    const char *api = "AscendC::Te::Copy(CopyL12BT)";
    LocalTensor<Ed> bt = local_of(dst, TPosition::C2, api, "dst");
    LocalTensor<Es> l1 = local_of(src, TPosition::A1, api, "src");
    Mat d = mat(dst.Layout()), s = mat(src.Layout());
    ARC_CHECK(s.rows == 1 && s.cols <= d.cols, api, "the bias is one row of at most %lld values (the source is %lld x %lld)",
              (long long)d.cols, (long long)s.rows, (long long)s.cols);
    /* dav-3510 counts 32-byte units, an even number of them (the C++ API's page) */
    uint16_t blocks = (uint16_t)((s.cols * (int64_t)sizeof(Es) + 63) / 64 * 2);
    int64_t nb = batch_of(d, s);
    for (int64_t b = 0; b < nb; b++)
        __cube_copy_to_bt(bt[(uint32_t)(b * d.bstride)], l1[(uint32_t)(b * s.bstride)], DataCopyParams(1, blocks, 0, 0));
}
template <typename Elem, typename LD, typename LS>
__aicore__ inline void l12fb(const TeTensor<Elem, LD> &dst, const TeTensor<Elem, LS> &src)
{
    const char *api = "AscendC::Te::Copy(CopyL12FB)";
    LocalTensor<Elem> fb = local_of(dst, TPosition::C2PIPE2GM, api, "dst");
    LocalTensor<Elem> l1 = local_of(src, TPosition::A1, api, "src");
    Mat s = mat(src.Layout());
    /* whole 128-byte blocks, counted in dav-3510's 64-byte units */
    __cube_copy_to_fb(fb, l1, DataCopyParams(1, (uint16_t)((s.rows * s.cols * (int64_t)sizeof(Elem) + 127) / 128 * 2), 0, 0));
}
} // namespace __te
} // namespace Te
} // namespace AscendC

#endif /* ARC_TE_COPY_IN_H_ */
