/* adv_tiling_data.h - the tiling structs of the advanced API (Pad, UnPad,
 * SoftMax, LayerNorm, DeepNorm, LayerNormGrad(Beta), LayerNormSeparate, RmsNorm, ConfusionTranspose, TopK) as kernels see them: plain structs of 32-bit
 * fields in the global namespace, as CANN's generated kernel_tiling header
 * declares them (kernels copy them word by word from GM with
 * sizeof(PadTiling) / sizeof(uint32_t)).  Valid C and C++: the host tiling
 * functions (csrc/host_api/lib/adv_tiling.h) fill the same layout.
 *
 * LayerNormTiling and RmsNormTiling carry the field names of the public
 * documentation; SoftMaxTiling's names are the documented ones too.  The
 * Pad/UnPad and ConfusionTranspose fields are ascendrtc's own (the public docs say only that the
 * struct is opaque).  Only the first fields are read by the simulated
 * kernels; the rest describe the split the NPU would use. */
#ifndef ARC_ADV_TILING_DATA_H_
#define ARC_ADV_TILING_DATA_H_

#include <stdint.h>

/* Each struct's fields are one X-macro, FIELDS(S, A): S(type, name) a
 * scalar, A(type, name, n) an array; the struct below is made from it, and
 * in op_host code so is its description for Python (adv_tiling_fields.h). */
#define ARC_TILING_S_(type, name) type name;
#define ARC_TILING_A_(type, name, n) type name[n];
/* Every struct with its fields' macro. */
#define ARC_ADV_TILINGS(X) X(PadTiling, ARC_PAD_TILING) X(UnPadTiling, ARC_UN_PAD_TILING) X(SoftMaxTiling, ARC_SOFT_MAX_TILING) X(LayerNormTiling, ARC_LAYER_NORM_TILING) \
    X(DeepNormTiling, ARC_LAYER_NORM_TILING) X(LayerNormGradTiling, ARC_LAYER_NORM_GRAD_TILING) \
    X(LayerNormGradBetaTiling, ARC_LAYER_NORM_GRAD_BETA_TILING) X(LayerNormSeparateTiling, ARC_LAYER_NORM_SEPARATE_TILING) X(RmsNormTiling, ARC_RMS_NORM_TILING) X(ConfusionTransposeTiling, ARC_CONFUSION_TRANSPOSE_TILING) \
    X(TopkTiling, ARC_TOPK_TILING)

/* Pad(dst, src, PadParams, tiling): src is [srcHeight, srcWidth] (srcWidth
 * includes redundant columns), srcOriWidth columns are valid. */
#define ARC_PAD_TILING(S, A) \
    S(uint32_t, srcHeight) \
    S(uint32_t, srcWidth) \
    S(uint32_t, srcOriWidth) \
    S(uint32_t, typeSize) \
    S(uint32_t, widthAligned) /* srcWidth rounded up to 32 bytes */ \
    S(uint32_t, tmpBufferSize) /* bytes of scratch the split was made for */ \
    S(uint32_t, rowsPerLoop) /* rows one pass handles with that scratch */ \
    S(uint32_t, loopCount) \
    S(uint32_t, tailRows) \
    A(uint32_t, reserved, 7)
struct PadTiling {
    ARC_PAD_TILING(ARC_TILING_S_, ARC_TILING_A_)
};

/* UnPad(dst, src, UnPadParams, tiling): src is [srcHeight, srcWidth]. */
#define ARC_UN_PAD_TILING(S, A) \
    S(uint32_t, srcHeight) \
    S(uint32_t, srcWidth) \
    S(uint32_t, typeSize) \
    S(uint32_t, tmpBufferSize) \
    S(uint32_t, rowsPerLoop) \
    S(uint32_t, loopCount) \
    S(uint32_t, tailRows) \
    A(uint32_t, reserved, 9)
struct UnPadTiling {
    ARC_UN_PAD_TILING(ARC_TILING_S_, ARC_TILING_A_)
};

