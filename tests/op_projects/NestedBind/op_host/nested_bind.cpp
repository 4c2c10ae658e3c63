// Test op project (ascendrtc): the tiling object lives on the heap, is bound
// to the context's raw tiling buffer with SetDataPtr and deleted before the
// tiling function returns; the kernel writes its fields out as float.
#include "nested_bind_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
class NbTiler {
public:
    explicit NbTiler(gert::TilingContext *ctx) : ctx_(ctx) { t_.SetDataPtr(ctx_->GetRawTilingData()->GetData()); }
    void Run()
    {
        int64_t n = ctx_->GetInputShape(0)->GetStorageShape().GetDim(0);
        t_.inner.set_a(n);
        t_.inner.set_b(n * 3);
        t_.inner.set_scale(0.5f);
        t_.mid.set_c(7);
        t_.mid.set_d(-n);
        t_.set_e(11);
        ctx_->GetRawTilingData()->SetDataSize(t_.GetDataSize());
        ctx_->SetBlockDim(1);
        ctx_->GetWorkspaceSizes(1)[0] = 0;
    }

private:
    gert::TilingContext *ctx_;
    NestedBindTilingData t_;
};

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    NbTiler *t = new NbTiler(context);
    t->Run();
    delete t;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    gert::Shape *out = context->GetOutputShape(0);
    out->SetDimNum(1);
    out->SetDim(0, 8);
    return GRAPH_SUCCESS;
}
static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class NestedBind : public OpDef {
public:
    explicit NestedBind(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(NestedBind);
} // namespace ops
