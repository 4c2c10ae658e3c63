/* philox.h - PhiloxRandom (advanced API, random; Ascend 950), PhiloxKey,
 * PhiloxCounter and PhiloxRandomParams, bit-exact to the page and its
 * example's golden (gen_data.py): Philox4x32 with Rounds rounds (7 or 10).
 * One round maps the counter (c0, c1, c2, c3) with the key (k0, k1) to
 * (hi(M1*c2) ^ c1 ^ k0, lo(M1*c2), hi(M0*c0) ^ c3 ^ k1, lo(M0*c0)),
 * M0 = 0xD2511F53, M1 = 0xCD9E8D57; between rounds the key adds
 * (0x9E3779B9, 0xBB67AE85).  Each counter value gives four 32-bit words,
 * then the 128-bit counter adds 1 (c0 first, carrying into c1...).
 * uint32_t/int32_t take the words' bits; float takes 1.mantissa - 1 (the
 * word's low 23 bits), uniform in [0, 1).
 * - Continuous mode: count words from philoxCounter on (the last group of
 *   four is cut to count).
 * - Stride mode: row r, column c is word r * stride + c of the sequence,
 *   written packed at dst[r * column + c] (the golden); column and stride
 *   are multiples of 4 and stride >= column. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_RANDOM_PHILOX_H_
#define ARC_LIB_RANDOM_PHILOX_H_

#include "lib/adv/common.h"

namespace AscendC {
using PhiloxKey = uint32_t[2];
using PhiloxCounter = uint32_t[4];
struct PhiloxRandomParams {
    uint32_t stride;
    uint32_t row;
    uint32_t column;
};
} // namespace AscendC

namespace __arc {
/* The four words of one counter value. */
inline void philox4x32(const uint32_t ctr[4], const uint32_t key[2], unsigned rounds, uint32_t out[4])
{
    uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3], k0 = key[0], k1 = key[1];
    for (unsigned r = 0; r < rounds; r++) {
        if (r) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        const uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
        const uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        c1 = (uint32_t)p1;
        c3 = (uint32_t)p0;
        c0 = n0;
        c2 = n2;
    }
    out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
}
/* The counter plus n (128-bit, c0 the low word). */
inline void philox_advance(uint32_t ctr[4], uint64_t n)
{
    for (int i = 0; i < 4 && n; i++) {
        const uint64_t s = (uint64_t)ctr[i] + (n & 0xffffffffu);
        ctr[i] = (uint32_t)s;
        n = (n >> 32) + (s >> 32);
    }
}
template <class T> inline T philox_word(uint32_t w)
{
    if constexpr (is_same<T, float>::value) {
        const uint32_t b = 0x3f800000u | (w & 0x7fffffu);
        float f;
        __builtin_memcpy(&f, &b, 4);
        return f - 1.0f;
    } else {
        return (T)w;
    }
}
/* Words [first, first + n) of the sequence from ctr0, to d[0..n). */
template <class T>
inline void philox_run(T *d, const uint32_t ctr0[4], const uint32_t key[2], unsigned rounds, uint64_t first, uint64_t n)
{
    uint32_t ctr[4] = {ctr0[0], ctr0[1], ctr0[2], ctr0[3]}, w[4];
    philox_advance(ctr, first / 4);
    uint64_t i = 0, k = first % 4;
    while (i < n) {
        philox4x32(ctr, key, rounds, w);
        for (; k < 4 && i < n; k++) d[i++] = philox_word<T>(w[k]);
        k = 0;
        philox_advance(ctr, 1);
    }
}
template <uint16_t Rounds, class T> inline void philox_types()
{
    static_assert(__NPU_ARCH__ != 2201, "AscendC::PhiloxRandom: Ascend 950 (dav-3510) only");
    static_assert(Rounds == 7 || Rounds == 10, "AscendC::PhiloxRandom: Rounds is 7 or 10");
    static_assert(one_of<T, uint32_t, int32_t, float>, "AscendC::PhiloxRandom: dst is uint32_t, int32_t or float");
}
} // namespace __arc

namespace AscendC {
template <uint16_t Rounds = 7, typename T>
inline void PhiloxRandom(const LocalTensor<T> &dstLocal, const PhiloxKey &philoxKey, const PhiloxCounter &philoxCounter,
                         uint16_t count)
{
    __arc::philox_types<Rounds, T>();
    __arc::adv_need(dstLocal, count, "AscendC::PhiloxRandom", "dst");
    __arc::philox_run(dstLocal.addr_, philoxCounter, philoxKey, Rounds, 0, count);
}
template <uint16_t Rounds = 7, typename T>
inline void PhiloxRandom(const LocalTensor<T> &dstLocal, const PhiloxKey &philoxKey, const PhiloxCounter &philoxCounter,
                         const PhiloxRandomParams &params)
{
    __arc::philox_types<Rounds, T>();
    const char *api = "AscendC::PhiloxRandom";
    const uint32_t s = params.stride, rows = params.row, cols = params.column;
    ARC_CHECK(rows > 0 && cols > 0 && cols % 4 == 0 && s % 4 == 0 && s >= cols, api,
              "params {stride %u, row %u, column %u}: row and column must be positive, column and stride multiples "
              "of 4, stride >= column", s, rows, cols);
    __arc::adv_need(dstLocal, (uint64_t)rows * cols, api, "dst");
    for (uint32_t r = 0; r < rows; r++)
        __arc::philox_run(dstLocal.addr_ + (uint64_t)r * cols, philoxCounter, philoxKey, Rounds, (uint64_t)r * s, cols);
}
} // namespace AscendC

#endif /* ARC_LIB_RANDOM_PHILOX_H_ */
