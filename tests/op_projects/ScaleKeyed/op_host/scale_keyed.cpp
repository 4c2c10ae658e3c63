// Test op project (ascendrtc): y = x * scale.  The tiling key says the
// dtype (1: float16, 2: float32), as CANN ops select per-dtype code.
#include "scale_keyed_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const float *scale = attrs->GetAttrPointer<float>(0);
    uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    uint32_t cores = 4;
    ScaleKeyedTilingData t;
    t.set_blockLength(total / cores);
    t.set_scale(*scale);
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    if (dt == ge::DT_FLOAT16)
        context->SetTilingKey(1);
    else if (dt == ge::DT_FLOAT)
        context->SetTilingKey(2);
    else
        return ge::GRAPH_FAILED;
    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class ScaleKeyed : public OpDef {
public:
    explicit ScaleKeyed(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(2.0);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(ScaleKeyed);
} // namespace ops
