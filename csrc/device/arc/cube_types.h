/* cube_types.h - the cube unit's parameter structs (members in the order
 * CANN documents them), formats, constants, and
 * the fractal bookkeeping the CPU twin keeps in the L0 meta area. */
#ifndef ARC_CUBE_TYPES_H_
#define ARC_CUBE_TYPES_H_

#include "arc/tensor.h"

namespace AscendC {
/* Matrix formats and layouts.  The Matmul API's headers make them global
 * names too (kernels spell CubeFormat::ND with no using-directive,
 * arc/matmul_policy.h); kernel_operator.h alone does not, so a kernel may
 * declare its own global CubeFormat (asc-devkit set_loaddata_boundary). */
enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, COLUMN_MAJOR };
enum class LayoutMode : int32_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

/* Bytes of one fractal row (C0 elements of any width). */
constexpr uint32_t DEFAULT_C0_SIZE = 32;
constexpr uint32_t CUBE_MAX_SIZE = 256;      /* elements of a 16x16 fractal */
constexpr uint32_t ONE_BLK_SIZE_CUBE = 512;  /* bytes of an L0A/L0B fractal */

/* GM -> L1 with ND -> NZ conversion (all uint16 on 2201). */
struct Nd2NzParams {
    uint16_t ndNum = 0;
    uint16_t nValue = 0;
    uint16_t dValue = 0;
    uint16_t srcNdMatrixStride = 0;
    uint16_t srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    uint16_t dstNzMatrixStride = 0;
    Nd2NzParams() = default;
    Nd2NzParams(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn, uint16_t srcNdMatrixStrideIn,
                uint16_t srcDValueIn, uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn, uint16_t dstNzMatrixStrideIn)
        : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
          srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
          dstNzMatrixStride(dstNzMatrixStrideIn) {}
    /* Setters, one per field (older kernels fill the struct this way). */
    void SetNdNum(uint16_t v) { ndNum = v; }
    void SetNValue(uint16_t v) { nValue = v; }
    void SetDValue(uint16_t v) { dValue = v; }
    void SetSrcNdMatrixStride(uint16_t v) { srcNdMatrixStride = v; }
    void SetSrcDValue(uint16_t v) { srcDValue = v; }
    void SetDstNzC0Stride(uint16_t v) { dstNzC0Stride = v; }
    void SetDstNzNStride(uint16_t v) { dstNzNStride = v; }
    void SetDstNzMatrixStride(uint16_t v) { dstNzMatrixStride = v; }
};

/* L1/GM -> L0A/L0B, one 512-byte fractal per repeat.  Constructor order
 * differs from member order, as in CANN. */
/* Fill / InitConstValue of L1, L0A or L0B: repeatTimes runs of blockNum
 * blocks (32 B in L1, 512 B in L0A/L0B), dstGap blocks apart, set to
 * initValue (uint16 fields, 0..32767). */
template <typename U> struct InitConstValueParams {
    uint16_t repeatTimes = 0;
    uint16_t blockNum = 0;
    uint16_t dstGap = 0;
    U initValue = 0;
    InitConstValueParams() = default;
    InitConstValueParams(uint16_t repeatTimesIn, uint16_t blockNumIn, uint16_t dstGapIn, U initValueIn)
        : repeatTimes(repeatTimesIn), blockNum(blockNumIn), dstGap(dstGapIn), initValue(initValueIn) {}
};

struct LoadData2DParams {
    uint16_t startIndex = 0;
    uint16_t dstGap = 0;
    uint16_t srcStride = 0;
    bool ifTranspose = false;
    uint8_t repeatTimes = 0;
    uint8_t sid = 0;
    uint8_t addrMode = 0;
    LoadData2DParams() = default;
    LoadData2DParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint8_t sidIn,
                     uint16_t dstGapIn, bool ifTransposeIn, uint8_t addrModeIn)
        : startIndex(startIndexIn), dstGap(dstGapIn), srcStride(srcStrideIn), ifTranspose(ifTransposeIn),
          repeatTimes(repeatTimesIn), sid(sidIn), addrMode(addrModeIn) {}
};

struct LoadData2dTransposeParams {
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint16_t dstGap = 0;
    uint16_t dstFracGap = 0;
    uint8_t addrMode = 0;
    LoadData2dTransposeParams() = default;
    LoadData2dTransposeParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint16_t dstGapIn,
                              uint16_t dstFracGapIn, uint8_t addrModeIn = 0)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstFracGapIn), addrMode(addrModeIn) {}
};

