// Test op project (ascendrtc): z = x * y (float32).  The length is split
// in 32-byte blocks over the vector cores: the first formerNum cores take
// one block more (formerLength elements) than the others (tailLength).
#include "mul_tail_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_ELEMS = 8;  // 32 bytes of float32
constexpr uint32_t TILE = 64;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (total % BLOCK_ELEMS != 0)
        return ge::GRAPH_FAILED;  // the kernel copies whole 32-byte blocks
    uint32_t blocks = total / BLOCK_ELEMS;
    uint32_t cores = platform.GetCoreNumAiv();
    if (cores > blocks)
        cores = blocks;
    if (cores > 6)
        cores = 6;  // few cores, so small inputs still have a tail
    MulTailTilingData t;
    t.set_formerNum(blocks % cores);
    t.set_tailLength(blocks / cores * BLOCK_ELEMS);
    t.set_formerLength((blocks / cores + 1) * BLOCK_ELEMS);
    t.set_tileLength(TILE);
    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class MulTail : public OpDef {
public:
    explicit MulTail(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(MulTail);
} // namespace ops
