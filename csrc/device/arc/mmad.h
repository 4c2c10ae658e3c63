/* mmad.h - Mmad: C (+)= A x B on L0A (ZZ), L0B (ZN) and L0C (NZ, 16x16
 * fractals; "Cube unit" in csrc/device/README.md).  Padding of partial fractals takes part on
 * the NPU but its results are ignored; here the K sum stops at k, so
 * uninitialised padding never reaches a used result.
 *
 * Speed: B's fractals are first turned into rows of 16 n-values in the
 * accumulator type, then arc/cube_micro.h's microkernel runs each column
 * block (its order of sums is documented there). */
#ifndef ARC_MMAD_H_
#define ARC_MMAD_H_

#include "arc/cost.h"
#include "arc/cube_load.h"
#include "arc/cube_micro.h"
#include "arc/lowp.h"

namespace AscendC {
namespace __cube {

template <typename A> struct acc_of { typedef float type; };
template <> struct acc_of<int8_t> { typedef int32_t type; };
template <> struct acc_of<uint8_t> { typedef int32_t type; };
template <> struct acc_of<int4b_t> { typedef int32_t type; };

/* Element i of an L0A/L0B buffer in the accumulator type; int4b_t packs
 * two per byte, the first in the low nibble (arc/types.h). */
template <typename A> inline typename acc_of<A>::type widen_at(const A *p, uint64_t i)
{
    if constexpr (__arc::packed_per_byte<A>::value > 1) return __arc::packed_get(p, i);
    else if constexpr (__arc::is_same<A, bfloat16_t>::value) return p[i].ToFloat();
    else return (typename acc_of<A>::type)p[i];
}
/* Elements in 32 bytes: a fractal row (C0). */
template <typename A> constexpr uint32_t c0_elems() { return 32u * __arc::packed_per_byte<A>::value / (uint32_t)sizeof(A); }

/* The product kernel.  a: ZZ (dav-3510: NZ; or a plain row when gemv), b: ZN, c: L0C NZ
 * with m1 * 16 rows per column block.  init: 0 overwrite, 1 accumulate,
 * 2 bias row.  A and B are first widened to the accumulator type (A as
 * rows of KP values, B as rows of 16 n-values per k). */
template <typename TA, typename TB, typename TC>
inline void mmad_kernel(TC *c, const TA *a, const TB *b, const TC *bias, uint32_t m, uint32_t n, uint32_t k,
                        uint32_t kalign, int init)
{
    typedef typename acc_of<TA>::type ACC;
    static_assert(__arc::is_same<ACC, TC>::value && __arc::is_same<typename acc_of<TB>::type, TC>::value,
                  "accumulator and L0C element differ");
    static_assert(sizeof(TA) == sizeof(TB), "fm and filter elements of one size (one C0)");
    constexpr uint32_t C0 = c0_elems<TA>();
    const bool gemv = m == 1;
    const uint32_t M1 = (m + 15) / 16, N1 = (n + 15) / 16;
    const uint32_t K1 = (kalign + C0 - 1) / C0; /* fractals along K in L0A/L0B */
    const uint32_t KF = (k + C0 - 1) / C0;      /* fractals holding real k */
    const uint32_t KP = KF * C0;                /* k rounded to whole fractals */
    /* A widened: rows of KP values (zero past k), 16 rows per fractal row. */
    const uint32_t rows = gemv ? 1 : M1 * 16;
    ACC *aw = (ACC *)__builtin_alloca((size_t)rows * KP * sizeof(ACC));
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t kk = 0; kk < KP; kk++) {
            /* fractal (r / 16, kk / C0): Zz on dav-2201, Nz on dav-3510 (Nz x Zn = Nz) */
            uint64_t fr = __NPU_ARCH__ == 3510 ? (uint64_t)(kk / C0) * M1 + r / 16 : (uint64_t)(r / 16) * K1 + kk / C0;
            uint64_t at = gemv ? kk : fr * 16 * C0 + (r % 16) * C0 + kk % C0;
            aw[(uint64_t)r * KP + kk] = kk < k ? widen_at(a, at) : (ACC)0;
        }
    /* B panel of one n-fractal column: KP rows of 16 accumulator lanes. */
    ACC *bt = (ACC *)__builtin_alloca((size_t)KP * 16 * sizeof(ACC));
    for (uint32_t ni = 0; ni < N1; ni++) {
        for (uint32_t ki = 0; ki < KF; ki++) {
            const uint64_t f = ((uint64_t)ki * N1 + ni) * 16 * C0; /* the fractal's first element */
            for (uint32_t kk = 0; kk < C0; kk++)
                for (uint32_t nn = 0; nn < 16; nn++) /* rows past k may hold anything (NaN): zero them */
                    bt[(ki * C0 + kk) * 16 + nn] = ki * C0 + kk < k ? widen_at(b, f + nn * C0 + kk) : (ACC)0;
        }
        ACC b0[16];
        for (uint32_t nn = 0; nn < 16; nn++) b0[nn] = init == 2 ? (ACC)bias[ni * 16 + nn] : (ACC)0;
        /* L0C's column block ni: rows of 16 values, one after the other */
        __arc::micro::panel<__arc::is_same<TA, half>::value>(c + (uint64_t)ni * M1 * 256, 16, aw, KP, bt, rows, KP,
                                                             init == 1, b0);
    }
}

/* Ascend 950's 8-bit floating operands (its Mmad page's tables): fp8
 * (e4m3fn, e5m2, mixed) or hifloat8_t on both sides, into float; each
 * value widens to float exactly, the sums as for half (arc/cube_micro.h). */
template <typename T> constexpr bool is_fp8()
{
    return __arc::is_same<T, fp8_e4m3fn_t>::value || __arc::is_same<T, fp8_e5m2_t>::value;
}
template <typename TA, typename TB, typename TC> constexpr bool mmad_950_types()
{
    return __NPU_ARCH__ == 3510 && __arc::is_same<TC, float>::value &&
           ((is_fp8<TA>() && is_fp8<TB>()) ||
            (__arc::is_same<TA, hifloat8_t>::value && __arc::is_same<TB, hifloat8_t>::value));
}

template <typename TC, typename TA, typename TB = TA>
inline void mmad(const LocalTensor<TC> &dst, const LocalTensor<TA> &fm, const LocalTensor<TB> &filter,
                 const TC *bias, const MmadParams &p, bool has_bias_arg, const char *api)
{
    __arc_uses(ARC_USES_CUBE);
    static_assert((__arc::is_same<TA, TB>::value &&
                   ((__arc::is_same<TA, half>::value && __arc::is_same<TC, float>::value) ||
                    (__arc::is_same<TA, bfloat16_t>::value && __arc::is_same<TC, float>::value) ||
                    (__arc::is_same<TA, float>::value && __arc::is_same<TC, float>::value) ||
                    (__arc::is_same<TA, int8_t>::value && __arc::is_same<TC, int32_t>::value) ||
                    (__arc::is_same<TA, int4b_t>::value && __arc::is_same<TC, int32_t>::value))) ||
                      mmad_950_types<TA, TB, TC>(),
                  "AscendC::Mmad: half x half -> float, bfloat16_t x bfloat16_t -> float, "
                  "float x float -> float, int8_t x int8_t -> int32_t or int4b_t x int4b_t -> int32_t; on "
                  "dav-3510 also fp8_e4m3fn_t/fp8_e5m2_t x fp8_e4m3fn_t/fp8_e5m2_t or hifloat8_t x hifloat8_t "
                  "-> float");
    if (p.m == 0 || p.n == 0 || p.k == 0) return;
    ARC_CHECK(p.m <= 4095 && p.n <= 4095 && p.k <= 4095, api, "m %u, n %u, k %u: each must be at most 4095",
              (unsigned)p.m, (unsigned)p.n, (unsigned)p.k);
    constexpr uint32_t C0 = c0_elems<TA>();
    uint32_t kalign = p.k;
    if (sizeof(TA) == 4) kalign = p.kDirectionAlign ? (p.k + 15) / 16 * 16 : (p.k + 7) / 8 * 8;
    uint32_t M1 = (p.m + 15) / 16, N1 = (p.n + 15) / 16, K1 = (kalign + C0 - 1) / C0;
    bool gemv = p.m == 1;
    uint64_t a_bytes = gemv ? (uint64_t)K1 * 32 : (uint64_t)M1 * K1 * 512;
    uint64_t b_bytes = (uint64_t)K1 * N1 * 512, c_bytes = (uint64_t)N1 * M1 * 1024;
    check_operand(fm, TPosition::A2, a_bytes, api, "fm (A2)");
    check_operand(filter, TPosition::B2, b_bytes, api, "filter (B2)");
    check_operand(dst, TPosition::CO1, c_bytes, api, "dst (CO1)");
    __arc::CubeMeta *meta = __arc::cube_meta();
    uint32_t fa = frac_of(fm.addr_, TPosition::A2, 512), fb = frac_of(filter.addr_, TPosition::B2, 512);
    uint32_t na = gemv ? (uint32_t)((a_bytes + 511) / 512) : M1 * K1;
    int64_t miss = __arc::frac_missing(meta->l0a, fa, na);
    ARC_CHECK(miss < 0, api,
              "m %u x k %u reads L0A fractals %u..%u but fractal %lld (byte %lld) was never loaded "
              "(LoadData wrote fewer fractals than Mmad's m and k need)", (unsigned)p.m, (unsigned)p.k, fa,
              fa + na - 1, (long long)miss, (long long)miss * 512);
    miss = __arc::frac_missing(meta->l0b, fb, K1 * N1);
    ARC_CHECK(miss < 0, api,
              "k %u x n %u reads L0B fractals %u..%u but fractal %lld (byte %lld) was never loaded "
              "(LoadData wrote fewer fractals than Mmad's k and n need)", (unsigned)p.k, (unsigned)p.n, fb,
              fb + K1 * N1 - 1, (long long)miss, (long long)miss * 512);
    uint32_t fc = frac_of(dst.addr_, TPosition::CO1, 1024);
    int init = p.cmatrixInitVal ? 0 : has_bias_arg || p.cmatrixSource ? 2 : 1;
    if (init == 1) {
        miss = __arc::frac_missing(meta->l0c, fc, N1 * M1);
        ARC_CHECK(miss < 0, api, "accumulating (cmatrixInitVal false) into L0C fractal %lld, which no Mmad wrote",
                  (long long)miss);
    }
    if (init == 2 && !has_bias_arg) bias = (const TC *)(const void *)__detail::arena_of(TPosition::C2).base;
    if (init == 2) {
        uint32_t fbt = (uint32_t)(((const uint8_t *)bias - __detail::arena_of(TPosition::C2).base) / 64);
        __arc::check_bias_row(fbt, N1, api); /* 16 values of 4 bytes per N1 */
    }
    __arc::cost_esize<TA>(); /* fp32 products run at half the rate of fp16 per fractal byte */
    __arc::unit_flag_wait(p.unitFlag, ARC_PIPE_FIX, ARC_PIPE_M);
    __arc::race(__arc::RP_M, 0, fm.addr_, a_bytes, api);
    __arc::race(__arc::RP_M, 0, filter.addr_, b_bytes, api);
    if (init == 2) __arc::race(__arc::RP_M, 0, bias, (uint64_t)N1 * 16 * sizeof(TC), api);
    __arc::race(__arc::RP_M, init == 1 ? 2 : 1, dst.addr_, c_bytes, api);
    __arc::unit_flag_release(p.unitFlag, ARC_PIPE_M, ARC_PIPE_FIX);
    mmad_kernel<TA, TB, TC>(dst.addr_, fm.addr_, filter.addr_, bias, p.m, p.n, p.k, kalign, init);
    __arc::frac_mark(meta->l0c, fc, N1 * M1);
}
} // namespace __cube

