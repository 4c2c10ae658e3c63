// exe_graph/runtime/tiling_parse_context.h - gert::TilingParseContext, what
// an op's TilingParse function (IMPL_OP_OPTILING(op).TilingParse<T>(fn))
// gets once before its tiling calls: the compile info object of type T to
// fill, the compiled JSON of the op build (empty here: ascendrtc runs no
// op compile) and the platform.
#ifndef ARC_HOST_EXE_GRAPH_TILING_PARSE_CONTEXT_H
#define ARC_HOST_EXE_GRAPH_TILING_PARSE_CONTEXT_H

#include "arc/op_state.h"

namespace gert {

class TilingParseContext {
public:
    explicit TilingParseContext(arc_host::OpState *s) : s_(s) {}
    template <typename T> T *GetCompiledInfo() const { return static_cast<T *>(s_->compile_info); }
    const char *GetCompiledJson() const { return "{}"; }
    fe::PlatFormInfos *GetPlatformInfo() const { return &s_->platform; }
    const char *GetNodeName() const { return s_->node_name.c_str(); }
    const char *GetNodeType() const { return s_->node_type.c_str(); }

private:
    arc_host::OpState *s_;
};

using TilingParseFunc = ge::graphStatus (*)(TilingParseContext *);

} // namespace gert

#endif
