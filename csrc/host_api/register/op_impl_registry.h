// register/op_impl_registry.h - an op's host functions registered by op
// type (IMPL_OP_INFERSHAPE, IMPL_OP_OPTILING, IMPL_OP) instead of in its
// OpDef; the host driver (arc/host_driver.h) uses them where the OpDef
// sets none.  TilingParse<T>(fn) makes one T per call, fills it with fn
// and hands it to the tiling function (TilingContext::GetCompileInfo<T>).
#ifndef ARC_HOST_REGISTER_OP_IMPL_REGISTRY_H
#define ARC_HOST_REGISTER_OP_IMPL_REGISTRY_H

#include <initializer_list>
#include <map>
#include <memory>
#include <string>

#include "exe_graph/runtime/infer_shape_range_context.h"  // InferShapeRange's, as CANN's includes it
#include "exe_graph/runtime/tiling_parse_context.h"
#include "register/op_def.h"

namespace gert {

// What is registered for one op type.
struct ArcOpImpl {
    InferShapeKernelFunc infer_shape = nullptr;
    InferDataTypeKernelFunc infer_dtype = nullptr;
    TilingKernelFunc tiling = nullptr;
    TilingParseFunc tiling_parse = nullptr;
    std::shared_ptr<void> (*make_compile_info)() = nullptr;
};

inline std::map<std::string, ArcOpImpl> &arc_op_impls()
{
    static std::map<std::string, ArcOpImpl> m;
    return m;
}

inline const ArcOpImpl *arc_op_impl(const std::string &op_type)
{
    auto it = arc_op_impls().find(op_type);
    return it == arc_op_impls().end() ? nullptr : &it->second;
}

class OpImplRegisterV2 {
public:
    using TilingKernelFunc = gert::TilingKernelFunc;
    using InferShapeKernelFunc = gert::InferShapeKernelFunc;
    using InferDataTypeKernelFunc = gert::InferDataTypeKernelFunc;

    explicit OpImplRegisterV2(const char *op_type) : impl_(&arc_op_impls()[op_type ? op_type : ""]) {}
    OpImplRegisterV2 &InferShape(InferShapeKernelFunc f) { impl_->infer_shape = f; return *this; }
    OpImplRegisterV2 &InferDataType(InferDataTypeKernelFunc f) { impl_->infer_dtype = f; return *this; }
    OpImplRegisterV2 &Tiling(TilingKernelFunc f, size_t = 0) { impl_->tiling = f; return *this; }
    template <typename T> OpImplRegisterV2 &TilingParse(TilingParseFunc f)
    {
        impl_->tiling_parse = f;
        impl_->make_compile_info = [] { return std::shared_ptr<void>(std::make_shared<T>()); };
        return *this;
    }
    // What ascendrtc needs no record of: every input's data is on the host
    // at tiling time, and shape ranges, private attributes and simplified
    // keys belong to graph compilation.
    OpImplRegisterV2 &InputsDataDependency(std::initializer_list<int32_t>) { return *this; }
    OpImplRegisterV2 &TilingInputsDataDependency(std::initializer_list<int32_t>) { return *this; }
    template <typename S> OpImplRegisterV2 &TilingInputsDataDependency(std::initializer_list<int32_t>, S)
    {
        return *this;
    }
    template <typename F> OpImplRegisterV2 &InferShapeRange(F) { return *this; }
    // the op definition's outputs say so too (OpParamDef::OutputShapeDependOnCompute)
    OpImplRegisterV2 &OutputShapeDependOnCompute(std::initializer_list<int32_t>) { return *this; }
    OpImplRegisterV2 &PrivateAttr(const char *) { return *this; }
    template <typename T> OpImplRegisterV2 &PrivateAttr(const char *, T) { return *this; }
    template <typename F> OpImplRegisterV2 &GenSimplifiedKey(F) { return *this; }
    template <typename F> OpImplRegisterV2 &OpExecuteFunc(F) { return *this; }
    // Every output takes the first input's dtype.
    OpImplRegisterV2 &InferOutDataTypeSameWithFirstInput()
    {
        impl_->infer_dtype = [](InferDataTypeContext *c) {
            for (size_t i = 0; c->SetOutputDataType(i, c->GetInputDataType(0)) == ge::GRAPH_SUCCESS; i++) {
            }
            return ge::GRAPH_SUCCESS;
        };
        return *this;
    }

private:
    ArcOpImpl *impl_;
};

} // namespace gert

#define ARC_IMPL_OP_CAT2(a, b) a##b
#define ARC_IMPL_OP_CAT(a, b) ARC_IMPL_OP_CAT2(a, b)
#define IMPL_OP(op_type)                                                                                    \
    static ::gert::OpImplRegisterV2 __attribute__((unused)) ARC_IMPL_OP_CAT(arc_op_impl_, __COUNTER__) =    \
        ::gert::OpImplRegisterV2(#op_type)
#define IMPL_OP_INFERSHAPE(op_type) IMPL_OP(op_type)
#define IMPL_OP_OPTILING(op_type) IMPL_OP(op_type)
#define IMPL_OP_DEFAULT() IMPL_OP(DefaultImpl)

#endif
