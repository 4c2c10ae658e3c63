/* adv_tiling_data.h - the tiling structs of the advanced API (Pad, UnPad,
 * SoftMax, LayerNorm, RmsNorm) as kernels see them: plain structs of 32-bit
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

/* Pad(dst, src, PadParams, tiling): src is [srcHeight, srcWidth] (srcWidth
 * includes redundant columns), srcOriWidth columns are valid. */
struct PadTiling {
    uint32_t srcHeight;
    uint32_t srcWidth;
    uint32_t srcOriWidth;
    uint32_t typeSize;
    uint32_t widthAligned;     /* srcWidth rounded up to 32 bytes */
    uint32_t tmpBufferSize;    /* bytes of scratch the split was made for */
    uint32_t rowsPerLoop;      /* rows one pass handles with that scratch */
    uint32_t loopCount;
    uint32_t tailRows;
    uint32_t reserved[7];
};

/* UnPad(dst, src, UnPadParams, tiling): src is [srcHeight, srcWidth]. */
struct UnPadTiling {
    uint32_t srcHeight;
    uint32_t srcWidth;
    uint32_t typeSize;
    uint32_t tmpBufferSize;
    uint32_t rowsPerLoop;
    uint32_t loopCount;
    uint32_t tailRows;
    uint32_t reserved[9];
};

/* SoftMax family: the row-wise split of a [srcM, srcK] tensor. */
struct SoftMaxTiling {
    uint32_t srcM;
    uint32_t srcK;
    uint32_t srcSize;
    uint32_t outMaxM;
    uint32_t outMaxK;
    uint32_t outMaxSize;
    uint32_t splitM;
    uint32_t splitK;
    uint32_t splitSize;
    uint32_t reduceM;
    uint32_t reduceK;
    uint32_t reduceSize;
    uint32_t rangeM;
    uint32_t tailM;
    uint32_t tailSplitSize;
    uint32_t tailReduceSize;
};

/* LayerNorm over the last axis of [bLength, sLength, hLength]. */
struct LayerNormTiling {
    uint32_t bLength;
    uint32_t sLength;
    uint32_t hLength;
    uint32_t originalHLength;
    uint32_t inputXSize;
    uint32_t meanVarSize;
    uint32_t numberOfTmpBuf;
    uint32_t meanTmpTensorPos;
    uint32_t meanTmpTensorSize;
    uint32_t varianceTmpTensorPos;
    uint32_t varianceTmpTensorSize;
    uint32_t tmpBufSize;
    uint32_t oneTmpSize;
    uint32_t firstTmpStartPos;
    uint32_t secondTmpStartPos;
    uint32_t thirdTmpStartPos;
    uint32_t loopRound;
    uint32_t inputRoundSize;
    uint32_t inputTailSize;
    uint32_t inputTailPos;
    uint32_t meanVarRoundSize;
    uint32_t meanVarTailSize;
    uint32_t meanVarTailPos;
    uint32_t bshCurLength;
    uint32_t bsCurLength;
    float lastDimValueBack;
};

/* RmsNorm over the last axis of [bLength, sLength, hLength]. */
struct RmsNormTiling {
    uint32_t bLength;
    uint32_t sLength;
    uint32_t hLength;
    uint32_t originalHLength;
    float reciprocalOfHLength;
    uint32_t mainBshLength;
    uint32_t mainBsLength;
    uint32_t mainBsLengthAlign;
    uint32_t loopRound;
    uint32_t inputTailPos;
    uint32_t tailBshLength;
    uint32_t tailBsLength;
};

/* ConfusionTranspose: param0 the scenario (TransposeType 1..7), param1..4
 * the logical [B, N, S, H/N] (scenario 7: B = N = 1, S = H, H/N = W),
 * param5 H = N * H/N, param6 the element size; the rest unused. */
struct ConfusionTransposeTiling {
    uint32_t param0, param1, param2, param3, param4, param5, param6, param7, param8;
    uint32_t param9, param10, param11, param12, param13, param14, param15, param16, param17;
};

#ifdef __cplusplus
/* CANN also spells them AscendC::tiling::X. */
namespace AscendC {
namespace tiling {
using ::PadTiling;
using ::UnPadTiling;
using ::SoftMaxTiling;
using ::LayerNormTiling;
using ::RmsNormTiling;
using ::ConfusionTransposeTiling;
} // namespace tiling
} // namespace AscendC
#else
typedef struct PadTiling PadTiling;
typedef struct UnPadTiling UnPadTiling;
typedef struct SoftMaxTiling SoftMaxTiling;
typedef struct LayerNormTiling LayerNormTiling;
typedef struct RmsNormTiling RmsNormTiling;
typedef struct ConfusionTransposeTiling ConfusionTransposeTiling;
#endif

#endif /* ARC_ADV_TILING_DATA_H_ */
