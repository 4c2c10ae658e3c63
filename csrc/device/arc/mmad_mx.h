/* mmad_mx.h - dav-3510's MX (microscaling) cube: the one owner of the MX
 * element and scale facts.  MX operands are fp8 (fp8_e4m3fn_t,
 * fp8_e5m2_t, one per byte) or fp4 pairs (fp4x2_e2m1_t, fp4x2_e1m2_t,
 * two per byte, the first in the low nibble); each block of 32 values along
 * K shares one fp8_e8m0_t scale 2^(e-127) (0xff: NaN).
 *
 * LoadData(dst, src, srcMx, LoadData2DParamsV2, LoadData2DMxParams) (the
 * "LoadData（MX矩阵搬运）" page) moves the matrix as the V2 LoadData does
 * and the scales' 32-byte fractals (16 rows x 2 scales) into L0A_MX /
 * L0B_MX, at the L0A/L0B address / 16: fractal (x, y) of the step comes
 * from (xStart + x) * srcStride + yStart + y and goes to x * dstStride + y.
 * MmadMx (its page) is C = (scaleA (x) A) (scaleB (x) B) [+ C or bias]:
 * A in L0A as Nz, B in L0B as Zn (as Mmad on dav-3510), scaleA in L0A_MX
 * as Zz and scaleB in L0B_MX as Nn: the scale of row r (m for A, n for B)
 * and K block s at byte ((r / 16) * (K / 64) + s / 2) * 32 + (r % 16) * 2 +
 * s % 2.  Each value times its scale is exact in float (at most 4
 * significant bits times a power of two, barring float's range), so the
 * sums follow Mmad's order and rounding (arc/cube_micro.h): each product
 * added in increasing k. */
#ifndef ARC_MMAD_MX_H_
#define ARC_MMAD_MX_H_

#include "arc/cube_950.h"
#include "arc/mmad.h"

