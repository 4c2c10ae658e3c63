/* register/op_def_registry.h, kernel side - some op_host tiling headers
 * include it to declare their host tiling function.  A kernel compile only
 * needs those declarations to parse: the names, never the host API. */
#ifndef ARC_REGISTER_OP_DEF_REGISTRY_H_
#define ARC_REGISTER_OP_DEF_REGISTRY_H_

#include <cstdint>

#include "common/ge_dtypes.h"
#include "register/tilingdata_base.h"

namespace ge {
typedef uint32_t graphStatus;
class Operator;
class AscendString;
/* The data types tiling headers name in their host-side structs. */
#define ARC_GE_DT_ENUM_(name, value, bytes, dtype, ctype) name = value,
enum DataType { ARC_GE_DTYPES(ARC_GE_DT_ENUM_) DT_MAX };
#undef ARC_GE_DT_ENUM_
} // namespace ge
namespace gert {
class TilingContext;
class TilingParseContext;
class InferShapeContext;
class InferDataTypeContext;
} // namespace gert

#endif
