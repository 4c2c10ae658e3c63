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

// The formats (name without FORMAT_, value), once: the enum and GetFormatName.
#define ARC_GE_FORMATS(X) \
    X(NCHW, 0) X(NHWC, 1) X(ND, 2) X(NC1HWC0, 3) X(FRACTAL_Z, 4) X(NC1C0HWPAD, 5) X(NHWC1C0, 6) X(FSR_NCHW, 7) \
    X(FRACTAL_DECONV, 8) X(C1HWNC0, 9) X(FRACTAL_DECONV_TRANSPOSE, 10) X(FRACTAL_DECONV_SP_STRIDE_TRANS, 11) \
    X(NC1HWC0_C04, 12) X(FRACTAL_Z_C04, 13) X(CHWN, 14) X(FRACTAL_DECONV_SP_STRIDE8_TRANS, 15) X(HWCN, 16) \
    X(NC1KHKWHWC0, 17) X(BN_WEIGHT, 18) X(FILTER_HWCK, 19) X(HASHTABLE_LOOKUP_LOOKUPS, 20) \
    X(HASHTABLE_LOOKUP_KEYS, 21) X(HASHTABLE_LOOKUP_VALUE, 22) X(HASHTABLE_LOOKUP_OUTPUT, 23) \
    X(HASHTABLE_LOOKUP_HITS, 24) X(C1HWNCoC0, 25) X(MD, 26) X(NDHWC, 27) X(FRACTAL_ZZ, 28) X(FRACTAL_NZ, 29) \
    X(NCDHW, 30) X(DHWCN, 31) X(NDC1HWC0, 32) X(FRACTAL_Z_3D, 33) X(CN, 34) X(NC, 35) X(DHWNC, 36) \
    X(FRACTAL_Z_3D_TRANSPOSE, 37) X(FRACTAL_ZN_LSTM, 38) X(FRACTAL_Z_G, 39) X(RESERVED, 40) X(ALL, 41) \
    X(NULL, 42) X(ND_RNN_BIAS, 43) X(FRACTAL_ZN_RNN, 44) X(NYUV, 45) X(NYUV_A, 46) X(NCL, 47)
#define ARC_GE_FORMAT_ENUM_(name, value) FORMAT_##name = value,
enum Format {
    ARC_GE_FORMATS(ARC_GE_FORMAT_ENUM_)
    FORMAT_END,  // one past the last format
    FORMAT_MAX = 0xff
};
#undef ARC_GE_FORMAT_ENUM_

// "NCHW" for FORMAT_NCHW (its primary format's name); "RESERVED" for a
// value that is no format, as TypeUtils' DataFormatToFormat answers a
// string that is none.
inline const char_t *GetFormatName(Format format)
{
#define ARC_GE_FORMAT_NAME_(name, value) case FORMAT_##name: return #name;
    switch (static_cast<Format>(static_cast<int32_t>(format) & 0xff)) {
        ARC_GE_FORMATS(ARC_GE_FORMAT_NAME_)
    default:
        return "RESERVED";
    }
#undef ARC_GE_FORMAT_NAME_
}

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
