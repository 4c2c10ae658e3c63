// exe_graph/runtime/tiling_context.h - gert::TilingContext, what a host
// tiling function reads (shapes, dtypes, attributes, platform) and sets
// (block dim, tiling key, workspace, tiling data).  Input indices count
// present input instances; the Optional/Dynamic getters take the index of
// the input as the op definition declares it.
#ifndef ARC_HOST_EXE_GRAPH_TILING_CONTEXT_H
#define ARC_HOST_EXE_GRAPH_TILING_CONTEXT_H

#include <cstring>
#include <string>

#include "arc/op_state.h"
#include "exe_graph/runtime/compute_node_info.h"

namespace gert {

class TilingContext : public arc_host::NodeContext {
public:
    explicit TilingContext(arc_host::OpState *s) : NodeContext(s) {}

    const StorageShape *GetInputShape(size_t i) const { return arc_host::shape_of(s_->inputs.at(i)); }
    const StorageShape *GetOutputShape(size_t i) const { return arc_host::shape_of(s_->outputs.at(i)); }
    const CompileTimeTensorDesc *GetInputDesc(size_t i) const { return arc_host::desc_of(s_->inputs.at(i)); }
    const CompileTimeTensorDesc *GetOutputDesc(size_t i) const { return arc_host::desc_of(s_->outputs.at(i)); }
    const Tensor *GetInputTensor(size_t i) const { return arc_host::tensor_of(s_->inputs.at(i)); }
    const StorageShape *GetOptionalInputShape(size_t ir) const { return arc_host::shape_of(s_->inputs.ir(ir)); }
    const CompileTimeTensorDesc *GetOptionalInputDesc(size_t ir) const { return arc_host::desc_of(s_->inputs.ir(ir)); }
    const Tensor *GetOptionalInputTensor(size_t ir) const { return arc_host::tensor_of(s_->inputs.ir(ir)); }
    const StorageShape *GetRequiredInputShape(size_t ir) const { return arc_host::shape_of(s_->inputs.ir(ir)); }
    const CompileTimeTensorDesc *GetRequiredInputDesc(size_t ir) const { return arc_host::desc_of(s_->inputs.ir(ir)); }
    const Tensor *GetRequiredInputTensor(size_t ir) const { return arc_host::tensor_of(s_->inputs.ir(ir)); }
    const StorageShape *GetDynamicInputShape(size_t ir, size_t rel) const
    {
        return arc_host::shape_of(s_->inputs.ir(ir, rel));
    }
    const CompileTimeTensorDesc *GetDynamicInputDesc(size_t ir, size_t rel) const
    {
        return arc_host::desc_of(s_->inputs.ir(ir, rel));
    }
    const Tensor *GetDynamicInputTensor(size_t ir, size_t rel) const
    {
        return arc_host::tensor_of(s_->inputs.ir(ir, rel));
    }
    // The compile info the op's TilingParse filled (IMPL_OP_OPTILING(op).TilingParse<T>(fn)); null without one.
    template <typename T = void> const T *GetCompileInfo() const
    {
        return static_cast<const T *>(s_->compile_info);
    }

    ge::graphStatus SetBlockDim(uint32_t n)
    {
        s_->block_dim = n;
        return ge::GRAPH_SUCCESS;
    }
    uint32_t GetBlockDim() const { return s_->block_dim; }
    // CANN 2026's names for the same value (the SIMD launch's numBlocks).
    ge::graphStatus SetSimdNumBlocks(uint32_t n) { return SetBlockDim(n); }
    uint32_t GetSimdNumBlocks() const { return s_->block_dim; }
    ge::graphStatus SetTilingKey(uint64_t k)
    {
        s_->tiling_key = k;
        s_->tiling_key_set = true;
        return ge::GRAPH_SUCCESS;
    }
    uint64_t GetTilingKey() const { return s_->tiling_key; }
    ge::graphStatus SetScheduleMode(uint32_t m)
    {
        s_->schedule_mode = m;
        return ge::GRAPH_SUCCESS;
    }
    uint32_t GetScheduleMode() const { return s_->schedule_mode; }
    ge::graphStatus SetNeedAtomic(bool a)
    {
        s_->need_atomic = a;
        return ge::GRAPH_SUCCESS;
    }
    bool NeedAtomic() const { return s_->need_atomic; }
    int32_t GetDeterministic() const { return 0; }
    int32_t GetDeterministicLevel() const { return 0; }  // no determinism asked for (the default)
    // The UB bytes a dav-3510 kernel keeps for its SIMT part; the simulated
    // NPU gives SIMT code its own stack, so the figure is recorded only.
    ge::graphStatus SetLocalMemorySize(uint32_t n)
    {
        s_->local_memory_size = n;
        return ge::GRAPH_SUCCESS;
    }

    // The workspace sizes array, resized to num entries.
    size_t *GetWorkspaceSizes(size_t num)
    {
        if (s_->workspace.size() < num)
            s_->workspace.resize(num, 0);
        return s_->workspace.data();
    }
    size_t GetWorkspaceNum() const { return s_->workspace.size(); }

    TilingData *GetRawTilingData() { return s_->tiling; }

    // The tiling buffer viewed as T (data size grows to sizeof(T)).  A T
    // larger than the buffer is an error ascendrtc reports after the call;
    // the function then writes to scratch memory, never past the buffer.
    template <typename T> T *GetTilingData()
    {
        TilingData *td = s_->tiling;
        s_->tiling_struct_size = sizeof(T);
        s_->tiling_struct_name = arc_type_name(__PRETTY_FUNCTION__);
        if (sizeof(T) > td->GetCapacity()) {
            s_->error = std::string("GetTilingData<") + arc_type_name(__PRETTY_FUNCTION__) + ">(): the struct is " +
                        std::to_string(sizeof(T)) + " bytes, larger than the tiling buffer (" +
                        std::to_string(td->GetCapacity()) + " bytes)";
            s_->scratch.assign(sizeof(T) / 8 + 1, 0);
            return reinterpret_cast<T *>(s_->scratch.data());
        }
        if (td->GetDataSize() < sizeof(T))
            td->SetDataSize(sizeof(T));
        return static_cast<T *>(td->GetData());
    }

    fe::PlatFormInfos *GetPlatformInfo() const { return &s_->platform; }
    // Inputs reach the kernel contiguous: no input is a strided view.
    bool InputIsView(size_t) const { return false; }
    bool DynamicInputIsView(size_t, size_t) const { return false; }
    const Stride *GetInputStride(size_t) const { return nullptr; }
    const Stride *GetDynamicInputStride(size_t, size_t) const { return nullptr; }
    // -1: the input carries no non-contiguous description (CANN's page)
    int64_t GetInputOffset(size_t) const { return -1; }

private:
    // "T = Foo" out of __PRETTY_FUNCTION__.
    static std::string arc_type_name(const char *pretty)
    {
        const char *p = std::strstr(pretty, "T = ");
        if (!p)
            return "T";
        std::string s(p + 4);
        size_t end = s.find_first_of(";]");
        return end == std::string::npos ? s : s.substr(0, end);
    }
};

} // namespace gert

#endif
