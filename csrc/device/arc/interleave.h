/* interleave.h - the memory-vector Interleave and DeInterleave (Ascend 950
 * only), as their pages define them.  Interleave(dst0, dst1, src0, src1,
 * count): the sequence src0[0], src1[0], src0[1], src1[1], ... of 2 *
 * count elements, its first half in dst0 and its second in dst1.
 * DeInterleave(dst0, dst1, src0, src1, count): of src0 followed by src1,
 * the even elements in dst0 and the odd ones in dst1; the one-source form
 * does that to src's srcCount elements.  Counts are even; no source may
 * overlap a destination.  Elements move as bits (any type). */
#ifndef ARC_INTERLEAVE_H_
#define ARC_INTERLEAVE_H_

#include "arc/vec_unary.h"

namespace __arc {
template <class T> inline void intlv_types(const char *api)
{
    static_assert(__NPU_ARCH__ != 2201, "AscendC::Interleave/DeInterleave: Ascend 950 (dav-3510) only");
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                  "AscendC::Interleave/DeInterleave: 8- to 64-bit elements");
    (void)api;
}
/* dsts[k] gets n elements, srcs[k] gives m; the no-overlap rule for each pair. */
template <class T>
inline void intlv_check(const AscendC::LocalTensor<T> *d, int nd, uint64_t n, const AscendC::LocalTensor<T> *s, int ns,
                        uint64_t m, const char *api)
{
    static const char *const dn[2] = {"dst0", "dst1"}, *const sn[2] = {"src0", "src1"};
    ARC_CHECK(m % 2 == 0 || ns == 1, api, "count %llu is odd", (unsigned long long)m);
    for (int i = 0; i < nd; i++) check_cnt(d[i], n, api, dn[i]);
    for (int j = 0; j < ns; j++) check_cnt(s[j], m, api, ns == 1 ? "src" : sn[j]);
    for (int i = 0; i < nd; i++)
        for (int j = 0; j < ns; j++) check_overlap(d[i], n, s[j], m, ARC_OVERLAP_NONE, api, ns == 1 ? "src" : sn[j]);
}
/* Interleave / DeInterleave's checks: the type, an even count, the four
 * tensors' extents and overlaps */
template <typename T>
inline void intlv_pair_check(const AscendC::LocalTensor<T> &dst0, const AscendC::LocalTensor<T> &dst1,
                             const AscendC::LocalTensor<T> &src0, const AscendC::LocalTensor<T> &src1, int32_t count,
                             const char *api)
{
    intlv_types<T>(api);
    ARC_CHECK(count >= 0 && count % 2 == 0, api, "count %d is not even and non-negative", (int)count);
    const AscendC::LocalTensor<T> d[2] = {dst0, dst1}, s[2] = {src0, src1};
    intlv_check(d, 2, (uint64_t)count, s, 2, (uint64_t)count, api);
}
} // namespace __arc

namespace AscendC {
template <typename T>
inline void Interleave(const LocalTensor<T> &dst0, const LocalTensor<T> &dst1, const LocalTensor<T> &src0,
                       const LocalTensor<T> &src1, const int32_t count)
{
    const char *api = "AscendC::Interleave";
    __arc::intlv_pair_check(dst0, dst1, src0, src1, count, api);
    typedef typename __arc::uint_of<sizeof(T)>::type U;
    U *o[2] = {(U *)dst0.addr_, (U *)dst1.addr_};
    const U *a = (const U *)src0.addr_, *b = (const U *)src1.addr_;
    for (int32_t k = 0; k < 2 * count; k++) o[k / count][k % count] = (k & 1 ? b : a)[k / 2];
}
template <typename T>
inline void DeInterleave(const LocalTensor<T> &dst0, const LocalTensor<T> &dst1, const LocalTensor<T> &src0,
                         const LocalTensor<T> &src1, const int32_t count)
{
    const char *api = "AscendC::DeInterleave";
    __arc::intlv_pair_check(dst0, dst1, src0, src1, count, api);
    typedef typename __arc::uint_of<sizeof(T)>::type U;
    U *o[2] = {(U *)dst0.addr_, (U *)dst1.addr_};
    const U *in[2] = {(const U *)src0.addr_, (const U *)src1.addr_};
    for (int32_t k = 0; k < 2 * count; k++) o[k & 1][k / 2] = in[k / count][k % count];
}
template <typename T>
inline void DeInterleave(const LocalTensor<T> &dst0, const LocalTensor<T> &dst1, const LocalTensor<T> &src,
                         const int32_t srcCount)
{
    const char *api = "AscendC::DeInterleave";
    __arc::intlv_types<T>(api);
    ARC_CHECK(srcCount >= 0 && srcCount % 2 == 0, api, "srcCount %d is not even and non-negative", (int)srcCount);
    const LocalTensor<T> d[2] = {dst0, dst1};
    __arc::intlv_check(d, 2, (uint64_t)srcCount / 2, &src, 1, (uint64_t)srcCount, api);
    typedef typename __arc::uint_of<sizeof(T)>::type U;
    U *o[2] = {(U *)dst0.addr_, (U *)dst1.addr_};
    const U *in = (const U *)src.addr_;
    for (int32_t k = 0; k < srcCount; k++) o[k & 1][k / 2] = in[k];
}
} // namespace AscendC

#endif /* ARC_INTERLEAVE_H_ */
