// arc/op_state.h - the state behind one call of an op's host functions:
// its input and output instances, attributes, platform and what the
// tiling function set.  The contexts (TilingContext, InferShapeContext,
// InferDataTypeContext) are views of it.  Internal to ascendrtc.
#ifndef ARC_HOST_OP_STATE_H
#define ARC_HOST_OP_STATE_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/shape.h"
#include "exe_graph/runtime/tensor.h"
#include "exe_graph/runtime/tiling_data.h"
#include "tiling/platform/platform_ascendc.h"

namespace arc_host {

// One present instance of an input or output.
struct Io {
    gert::StorageShape shape;
    gert::CompileTimeTensorDesc desc;
    gert::Tensor tensor;
    bool known = true;  // an output whose shape the caller gave (else InferShape must)
};

// Instances in order; ir_start/ir_count map each declared (IR) input or
// output to its instances (count 0: an absent optional; n: a dynamic one).
struct IoList {
    std::vector<Io> io;
    std::vector<size_t> ir_start, ir_count;

    Io *at(size_t i) { return i < io.size() ? &io[i] : nullptr; }
    Io *ir(size_t ir_index, size_t rel = 0)
    {
        if (ir_index >= ir_start.size() || rel >= ir_count[ir_index])
            return nullptr;
        return at(ir_start[ir_index] + rel);
    }
};

struct OpState {
    std::string node_name, node_type;
    IoList inputs, outputs;
    gert::RuntimeAttrs attrs;
    fe::PlatFormInfos platform;

    // Tiling: a buffer of `capacity` bytes the tiling function fills.
    std::unique_ptr<uint8_t[]> tiling_buf;
    gert::TilingData *tiling = nullptr;
    std::vector<size_t> workspace;
    uint32_t block_dim = 0;
    uint64_t tiling_key = 0;
    bool tiling_key_set = false;
    uint32_t schedule_mode = 0;
    uint32_t local_memory_size = 0;  // SetLocalMemorySize (recorded only)
    bool need_atomic = false;
    std::vector<uint64_t> scratch;  // where an oversized GetTilingData<T>() writes
    uint64_t tiling_struct_size = 0;  // sizeof(T) of the last GetTilingData<T>()
    std::string tiling_struct_name;   // and its T, as the compiler spells it
    std::string error;  // a misuse the host API detected during the call
    void *compile_info = nullptr;  // what the op's TilingParse filled (IMPL_OP_OPTILING ... TilingParse<T>)

    // InferShape / InferDataType results, one per output instance.
    std::vector<gert::Shape> out_shapes;
    std::vector<ge::DataType> out_dtypes;
};

} // namespace arc_host

#endif
