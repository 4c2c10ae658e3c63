// register/op_def_registry.h - what an op_host file includes: the op
// definition (ops::OpDef, OP_ADD), the tiling and shape-inference contexts,
// ge types and the platform.
#ifndef ARC_HOST_REGISTER_OP_DEF_REGISTRY_H
#define ARC_HOST_REGISTER_OP_DEF_REGISTRY_H

#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "graph/types.h"
#include "register/op_def.h"
#include "tiling/platform/platform_ascendc.h"

#endif
