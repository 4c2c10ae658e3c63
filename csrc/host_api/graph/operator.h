// graph/operator.h - ge::Operator and ge::TensorDesc as op host code names
// them: the graph-mode callbacks an op definition registers
// (SetCheckSupport, SetOpSelectFormat, ...) take a const ge::Operator &.
// ascendrtc runs no graph compile, so it never calls them; an Operator
// made here describes no node: it has no inputs, outputs or attributes and
// every query of one fails (GRAPH_FAILED, an empty TensorDesc).
#ifndef ARC_HOST_GRAPH_OPERATOR_H
#define ARC_HOST_GRAPH_OPERATOR_H

#include <cstdint>
#include <string>
#include <vector>

#include "exe_graph/runtime/shape.h"
#include "graph/ascend_string.h"
#include "graph/types.h"

namespace ge {

class TensorDesc {
public:
    TensorDesc() = default;
    TensorDesc(const Shape &shape, Format format = FORMAT_ND, DataType dtype = DT_FLOAT)
        : shape_(shape), origin_shape_(shape), format_(format), origin_format_(format), dtype_(dtype)
    {
    }
    Shape GetShape() const { return shape_; }
    Shape GetOriginShape() const { return origin_shape_; }
    void SetShape(const Shape &s) { shape_ = s; }
    void SetOriginShape(const Shape &s) { origin_shape_ = s; }
    Format GetFormat() const { return format_; }
    Format GetOriginFormat() const { return origin_format_; }
    void SetFormat(Format f) { format_ = f; }
    void SetOriginFormat(Format f) { origin_format_ = f; }
    DataType GetDataType() const { return dtype_; }
    void SetDataType(DataType d) { dtype_ = d; }

private:
    Shape shape_, origin_shape_;
    Format format_ = FORMAT_ND, origin_format_ = FORMAT_ND;
    DataType dtype_ = DT_UNDEFINED;
};

class Operator {
public:
    Operator() = default;
    explicit Operator(const char *type) : type_(type ? type : "") {}
    Operator(const char *name, const char *type) : name_(name ? name : ""), type_(type ? type : "") {}
    graphStatus GetName(AscendString &name) const
    {
        name = AscendString(name_.c_str());
        return GRAPH_SUCCESS;
    }
    graphStatus GetOpType(AscendString &type) const
    {
        type = AscendString(type_.c_str());
        return GRAPH_SUCCESS;
    }
    // By index, or by name as a std::string (a C string: the *ByName
    // forms); no const char * overload, so that GetInputDesc(0) is the
    // index, as with CANN's header (dynamic_rnnv2_def.cpp).
    TensorDesc GetInputDesc(uint32_t) const { return TensorDesc(); }
    TensorDesc GetInputDesc(const std::string &) const { return TensorDesc(); }
    TensorDesc GetInputDescByName(const char *) const { return TensorDesc(); }
    TensorDesc GetOutputDesc(uint32_t) const { return TensorDesc(); }
    TensorDesc GetOutputDesc(const std::string &) const { return TensorDesc(); }
    TensorDesc GetOutputDescByName(const char *) const { return TensorDesc(); }
    size_t GetInputsSize() const { return 0; }
    size_t GetOutputsSize() const { return 0; }
    template <typename T> graphStatus GetAttr(const char *, T &) const { return GRAPH_FAILED; }
    template <typename T> graphStatus GetAttr(const std::string &, T &) const { return GRAPH_FAILED; }

private:
    std::string name_, type_;
};

} // namespace ge

#endif
