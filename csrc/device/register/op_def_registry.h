/* register/op_def_registry.h, kernel side - some op_host tiling headers
 * include it to declare their host tiling function.  A kernel compile only
 * needs those declarations to parse: the names, never the host API. */
#ifndef ARC_REGISTER_OP_DEF_REGISTRY_H_
#define ARC_REGISTER_OP_DEF_REGISTRY_H_

#include <cstdint>

#include "register/tilingdata_base.h"

namespace ge {
typedef uint32_t graphStatus;
class Operator;
class AscendString;
/* The data types tiling headers name in their host-side structs (values as
 * csrc/host_api/graph/types.h, which lists them all). */
enum DataType {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
    DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_BF16 = 27, DT_INT4 = 29,
    DT_INT2 = 31, DT_UINT2 = 32
};
} // namespace ge
namespace gert {
class TilingContext;
class TilingParseContext;
class InferShapeContext;
class InferDataTypeContext;
} // namespace gert

#endif
