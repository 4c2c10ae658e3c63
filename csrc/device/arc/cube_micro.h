/* cube_micro.h - the product microkernel shared by Mmad and the Matmul API:
 * C rows (+)= A rows x a B panel of 16 columns, in the accumulator type.
 *
 * Order (what the simulated cube computes, docs/simulated_npu.md): each C
 * element starts from its initial value (0, the bias, or C itself) and adds
 * the K products one at a time in increasing k, rounding after each add.
 * Speed: 6 rows x 16 lanes of C stay in vector registers over all of K, so
 * one B row load feeds 6 broadcast multiply-adds.  Where a product is exact
 * in the accumulator (half x half in float: 11 + 11 significand bits fit in
 * 24; integers) the multiply-add is fused, which rounds exactly as the
 * separate multiply and add do; float and bfloat16_t inputs (whose products
 * can round or leave float's range) keep the separate multiply and add. */
#ifndef ARC_CUBE_MICRO_H_
#define ARC_CUBE_MICRO_H_

#include <stddef.h>
#include <stdint.h>

namespace __arc {
namespace micro {

template <class T> using v16 = T __attribute__((ext_vector_type(16)));

/* The vectors go by reference: a 64-byte vector passed or returned by value
 * changes the x86-64 ABI without AVX-512 (clang's -Wpsabi at each call the
 * optimiser has not inlined yet, e.g. at -O0). */
template <class T> inline void load16(v16<T> &v, const T *p) { __builtin_memcpy(&v, p, sizeof v); }
template <class T> inline void store16(T *p, const v16<T> &v) { __builtin_memcpy(p, &v, sizeof v); }

/* acc += a * b, lane by lane. */
template <bool FUSED, class T> inline void madd(v16<T> &acc, T a, const v16<T> &b)
{
#if defined(__FMA__)
    if constexpr (FUSED && __is_floating_point(T)) {
        acc = __builtin_elementwise_fma((v16<T>)a, b, acc);
        return;
    }
#endif
    acc = acc + (v16<T>)a * b;
}

/* R rows: c[r * ldc + 0..15] = start + sum over k of a[r * lda + k] * b[k * 16 + 0..15]. */
template <int R, bool FUSED, class T>
inline void rows(T *c, size_t ldc, const T *a, size_t lda, const T *b, uint32_t K, bool accumulate,
                 const T *start)
{
    v16<T> acc[R];
    for (int r = 0; r < R; r++)
        load16(acc[r], accumulate ? c + r * ldc : start);
    for (uint32_t k = 0; k < K; k++) {
        v16<T> bk;
        load16(bk, b + (size_t)k * 16);
        for (int r = 0; r < R; r++)
            madd<FUSED>(acc[r], a[r * lda + k], bk);
    }
    for (int r = 0; r < R; r++)
        store16(c + r * ldc, acc[r]);
}

/* `n` rows of C (row stride ldc) against one 16-column B panel (K rows of
 * 16 values).  accumulate: C's values start the sums, else start[0..15]
 * (zeros or a bias row). */
template <bool FUSED, class T>
inline void panel(T *c, size_t ldc, const T *a, size_t lda, const T *b, uint32_t n, uint32_t K, bool accumulate,
                  const T *start)
{
    uint32_t r = 0;
    for (; r + 6 <= n; r += 6)
        rows<6, FUSED>(c + r * ldc, ldc, a + r * lda, lda, b, K, accumulate, start);
    switch (n - r) {
    case 5: rows<5, FUSED>(c + r * ldc, ldc, a + r * lda, lda, b, K, accumulate, start); break;
    case 4: rows<4, FUSED>(c + r * ldc, ldc, a + r * lda, lda, b, K, accumulate, start); break;
    case 3: rows<3, FUSED>(c + r * ldc, ldc, a + r * lda, lda, b, K, accumulate, start); break;
    case 2: rows<2, FUSED>(c + r * ldc, ldc, a + r * lda, lda, b, K, accumulate, start); break;
    case 1: rows<1, FUSED>(c + r * ldc, ldc, a + r * lda, lda, b, K, accumulate, start); break;
    default: break;
    }
}

} // namespace micro
} // namespace __arc

#endif /* ARC_CUBE_MICRO_H_ */