/* SoftMax family: the row-wise split of a [srcM, srcK] tensor. */
#define ARC_SOFT_MAX_TILING(S, A) \
    S(uint32_t, srcM) \
    S(uint32_t, srcK) \
    S(uint32_t, srcSize) \
    S(uint32_t, outMaxM) \
    S(uint32_t, outMaxK) \
    S(uint32_t, outMaxSize) \
    S(uint32_t, splitM) \
    S(uint32_t, splitK) \
    S(uint32_t, splitSize) \
    S(uint32_t, reduceM) \
    S(uint32_t, reduceK) \
    S(uint32_t, reduceSize) \
    S(uint32_t, rangeM) \
    S(uint32_t, tailM) \
    S(uint32_t, tailSplitSize) \
    S(uint32_t, tailReduceSize)
struct SoftMaxTiling {
    ARC_SOFT_MAX_TILING(ARC_TILING_S_, ARC_TILING_A_)
};
/* LogSoftMax's tiling: the docs name SoftMax's fields (reduceSize,
 * splitSize...) and give no layout of its own, so it is SoftMaxTiling. */
typedef struct SoftMaxTiling LogSoftMaxTiling;

/* LayerNorm over the last axis of [bLength, sLength, hLength]. */
#define ARC_LAYER_NORM_TILING(S, A) \
    S(uint32_t, bLength) \
    S(uint32_t, sLength) \
    S(uint32_t, hLength) \
    S(uint32_t, originalHLength) \
    S(uint32_t, inputXSize) \
    S(uint32_t, meanVarSize) \
    S(uint32_t, numberOfTmpBuf) \
    S(uint32_t, meanTmpTensorPos) \
    S(uint32_t, meanTmpTensorSize) \
    S(uint32_t, varianceTmpTensorPos) \
    S(uint32_t, varianceTmpTensorSize) \
    S(uint32_t, tmpBufSize) \
    S(uint32_t, oneTmpSize) \
    S(uint32_t, firstTmpStartPos) \
    S(uint32_t, secondTmpStartPos) \
    S(uint32_t, thirdTmpStartPos) \
    S(uint32_t, loopRound) \
    S(uint32_t, inputRoundSize) \
    S(uint32_t, inputTailSize) \
    S(uint32_t, inputTailPos) \
    S(uint32_t, meanVarRoundSize) \
    S(uint32_t, meanVarTailSize) \
    S(uint32_t, meanVarTailPos) \
    S(uint32_t, bshCurLength) \
    S(uint32_t, bsCurLength) \
    S(float, lastDimValueBack)
struct LayerNormTiling {
    ARC_LAYER_NORM_TILING(ARC_TILING_S_, ARC_TILING_A_)
};
/* DeepNormTiling: its page lists LayerNormTiling's fields, in that order. */
struct DeepNormTiling {
    ARC_LAYER_NORM_TILING(ARC_TILING_S_, ARC_TILING_A_)
};

/* LayerNormGrad's and LayerNormGradBeta's: the documented fields in their
 * order.  The host fills the shape (and stackBufferSize); the rest
 * describe the NPU's split, which is not public, and stay 0.  The
 * simulated kernels read the shape only. */
#define ARC_LAYER_NORM_GRAD_TILING(S, A) \
    S(uint32_t, stackBufferSize) \
    S(uint32_t, bLength) \
    S(uint32_t, sLength) \
    S(uint32_t, hLength) \
    S(uint32_t, originalHLength) \
    S(uint32_t, oneCalSize) \
    S(uint32_t, nohCalSize) \
    S(uint32_t, loopNum) \
    S(uint32_t, tailSize) \
    S(uint32_t, nohTailSize) \
    S(uint32_t, tmpTensorBSHPos) \
    S(uint32_t, tmpTensorBSHSize) \
    S(uint32_t, pdVarTensorPos) \
    S(uint32_t, pdVarTensorSize) \
    S(uint32_t, pdMeanTensorPos) \
    S(uint32_t, pdMeanTensorSize) \
    S(uint32_t, x1TensorPos) \
    S(uint32_t, x1TensorSize) \
    S(uint32_t, x2TensorPos) \
    S(uint32_t, x2TensorSize) \
    S(uint32_t, x3TensorPos) \
    S(uint32_t, x3TensorSize) \
    S(uint32_t, tmpTensorPos) \
    S(uint32_t, tmpTensorSize) \
    S(uint32_t, tmpTensor1Pos) \
    S(uint32_t, tmpTensor1Size) \
    S(uint32_t, tmpTensor2Pos) \
    S(uint32_t, tmpTensor2Size) \
    S(uint32_t, lastDimValueBack) \
    S(uint32_t, lastDimValueBackMulTwo)
