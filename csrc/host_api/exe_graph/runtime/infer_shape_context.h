// exe_graph/runtime/infer_shape_context.h - gert::InferShapeContext and
// gert::InferDataTypeContext: what an op's InferShape / InferDataType
// functions read (input shapes, dtypes, attributes) and set (the outputs').
#ifndef ARC_HOST_EXE_GRAPH_INFER_SHAPE_CONTEXT_H
#define ARC_HOST_EXE_GRAPH_INFER_SHAPE_CONTEXT_H

#include "arc/op_state.h"
#include "exe_graph/runtime/compute_node_info.h"

namespace gert {

class InferShapeContext {
public:
    explicit InferShapeContext(arc_host::OpState *s) : s_(s), node_(s) {}
    const ComputeNodeInfo *GetComputeNodeInfo() const { return &node_; }

    const Shape *GetInputShape(size_t i) const { return origin(s_->inputs.at(i)); }
    const Shape *GetOptionalInputShape(size_t ir) const { return origin(s_->inputs.ir(ir)); }
    const Shape *GetDynamicInputShape(size_t ir, size_t rel) const { return origin(s_->inputs.ir(ir, rel)); }
    const Shape *GetRequiredInputShape(size_t ir) const { return origin(s_->inputs.ir(ir)); }
    const AnchorInstanceInfo *GetIrInputInstanceInfo(size_t ir) const { return node_.GetInputInstanceInfo(ir); }
    const Tensor *GetRequiredInputTensor(size_t ir) const
    {
        arc_host::Io *io = s_->inputs.ir(ir);
        return io ? &io->tensor : nullptr;
    }
    const Tensor *GetInputTensor(size_t i) const
    {
        arc_host::Io *io = s_->inputs.at(i);
        return io ? &io->tensor : nullptr;
    }
    const Tensor *GetOptionalInputTensor(size_t ir) const
    {
        arc_host::Io *io = s_->inputs.ir(ir);
        return io ? &io->tensor : nullptr;
    }
    Shape *GetOutputShape(size_t i) { return i < s_->out_shapes.size() ? &s_->out_shapes[i] : nullptr; }
    const CompileTimeTensorDesc *GetInputDesc(size_t i) const { return desc(s_->inputs.at(i)); }
    const CompileTimeTensorDesc *GetOptionalInputDesc(size_t ir) const { return desc(s_->inputs.ir(ir)); }
    const CompileTimeTensorDesc *GetDynamicInputDesc(size_t ir, size_t rel) const
    {
        return desc(s_->inputs.ir(ir, rel));
    }
    const RuntimeAttrs *GetAttrs() const { return &s_->attrs; }
    size_t GetComputeNodeInputNum() const { return s_->inputs.io.size(); }
    size_t GetComputeNodeOutputNum() const { return s_->outputs.io.size(); }
    const char *GetNodeName() const { return s_->node_name.c_str(); }
    const char *GetNodeType() const { return s_->node_type.c_str(); }

private:
    static const Shape *origin(arc_host::Io *io) { return io ? &io->shape.GetOriginShape() : nullptr; }
    static const CompileTimeTensorDesc *desc(arc_host::Io *io) { return io ? &io->desc : nullptr; }
    arc_host::OpState *s_;
    ComputeNodeInfo node_;
};

class InferDataTypeContext {
public:
    explicit InferDataTypeContext(arc_host::OpState *s) : s_(s) {}

    ge::DataType GetInputDataType(size_t i) const { return dt(s_->inputs.at(i)); }
    ge::DataType GetOptionalInputDataType(size_t ir) const { return dt(s_->inputs.ir(ir)); }
    ge::DataType GetDynamicInputDataType(size_t ir, size_t rel) const { return dt(s_->inputs.ir(ir, rel)); }
    const CompileTimeTensorDesc *GetInputDesc(size_t i) const
    {
        arc_host::Io *io = s_->inputs.at(i);
        return io ? &io->desc : nullptr;
    }
    const CompileTimeTensorDesc *GetOptionalInputDesc(size_t ir) const
    {
        arc_host::Io *io = s_->inputs.ir(ir);
        return io ? &io->desc : nullptr;
    }
    size_t GetComputeNodeInputNum() const { return s_->inputs.io.size(); }
    ge::DataType GetOutputDataType(size_t i) const
    {
        return i < s_->out_dtypes.size() ? s_->out_dtypes[i] : ge::DT_UNDEFINED;
    }
    ge::graphStatus SetOutputDataType(size_t i, ge::DataType d)
    {
        if (i >= s_->out_dtypes.size())
            return ge::GRAPH_FAILED;
        s_->out_dtypes[i] = d;
        return ge::GRAPH_SUCCESS;
    }
    const RuntimeAttrs *GetAttrs() const { return &s_->attrs; }
    const char *GetNodeName() const { return s_->node_name.c_str(); }
    const char *GetNodeType() const { return s_->node_type.c_str(); }

private:
    static ge::DataType dt(arc_host::Io *io) { return io ? io->desc.GetDataType() : ge::DT_UNDEFINED; }
    arc_host::OpState *s_;
};

} // namespace gert

#endif
