/* copy.c - the bulk copies behind DataCopy (GM <-> UB), compiled once here
 * instead of inlined into every kernel: each inlined copy loop cost a kernel
 * compile ~500 IR instructions after unrolling (a third of the seed add's).
 * Same loops as the device API had: plain vector copies (glibc's rep-movsb
 * path is slow for the 1-64 KiB tiles kernels move), and UB -> GM copies of
 * 4 KiB or more to a 32-byte aligned address with non-temporal stores (no
 * read-for-ownership, as a DMA engine's writes) and a fence so other cores
 * see the data in order.  AVX2 where the CPU has it, SSE2 otherwise. */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "rt/rt_internal.h"

/* The empty asm keeps the compiler from turning a loop into a memcpy call. */
#define ARC_NO_MEMCPY() __asm__ volatile("" ::: "memory")

__attribute__((target("avx2"))) static void copy_avx2(unsigned char *d, const unsigned char *s, uint64_t n)
{
    uint64_t i = 0;
    for (; i + 128 <= n; i += 128) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(s + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(s + i + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(s + i + 64));
        __m256i e = _mm256_loadu_si256((const __m256i *)(s + i + 96));
        _mm256_storeu_si256((__m256i *)(d + i), a);
        _mm256_storeu_si256((__m256i *)(d + i + 32), b);
        _mm256_storeu_si256((__m256i *)(d + i + 64), c);
        _mm256_storeu_si256((__m256i *)(d + i + 96), e);
        ARC_NO_MEMCPY();
    }
    for (; i + 32 <= n; i += 32) {
        _mm256_storeu_si256((__m256i *)(d + i), _mm256_loadu_si256((const __m256i *)(s + i)));
        ARC_NO_MEMCPY();
    }
    if (i < n)
        memcpy(d + i, s + i, n - i);
}

__attribute__((target("avx2"))) static void store_avx2(unsigned char *d, const unsigned char *s, uint64_t n)
{
    uint64_t i = 0;
    for (; i + 128 <= n; i += 128) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(s + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(s + i + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(s + i + 64));
        __m256i e = _mm256_loadu_si256((const __m256i *)(s + i + 96));
        _mm256_stream_si256((__m256i *)(d + i), a);
        _mm256_stream_si256((__m256i *)(d + i + 32), b);
        _mm256_stream_si256((__m256i *)(d + i + 64), c);
        _mm256_stream_si256((__m256i *)(d + i + 96), e);
    }
    _mm_sfence();
    if (i < n)
        copy_avx2(d + i, s + i, n - i);
}

static void copy_sse2(unsigned char *d, const unsigned char *s, uint64_t n)
{
    uint64_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(s + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(s + i + 48));
        _mm_storeu_si128((__m128i *)(d + i), a);
        _mm_storeu_si128((__m128i *)(d + i + 16), b);
        _mm_storeu_si128((__m128i *)(d + i + 32), c);
        _mm_storeu_si128((__m128i *)(d + i + 48), e);
        ARC_NO_MEMCPY();
    }
    if (i < n)
        memcpy(d + i, s + i, n - i);
}

static void store_sse2(unsigned char *d, const unsigned char *s, uint64_t n)
{
    uint64_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(s + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(s + i + 48));
        _mm_stream_si128((__m128i *)(d + i), a);
        _mm_stream_si128((__m128i *)(d + i + 16), b);
        _mm_stream_si128((__m128i *)(d + i + 32), c);
        _mm_stream_si128((__m128i *)(d + i + 48), e);
    }
    _mm_sfence();
    if (i < n)
        copy_sse2(d + i, s + i, n - i);
}

static int has_avx2(void)
{
    static int v = -1; /* racy first calls all compute the same answer */
    if (v < 0)
        v = __builtin_cpu_supports("avx2") ? 1 : 0;
    return v;
}

void __arc_copy_bytes(void *dst, const void *src, unsigned long long n)
{
    if (has_avx2())
        copy_avx2(dst, src, n);
    else
        copy_sse2(dst, src, n);
}

void __arc_store_bytes(void *dst, const void *src, unsigned long long n)
{
    int big = n >= 4096 && ((uintptr_t)dst & 31) == 0;
    if (has_avx2())
        (big ? store_avx2 : copy_avx2)(dst, src, n);
    else
        (big ? store_sse2 : copy_sse2)(dst, src, n);
}
