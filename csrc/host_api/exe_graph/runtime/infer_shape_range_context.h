// exe_graph/runtime/infer_shape_range_context.h - gert::InferShapeRangeContext,
// what an op's InferShapeRange function (IMPL_OP_INFERSHAPE(...).
// InferShapeRange) reads and sets: shape ranges, a step of CANN's graph
// compile of dynamic shapes.  ascendrtc runs ops on known shapes and never
// calls such a function (the registration is accepted and dropped); the
// context is here so that the op's host sources compile.  Its ranges are
// the ones it is built with, none by default: an accessor past them
// answers null, as CANN's does for an absent input.
#ifndef ARC_HOST_EXE_GRAPH_INFER_SHAPE_RANGE_CONTEXT_H
#define ARC_HOST_EXE_GRAPH_INFER_SHAPE_RANGE_CONTEXT_H

#include <vector>

#include "exe_graph/runtime/compute_node_info.h"
#include "exe_graph/runtime/range.h"

namespace gert {

using TensorRange = Range<Tensor>;

class InferShapeRangeContext : public arc_host::NodeContext {
public:
    explicit InferShapeRangeContext(arc_host::OpState *s, std::vector<Range<Shape>> inputs = {},
                                    std::vector<Range<Shape>> outputs = {})
        : NodeContext(s), in_(std::move(inputs)), out_(std::move(outputs))
    {
    }
    const Range<Shape> *GetInputShapeRange(size_t i) const { return i < in_.size() ? &in_[i] : nullptr; }
    const Range<Shape> *GetRequiredInputShapeRange(size_t ir) const { return GetInputShapeRange(ir); }
    const Range<Shape> *GetOptionalInputShapeRange(size_t ir) const { return GetInputShapeRange(ir); }
    const Range<Shape> *GetDynamicInputShapeRange(size_t ir, size_t rel) const
    {
        return GetInputShapeRange(ir + rel);
    }
    const TensorRange *GetInputTensorRange(size_t) const { return nullptr; }  // no tensor values at graph compile
    const TensorRange *GetOptionalInputTensorRange(size_t) const { return nullptr; }
    const TensorRange *GetRequiredInputTensorRange(size_t) const { return nullptr; }
    const TensorRange *GetDynamicInputTensorRange(size_t, size_t) const { return nullptr; }
    Range<Shape> *GetOutputShapeRange(size_t i) { return i < out_.size() ? &out_[i] : nullptr; }

private:
    std::vector<Range<Shape>> in_, out_;
};

} // namespace gert

#endif
