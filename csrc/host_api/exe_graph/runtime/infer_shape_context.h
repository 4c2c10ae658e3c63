// exe_graph/runtime/infer_shape_context.h - gert::InferShapeContext and
// gert::InferDataTypeContext: what an op's InferShape / InferDataType
// functions read (input shapes, dtypes, attributes) and set (the outputs').
#ifndef ARC_HOST_EXE_GRAPH_INFER_SHAPE_CONTEXT_H
#define ARC_HOST_EXE_GRAPH_INFER_SHAPE_CONTEXT_H

#include "arc/op_state.h"
#include "exe_graph/runtime/compute_node_info.h"

namespace gert {

class InferShapeContext : public arc_host::NodeContext {
public:
    explicit InferShapeContext(arc_host::OpState *s) : NodeContext(s) {}

    const Shape *GetInputShape(size_t i) const { return arc_host::origin_of(s_->inputs.at(i)); }
    const Shape *GetOptionalInputShape(size_t ir) const { return arc_host::origin_of(s_->inputs.ir(ir)); }
    const Shape *GetDynamicInputShape(size_t ir, size_t rel) const
    {
        return arc_host::origin_of(s_->inputs.ir(ir, rel));
    }
    const Shape *GetRequiredInputShape(size_t ir) const { return arc_host::origin_of(s_->inputs.ir(ir)); }
    const Tensor *GetInputTensor(size_t i) const { return arc_host::tensor_of(s_->inputs.at(i)); }
    const Tensor *GetRequiredInputTensor(size_t ir) const { return arc_host::tensor_of(s_->inputs.ir(ir)); }
    const Tensor *GetOptionalInputTensor(size_t ir) const { return arc_host::tensor_of(s_->inputs.ir(ir)); }
    const Tensor *GetDynamicInputTensor(size_t ir, size_t rel) const
    {
        return arc_host::tensor_of(s_->inputs.ir(ir, rel));
    }
    Shape *GetOutputShape(size_t i) { return i < s_->out_shapes.size() ? &s_->out_shapes[i] : nullptr; }
    const CompileTimeTensorDesc *GetInputDesc(size_t i) const { return arc_host::desc_of(s_->inputs.at(i)); }
    const CompileTimeTensorDesc *GetOptionalInputDesc(size_t ir) const { return arc_host::desc_of(s_->inputs.ir(ir)); }
    const CompileTimeTensorDesc *GetRequiredInputDesc(size_t ir) const { return arc_host::desc_of(s_->inputs.ir(ir)); }
    const CompileTimeTensorDesc *GetDynamicInputDesc(size_t ir, size_t rel) const
    {
        return arc_host::desc_of(s_->inputs.ir(ir, rel));
    }
    const CompileTimeTensorDesc *GetOutputDesc(size_t i) const { return arc_host::desc_of(s_->outputs.at(i)); }
};

class InferDataTypeContext : public arc_host::NodeContext {
public:
    explicit InferDataTypeContext(arc_host::OpState *s) : NodeContext(s) {}

    ge::DataType GetInputDataType(size_t i) const { return arc_host::dtype_of(s_->inputs.at(i)); }
    ge::DataType GetOptionalInputDataType(size_t ir) const { return arc_host::dtype_of(s_->inputs.ir(ir)); }
    ge::DataType GetRequiredInputDataType(size_t ir) const { return arc_host::dtype_of(s_->inputs.ir(ir)); }
    ge::DataType GetDynamicInputDataType(size_t ir, size_t rel) const
    {
        return arc_host::dtype_of(s_->inputs.ir(ir, rel));
    }
    const CompileTimeTensorDesc *GetInputDesc(size_t i) const { return arc_host::desc_of(s_->inputs.at(i)); }
    const CompileTimeTensorDesc *GetOptionalInputDesc(size_t ir) const { return arc_host::desc_of(s_->inputs.ir(ir)); }
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
};

} // namespace gert

#endif