/* The 3D load's padList length: left, right, top, bottom (SetFmatrix's
 * page spells its array padList[AscendC::PAD_SIZE]). */
constexpr uint32_t PAD_SIZE = 4;

/* img2col load (NC1HWC0 in L1 -> L0A ZZ / L0B ZN). */
template <typename T> struct LoadData3DParamsV2 {
    uint8_t padList[PAD_SIZE] = {0, 0, 0, 0}; /* left, right, top, bottom */
    uint16_t l1H = 0;
    uint16_t l1W = 0;
    uint16_t channelSize = 0;
    uint16_t kExtension = 0;
    uint16_t mExtension = 0;
    uint16_t kStartPt = 0;
    uint16_t mStartPt = 0;
    uint8_t strideW = 1;
    uint8_t strideH = 1;
    uint8_t filterW = 1;
    uint8_t filterH = 1;
    uint8_t dilationFilterW = 1;
    uint8_t dilationFilterH = 1;
    bool enTranspose = false;
    bool enSmallK = false;
    T padValue = T(0);
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
    LoadData3DParamsV2() = default;
    /* Every member in order, the pad list as 4 bytes (CATLASS's braced lists). */
    LoadData3DParamsV2(const uint8_t padListIn[4], uint16_t l1HIn, uint16_t l1WIn, uint16_t channelSizeIn,
                       uint16_t kExtensionIn, uint16_t mExtensionIn, uint16_t kStartPtIn, uint16_t mStartPtIn,
                       uint8_t strideWIn, uint8_t strideHIn, uint8_t filterWIn, uint8_t filterHIn,
                       uint8_t dilationFilterWIn, uint8_t dilationFilterHIn, bool enTransposeIn, bool enSmallKIn,
                       T padValueIn, bool filterSizeWIn = false, bool filterSizeHIn = false, bool fMatrixCtrlIn = false)
        : l1H(l1HIn), l1W(l1WIn), channelSize(channelSizeIn), kExtension(kExtensionIn), mExtension(mExtensionIn),
          kStartPt(kStartPtIn), mStartPt(mStartPtIn), strideW(strideWIn), strideH(strideHIn), filterW(filterWIn),
          filterH(filterHIn), dilationFilterW(dilationFilterWIn), dilationFilterH(dilationFilterHIn),
          enTranspose(enTransposeIn), enSmallK(enSmallKIn), padValue(padValueIn), filterSizeW(filterSizeWIn),
          filterSizeH(filterSizeHIn), fMatrixCtrl(fMatrixCtrlIn)
    {
        for (uint32_t i = 0; i < PAD_SIZE; i++) padList[i] = padListIn[i];
    }
};
struct IsResetLoad3dConfig {
    bool isSetFMatrix = true;
    bool isSetPadding = true;
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};
/* Which Feature Map register the 3D load reads (dav-2201: only LEFT, used
 * for both matrices). */
enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };

struct MmadParams {
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false;
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;
    bool cmatrixInitVal = true;
    MmadParams() = default;
    MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, bool isBiasIn, int32_t fmOffsetIn, bool enSsparseIn,
               bool enWinogradAIn, bool enWinogradBIn)
        : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn),
          enWinogradA(enWinogradAIn), enWinogradB(enWinogradBIn) {}
    MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn, bool cmatrixSourceIn,
               bool cmatrixInitValIn)
        : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn),
          cmatrixInitVal(cmatrixInitValIn) {}
};

/* Fixpipe quantisation modes in the documented order (NoQuant first, the
 * Ascend 950 ones after dav-2201's, as the 随路量化 page lists them): name,
 * per-column (the V modes: one word per column), Ascend 950 (dav-3510)
 * only.  The one owner of these facts (arc/fix_quant.h reads them). */
#define ARC_QUANT_MODES(QM_)                                                                                   \
    QM_(NoQuant, 0, 0) QM_(F322F16, 0, 0) QM_(F322BF16, 0, 0) QM_(DEQF16, 0, 0) QM_(VDEQF16, 1, 0)            \
    QM_(QF322B8_PRE, 0, 0) QM_(VQF322B8_PRE, 1, 0) QM_(REQ8, 0, 0) QM_(VREQ8, 1, 0)                          \
    QM_(QF322FP8_PRE, 0, 1) QM_(VQF322FP8_PRE, 1, 1) QM_(QF322HIF8_PRE, 0, 1) QM_(VQF322HIF8_PRE, 1, 1)       \
    QM_(QF322HIF8_PRE_HYBRID, 0, 1) QM_(VQF322HIF8_PRE_HYBRID, 1, 1) QM_(QS322BF16_PRE, 0, 1)                 \
    QM_(VQS322BF16_PRE, 1, 1) QM_(QF322F16_PRE, 0, 1) QM_(VQF322F16_PRE, 1, 1) QM_(QF322BF16_PRE, 0, 1)       \
    QM_(VQF322BF16_PRE, 1, 1) QM_(QF322F32_PRE, 0, 1) QM_(VQF322F32_PRE, 1, 1)