struct LayerNormGradTiling {
    ARC_LAYER_NORM_GRAD_TILING(ARC_TILING_S_, ARC_TILING_A_)
};
#define ARC_LAYER_NORM_GRAD_BETA_TILING(S, A) \
    S(uint32_t, stackBufferSize) \
    S(uint32_t, bLength) \
    S(uint32_t, sLength) \
    S(uint32_t, hLength) \
    S(uint32_t, originalHLength) \
    S(uint32_t, bshLength) \
    S(uint32_t, bsLength) \
    S(uint32_t, oneCalSize) \
    S(uint32_t, numberOfTmpBuf) \
    S(uint32_t, loopRound) \
    S(uint32_t, inputTailSize) \
    S(uint32_t, inputTailPos) \
    S(uint32_t, bsTailSize) \
    S(uint32_t, bshCurLength) \
    S(uint32_t, bsCurLength) \
    S(uint32_t, gammaTempTensorPos) \
    S(uint32_t, betaTempTensorPos) \
    S(uint32_t, inputDyTmpTensorPos) \
    S(uint32_t, resForGammaTmpTensorPos) \
    S(uint32_t, reserved)
struct LayerNormGradBetaTiling {
    ARC_LAYER_NORM_GRAD_BETA_TILING(ARC_TILING_S_, ARC_TILING_A_)
};

/* LayerNorm of [aLength, rLength] with the mean and rstd outputs
 * (LayerNormPara, LayerNormConfig): the documented field order.  The
 * values are ascendrtc's (rHeadLength the largest power of two <= R, the
 * docs' 2^k; k2Rec = 1 / 2^k, k2RRec = 2^k / R, rValueBack = 1 / R;
 * halfAddRepeatTimes the halvings from 2^k to one 256-byte repeat); the
 * simulated kernel reads none of them but checks aLength and rLength. */
#define ARC_LAYER_NORM_SEPARATE_TILING(S, A) \
    S(uint32_t, aLength) \
    S(uint32_t, rLength) \
    S(uint32_t, halfAddRepeatTimes) \
    S(uint32_t, rHeadLength) \
    S(float, k2Rec) \
    S(float, k2RRec) \
    S(uint32_t, inputXSize) \
    S(uint32_t, meanVarSize) \
    S(uint32_t, numberOfTmpBuf) \
    S(uint32_t, varianceTmpTensorPos) \
    S(uint32_t, varianceTmpTensorSize) \
    S(uint32_t, tmpBufSize) \
    S(uint32_t, oneTmpSize) \
    S(uint32_t, firstTmpStartPos) \
    S(uint32_t, secondTmpStartPos) \
    S(uint32_t, thirdTmpStartPos) \
    S(uint32_t, loopRound) \
    S(uint32_t, inputRoundSize) \
    S(uint32_t, inputTailSize) \
    S(uint32_t, inputTailPos) \
    S(uint32_t, meanVarRoundSize) \
    S(uint32_t, meanVarTailSize) \
    S(uint32_t, meanVarTailPos) \
    S(uint32_t, arCurLength) \
    S(uint32_t, aCurLength) \
    S(float, rValueBack)
struct LayerNormSeparateTiling {
    ARC_LAYER_NORM_SEPARATE_TILING(ARC_TILING_S_, ARC_TILING_A_)
};

/* RmsNorm over the last axis of [bLength, sLength, hLength]. */
#define ARC_RMS_NORM_TILING(S, A) \
    S(uint32_t, bLength) \
    S(uint32_t, sLength) \
    S(uint32_t, hLength) \
    S(uint32_t, originalHLength) \
    S(float, reciprocalOfHLength) \
    S(uint32_t, mainBshLength) \
    S(uint32_t, mainBsLength) \
    S(uint32_t, mainBsLengthAlign) \
    S(uint32_t, loopRound) \
    S(uint32_t, inputTailPos) \
    S(uint32_t, tailBshLength) \
    S(uint32_t, tailBsLength)
