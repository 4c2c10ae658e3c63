/* welford.h - WelfordUpdate and WelfordFinalize (advanced API,
 * normalisation): the online mean and variance of a Reduce axis split into
 * blocks of abLength.
 *
 * WelfordUpdate, for the first abComputeLength columns j of [1, abLength]
 * (its page's formulas, in float, each operation rounded as written):
 *   d = x[j] - mean[j];  mean'[j] = mean[j] + d * nRec;
 *   M'[j] = M[j] + d * (x[j] - mean'[j])
 * (M is the sum of squared deviations, the page's "variance intermediate").
 * Columns past abComputeLength: with config.isInplace the outputs take the
 * inputs' values, without it they are not written.
 *
 * WelfordFinalize folds the abLength columns (column j holds c_j samples)
 * into one mean and variance, as the page's two formulas:
 *   no counts and no tail (tailCountLength 0): c_j = rnLength,
 *     Mean = abRec * sum(mean_j)
 *   counts (c_j = counts[j]) or a tail (c_j = headCount for the first
 *     headCountLength columns, tailCount after): Mean = rRec * sum(c_j mean_j)
 *   Var = k * sum(M_j + c_j (mean_j - Mean)^2), k = rRec, or
 *     rRecWithCorrection with config.isCorrection (Ascend 950 only).
 * The page gives its formulas as images whose text is not public here;
 * these are the Welford combination its words describe.  The sums run in
 * column order.  The simulated core needs no scratch: sharedTmpBuffer is
 * only checked. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_NORMALIZATION_WELFORD_H_
#define ARC_LIB_NORMALIZATION_WELFORD_H_

#include "lib/adv/common.h"

namespace AscendC {
struct WelfordUpdateParam {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t abComputeLength;
    float nRec;
};
struct WelfordUpdateConfig {
    bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

struct WelfordFinalizePara {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t headCount;
    uint32_t headCountLength;
    uint32_t tailCount;
    uint32_t tailCountLength;
    float abRec;
    float rRec;
    float rRecWithCorrection;
};
struct WelfordFinalizeConfig {
    bool isCorrection = false;
};
constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};

template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig &config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U> &outputMean, const LocalTensor<U> &outputVariance,
                          const LocalTensor<U> &inputMean, const LocalTensor<U> &inputVariance,
                          const LocalTensor<T> &inputX, const WelfordUpdateParam &para)
{
#pragma clang fp contract(off) /* each step rounds as the formulas are written */
    ARC_ADV_HF(WelfordUpdate);
    static_assert(__arc::is_same<U, float>::value, "AscendC::WelfordUpdate: U (mean and variance) must be float");
    const char *api = "AscendC::WelfordUpdate";
    const uint32_t ab = para.abLength, n = para.abComputeLength;
    ARC_CHECK(para.rnLength == 1, api, "para.rnLength is %u; only 1 is supported", para.rnLength);
    ARC_CHECK(ab > 0 && ab % (32 / sizeof(T)) == 0, api, "para.abLength %u is not a positive multiple of %u (32 bytes)",
              ab, (unsigned)(32 / sizeof(T)));
    ARC_CHECK(n > 0 && n <= ab, api, "para.abComputeLength %u is not in 1..abLength (%u)", n, ab);
    __arc::adv_need(inputX, ab, api, "inputX");
    __arc::adv_need(inputMean, ab, api, "inputMean");
    __arc::adv_need(inputVariance, ab, api, "inputVariance");
    __arc::adv_need(outputMean, ab, api, "outputMean");
    __arc::adv_need(outputVariance, ab, api, "outputVariance");
    auto apart = [&](const LocalTensor<U> &o) {
        __arc::check_overlap(o, ab, inputX, ab, ARC_OVERLAP_NONE, api, "inputX");
        __arc::check_overlap(o, ab, inputMean, ab, ARC_OVERLAP_NONE, api, "inputMean");
        __arc::check_overlap(o, ab, inputVariance, ab, ARC_OVERLAP_NONE, api, "inputVariance");
    };
    apart(outputMean);
    apart(outputVariance);
    __arc::check_overlap(outputMean, ab, outputVariance, ab, ARC_OVERLAP_NONE, api, "outputVariance");
    const T *x = inputX.addr_;
    const float *m = inputMean.addr_, *v = inputVariance.addr_;
    float *om = outputMean.addr_, *ov = outputVariance.addr_;
    for (uint32_t j = 0; j < n; j++) {
        const float xj = (float)x[j], d = xj - m[j];
        const float nm = m[j] + d * para.nRec;
        ov[j] = v[j] + d * (xj - nm);
        om[j] = nm;
    }
    if (config.isInplace)
        for (uint32_t j = n; j < ab; j++) {
            om[j] = m[j];
            ov[j] = v[j];
        }
}
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig &config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U> &outputMean, const LocalTensor<U> &outputVariance,
                          const LocalTensor<U> &inputMean, const LocalTensor<U> &inputVariance,
                          const LocalTensor<T> &inputX, const LocalTensor<uint8_t> &sharedTmpBuffer,
                          const WelfordUpdateParam &para)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::WelfordUpdate");
    WelfordUpdate<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance, inputX, para);
}
} // namespace AscendC