/* Also a global name, as the compiler's built-in type is (CATLASS names it so). */
enum QuantMode_t : uint8_t {
#define ARC_QM_ENUM_(name, vec, only950) name,
    ARC_QUANT_MODES(ARC_QM_ENUM_)
#undef ARC_QM_ENUM_
};
} // namespace AscendC
using AscendC::QuantMode_t;
namespace AscendC {

struct FixpipeParamsV220 {
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
    FixpipeParamsV220() = default;
    FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn, bool reluEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
    /* The full form, in the order asc-devkit's examples spell it: {nSize,
     * mSize, srcStride, dstStride, reluEn, quantPre, deqScalar, ndNum,
     * srcNdStride, dstNdStride, unitFlag[, isChannelSplit]}. */
    FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn, bool reluEnIn,
                      QuantMode_t quantPreIn, int64_t deqScalarIn, uint16_t ndNumIn, uint16_t srcNdStrideIn,
                      uint16_t dstNdStrideIn, uint8_t unitFlagIn, bool isChannelSplitIn = false)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), quantPre(quantPreIn),
          deqScalar((uint64_t)deqScalarIn), ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn),
          reluEn(reluEnIn), unitFlag(unitFlagIn), isChannelSplit(isChannelSplitIn) {}
};
using FixpipeParams220 = FixpipeParamsV220;

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
/* isToUB: an L0C -> UB Fixpipe (Ascend 950), {CO2Layout::ROW_MAJOR, true}. */
struct FixpipeConfig {
    CO2Layout format;
    bool isToUB = false;
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};

/* Ascend 950's Fixpipe parameters (the FixpipeParamsArch3510 table, in its
 * order); params is the NZ2ND (NZ2DN) matrix count and strides. */
struct Nz2NdParams {
    uint16_t ndNum = 1, srcNdStride = 0;
    uint32_t dstNdStride = 0;
};
struct Nz2DnParams {
    uint16_t dnNum = 1, srcNzMatrixStride = 0;
    uint32_t dstDnMatrixStride = 0;
    uint16_t srcNzC0Stride = 0;
};
template <CO2Layout L> struct TransformParams { using PARAMS = uint8_t; };
template <> struct TransformParams<CO2Layout::ROW_MAJOR> { using PARAMS = Nz2NdParams; };
template <> struct TransformParams<CO2Layout::COLUMN_MAJOR> { using PARAMS = Nz2DnParams; };
template <CO2Layout L = CO2Layout::ROW_MAJOR> struct FixpipeParamsArch3510 {
    uint32_t nSize = 0;
    uint32_t mSize = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0; /* elements (V220's NZ dstStride counts 32-byte blocks) */
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    typename TransformParams<L>::PARAMS params{};
    uint8_t dualDstCtl = 0; /* spelled as kernels compiled for the NPU spell it (the table: dualDstCtrl) */
    uint8_t subBlockId = 0;
    bool isChannelSplit = false;
    FixpipeParamsArch3510() = default;
    /* The table's first four members, as FixpipeParamsV220's constructor
     * takes them (asc-devkit's cube_buffer_dump builds one so). */
    FixpipeParamsArch3510(uint32_t nSizeIn, uint32_t mSizeIn, uint32_t srcStrideIn, uint32_t dstStrideIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn)
    {
    }
};

/* Ascend 950's L1 -> L0A/L0B 2D load (LoadData_2D_V2's table, in order):
 * positions and steps in fractals of 16 rows (M) and 32 bytes (K). */
struct LoadData2DParamsV2 {
    uint32_t mStartPosition = 0;
    uint32_t kStartPosition = 0;
    uint16_t mStep = 0;
    uint16_t kStep = 0;
    int32_t srcStride = 0;
    uint16_t dstStride = 0;
    bool ifTranspose = false;
    uint8_t sid = 0;
};

