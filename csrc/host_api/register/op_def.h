// register/op_def.h - ops::OpDef, the op definition an op_host file
// declares in its constructor: inputs and outputs (param type, dtype and
// format columns), attributes with defaults, InferShape/InferDataType and,
// per SoC, the tiling function.  ascendrtc reads the definition back to
// check a call's dtypes and to run the op's host functions.
#ifndef ARC_HOST_REGISTER_OP_DEF_H
#define ARC_HOST_REGISTER_OP_DEF_H

#include <cstdint>
#include <iostream>  // as CANN's op_def.h
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "arc/op_protocol.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "graph/types.h"

namespace gert {
using OpImplKernelRegistry = void;
using InferShapeKernelFunc = ge::graphStatus (*)(InferShapeContext *);
using InferDataTypeKernelFunc = ge::graphStatus (*)(InferDataTypeContext *);
using TilingKernelFunc = ge::graphStatus (*)(TilingContext *);
} // namespace gert

namespace ge {
using InferShapeFunc = gert::InferShapeKernelFunc;
class AscendString {
public:
    AscendString() = default;
    AscendString(const char *s) : s_(s ? s : "") {}
    const char *GetString() const { return s_.c_str(); }
    size_t GetLength() const { return s_.size(); }
    bool operator<(const AscendString &o) const { return s_ < o.s_; }
    bool operator==(const AscendString &o) const { return s_ == o.s_; }
    bool operator!=(const AscendString &o) const { return s_ != o.s_; }

private:
    std::string s_;
};
} // namespace ge

// A key of unordered maps, as CANN's graph/ascend_string.h makes it (ops-nn's
// tuning bank-key registry): the hash of its characters.
namespace std {
template <> struct hash<ge::AscendString> {
    size_t operator()(const ge::AscendString &s) const { return hash<string>()(s.GetString()); }
};
} // namespace std

// ge::Operator, which the graph-mode callbacks take, comes with this
// header as with CANN's (which includes graph/operator_reg.h).
#include "graph/operator_reg.h"

namespace optiling {
#define FUNC_CHECK_SUPPORTED "check_supported"
#define FUNC_OP_SELECT_FORMAT "op_select_format"
#define FUNC_GET_OP_SUPPORT_INFO "get_op_support_info"
#define FUNC_GET_SPECIFIC_INFO "get_op_specific_info"
using OP_CHECK_FUNC = ge::graphStatus (*)(const ge::Operator &op, ge::AscendString &result);
using PARAM_GENERALIZE_FUNC = ge::graphStatus (*)(const ge::Operator &op, const ge::AscendString &generalize_config,
                                                  ge::AscendString &generalized_op_params);
// Registers a graph-mode callback for CANN's graph compiler (check
// support, select format, ...), which ascendrtc does not run: nothing to
// register it with, and nothing calls it.
class OpCheckFuncHelper {
public:
    OpCheckFuncHelper(const ge::AscendString &, const ge::AscendString &, OP_CHECK_FUNC) {}
    OpCheckFuncHelper(const ge::AscendString &, PARAM_GENERALIZE_FUNC) {}
};
} // namespace optiling

