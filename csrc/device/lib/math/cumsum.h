/* cumsum.h - CumSum (advanced API, math; every SoC), CumSumConfig,
 * CumSumInfo and CumSumAlgorithm, as the page defines them.  src is
 * [outter, inner] (inner * sizeof(T) a multiple of 32 bytes).  First axis
 * (isLastAxis false): row i is the sum of rows 0..i; last axis: column j
 * the sum of columns 0..j.  half accumulates in float and rounds each
 * result once ("the implementation converts precision").
 * - LINEBYLINE adds one line after another (a running sum).
 * - SKLANSKY (Ascend 950 only) is Sklansky's parallel prefix: in round
 *   r = 1, 2, ... every element in the upper half of each block of 2^r adds
 *   the last element of the block's lower half; in float the sums round
 *   differently from the running sum, as on the NPU.
 * outputLastRow writes the last line of the result to lastRowTensor: the
 * last row (inner elements) for the first axis and the last column
 * (outter elements) for the last axis, as the page's examples show
 * ([8 8 8 8] for the last axis of a 4 x 8 tensor of ones). */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_MATH_CUMSUM_H_
#define ARC_LIB_MATH_CUMSUM_H_

#include "lib/adv/common.h"

namespace AscendC {
enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };
struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
    CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
constexpr CumSumConfig defaultCumSumConfig = {};
struct CumSumInfo {
    uint32_t outter{0};
    uint32_t inner{0};
};
} // namespace AscendC

namespace __arc {
/* The float scratch of one half line in Sklansky's order (a float line sums in dst). */
constexpr uint32_t CUMSUM_HALF_LINE_MAX = 8192;

/* One line of len elements `stride` apart: d = prefix sums of s. */
template <class T>
inline void cumsum_line(T *d, const T *s, uint32_t len, uint64_t stride, bool sklansky, const char *api)
{
    if (!sklansky) {
        float acc = 0.0f;
        for (uint32_t i = 0; i < len; i++) {
            acc = i ? acc + (float)s[i * stride] : (float)s[0];
            d[i * stride] = (T)acc;
        }
        return;
    }
    float buf[is_same<T, float>::value ? 1 : CUMSUM_HALF_LINE_MAX];
    if constexpr (!is_same<T, float>::value)
        ARC_CHECK(len <= CUMSUM_HALF_LINE_MAX, api,
                  "a half line of %u elements exceeds ascendrtc's %u for CUMSUM_ALGORITHM_SKLANSKY (its float "
                  "scratch); use LINEBYLINE or a shorter line", len, CUMSUM_HALF_LINE_MAX);
    auto at = [&](uint32_t i) -> float & {
        if constexpr (is_same<T, float>::value)
            return d[i * stride];
        else
            return buf[i];
    };
    for (uint32_t i = 0; i < len; i++) at(i) = (float)s[i * stride];
    for (uint32_t h = 1; h < len; h <<= 1)
        for (uint32_t blk = 0; blk + h < len; blk += 2 * h) {
            const float lower = at(blk + h - 1);
            for (uint32_t j = 0; j < h && blk + h + j < len; j++) at(blk + h + j) += lower;
        }
    if constexpr (!is_same<T, float>::value)
        for (uint32_t i = 0; i < len; i++) d[i * stride] = (T)buf[i];
}
} // namespace __arc

namespace AscendC {
template <typename T, const CumSumConfig &config = defaultCumSumConfig>
inline void CumSum(LocalTensor<T> &dstTensor, LocalTensor<T> &lastRowTensor, const LocalTensor<T> &srcTensor,
                   const CumSumInfo &cumSumInfo)
{
    static_assert(__arc::one_of<T, half, float>, "AscendC::CumSum: supports half and float only");
    constexpr bool sklansky = config.algorithm == CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY;
    static_assert(!sklansky || __NPU_ARCH__ != 2201,
                  "AscendC::CumSum: CUMSUM_ALGORITHM_SKLANSKY is Ascend 950 (dav-3510) only");
    const char *api = "AscendC::CumSum";
    const uint32_t rows = cumSumInfo.outter, cols = cumSumInfo.inner;
    ARC_CHECK(rows > 0 && cols > 0, api, "cumSumInfo {outter %u, inner %u}: both must be positive", rows, cols);
    ARC_CHECK(((uint64_t)cols * sizeof(T)) % 32 == 0, api, "inner %u * sizeof(%s) is not a multiple of 32 bytes",
              cols, __arc::tname<T>());
    const uint64_t n = (uint64_t)rows * cols;
    __arc::adv_need(dstTensor, n, api, "dst");
    if (config.outputLastRow)
        __arc::adv_need(lastRowTensor, config.isLastAxis ? rows : cols, api, "dst lastRowTensor");
    __arc::adv_need(srcTensor, n, api, "src");
    T *d = dstTensor.addr_;
    const T *s = srcTensor.addr_;
    if (config.isLastAxis) {
        for (uint32_t r = 0; r < rows; r++)
            __arc::cumsum_line(d + (uint64_t)r * cols, s + (uint64_t)r * cols, cols, 1, sklansky, api);
    } else {
        for (uint32_t c = 0; c < cols; c++) __arc::cumsum_line(d + c, s + c, rows, cols, sklansky, api);
    }
    if (config.outputLastRow) {
        T *l = lastRowTensor.addr_;
        if (config.isLastAxis)
            for (uint32_t r = 0; r < rows; r++) l[r] = d[(uint64_t)r * cols + cols - 1];
        else
            for (uint32_t c = 0; c < cols; c++) l[c] = d[(uint64_t)(rows - 1) * cols + c];
    }
}
template <typename T, const CumSumConfig &config = defaultCumSumConfig>
inline void CumSum(LocalTensor<T> &dstTensor, LocalTensor<T> &lastRowTensor, const LocalTensor<T> &srcTensor,
                   LocalTensor<uint8_t> &sharedTmpBuffer, const CumSumInfo &cumSumInfo)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::CumSum");
    CumSum<T, config>(dstTensor, lastRowTensor, srcTensor, cumSumInfo);
}
} // namespace AscendC

#endif /* ARC_LIB_MATH_CUMSUM_H_ */
