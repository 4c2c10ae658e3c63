// exe_graph/runtime/tensor.h - what a tiling function learns about one
// input or output: gert::CompileTimeTensorDesc (dtype, formats) and
// gert::Tensor (shape, dtype and, for inputs, the host copy of the data
// that value-depend inputs read).
#ifndef ARC_HOST_EXE_GRAPH_TENSOR_H
#define ARC_HOST_EXE_GRAPH_TENSOR_H

#include "exe_graph/runtime/shape.h"
#include "graph/types.h"

namespace gert {

class StorageFormat {
public:
    StorageFormat() = default;
    StorageFormat(ge::Format origin, ge::Format storage) : origin_(origin), storage_(storage) {}
    ge::Format GetOriginFormat() const { return origin_; }
    ge::Format GetStorageFormat() const { return storage_; }
    void SetOriginFormat(ge::Format f) { origin_ = f; }
    void SetStorageFormat(ge::Format f) { storage_ = f; }

private:
    ge::Format origin_ = ge::FORMAT_ND;
    ge::Format storage_ = ge::FORMAT_ND;
};

class CompileTimeTensorDesc {
public:
    ge::DataType GetDataType() const { return dtype_; }
    void SetDataType(ge::DataType dt) { dtype_ = dt; }
    ge::Format GetStorageFormat() const { return format_.GetStorageFormat(); }
    ge::Format GetOriginFormat() const { return format_.GetOriginFormat(); }
    const StorageFormat &GetFormat() const { return format_; }
    void SetStorageFormat(ge::Format f) { format_.SetStorageFormat(f); }
    void SetOriginFormat(ge::Format f) { format_.SetOriginFormat(f); }

private:
    ge::DataType dtype_ = ge::DT_UNDEFINED;
    StorageFormat format_;
};

class Tensor {
public:
    const StorageShape &GetShape() const { return shape_; }
    StorageShape &MutableShape() { return shape_; }
    const Shape &GetOriginShape() const { return shape_.GetOriginShape(); }
    const Shape &GetStorageShape() const { return shape_.GetStorageShape(); }
    int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
    ge::DataType GetDataType() const { return dtype_; }
    void SetDataType(ge::DataType dt) { dtype_ = dt; }
    ge::Format GetStorageFormat() const { return format_.GetStorageFormat(); }
    ge::Format GetOriginFormat() const { return format_.GetOriginFormat(); }
    const StorageFormat &GetFormat() const { return format_; }
    StorageFormat &MutableFormat() { return format_; }
    // The host copy of the tensor's data (nullptr where there is none).
    template <typename T> const T *GetData() const { return static_cast<const T *>(addr_); }
    const void *GetAddr() const { return addr_; }
    size_t GetSize() const { return size_; }
    void SetData(const void *addr, size_t size)
    {
        addr_ = addr;
        size_ = size;
    }

private:
    StorageShape shape_;
    ge::DataType dtype_ = ge::DT_UNDEFINED;
    StorageFormat format_;
    const void *addr_ = nullptr;
    size_t size_ = 0;
};

} // namespace gert

#endif