namespace ops {

#define ARC_OP_OPTION_ENUM(id, v) id = v,
enum Option { ARC_OP_PARAM_TYPES(ARC_OP_OPTION_ENUM) };
#undef ARC_OP_OPTION_ENUM
enum class DependScope { ALL = 0, TILING = 1, INVALID_SCOPE };
enum class FollowType { ALL = 0, DTYPE = 1, SHAPE = 2, INVALID_TYPE };
#define ARC_OP_ATTR_KIND_ENUM(id, v, what) id = v,
enum class AttrKind { ARC_OP_ATTR_KINDS(ARC_OP_ATTR_KIND_ENUM) };
#undef ARC_OP_ATTR_KIND_ENUM

class OpParamDef {
public:
    explicit OpParamDef(const char *name) : name_(name) {}
    OpParamDef &ParamType(Option t) { param_type_ = t; return *this; }
    OpParamDef &DataType(std::vector<ge::DataType> v) { dtypes_ = std::move(v); return *this; }
    // One dtype list for every supported combination.
    OpParamDef &DataTypeList(std::vector<ge::DataType> v) { dtypes_ = std::move(v); dtype_list_ = true; return *this; }
    OpParamDef &Format(std::vector<ge::Format> v) { formats_ = std::move(v); return *this; }
    OpParamDef &FormatList(std::vector<ge::Format> v) { formats_ = std::move(v); return *this; }
    OpParamDef &UnknownShapeFormat(std::vector<ge::Format> v) { unknown_formats_ = std::move(v); return *this; }
    OpParamDef &ValueDepend(Option v) { value_depend_ = v; return *this; }
    OpParamDef &ValueDepend(Option v, DependScope) { value_depend_ = v; return *this; }
    OpParamDef &IgnoreContiguous() { return *this; }
    OpParamDef &AutoContiguous() { return *this; }
    OpParamDef &Scalar() { return *this; }
    OpParamDef &ScalarList() { return *this; }
    OpParamDef &To(ge::DataType) { return *this; }
    OpParamDef &To(const char *) { return *this; }
    OpParamDef &Version(uint32_t) { return *this; }
    OpParamDef &InitValue(uint64_t) { return *this; }
    // the kernel computes the output's shape (a "third-class" op): recorded, refused at launch
    OpParamDef &OutputShapeDependOnCompute() { shape_computed_ = true; return *this; }
    OpParamDef &Follow(const char *name) { follow_ = name; return *this; }
    OpParamDef &Follow(const char *name, FollowType) { follow_ = name; return *this; }
    OpParamDef &Comment(const char *) { return *this; }

    const std::string &arc_name() const { return name_; }
    Option arc_param_type() const { return param_type_; }
    const std::vector<ge::DataType> &arc_dtypes() const { return dtypes_; }
    bool arc_dtype_list() const { return dtype_list_; }
    const std::vector<ge::Format> &arc_formats() const { return formats_; }
    Option arc_value_depend() const { return value_depend_; }
    bool arc_shape_computed() const { return shape_computed_; }
    const std::string &arc_follow() const { return follow_; }

private:
    std::string name_;
    Option param_type_ = REQUIRED;
    std::vector<ge::DataType> dtypes_;
    bool dtype_list_ = false, shape_computed_ = false;
    std::vector<ge::Format> formats_, unknown_formats_;
    Option value_depend_ = IGNORE;
    std::string follow_;
};

/* The parameter called name in v, added at the end when v has none (an op
 * definition and its per-SoC AI Core configs declare inputs/outputs alike). */
inline OpParamDef &arc_param(std::vector<OpParamDef> &v, const char *name)
{
    for (auto &p : v)
        if (p.arc_name() == name)
            return p;
    v.emplace_back(name);
    return v.back();
}

class OpAttrDef {
public:
    explicit OpAttrDef(const char *name) : name_(name) {}
    OpAttrDef &AttrType(Option t) { required_ = t == REQUIRED; return *this; }
    OpAttrDef &Int() { return kind(AttrKind::INT); }
    OpAttrDef &Int(int64_t v) { ints_ = {v}; has_default_ = true; return kind(AttrKind::INT); }
    OpAttrDef &Float() { return kind(AttrKind::FLOAT); }
    OpAttrDef &Float(float v) { floats_ = {v}; has_default_ = true; return kind(AttrKind::FLOAT); }
    OpAttrDef &Bool() { return kind(AttrKind::BOOL); }
    OpAttrDef &Bool(bool v) { ints_ = {v ? 1 : 0}; has_default_ = true; return kind(AttrKind::BOOL); }
    OpAttrDef &String() { return kind(AttrKind::STRING); }
    OpAttrDef &String(const char *v) { str_ = v ? v : ""; has_default_ = true; return kind(AttrKind::STRING); }
    OpAttrDef &ListInt() { return kind(AttrKind::LIST_INT); }
    OpAttrDef &ListInt(std::vector<int64_t> v) { ints_ = std::move(v); has_default_ = true; return kind(AttrKind::LIST_INT); }
    OpAttrDef &ListFloat() { return kind(AttrKind::LIST_FLOAT); }
    OpAttrDef &ListFloat(std::vector<float> v) { floats_ = std::move(v); has_default_ = true; return kind(AttrKind::LIST_FLOAT); }
    OpAttrDef &ListBool() { return kind(AttrKind::LIST_BOOL); }
    OpAttrDef &ListBool(std::vector<bool> v)
    {
        ints_.clear();
        for (bool b : v)
            ints_.push_back(b ? 1 : 0);
        has_default_ = true;
        return kind(AttrKind::LIST_BOOL);
    }
    OpAttrDef &Version(uint32_t) { return *this; }
    OpAttrDef &Comment(const char *) { return *this; }