/* Register-driven L0C -> GM copy (DataCopy with these params). */
struct DataCopyCO12DstParams {
    uint8_t sid = 0;
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint32_t dstStride = 0;
    uint16_t srcStride = 0;
    uint8_t unitFlag = 0;
    uint8_t clipReluPre = 0;
    uint8_t eltWiseOp = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    bool reluPre = false;
    bool channelSplit = false;
    bool nz2ndEn = false;
    DataCopyCO12DstParams() = default;
    DataCopyCO12DstParams(uint16_t nSizeIn, uint16_t mSizeIn, uint32_t dstStrideIn, uint16_t srcStrideIn,
                          QuantMode_t quantPreIn, uint8_t reluPreIn, bool channelSplitIn, bool nz2ndEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), dstStride(dstStrideIn), srcStride(srcStrideIn), quantPre(quantPreIn),
          reluPre(reluPreIn != 0), channelSplit(channelSplitIn), nz2ndEn(nz2ndEnIn) {}
};

enum class HF32Mode : uint8_t { DISABLE = 0, ENABLE };
enum class HF32TransMode : uint8_t { NEAREST_EVEN = 0, NEAREST_ZERO };

} // namespace AscendC

namespace __arc {
/* Bookkeeping in the L0 meta area (zeroed per block): which 512-byte
 * fractals of L0A/L0B and 1 KB fractals of L0C have been written, so
 * Mmad and Fixpipe can say when they read what nothing wrote. */
struct CubeMeta {
    uint64_t l0a[2];      /* 128 fractals of 512 B */
    uint64_t l0b[2];
    uint64_t l0c[2];      /* 128 fractals of 1 KB */
    uint64_t bt;          /* the BiasTable's written 64-byte units (up to 64: 4 KB) */
    uint64_t nd2nd[3];    /* SetFixpipeNz2ndFlag: ndNum, srcNdStride, dstNdStride (+1 when set) */
    uint64_t prequant;    /* SetFixpipePreQuantFlag word */
    uint64_t hf32;        /* SetHF32Mode */
    uint64_t fmatrix;     /* Feature Map register (arc/cube_load.h: fmatrix_word) */
    uint64_t pad_value;   /* Pad register: the padValue's bits, bit 63 when set */
    uint64_t fb_quant;    /* SetFixPipeConfig: byte offset + 1 of the quant words in the Fixpipe buffer */
    uint64_t sidx[2];     /* sparse index fractals loaded (one per L0B fractal, arc/mmad_sparse.h) */
    uint64_t nz_para;     /* the C API's MTE2_NZ_PARA register (asc_set_gm2l1_nz_para, arc/capi_cube.h) */
    uint64_t nz_set;      /* 1 once it was set */
    uint64_t mx[2][2];    /* L0A_MX / L0B_MX 32-byte units written (arc/mmad_mx.h) */
    uint64_t load_stride; /* SetLoadDataRepeatWithStride: dstStride, repeatTime << 16, bit 63 when set */
    uint64_t l1_boundary; /* SetLoadDataBoundary: the 3D load's L1 boundary in bytes, 0 for none */
};
static_assert(sizeof(CubeMeta) <= ARC_L0_META_BYTES, "CubeMeta must fit the L0 meta area");
static inline CubeMeta *cube_meta() { return (CubeMeta *)(void *)(__arc_core()->l0 + ARC_L0_META_OFF); }

/* Mark or test fractals [first, first + n) of a 128-entry bitmap. */
static inline void frac_mark(uint64_t *bits, uint32_t first, uint32_t n)
{
    for (uint32_t i = first; i < first + n && i < 128; i++) bits[i >> 6] |= 1ull << (i & 63);
}
/* Index of the first unmarked fractal in [first, first + n), or -1. */
static inline int64_t frac_missing(const uint64_t *bits, uint32_t first, uint32_t n)
{
    for (uint32_t i = first; i < first + n && i < 128; i++)
        if (!(bits[i >> 6] >> (i & 63) & 1)) return i;
    return -1;
}
/* An Mmad's bias row of n1 x 16 values (64 bytes each 16) from the
 * BiasTable's 64-byte unit first on: inside the arch's BiasTable and
 * written there (Mmad, MmadMx and the sparse Mmad read it alike). */
static inline void check_bias_row(uint32_t first, uint32_t n1, const char *api)
{
    const uint32_t size = arc_bt_size_of(__NPU_ARCH__);
    ARC_CHECK(first + n1 <= size / 64, api, "the bias row of %u values exceeds the %u-byte BiasTable", n1 * 16, size);
    for (uint32_t i = first; i < first + n1; i++)
        ARC_CHECK(cube_meta()->bt >> i & 1, api, "the bias row reads BiasTable bytes %u..%u, never written", i * 64,
                  i * 64 + 63);
}
} // namespace __arc

#endif /* ARC_CUBE_TYPES_H_ */
