/* mmad_sparse.h - 4:2 structured-sparse matmul on dav-2201:
 * LoadDataWithSparse (L1 -> L0B dense B fractals, plus their index
 * fractals into the cube's index buffer) and MmadWithSparse (C (+)= A x B
 * with A M x K in L0A, B the dense K/2 x N in L0B).
 *
 * From the MmadWithSparse, LoadDataWithSparse and "4:2 sparse index
 * matrix" pages: an index element is 2 bits, four to a byte with the first
 * in the low bits; index element (kd, n) belongs to dense element (kd, n)
 * and sits where B's would in a 128-byte fractal (ZN: fractal (kd / 32,
 * n / 16), inside it row n % 16 of 32 values).  The index buffer is a
 * quarter of L0B: L0B fractal f's index is at byte 128 f.  For each group
 * of four k (dense rows 2j, 2j + 1) and column n the pair (i0, i1) picks two
 * of A's four values by the pages' selection table; other pairs (an index
 * 3, or (2, 1)) are not described and stop the kernel. */
#ifndef ARC_MMAD_SPARSE_H_
#define ARC_MMAD_SPARSE_H_

#include "arc/mmad.h"

namespace AscendC {

/* LoadDataWithSparse's parameters: only startIndex and repeatTimes are used. */
struct LoadData2dParams {
    uint16_t startIndex = 0, repeatTimes = 0, srcStride = 0, sid = 0, dstGap = 0;
    bool ifTranspose = false;
    uint8_t addrMode = 0;
};

namespace __cube {
static inline uint8_t *sparse_idx() { return __arc_core()->l0 + ARC_SPARSE_IDX_OFF; }
/* The index pair's two positions in A's group of four (the pages' table);
 * false for a pair the table does not list. */
static inline bool sparse_pick(uint32_t i0, uint32_t i1, uint32_t *p0, uint32_t *p1)
{
    if (i0 > 2 || i1 > 2 || (i0 == 2 && i1 == 1)) return false;
    *p0 = i0;
    *p1 = i1 + 1 > i0 ? i1 + 1 : i0; /* (1, 0) and (2, 0) pick one value twice */
    return true;
}
} // namespace __cube

/* L1 -> L0B: repeatTimes consecutive 512-byte fractals of dense B from
 * fractal startIndex, and the same index fractals (128 bytes each) of idx
 * into the index buffer beside dst's fractals. */
template <typename T, typename U, typename P>
inline void LoadDataWithSparse(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<U> &idx,
                               const P &p)
{
    __arc_uses(ARC_USES_CUBE);
    const char *api = "AscendC::LoadDataWithSparse";
    static_assert(__arc::is_same<T, int8_t>::value && __arc::is_same<U, uint8_t>::value,
                  "AscendC::LoadDataWithSparse: dst and src int8_t, idx uint8_t");
    if (p.repeatTimes == 0) return;
    ARC_CHECK(!p.ifTranspose, api, "ifTranspose: LoadDataWithSparse does not transpose");
    ARC_CHECK(__cube::where(dst) == TPosition::B2, api, "dst is a %s tensor; LoadDataWithSparse writes L0B (B2)",
              __cube::pos_str(dst.pos_));
    TPosition sp = __cube::where(src), ip = __cube::where(idx);
    ARC_CHECK(__cube::is_l1(sp) && __cube::is_l1(ip), api, "src (%s) and idx (%s) must be in L1",
              __cube::pos_str(src.pos_), __cube::pos_str(idx.pos_));
    uint64_t n = p.repeatTimes, first = p.startIndex;
    __cube::check_operand(src, sp, (first + n) * 512, api, "src (dense B)");
    __cube::check_operand(idx, ip, (first + n) * 128, api, "idx (index fractals)");
    __cube::check_operand(dst, TPosition::B2, n * 512, api, "dst (L0B)");
    uint32_t f0 = __cube::frac_of(dst.addr_, TPosition::B2, 512);
    ARC_CHECK((uint64_t)(f0 + n) * 128 <= ARC_SPARSE_IDX_SIZE, api,
              "L0B fractals %u..%u have no room in the %u-byte index buffer", f0, (unsigned)(f0 + n - 1),
              ARC_SPARSE_IDX_SIZE);
    const uint8_t *s = (const uint8_t *)src.addr_ + first * 512, *x = (const uint8_t *)idx.addr_ + first * 128;
    __arc::race(__arc::RP_MTE1, 0, s, n * 512, api);
    __arc::race(__arc::RP_MTE1, 0, x, n * 128, api);
    __arc::race(__arc::RP_MTE1, 1, dst.addr_, n * 512, api);
    __builtin_memcpy((void *)dst.addr_, s, n * 512);
    __builtin_memcpy(__cube::sparse_idx() + (uint64_t)f0 * 128, x, n * 128);
    __arc::frac_mark(__cube::l0_bits(TPosition::B2), f0, (uint32_t)n);
    __arc::frac_mark(__arc::cube_meta()->sidx, f0, (uint32_t)n);
}

/* C (m x n int32) (+)= A (m x k int8, ZZ) x B (k/2 x n int8 dense, ZN, with
 * its index from LoadDataWithSparse); k counts A's columns. */
template <typename TC, typename TA>
inline void MmadWithSparse(const LocalTensor<TC> &dst, const LocalTensor<TA> &fm, const LocalTensor<TA> &filter,
                           const MmadParams &p)
{
    __arc_uses(ARC_USES_CUBE);
    const char *api = "AscendC::MmadWithSparse";
    static_assert(__arc::is_same<TC, int32_t>::value && __arc::is_same<TA, int8_t>::value,
                  "AscendC::MmadWithSparse: int8_t x int8_t -> int32_t");
    if (p.m == 0 || p.n == 0 || p.k == 0) return;
    ARC_CHECK(p.m <= 4095 && p.n <= 4095 && p.k <= 4095, api, "m %u, n %u, k %u: each must be at most 4095",
              (unsigned)p.m, (unsigned)p.n, (unsigned)p.k);
    ARC_CHECK(p.k % 4 == 0, api, "k %u is not a multiple of 4 (A's groups of four)", (unsigned)p.k);
    ARC_CHECK(p.m > 1, api, "m 1: GEMV is not described for MmadWithSparse (CATLASS passes m 16)");
    ARC_CHECK(!p.kDirectionAlign, api, "kDirectionAlign must be false in the sparse case");
    const uint32_t M1 = (p.m + 15) / 16, N1 = (p.n + 15) / 16, K1 = (p.k + 31) / 32, KD1 = (p.k / 2 + 31) / 32;
    __cube::check_operand(fm, TPosition::A2, (uint64_t)M1 * K1 * 512, api, "fm (A2)");
    __cube::check_operand(filter, TPosition::B2, (uint64_t)KD1 * N1 * 512, api, "filter (B2)");
    __cube::check_operand(dst, TPosition::CO1, (uint64_t)N1 * M1 * 1024, api, "dst (CO1)");
    __arc::CubeMeta *meta = __arc::cube_meta();
    uint32_t fa = __cube::frac_of(fm.addr_, TPosition::A2, 512), fb = __cube::frac_of(filter.addr_, TPosition::B2, 512);
    int64_t miss = __arc::frac_missing(meta->l0a, fa, M1 * K1);
    ARC_CHECK(miss < 0, api, "m %u x k %u reads L0A fractal %lld, which no load wrote", (unsigned)p.m, (unsigned)p.k,
              (long long)miss);
    miss = __arc::frac_missing(meta->l0b, fb, KD1 * N1);
    ARC_CHECK(miss < 0, api, "k/2 %u x n %u reads L0B fractal %lld, which no load wrote", (unsigned)p.k / 2,
              (unsigned)p.n, (long long)miss);
    miss = __arc::frac_missing(meta->sidx, fb, KD1 * N1);
    ARC_CHECK(miss < 0, api, "the index of L0B fractal %lld was never loaded (LoadDataWithSparse loads it)",
              (long long)miss);
    uint32_t fc = __cube::frac_of(dst.addr_, TPosition::CO1, 1024);
    int init = p.cmatrixInitVal ? 0 : p.cmatrixSource ? 2 : 1;
    if (init == 1) {
        miss = __arc::frac_missing(meta->l0c, fc, N1 * M1);
        ARC_CHECK(miss < 0, api, "accumulating (cmatrixInitVal false) into L0C fractal %lld, which no Mmad wrote",
                  (long long)miss);
    }
    const int32_t *bias = (const int32_t *)(const void *)__detail::arena_of(TPosition::C2).base;
    if (init == 2)
        __arc::check_bias_row(0, N1, api);
    __arc::cost_esize<TA>();
    __arc::unit_flag_wait(p.unitFlag, ARC_PIPE_FIX, ARC_PIPE_M);
    __arc::race(__arc::RP_M, 0, fm.addr_, (uint64_t)M1 * K1 * 512, api);
    __arc::race(__arc::RP_M, 0, filter.addr_, (uint64_t)KD1 * N1 * 512, api);
    __arc::race(__arc::RP_M, init == 1 ? 2 : 1, dst.addr_, (uint64_t)N1 * M1 * 1024, api);
    __arc::unit_flag_release(p.unitFlag, ARC_PIPE_M, ARC_PIPE_FIX);
    const int8_t *a = fm.addr_, *b = filter.addr_;
    const uint8_t *ix = __cube::sparse_idx() + (uint64_t)fb * 128;
    int32_t *c = dst.addr_;
    uint32_t *pick = (uint32_t *)__builtin_alloca((size_t)(p.k / 4) * 2 * sizeof(uint32_t));
    for (uint32_t nn = 0; nn < p.n; nn++) {
        /* this column's picks: A positions 4j + p0, 4j + p1 for dense rows 2j, 2j + 1 */
        for (uint32_t kd = 0; kd < p.k / 2; kd++) {
            uint32_t e = (kd / 32 * N1 + nn / 16) * 512 + (nn % 16) * 32 + kd % 32; /* index element */
            pick[kd] = ix[e / 4] >> (e % 4 * 2) & 3;
        }
        for (uint32_t j = 0; j < p.k / 4; j++) {
            uint32_t i0 = pick[2 * j], i1 = pick[2 * j + 1];
            ARC_CHECK(__cube::sparse_pick(i0, i1, &pick[2 * j], &pick[2 * j + 1]), api,
                      "index pair (%u, %u) for k %u..%u of column %u is not in the selection table (indices are 0..2; "
                      "(2, 1) is not listed)", i0, i1, 4 * j, 4 * j + 3, nn);
        }
        for (uint32_t mm = 0; mm < p.m; mm++) {
            int32_t *o = c + (uint64_t)(nn / 16) * M1 * 256 + mm * 16 + nn % 16;
            int32_t acc = init == 0 ? 0 : init == 2 ? bias[nn] : *o;
            for (uint32_t kd = 0; kd < p.k / 2; kd++) {
                uint32_t k = kd / 2 * 4 + pick[kd];
                int32_t av = a[((uint64_t)(mm / 16) * K1 + k / 32) * 512 + (mm % 16) * 32 + k % 32];
                int32_t bv = b[((uint64_t)(kd / 32) * N1 + nn / 16) * 512 + (nn % 16) * 32 + kd % 32];
                acc = (int32_t)((uint32_t)acc + (uint32_t)(av * bv)); /* int32 wraps */
            }
            *o = acc;
        }
    }
    __arc::frac_mark(meta->l0c, fc, N1 * M1);
}

} // namespace AscendC

#endif /* ARC_MMAD_SPARSE_H_ */
