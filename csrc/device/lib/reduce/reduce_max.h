/* reduce_max.h - the advanced API's ReduceMax<T, pattern, isReuseSource>
 * over a 2-D srcShape (its page: pattern AscendC::Pattern::Reduce::AR or
 * RA only, 2-D only): AR, shape {A, R}: dst[i] = max_j src[i][j]; RA, shape
 * {R, A}: dst[j] = max_i src[i][j].  The inner axis is stored 32-byte
 * aligned (rows align32(inner) elements apart); on dav-2201 srcInnerPad
 * must be true (its page).  NaN: std::max's order (a NaN after a number is
 * skipped); the NPU's choice is not documented. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_REDUCE_REDUCE_MAX_H_
#define ARC_LIB_REDUCE_REDUCE_MAX_H_

#include "lib/adv/common.h"

namespace AscendC {
namespace Pattern {
namespace Reduce {
struct AR { static constexpr bool rowwise = true; };
struct RA { static constexpr bool rowwise = false; };
} // namespace Reduce
} // namespace Pattern

template <class T, class pattern, bool isReuseSource = false>
inline void ReduceMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t srcShape[],
                      bool srcInnerPad)
{
    static_assert(std::is_same<pattern, Pattern::Reduce::AR>::value || std::is_same<pattern, Pattern::Reduce::RA>::value,
                  "AscendC::ReduceMax: pattern is Pattern::Reduce::AR or RA (its page)");
    const char *api = "AscendC::ReduceMax";
    ARC_CHECK(srcInnerPad || __NPU_ARCH__ == 3510, api, "srcInnerPad must be true on dav-%d (its page)", __NPU_ARCH__);
    const uint32_t outer = srcShape[0], inner = srcShape[1];
    const uint32_t per = 32u / (uint32_t)sizeof(T), stride = (inner + per - 1) / per * per;
    const uint32_t n = pattern::rowwise ? outer : inner;
    __arc::adv_need(srcTensor, (uint64_t)outer * stride, api, "src");
    __arc::adv_need(dstTensor, n, api, "dst");
    ARC_CHECK(outer > 0 && inner > 0, api, "srcShape {%u, %u} has an empty axis", outer, inner);
    const T *s = srcTensor.addr_;
    T *d = dstTensor.addr_;
    for (uint32_t k = 0; k < n; k++) {
        T m = pattern::rowwise ? s[(uint64_t)k * stride] : s[k];
        const uint32_t len = pattern::rowwise ? inner : outer;
        for (uint32_t j = 1; j < len; j++) {
            const T v = pattern::rowwise ? s[(uint64_t)k * stride + j] : s[(uint64_t)j * stride + k];
            if (m < v) m = v;
        }
        d[k] = m;
    }
}
template <class T, class pattern, bool isReuseSource = false>
inline void ReduceMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                      const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t srcShape[], bool srcInnerPad)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::ReduceMax");
    ReduceMax<T, pattern, isReuseSource>(dstTensor, srcTensor, srcShape, srcInnerPad);
}
} // namespace AscendC

#endif /* ARC_LIB_REDUCE_REDUCE_MAX_H_ */
