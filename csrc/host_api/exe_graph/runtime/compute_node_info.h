// exe_graph/runtime/compute_node_info.h - gert::ComputeNodeInfo: the node
// an op's host functions run for (name, type, instance counts, IR inputs).
#ifndef ARC_HOST_EXE_GRAPH_COMPUTE_NODE_INFO_H
#define ARC_HOST_EXE_GRAPH_COMPUTE_NODE_INFO_H

#include "arc/op_state.h"

namespace gert {

// Where a declared (IR) input's instances start and how many there are.
class AnchorInstanceInfo {
public:
    AnchorInstanceInfo(size_t start, size_t num) : start_(start), num_(num) {}
    size_t GetInstanceStart() const { return start_; }
    size_t GetInstanceNum() const { return num_; }

private:
    size_t start_, num_;
};

class ComputeNodeInfo {
public:
    explicit ComputeNodeInfo(arc_host::OpState *s) : s_(s) {}
    const char *GetNodeName() const { return s_->node_name.c_str(); }
    const char *GetNodeType() const { return s_->node_type.c_str(); }
    size_t GetInputsNum() const { return s_->inputs.io.size(); }
    size_t GetOutputsNum() const { return s_->outputs.io.size(); }
    size_t GetIrInputsNum() const { return s_->inputs.ir_start.size(); }
    size_t GetIrOutputsNum() const { return s_->outputs.ir_start.size(); }
    const AnchorInstanceInfo *GetInputInstanceInfo(size_t ir) const
    {
        if (ir >= s_->inputs.ir_start.size())
            return nullptr;
        info_ = AnchorInstanceInfo(s_->inputs.ir_start[ir], s_->inputs.ir_count[ir]);
        return &info_;
    }
    // The tensor description of input/output instance i (null past the last).
    const CompileTimeTensorDesc *GetInputTdInfo(size_t i) const
    {
        arc_host::Io *io = s_->inputs.at(i);
        return io ? &io->desc : nullptr;
    }
    const CompileTimeTensorDesc *GetOutputTdInfo(size_t i) const
    {
        arc_host::Io *io = s_->outputs.at(i);
        return io ? &io->desc : nullptr;
    }
    const RuntimeAttrs *GetAttrs() const { return &s_->attrs; }

private:
    arc_host::OpState *s_;
    mutable AnchorInstanceInfo info_{0, 0};
};

} // namespace gert

#endif