namespace __arc {
namespace mx {
template <class T> struct elem {
    static constexpr bool ok = false;
    static constexpr uint32_t per = 1;
};
#define ARC_MX_ELEM(T, FMT, PER)                                                                              \
    template <> struct elem<T> {                                                                              \
        static constexpr bool ok = true;                                                                      \
        static constexpr uint32_t per = PER; /* values per byte */                                           \
        static float at(const uint8_t *p, uint64_t i)                                                         \
        {                                                                                                     \
            uint32_t b = PER == 2 ? (p[i >> 1] >> (4 * (i & 1))) & 15u : p[i];                               \
            return __arc::fp::bits_to_float(b, __arc::fp::FMT);                                               \
        }                                                                                                     \
    };
ARC_MX_ELEM(fp8_e4m3fn_t, E4M3, 1)
ARC_MX_ELEM(fp8_e5m2_t, E5M2, 1)
ARC_MX_ELEM(fp4x2_e2m1_t, E2M1, 2)
ARC_MX_ELEM(fp4x2_e1m2_t, E1M2, 2)
#undef ARC_MX_ELEM
/* Values in one 32-byte fractal row (C0): 32 fp8 or 64 fp4. */
template <class T> constexpr uint32_t c0() { return 32u * elem<T>::per; }
/* The scale buffer of L0A (A2) or L0B (B2) and the bitmap of its written 32-byte units. */
inline uint8_t *buf(AscendC::TPosition p)
{
    return __arc_core()->l0 + (p == AscendC::TPosition::A2 ? ARC_L0A_MX_OFF : ARC_L0B_MX_OFF);
}
inline uint64_t *written(AscendC::TPosition p) { return cube_meta()->mx[p == AscendC::TPosition::A2 ? 0 : 1]; }
/* The byte offset in the scale buffer of an L0A/L0B address. */
inline uint32_t mx_off(const void *l0, AscendC::TPosition p)
{
    return (uint32_t)(((const uint8_t *)l0 - AscendC::__detail::arena_of(p).base) / 16);
}
/* The scale of row r, K block s (Zz / Nn with sk scales a row). */
inline float scale(const uint8_t *mx, uint32_t r, uint32_t s, uint32_t sk)
{
    return __arc::lp::e8m0_to_f32(mx[((r / 16) * (sk / 2) + s / 2) * 32 + (r % 16) * 2 + s % 2]);
}
/* The scales' 32-byte fractals into L0A_MX / L0B_MX at byte `off`. */
inline void load_scales(AscendC::TPosition dp, uint32_t off, const uint8_t *src, uint64_t src_room, uint32_t x0,
                        uint32_t y0, uint32_t xs, uint32_t ys, int32_t ss, uint32_t ds, const char *api)
{
    if (xs == 0 || ys == 0) return;
    /* the first and last rows' ends bound the fractals read */
    int64_t s0 = (int64_t)x0 * (ss < 0 ? -ss : ss) + y0, sl = s0 + (int64_t)(xs - 1) * ss;
    int64_t lo = s0 < sl ? s0 : sl, hi = (s0 > sl ? s0 : sl) + ys - 1;
    ARC_CHECK(lo >= 0 && (uint64_t)(hi + 1) * 32 <= src_room, api,
              "the scale fractals %lld..%lld (32 bytes each) are outside srcMx's %llu bytes", (long long)lo,
              (long long)hi, (unsigned long long)src_room);
    uint64_t last = (uint64_t)(xs - 1) * ds + ys;
    ARC_CHECK(off % 32 == 0 && off + last * 32 <= ARC_MX_SIZE, api,
              "the scales (%llu fractals of 32 bytes from byte %u) exceed the 4 KB %s_MX buffer (or are not 32-byte "
              "aligned)", (unsigned long long)last, off, dp == AscendC::TPosition::A2 ? "L0A" : "L0B");
    __arc::race(__arc::RP_MTE1, 0, src + lo * 32, (uint64_t)(hi - lo + 1) * 32, api);
    uint8_t *d = buf(dp) + off;
    for (uint32_t x = 0; x < xs; x++)
        for (uint32_t y = 0; y < ys; y++) {
            __builtin_memcpy(d + ((uint64_t)x * ds + y) * 32, src + (s0 + (int64_t)x * ss + y) * 32, 32);
            frac_mark(written(dp), off / 32 + x * ds + y, 1);
        }
}

/* The product: c (float, L0C Nz) from a (L0A Nz) and b (L0B Zn) with their
 * scales; init 0 zero, 1 accumulate, 2 the bias row. */
template <class TA, class TB>
inline void mmad(float *c, const uint8_t *a, const uint8_t *b, const uint8_t *sa, const uint8_t *sb, const float *bias,
                 uint32_t m, uint32_t n, uint32_t k, int init)
{
    constexpr uint32_t CA = c0<TA>(), CB = c0<TB>();
    const uint32_t M1 = (m + 15) / 16, N1 = (n + 15) / 16, rows = M1 * 16, sk = k / 32;
    float *aw = (float *)__builtin_alloca((size_t)rows * k * sizeof(float));
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t kk = 0; kk < k; kk++)
            aw[(uint64_t)r * k + kk] =
                elem<TA>::at(a, ((uint64_t)(kk / CA) * M1 + r / 16) * 16 * CA + (r % 16) * CA + kk % CA) *
                scale(sa, r, kk / 32, sk);
    float *bt = (float *)__builtin_alloca((size_t)k * 16 * sizeof(float));
    for (uint32_t ni = 0; ni < N1; ni++) {
        for (uint32_t kk = 0; kk < k; kk++)
            for (uint32_t nn = 0; nn < 16; nn++)
                bt[kk * 16 + nn] = elem<TB>::at(b, ((uint64_t)(kk / CB) * N1 + ni) * 16 * CB + nn * CB + kk % CB) *
                                   scale(sb, ni * 16 + nn, kk / 32, sk);
        float b0[16];
        for (uint32_t nn = 0; nn < 16; nn++) b0[nn] = init == 2 ? bias[ni * 16 + nn] : 0.0f;
        __arc::micro::panel<false>(c + (uint64_t)ni * M1 * 256, 16, aw, k, bt, rows, k, init == 1, b0);
    }
}
} // namespace mx
} // namespace __arc