template <typename TC, typename TA, typename TB>
inline void Mmad(const LocalTensor<TC> &dst, const LocalTensor<TA> &fm, const LocalTensor<TB> &filter,
                 const MmadParams &p)
{
    static_assert(__arc::is_same<TA, TB>::value || __cube::mmad_950_types<TA, TB, TC>(),
                  "AscendC::Mmad: fm and filter must have the same type (dav-3510: or two fp8 types)");
    __cube::mmad<TC, TA, TB>(dst, fm, filter, nullptr, p, false, "AscendC::Mmad");
}
template <typename TC, typename TA, typename TB, typename TBias>
inline void Mmad(const LocalTensor<TC> &dst, const LocalTensor<TA> &fm, const LocalTensor<TB> &filter,
                 const LocalTensor<TBias> &bias, const MmadParams &p)
{
    static_assert(__arc::is_same<TA, TB>::value || __cube::mmad_950_types<TA, TB, TC>(),
                  "AscendC::Mmad: fm and filter must have the same type (dav-3510: or two fp8 types)");
    static_assert(__arc::is_same<TBias, TC>::value, "AscendC::Mmad: the bias has the type of dst (float or int32_t)");
    const char *api = "AscendC::Mmad(bias)";
    /* cmatrixInitVal false starts from the bias row (cmatrixSource is ignored). */
    __cube::check_operand(bias, TPosition::C2, 0, api, "bias (C2)");
    __cube::mmad<TC, TA, TB>(dst, fm, filter, bias.addr_, p, true, api);
}

/* HF32 rounding of fp32 inputs is not modelled (full fp32 products). */
inline void SetHF32Mode(bool) {}
inline void SetHF32TransMode(bool) {}
inline void SetMMLayoutTransform(bool) {}
inline void SetMMRowMajor() {}
inline void SetMMColumnMajor() {}

} // namespace AscendC

#endif /* ARC_MMAD_H_ */