namespace __arc {
/* WelfordFinalize with counts (cnt, or nullptr for the head/tail form). */
template <const AscendC::WelfordFinalizeConfig &config>
inline void welford_finalize(const AscendC::LocalTensor<float> &outMean, const AscendC::LocalTensor<float> &outVar,
                             const AscendC::LocalTensor<float> &inMean, const AscendC::LocalTensor<float> &inVar,
                             const AscendC::LocalTensor<int32_t> *cnt, const AscendC::WelfordFinalizePara &p)
{
#pragma clang fp contract(off) /* each step rounds as the formulas are written */
    const char *api = "AscendC::WelfordFinalize";
    const uint32_t ab = p.abLength;
    ARC_CHECK(ab > 0 && ab % 8 == 0, api, "para.abLength %u is not a positive multiple of 8 (32 bytes of float)", ab);
    ARC_CHECK(!config.isCorrection || __NPU_ARCH__ != 2201, api,
              "config.isCorrection (rRecWithCorrection) is Ascend 950 (dav-3510) only");
    if (!cnt) {
        ARC_CHECK((uint64_t)p.headCountLength + p.tailCountLength == ab, api,
                  "para.headCountLength %u + tailCountLength %u is not abLength %u", p.headCountLength,
                  p.tailCountLength, ab);
        ARC_CHECK(__NPU_ARCH__ != 2201 || p.tailCount != 0 || p.tailCountLength == 0, api,
                  "para.tailCount is 0 but tailCountLength is %u (must be 0 on this SoC)", p.tailCountLength);
    }
    adv_need(inMean, ab, api, "inputMean");
    adv_need(inVar, ab, api, "inputVariance");
    if (cnt) adv_need(*cnt, ab, api, "counts");
    adv_need(outMean, 1, api, "outputMean");
    adv_need(outVar, 1, api, "outputVariance");
    auto apart = [&](const AscendC::LocalTensor<float> &o) {
        check_overlap(o, 1, inMean, ab, ARC_OVERLAP_NONE, api, "inputMean");
        check_overlap(o, 1, inVar, ab, ARC_OVERLAP_NONE, api, "inputVariance");
        if (cnt) check_overlap(o, 1, *cnt, ab, ARC_OVERLAP_NONE, api, "counts");
    };
    apart(outMean);
    apart(outVar);
    check_overlap(outMean, 1, outVar, 1, ARC_OVERLAP_NONE, api, "outputVariance");
    const float *m = inMean.addr_, *v = inVar.addr_;
    const bool plain = !cnt && p.tailCountLength == 0;
    auto count = [&](uint32_t j) -> float {
        if (cnt) return (float)cnt->addr_[j];
        if (plain) return (float)p.rnLength;
        return (float)(j < p.headCountLength ? p.headCount : p.tailCount);
    };
    float s = 0.0f;
    for (uint32_t j = 0; j < ab; j++) s += plain ? m[j] : count(j) * m[j];
    const float mean = s * (plain ? p.abRec : p.rRec);
    float q = 0.0f;
    for (uint32_t j = 0; j < ab; j++) {
        const float d = m[j] - mean;
        q += v[j] + count(j) * (d * d);
    }
    outMean.addr_[0] = mean;
    outVar.addr_[0] = q * (config.isCorrection ? p.rRecWithCorrection : p.rRec);
}
} // namespace __arc

namespace AscendC {
template <bool isReuseSource = false, const WelfordFinalizeConfig &config = WFFINALIZE_DEFAULT_CFG>
inline void WelfordFinalize(const LocalTensor<float> &outputMean, const LocalTensor<float> &outputVariance,
                            const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance,
                            WelfordFinalizePara &para)
{
    __arc::welford_finalize<config>(outputMean, outputVariance, inputMean, inputVariance, nullptr, para);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig &config = WFFINALIZE_DEFAULT_CFG>
inline void WelfordFinalize(const LocalTensor<float> &outputMean, const LocalTensor<float> &outputVariance,
                            const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance,
                            const LocalTensor<int32_t> &counts, WelfordFinalizePara &para)
{
    __arc::welford_finalize<config>(outputMean, outputVariance, inputMean, inputVariance, &counts, para);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig &config = WFFINALIZE_DEFAULT_CFG>
inline void WelfordFinalize(const LocalTensor<float> &outputMean, const LocalTensor<float> &outputVariance,
                            const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance,
                            const LocalTensor<uint8_t> &sharedTmpBuffer, WelfordFinalizePara &para)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::WelfordFinalize");
    __arc::welford_finalize<config>(outputMean, outputVariance, inputMean, inputVariance, nullptr, para);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig &config = WFFINALIZE_DEFAULT_CFG>
inline void WelfordFinalize(const LocalTensor<float> &outputMean, const LocalTensor<float> &outputVariance,
                            const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance,
                            const LocalTensor<int32_t> &counts, const LocalTensor<uint8_t> &sharedTmpBuffer,
                            WelfordFinalizePara &para)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::WelfordFinalize");
    __arc::welford_finalize<config>(outputMean, outputVariance, inputMean, inputVariance, &counts, para);
}
} // namespace AscendC

#endif /* ARC_LIB_NORMALIZATION_WELFORD_H_ */
