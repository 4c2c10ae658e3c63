// exe_graph/runtime/kernel_run_context.h - CANN's runtime kernel context
// (the C layout its graph executor hands kernels).  Op host code of the
// libraries includes it through its tiling headers; ascendrtc's contexts
// are the gert classes (tiling_context.h, infer_shape_context.h), so the
// layout is declared only: code that uses it fails to compile naming it.
#ifndef ARC_HOST_EXE_GRAPH_KERNEL_RUN_CONTEXT_H
#define ARC_HOST_EXE_GRAPH_KERNEL_RUN_CONTEXT_H

#include <cstddef>

#ifdef __cplusplus
extern "C" {
#endif
struct KernelRunContext;
struct AsyncAnyValue;
#ifdef __cplusplus
}
#endif

#endif