struct RmsNormTiling {
    ARC_RMS_NORM_TILING(ARC_TILING_S_, ARC_TILING_A_)
};

/* ConfusionTranspose: param0 the scenario (TransposeType 1..7), param1..4
 * the logical [B, N, S, H/N] (scenario 7: B = N = 1, S = H, H/N = W),
 * param5 H = N * H/N, param6 the element size; the rest unused. */
#define ARC_CONFUSION_TRANSPOSE_TILING(S, A) \
    S(uint32_t, param0) \
    S(uint32_t, param1) \
    S(uint32_t, param2) \
    S(uint32_t, param3) \
    S(uint32_t, param4) \
    S(uint32_t, param5) \
    S(uint32_t, param6) \
    S(uint32_t, param7) \
    S(uint32_t, param8) \
    S(uint32_t, param9) \
    S(uint32_t, param10) \
    S(uint32_t, param11) \
    S(uint32_t, param12) \
    S(uint32_t, param13) \
    S(uint32_t, param14) \
    S(uint32_t, param15) \
    S(uint32_t, param16) \
    S(uint32_t, param17)
struct ConfusionTransposeTiling {
    ARC_CONFUSION_TRANSPOSE_TILING(ARC_TILING_S_, ARC_TILING_A_)
};

/* TopK: the documented fields, in their order and types.  The page calls
 * the struct opaque: ascendrtc's TopKTilingFunc fills tmpLocalSize,
 * allDataSize, innerDataSize, kAlignFourBytes and kAlignTwoBytes (the
 * simulated TopK reads none of them: TopKInfo and k say everything) and
 * leaves the rest 0. */
#define ARC_TOPK_TILING(S, A) \
    S(int32_t, tmpLocalSize) \
    S(int32_t, allDataSize) \
    S(int32_t, innerDataSize) \
    S(uint32_t, sortRepeat) \
    S(int32_t, mrgSortRepeat) \
    S(int32_t, kAlignFourBytes) \
    S(int32_t, kAlignTwoBytes) \
    S(int32_t, maskOffset) \
    S(int32_t, maskVreducev2FourBytes) \
    S(int32_t, maskVreducev2TwoBytes) \
    S(int32_t, mrgSortSrc1offset) \
    S(int32_t, mrgSortSrc2offset) \
    S(int32_t, mrgSortSrc3offset) \
    S(int32_t, mrgSortTwoQueueSrc1Offset) \
    S(int32_t, mrgFourQueueTailPara1) \
    S(int32_t, mrgFourQueueTailPara2) \
    S(int32_t, srcIndexOffset) \
    S(uint32_t, copyUbToUbBlockCount) \
    S(int32_t, topkMrgSrc1MaskSizeOffset) \
    S(int32_t, topkNSmallSrcIndexOffset) \
    S(uint32_t, vreduceValMask0) \
    S(uint32_t, vreduceValMask1) \
    S(uint32_t, vreduceIdxMask0) \
    S(uint32_t, vreduceIdxMask1) \
    S(uint16_t, vreducehalfValMask0) \
    S(uint16_t, vreducehalfValMask1) \
    S(uint16_t, vreducehalfValMask2) \
    S(uint16_t, vreducehalfValMask3) \
    S(uint16_t, vreducehalfValMask4) \
    S(uint16_t, vreducehalfValMask5) \
    S(uint16_t, vreducehalfValMask6) \
    S(uint16_t, vreducehalfValMask7)
struct TopkTiling {
    ARC_TOPK_TILING(ARC_TILING_S_, ARC_TILING_A_)
};

#ifdef __cplusplus
/* CANN also spells them AscendC::tiling::X. */
#define ARC_TILING_USING_(name, fields) using ::name;
namespace AscendC {
namespace tiling {
ARC_ADV_TILINGS(ARC_TILING_USING_)
using ::LogSoftMaxTiling;
} // namespace tiling
} // namespace AscendC
#undef ARC_TILING_USING_
#else
#define ARC_TILING_TYPEDEF_(name, fields) typedef struct name name;
ARC_ADV_TILINGS(ARC_TILING_TYPEDEF_)
#undef ARC_TILING_TYPEDEF_
#endif

#endif /* ARC_ADV_TILING_DATA_H_ */
