// Test op project (ascendrtc): y = min(max(x, lo), hi) with bounds=[lo, hi]
// (ListFloat).  Cores: all vector cores that get 256 elements or more;
// tile: what fits a quarter of UB, capped by a ListInt attr's first value.
#include "clip_ub_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const gert::TypedContinuousVector<float> *bounds = context->GetAttrs()->GetListFloat(0);
    const gert::TypedContinuousVector<int64_t> *cap = context->GetAttrs()->GetListInt(1);
    if (bounds == nullptr || bounds->GetSize() != 2 || ub == 0)
        return ge::GRAPH_FAILED;
    uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    uint32_t cores = platform.GetCoreNumAiv();
    while (cores > 1 && (total % cores != 0 || total / cores < 256))
        cores--;
    uint32_t block = total / cores;
    uint32_t tile = static_cast<uint32_t>(ub / 4 / sizeof(float));
    if (cap != nullptr && cap->GetSize() > 0 && cap->GetData()[0] > 0 && cap->GetData()[0] < tile)
        tile = static_cast<uint32_t>(cap->GetData()[0]);
    ClipUbTilingData t;
    t.set_blockLength(block);
    t.set_tileLength(tile);
    t.set_bounds(bounds->GetData());
    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class ClipUb : public OpDef {
public:
    explicit ClipUb(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("bounds").AttrType(REQUIRED).ListFloat();
        this->Attr("max_tile").AttrType(OPTIONAL).ListInt({});
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(ClipUb);
} // namespace ops
