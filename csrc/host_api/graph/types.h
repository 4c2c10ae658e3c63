// graph/types.h - ge::DataType (common/ge_dtypes.h's rows), ge::Format and
// ge::graphStatus, the vocabulary of CANN's graph engine that op
// definitions and tiling functions use.  Enumerator values follow CANN's
// public documentation, so an op's dtype numbers mean the same here and on
// a real NPU.
#ifndef ARC_HOST_GRAPH_TYPES_H
#define ARC_HOST_GRAPH_TYPES_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/ge_dtypes.h"
#include "securec.h"  // CANN's graph headers bring the bounds-checked functions along

// The host tiling APIs live in namespace AscendC (tiling/tiling_api.h);
// kernel-side headers shared with the host say `using namespace AscendC`.
namespace AscendC {
}

namespace ge {

// CANN's graph headers' character and floating types (host code says
// `using ge::float32_t;`)
using char_t = char;
using float32_t = float;
using float64_t = double;
using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFFU;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649U;
constexpr graphStatus GRAPH_NOT_CHANGED = 1343242304U;
constexpr graphStatus GRAPH_PARAM_OUT_OF_RANGE = 50331650U;
constexpr graphStatus GRAPH_NULL_PTR = 50331651U;
using Status = uint32_t;  // the graph engine's status (ge::SUCCESS / ge::FAILED)
constexpr Status SUCCESS = 0;
constexpr Status FAILED = 0xFFFFFFFFU;

#define ARC_GE_DT_ENUM_(name, value, bytes, dtype, ctype) name = value,
enum DataType { ARC_GE_DTYPES(ARC_GE_DT_ENUM_) DT_MAX };
#undef ARC_GE_DT_ENUM_

enum Format {
    FORMAT_NCHW = 0,
    FORMAT_NHWC = 1,
    FORMAT_ND = 2,
    FORMAT_NC1HWC0 = 3,
    FORMAT_FRACTAL_Z = 4,
    FORMAT_NC1C0HWPAD = 5,
    FORMAT_NHWC1C0 = 6,
    FORMAT_FSR_NCHW = 7,
    FORMAT_FRACTAL_DECONV = 8,
    FORMAT_C1HWNC0 = 9,
    FORMAT_FRACTAL_DECONV_TRANSPOSE = 10,
    FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS = 11,
    FORMAT_NC1HWC0_C04 = 12,
    FORMAT_FRACTAL_Z_C04 = 13,
    FORMAT_CHWN = 14,
    FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS = 15,
    FORMAT_HWCN = 16,
    FORMAT_NC1KHKWHWC0 = 17,
    FORMAT_BN_WEIGHT = 18,
    FORMAT_FILTER_HWCK = 19,
    FORMAT_HASHTABLE_LOOKUP_LOOKUPS = 20,
    FORMAT_HASHTABLE_LOOKUP_KEYS = 21,
    FORMAT_HASHTABLE_LOOKUP_VALUE = 22,
    FORMAT_HASHTABLE_LOOKUP_OUTPUT = 23,
    FORMAT_HASHTABLE_LOOKUP_HITS = 24,
    FORMAT_C1HWNCoC0 = 25,
    FORMAT_MD = 26,
    FORMAT_NDHWC = 27,
    FORMAT_FRACTAL_ZZ = 28,
    FORMAT_FRACTAL_NZ = 29,
    FORMAT_NCDHW = 30,
    FORMAT_DHWCN = 31,
    FORMAT_NDC1HWC0 = 32,
    FORMAT_FRACTAL_Z_3D = 33,
    FORMAT_CN = 34,
    FORMAT_NC = 35,
    FORMAT_DHWNC = 36,
    FORMAT_FRACTAL_Z_3D_TRANSPOSE = 37,
    FORMAT_FRACTAL_ZN_LSTM = 38,
    FORMAT_FRACTAL_Z_G = 39,
    FORMAT_RESERVED = 40,
    FORMAT_ALL = 41,
    FORMAT_NULL = 42,
    FORMAT_ND_RNN_BIAS = 43,
    FORMAT_FRACTAL_ZN_RNN = 44,
    FORMAT_NYUV = 45,
    FORMAT_NYUV_A = 46,
    FORMAT_NCL = 47,
    FORMAT_END,  // one past the last format
    FORMAT_MAX = 0xff
};

// Dims of unknown extent / a shape of unknown rank.
constexpr int64_t UNKNOWN_DIM = -1;
constexpr int64_t UNKNOWN_DIM_NUM = -2;
// A format value's primary format is its low byte (the rest: sub-format, C0).
inline Format GetPrimaryFormat(int32_t format) { return static_cast<Format>(format & 0xff); }

// Bytes per element; 0 for types without a whole-byte size.
inline int GetSizeByDataType(DataType dt)
{
#define ARC_GE_DT_SIZE_(name, value, bytes, dtype, ctype) case name: return bytes;
    switch (dt) { ARC_GE_DTYPES(ARC_GE_DT_SIZE_) default: return 0; }
#undef ARC_GE_DT_SIZE_
}

} // namespace ge

#endif
