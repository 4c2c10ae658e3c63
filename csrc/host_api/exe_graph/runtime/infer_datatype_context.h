// exe_graph/runtime/infer_datatype_context.h - gert::InferDataTypeContext
// (exe_graph/runtime/infer_shape_context.h defines it beside InferShapeContext).
#include "exe_graph/runtime/infer_shape_context.h"
