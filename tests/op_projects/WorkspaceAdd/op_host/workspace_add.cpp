// Test op project (ascendrtc): y = x + rounds, computed by bouncing each
// core's block through its slice of the user workspace `rounds` times.
#include "workspace_add_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    uint32_t cores = 4;
    WorkspaceAddTilingData t;
    t.set_blockLength(total / cores);
    t.set_rounds(static_cast<uint32_t>(*context->GetAttrs()->GetInt(0)));
    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t user = static_cast<size_t>(total) * sizeof(float);
    context->GetWorkspaceSizes(1)[0] = user + platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class WorkspaceAdd : public OpDef {
public:
    explicit WorkspaceAdd(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("rounds").AttrType(OPTIONAL).Int(3);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(WorkspaceAdd);
} // namespace ops
