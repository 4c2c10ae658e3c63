// exe_graph/runtime/tiling_parse_context.h - gert::TilingParseContext, what
// an op's TilingParse function (IMPL_OP_OPTILING(op).TilingParse<T>(fn))
// gets once before its tiling calls: the compile info object of type T to
// fill, the compiled JSON of the op build (empty here: ascendrtc runs no
// op compile) and the platform.
#ifndef ARC_HOST_EXE_GRAPH_TILING_PARSE_CONTEXT_H
#define ARC_HOST_EXE_GRAPH_TILING_PARSE_CONTEXT_H

#include "arc/op_state.h"
#include "exe_graph/runtime/compute_node_info.h"

namespace gert {

class TilingParseContext : public arc_host::NodeContext {
public:
    explicit TilingParseContext(arc_host::OpState *s) : NodeContext(s) {}
    template <typename T> T *GetCompiledInfo() const { return static_cast<T *>(s_->compile_info); }
    const char *GetCompiledJson() const { return "{}"; }
    fe::PlatFormInfos *GetPlatformInfo() const { return &s_->platform; }
};

using TilingParseFunc = ge::graphStatus (*)(TilingParseContext *);

} // namespace gert

#endif
