// register/op_def_registry.h - what an op_host file includes: the op
// definition (ops::OpDef, OP_ADD), the tiling and shape-inference contexts,
// ge types and the platform; with them, as in CANN's SDK, the registry
// by op type (IMPL_OP_*).
#ifndef ARC_HOST_REGISTER_OP_DEF_REGISTRY_H
#define ARC_HOST_REGISTER_OP_DEF_REGISTRY_H

#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "graph/types.h"
#include "register/op_def.h"
#include "register/op_impl_registry.h"
#include "tiling/platform/platform_ascendc.h"

#endif