    const std::string &arc_name() const { return name_; }
    bool arc_required() const { return required_; }
    AttrKind arc_kind() const { return kind_; }
    bool arc_has_default() const { return has_default_; }
    const std::vector<int64_t> &arc_ints() const { return ints_; }
    const std::vector<float> &arc_floats() const { return floats_; }
    const std::string &arc_str() const { return str_; }

private:
        OpAttrDef &kind(AttrKind k)
    {
        kind_ = k;
        return *this;
    }

    std::string name_;
    bool required_ = true;
    AttrKind kind_ = AttrKind::NONE;
    bool has_default_ = false;  // a value given with the type: the default
    std::vector<int64_t> ints_;
    std::vector<float> floats_;
    std::string str_;
};

// Per-SoC overrides of the inputs' and outputs' dtypes and formats.
class OpAICoreConfig {
public:
    OpAICoreConfig() = default;
    explicit OpAICoreConfig(const char *) {}
    OpParamDef &Input(const char *name) { return arc_param(inputs_, name); }
    OpParamDef &Output(const char *name) { return arc_param(outputs_, name); }
    OpAICoreConfig &DynamicCompileStaticFlag(bool) { return *this; }
    OpAICoreConfig &DynamicFormatFlag(bool) { return *this; }
    OpAICoreConfig &DynamicRankSupportFlag(bool) { return *this; }
    OpAICoreConfig &DynamicShapeSupportFlag(bool) { return *this; }
    OpAICoreConfig &NeedCheckSupportFlag(bool) { return *this; }
    OpAICoreConfig &PrecisionReduceFlag(bool) { return *this; }
    OpAICoreConfig &ExtendCfgInfo(const char *, const char *) { return *this; }

    std::vector<OpParamDef> &arc_inputs() { return inputs_; }
    std::vector<OpParamDef> &arc_outputs() { return outputs_; }

private:
    std::vector<OpParamDef> inputs_, outputs_;
};

class OpAICoreDef {
public:
    OpAICoreDef &SetTiling(gert::TilingKernelFunc f) { tiling_ = f; return *this; }
    OpAICoreDef &AddConfig(const char *soc)
    {
        configs_.emplace_back(soc, OpAICoreConfig());
        arc_has_config_.push_back(false);
        return *this;
    }
    OpAICoreDef &AddConfig(const char *soc, OpAICoreConfig &cfg)
    {
        configs_.emplace_back(soc, cfg);
        arc_has_config_.push_back(true);
        return *this;
    }
    // The graph-mode callbacks: kept for the Get* forms (an op library's
    // _def.cpp hands them to OpCheckFuncHelper); ascendrtc calls none.
    OpAICoreDef &SetCheckSupport(optiling::OP_CHECK_FUNC f) { check_support_ = f; return *this; }
    OpAICoreDef &SetOpSelectFormat(optiling::OP_CHECK_FUNC f) { select_format_ = f; return *this; }
    OpAICoreDef &SetOpSupportInfo(optiling::OP_CHECK_FUNC f) { support_info_ = f; return *this; }
    OpAICoreDef &SetOpSpecInfo(optiling::OP_CHECK_FUNC f) { spec_info_ = f; return *this; }
    OpAICoreDef &SetParamGeneralize(optiling::PARAM_GENERALIZE_FUNC f) { generalize_ = f; return *this; }
    optiling::OP_CHECK_FUNC GetCheckSupport() const { return check_support_; }
    optiling::OP_CHECK_FUNC GetOpSelectFormat() const { return select_format_; }
    optiling::OP_CHECK_FUNC GetOpSupportInfo() const { return support_info_; }
    optiling::OP_CHECK_FUNC GetOpSpecInfo() const { return spec_info_; }
    optiling::PARAM_GENERALIZE_FUNC GetParamGeneralize() const { return generalize_; }
    gert::TilingKernelFunc GetTiling() const { return tiling_; }

