// exe_graph/runtime/compute_node_info.h - gert::ComputeNodeInfo: the node
// an op's host functions run for (name, type, instance counts, IR inputs),
// and arc_host::NodeContext, what every context of those functions shares.
#ifndef ARC_HOST_EXE_GRAPH_COMPUTE_NODE_INFO_H
#define ARC_HOST_EXE_GRAPH_COMPUTE_NODE_INFO_H

#include "arc/op_state.h"

namespace arc_host {
// An instance's views, null for an absent one (every context hands these out).
inline const gert::StorageShape *shape_of(Io *io) { return io ? &io->shape : nullptr; }
inline const gert::Shape *origin_of(Io *io) { return io ? &io->shape.GetOriginShape() : nullptr; }
inline const gert::CompileTimeTensorDesc *desc_of(Io *io) { return io ? &io->desc : nullptr; }
inline const gert::Tensor *tensor_of(Io *io) { return io ? &io->tensor : nullptr; }
inline ge::DataType dtype_of(Io *io) { return io ? io->desc.GetDataType() : ge::DT_UNDEFINED; }
} // namespace arc_host

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
    const AnchorInstanceInfo *GetInputInstanceInfo(size_t ir) const { return instance(s_->inputs, ir, in_); }
    const AnchorInstanceInfo *GetOutputInstanceInfo(size_t ir) const { return instance(s_->outputs, ir, out_); }
    // The tensor description of input/output instance i (null past the last).
    const CompileTimeTensorDesc *GetInputTdInfo(size_t i) const { return arc_host::desc_of(s_->inputs.at(i)); }
    const CompileTimeTensorDesc *GetOutputTdInfo(size_t i) const { return arc_host::desc_of(s_->outputs.at(i)); }
    // The same, writable (InferShape functions set an output's dtype through it).
    CompileTimeTensorDesc *MutableInputTdInfo(size_t i) const { return mut(s_->inputs.at(i)); }
    CompileTimeTensorDesc *MutableOutputTdInfo(size_t i) const { return mut(s_->outputs.at(i)); }
    const RuntimeAttrs *GetAttrs() const { return &s_->attrs; }

private:
    static CompileTimeTensorDesc *mut(arc_host::Io *io) { return io ? &io->desc : nullptr; }
    static const AnchorInstanceInfo *instance(const arc_host::IoList &l, size_t ir, AnchorInstanceInfo &info)
    {
        if (ir >= l.ir_start.size())
            return nullptr;
        info = AnchorInstanceInfo(l.ir_start[ir], l.ir_count[ir]);
        return &info;
    }
    arc_host::OpState *s_;
    mutable AnchorInstanceInfo in_{0, 0}, out_{0, 0};
};

} // namespace gert

namespace arc_host {
// What every context of a node's host functions (InferShape, InferDataType,
// tiling, TilingParse) shares: the node, its instance counts and IR
// instance info, its attributes.
class NodeContext {
public:
    explicit NodeContext(OpState *s) : s_(s), node_(s) {}
    const gert::ComputeNodeInfo *GetComputeNodeInfo() const { return &node_; }
    const char *GetNodeName() const { return s_->node_name.c_str(); }
    const char *GetNodeType() const { return s_->node_type.c_str(); }
    size_t GetComputeNodeInputNum() const { return s_->inputs.io.size(); }
    size_t GetComputeNodeOutputNum() const { return s_->outputs.io.size(); }
    const gert::AnchorInstanceInfo *GetIrInputInstanceInfo(size_t ir) const { return node_.GetInputInstanceInfo(ir); }
    const gert::AnchorInstanceInfo *GetIrOutputInstanceInfo(size_t ir) const
    {
        return node_.GetOutputInstanceInfo(ir);
    }
    const gert::RuntimeAttrs *GetAttrs() const { return &s_->attrs; }

protected:
    OpState *s_;
    gert::ComputeNodeInfo node_;
};
} // namespace arc_host

#endif
