/* data_copy_slice.h - DataCopy with SliceInfo (GM <-> UB slice copy), as
 * its page defines it.  Each of dimValue dimensions (dimension 0 the
 * innermost, shapeValue elements long) selects runs between startIndex
 * and endIndex (inclusive), stride elements apart: in dimension 0 a run is
 * burstLen 32-byte blocks, in the others one index (burstLen must be 1).
 * The source's runs, in order (dimension 0 fastest), land on the
 * destination's runs in order; both sides must select the same runs of the
 * same length, each run lying inside [startIndex, endIndex] (a run that
 * crosses endIndex stops the kernel: the page does not say what the NPU
 * does).  Each run is one DataCopy of burstLen blocks, with that form's
 * checks.  K_MAX_DIM (8) is our choice: the page does not give it. */
#ifndef ARC_DATA_COPY_SLICE_H_
#define ARC_DATA_COPY_SLICE_H_

#include "arc/data_copy.h"

namespace AscendC {
constexpr uint32_t K_MAX_DIM = 8;
struct SliceInfo {
    uint32_t startIndex = 0;
    uint32_t endIndex = 0;
    uint32_t stride = 0;
    uint32_t burstLen = 1;
    uint32_t shapeValue = 0;
};
} // namespace AscendC

namespace __arc {
/* One side's runs: per dimension the run count, the step between runs and
 * the element offset of a unit step. */
struct slice_plan {
    uint64_t runs[AscendC::K_MAX_DIM], step[AscendC::K_MAX_DIM], unit[AscendC::K_MAX_DIM];
    uint64_t total, len; /* runs, elements per run */
};
inline slice_plan slice_of(const AscendC::SliceInfo *s, uint32_t dims, uint32_t esize, const char *side)
{
    const char *api = "AscendC::DataCopy";
    slice_plan p{};
    p.total = 1;
    p.len = (uint64_t)s[0].burstLen * 32 / esize;
    uint64_t unit = 1;
    for (uint32_t d = 0; d < dims; d++) {
        const AscendC::SliceInfo &v = s[d];
        const uint64_t len = d ? 1 : p.len;
        ARC_CHECK(d == 0 || v.burstLen == 1, api, "%s slice dimension %u: burstLen %u must be 1 beyond dimension 0",
                  side, d, v.burstLen);
        ARC_CHECK(len > 0 && v.startIndex <= v.endIndex && v.endIndex < v.shapeValue, api,
                  "%s slice dimension %u: {startIndex %u, endIndex %u, burstLen %u, shapeValue %u} selects no run "
                  "inside the shape", side, d, v.startIndex, v.endIndex, v.burstLen, v.shapeValue);
        p.step[d] = len + v.stride;
        p.runs[d] = (v.endIndex - v.startIndex) / p.step[d] + 1;
        ARC_CHECK(v.startIndex + (p.runs[d] - 1) * p.step[d] + len - 1 <= v.endIndex, api,
                  "%s slice dimension %u: the last run of %llu elements crosses endIndex %u", side, d,
                  (unsigned long long)len, v.endIndex);
        p.unit[d] = unit;
        unit *= v.shapeValue;
        p.total *= p.runs[d];
    }
    return p;
}
/* The element offset of run i. */
inline uint64_t slice_at(const slice_plan &p, const AscendC::SliceInfo *s, uint32_t dims, uint64_t i)
{
    uint64_t off = 0;
    for (uint32_t d = 0; d < dims; d++) {
        off += (s[d].startIndex + (i % p.runs[d]) * p.step[d]) * p.unit[d];
        i /= p.runs[d];
    }
    return off;
}
/* Pairs the runs of both sides and calls copy(dst offset, src offset, blocks). */
template <class T, class F>
inline void slice_copy(const AscendC::SliceInfo dst[], const AscendC::SliceInfo src[], uint32_t dims, F copy)
{
    const char *api = "AscendC::DataCopy";
    ARC_CHECK(dims >= 1 && dims <= AscendC::K_MAX_DIM, api, "dimValue %u is not 1..%u", dims, AscendC::K_MAX_DIM);
    const slice_plan d = slice_of(dst, dims, sizeof(T), "dst"), s = slice_of(src, dims, sizeof(T), "src");
    ARC_CHECK(d.total == s.total && d.len == s.len, api,
              "dst selects %llu runs of %llu elements, src %llu runs of %llu: they must match",
              (unsigned long long)d.total, (unsigned long long)d.len, (unsigned long long)s.total,
              (unsigned long long)s.len);
    for (uint64_t i = 0; i < d.total; i++)
        copy(slice_at(d, dst, dims, i), slice_at(s, src, dims, i), (uint16_t)src[0].burstLen);
}
} // namespace __arc

namespace AscendC {
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1)
{
    __arc::slice_copy<T>(dstSliceInfo, srcSliceInfo, dimValue, [&](uint64_t d, uint64_t s, uint16_t blocks) {
        DataCopy(dst[(uint32_t)d], src[s], DataCopyParams(1, blocks, 0, 0));
    });
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1)
{
    __arc::slice_copy<T>(dstSliceInfo, srcSliceInfo, dimValue, [&](uint64_t d, uint64_t s, uint16_t blocks) {
        DataCopy(dst[d], src[(uint32_t)s], DataCopyParams(1, blocks, 0, 0));
    });
}
} // namespace AscendC

#endif /* ARC_DATA_COPY_SLICE_H_ */
