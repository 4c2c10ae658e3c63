// Test op project (ascendrtc): y[r] = sum of row r of x [rows, cols]
// (float32, cols a multiple of 8).  InferShape drops the last dim.
#include "row_sum_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &s = context->GetInputShape(0)->GetOriginShape();
    if (s.GetDimNum() != 2 || s.GetDim(1) % 8 != 0)
        return ge::GRAPH_PARAM_INVALID;
    uint32_t rows = s.GetDim(0), cols = s.GetDim(1);
    uint32_t cores = rows < 8 ? rows : 8;
    RowSumTilingData t;
    t.set_rows(rows);
    t.set_cols(cols);
    t.set_rowsPerCore((rows + cores - 1) / cores);
    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(0);
    for (size_t i = 0; i + 1 < x->GetDimNum(); i++)
        y->AppendDim(x->GetDim(i));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class RowSum : public OpDef {
public:
    explicit RowSum(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(RowSum);
} // namespace ops