    std::vector<std::pair<std::string, OpAICoreConfig>> &arc_configs() { return configs_; }
    const std::vector<bool> &arc_config_given() const { return arc_has_config_; }

private:
    gert::TilingKernelFunc tiling_ = nullptr;
    optiling::OP_CHECK_FUNC check_support_ = nullptr, select_format_ = nullptr, support_info_ = nullptr,
                            spec_info_ = nullptr;
    optiling::PARAM_GENERALIZE_FUNC generalize_ = nullptr;
    std::vector<std::pair<std::string, OpAICoreConfig>> configs_;
    std::vector<bool> arc_has_config_;
};

class OpDef {
public:
    explicit OpDef(const char *type) : type_(type) {}
    virtual ~OpDef() = default;

    OpParamDef &Input(const char *name) { return arc_param(inputs_, name); }
    OpParamDef &Output(const char *name) { return arc_param(outputs_, name); }
    OpAttrDef &Attr(const char *name)
    {
        for (auto &a : attrs_)
            if (a.arc_name() == name)
                return a;
        attrs_.emplace_back(name);
        return attrs_.back();
    }
    OpDef &SetInferShape(gert::InferShapeKernelFunc f) { infer_shape_ = f; return *this; }
    OpDef &SetInferDataType(gert::InferDataTypeKernelFunc f) { infer_dtype_ = f; return *this; }
    template <typename F> OpDef &SetInferShapeRange(F) { return *this; }
    OpDef &Comment(const char *) { return *this; }
    OpAICoreDef &AICore() { return aicore_; }
    ge::AscendString &GetOpType() { return type_; }

    std::vector<OpParamDef> &arc_inputs() { return inputs_; }
    std::vector<OpParamDef> &arc_outputs() { return outputs_; }
    std::vector<OpAttrDef> &arc_attrs() { return attrs_; }
    gert::InferShapeKernelFunc arc_infer_shape() const { return infer_shape_; }
    gert::InferDataTypeKernelFunc arc_infer_dtype() const { return infer_dtype_; }

private:

    ge::AscendString type_;
    std::vector<OpParamDef> inputs_, outputs_;
    std::vector<OpAttrDef> attrs_;
    gert::InferShapeKernelFunc infer_shape_ = nullptr;
    gert::InferDataTypeKernelFunc infer_dtype_ = nullptr;
    OpAICoreDef aicore_;
};

} // namespace ops

// OP_ADD(Type) makes the op definition Type reachable by ascendrtc: an
// unmangled factory arc_op_new_<Type> (no static registration, which an
// in-process load would have to run).
#define OP_ADD(optype, ...)                                                                                           \
    extern "C" __attribute__((visibility("default"), used)) ::ops::OpDef *arc_op_new_##optype(void)                   \
    {                                                                                                                 \
        return new optype(#optype);                                                                                   \
    }                                                                                                                 \
    static_assert(true, "")

#endif
