// exe_graph/runtime/runtime_attrs.h - gert::RuntimeAttrs: an op's attribute
// values, indexed in the order the op definition declares them.
#ifndef ARC_HOST_EXE_GRAPH_RUNTIME_ATTRS_H
#define ARC_HOST_EXE_GRAPH_RUNTIME_ATTRS_H

#include <cstdint>
#include <vector>

#include "exe_graph/runtime/continuous_vector.h"

namespace gert {

class RuntimeAttrs {
public:
    // Each value lives in its own 8-byte-aligned blob: a scalar's bytes, a
    // NUL-terminated string, or a TypedContinuousVector with its elements.
    template <typename T> const T *GetAttrPointer(size_t i) const
    {
        return i < blobs_.size() && !blobs_[i].empty() ? reinterpret_cast<const T *>(blobs_[i].data()) : nullptr;
    }
    const int64_t *GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
    const float *GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
    const bool *GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
    const char *GetStr(size_t i) const { return GetAttrPointer<char>(i); }
    const TypedContinuousVector<int64_t> *GetListInt(size_t i) const
    {
        return GetAttrPointer<TypedContinuousVector<int64_t>>(i);
    }
    const TypedContinuousVector<float> *GetListFloat(size_t i) const
    {
        return GetAttrPointer<TypedContinuousVector<float>>(i);
    }
    const TypedContinuousVector<bool> *GetListBool(size_t i) const
    {
        return GetAttrPointer<TypedContinuousVector<bool>>(i);
    }
    size_t GetAttrNum() const { return blobs_.size(); }

    // Filled by ascendrtc's driver, not by tiling functions.
    std::vector<uint64_t> &arc_blob(size_t i)
    {
        if (blobs_.size() <= i)
            blobs_.resize(i + 1);
        return blobs_[i];
    }

private:
    std::vector<std::vector<uint64_t>> blobs_;
};

} // namespace gert

#endif
