// Test op project (ascendrtc): z = alpha * x + y (float32), the tiling a
// plain struct written in place through context->GetTilingData<T>().
#include "../op_kernel/axpy_struct_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    AxpyStructTilingData *t = context->GetTilingData<AxpyStructTilingData>();
    uint32_t cores = 2;
    t->blockLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize() / cores;
    t->alpha = *context->GetAttrs()->GetAttrPointer<float>(0);
    context->SetBlockDim(cores);
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class AxpyStruct : public OpDef {
public:
    explicit AxpyStruct(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("alpha").AttrType(REQUIRED).Float();
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(AxpyStruct);
} // namespace ops
