// Test op project (ascendrtc): y = x >= 0 ? x : negative_slope * x, the
// slope an optional float attribute (default 0.01), tiles from an int attr.
#include "leaky_attr_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    LeakyAttrTilingData t;
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const float *slope = attrs->GetFloat(0);
    const int64_t *tiles = attrs->GetInt(1);
    if (slope == nullptr || tiles == nullptr || *tiles <= 0)
        return ge::GRAPH_FAILED;
    t.set_totalLength(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    t.set_tileNum(static_cast<uint32_t>(*tiles));
    t.set_negativeSlope(*slope);
    context->SetBlockDim(8);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class LeakyAttr : public OpDef {
public:
    explicit LeakyAttr(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01f);
        this->Attr("tile_num").AttrType(REQUIRED).Int();
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(LeakyAttr);
} // namespace ops
