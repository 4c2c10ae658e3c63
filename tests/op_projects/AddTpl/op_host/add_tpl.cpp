// Test op project (ascendrtc): z = x + y, or 2 * (x + y) with the bool
// attribute double_it; the dtype, tile count and flag are template
// arguments of the kernel, packed into the tiling key.
#include "add_tpl_tiling.h"
#include "register/op_def_registry.h"
#include "tiling_key_add_tpl.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    AddTplTilingData t;
    uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    uint32_t dt = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? TPL_FP16 : TPL_FP32;
    uint32_t tiles = total >= 4096 ? 4 : 1;
    uint32_t twice = *context->GetAttrs()->GetBool(0) ? 1 : 0;
    t.set_totalLength(total);
    context->SetBlockDim(4);
    context->SetTilingKey(GET_TPL_TILING_KEY(dt, tiles, twice));
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class AddTpl : public OpDef {
public:
    explicit AddTpl(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("double_it").AttrType(OPTIONAL).Bool(false);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(AddTpl);
} // namespace ops