namespace AscendC {
struct LoadData2DMxParams {
    uint32_t xStartPosition = 0;
    uint32_t yStartPosition = 0;
    uint16_t xStep = 0;
    uint16_t yStep = 0;
    int32_t srcStride = 0;
    uint16_t dstStride = 0;
};

template <typename T, typename U>
inline void LoadData(const LocalTensor<U> &dst, const LocalTensor<T> &src, const LocalTensor<fp8_e8m0_t> &srcMx,
                     const LoadData2DParamsV2 &loadDataParams, const LoadData2DMxParams &p)
{
    const char *api = "AscendC::LoadData(LoadData2DMxParams)";
    static_assert(__arc::is_same<T, U>::value && __arc::mx::elem<T>::ok,
                  "AscendC::LoadData (MX): src and dst of one MX type (fp4x2_e2m1_t, fp4x2_e1m2_t, fp8_e4m3fn_t, "
                  "fp8_e5m2_t)");
    LoadData(dst, src, loadDataParams);
    TPosition dp = __cube::where(dst), sp = __cube::where(srcMx);
    ARC_CHECK(__cube::is_l1(sp), api, "srcMx is a %s tensor; the scales are read from L1", __cube::pos_str(srcMx.pos_));
    __arc::mx::load_scales(dp, __arc::mx::mx_off(dst.addr_, dp), (const uint8_t *)srcMx.addr_, srcMx.bytes_,
                           p.xStartPosition, p.yStartPosition, p.xStep, p.yStep, p.srcStride, p.dstStride, api);
}

namespace __cube {
template <typename T, typename U, typename S>
inline void mmad_mx(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter, const T *bias,
                    const MmadParams &p, bool has_bias_arg, const char *api)
{
    __arc_uses(ARC_USES_CUBE);
    static_assert(__arc::is_same<T, float>::value && __arc::mx::elem<U>::ok && __arc::mx::elem<S>::ok &&
                      __arc::mx::elem<U>::per == __arc::mx::elem<S>::per,
                  "AscendC::MmadMx: float from two fp4 (fp4x2_e2m1_t, fp4x2_e1m2_t) or two fp8 (fp8_e4m3fn_t, "
                  "fp8_e5m2_t) operands");
    if (p.m == 0 || p.n == 0 || p.k == 0) return;
    ARC_CHECK(p.m <= 4095 && p.n <= 4095 && p.k <= 4095 && p.k % 64 == 0, api,
              "m %u, n %u, k %u: each at most 4095 and k a multiple of 64", (unsigned)p.m, (unsigned)p.n, (unsigned)p.k);
    constexpr uint32_t C0 = __arc::mx::c0<U>(), AL = __arc::mx::elem<U>::per == 2 ? 512 : 1024;
    const uint32_t M1 = (p.m + 15) / 16, N1 = (p.n + 15) / 16, K1 = p.k / C0, sk = p.k / 32;
    check_operand(fm, TPosition::A2, (uint64_t)M1 * K1 * 512, api, "fm (A2)");
    check_operand(filter, TPosition::B2, (uint64_t)K1 * N1 * 512, api, "filter (B2)");
    check_operand(dst, TPosition::CO1, (uint64_t)N1 * M1 * 1024, api, "dst (CO1)");
    uint32_t fa = frac_of(fm.addr_, TPosition::A2, 512), fb = frac_of(filter.addr_, TPosition::B2, 512);
    ARC_CHECK(fa * 512 % AL == 0 && fb * 512 % AL == 0 && frac_of(dst.addr_, TPosition::CO1, 1) % 1024 == 0, api,
              "fm and filter must start %u-byte aligned, dst 1024-byte aligned", AL);
    __arc::CubeMeta *meta = __arc::cube_meta();
    int64_t miss = __arc::frac_missing(meta->l0a, fa, M1 * K1);
    ARC_CHECK(miss < 0, api, "m %u x k %u reads L0A fractal %lld, never loaded", (unsigned)p.m, (unsigned)p.k,
              (long long)miss);
    miss = __arc::frac_missing(meta->l0b, fb, K1 * N1);
    ARC_CHECK(miss < 0, api, "k %u x n %u reads L0B fractal %lld, never loaded", (unsigned)p.k, (unsigned)p.n,
              (long long)miss);
    uint32_t oa = __arc::mx::mx_off(fm.addr_, TPosition::A2), ob = __arc::mx::mx_off(filter.addr_, TPosition::B2);
    ARC_CHECK(oa + M1 * sk * 16 <= ARC_MX_SIZE && ob + N1 * sk * 16 <= ARC_MX_SIZE, api,
              "the scales of fm or filter run past the 4 KB L0A_MX / L0B_MX buffer");
    miss = __arc::frac_missing(__arc::mx::written(TPosition::A2), oa / 32, M1 * sk / 2);
    ARC_CHECK(miss < 0, api, "scaleA: L0A_MX bytes %lld..%lld were never loaded (LoadData with LoadData2DMxParams)",
              (long long)miss * 32, (long long)miss * 32 + 31);
    miss = __arc::frac_missing(__arc::mx::written(TPosition::B2), ob / 32, N1 * sk / 2);
    ARC_CHECK(miss < 0, api, "scaleB: L0B_MX bytes %lld..%lld were never loaded (LoadData with LoadData2DMxParams)",
              (long long)miss * 32, (long long)miss * 32 + 31);
    uint32_t fc = frac_of(dst.addr_, TPosition::CO1, 1024);
    int init = p.cmatrixInitVal ? 0 : has_bias_arg || p.cmatrixSource ? 2 : 1;
    if (init == 1) {
        miss = __arc::frac_missing(meta->l0c, fc, N1 * M1);
        ARC_CHECK(miss < 0, api, "accumulating (cmatrixInitVal false) into L0C fractal %lld, which no Mmad wrote",
                  (long long)miss);
    }
    if (init == 2 && !has_bias_arg) bias = (const T *)(const void *)__detail::arena_of(TPosition::C2).base;
    if (init == 2) {
        uint32_t fbt = (uint32_t)(((const uint8_t *)bias - __detail::arena_of(TPosition::C2).base) / 64);
        __arc::check_bias_row(fbt, N1, api);
    }
    __arc::cost_esize<U>();
    __arc::unit_flag_wait(p.unitFlag, ARC_PIPE_FIX, ARC_PIPE_M);
    __arc::race(__arc::RP_M, 0, fm.addr_, (uint64_t)M1 * K1 * 512, api);
    __arc::race(__arc::RP_M, 0, filter.addr_, (uint64_t)K1 * N1 * 512, api);
    if (init == 2) __arc::race(__arc::RP_M, 0, bias, (uint64_t)N1 * 64, api);
    __arc::race(__arc::RP_M, init == 1 ? 2 : 1, dst.addr_, (uint64_t)N1 * M1 * 1024, api);
    __arc::unit_flag_release(p.unitFlag, ARC_PIPE_M, ARC_PIPE_FIX);
    __arc::mx::mmad<U, S>(dst.addr_, (const uint8_t *)fm.addr_, (const uint8_t *)filter.addr_,
                          __arc::mx::buf(TPosition::A2) + oa, __arc::mx::buf(TPosition::B2) + ob, bias, p.m, p.n, p.k,
                          init);
    __arc::frac_mark(meta->l0c, fc, N1 * M1);
}
} // namespace __cube

template <typename T, typename U, typename S>
inline void MmadMx(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter,
                   const MmadParams &mmadParams)
{
    __cube::mmad_mx<T, U, S>(dst, fm, filter, nullptr, mmadParams, false, "AscendC::MmadMx");
}
template <typename T, typename U, typename S, typename V>
inline void MmadMx(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter,
                   const LocalTensor<V> &bias, const MmadParams &mmadParams)
{
    static_assert(__arc::is_same<V, float>::value, "AscendC::MmadMx: the bias is float");
    __cube::check_operand(bias, TPosition::C2, 0, "AscendC::MmadMx(bias)", "bias (C2)");
    __cube::mmad_mx<T, U, S>(dst, fm, filter, bias.addr_, mmadParams, true, "AscendC::MmadMx(bias)");
}
} // namespace AscendC

#endif /* ARC_MMAD_MX_H_ */
