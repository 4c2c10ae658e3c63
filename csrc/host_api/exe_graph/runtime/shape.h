// exe_graph/runtime/shape.h - gert::Shape (up to 25 dims), gert::StorageShape
// (origin and storage shape of one tensor), and ge::Shape, the graph
// engine's vector-backed shape.
#ifndef ARC_HOST_EXE_GRAPH_SHAPE_H
#define ARC_HOST_EXE_GRAPH_SHAPE_H

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iostream>  // CANN's shape.h brings it: op host code writes std::cerr through it
#include <vector>

#include "graph/types.h"

namespace gert {

class Shape {
public:
    static constexpr size_t kMaxDimNum = 25;
    static constexpr int64_t kInvalidDimValue = INT64_MIN;

    Shape() : dim_num_(0), dims_{} {}
    Shape(std::initializer_list<int64_t> dims) : dim_num_(0), dims_{}
    {
        for (int64_t d : dims)
            AppendDim(d);
    }

    size_t GetDimNum() const { return dim_num_; }
    void SetDimNum(size_t n) { dim_num_ = n > kMaxDimNum ? kMaxDimNum : n; }
    // kInvalidDimValue for an index past the last dim, as CANN does.
    int64_t GetDim(size_t i) const { return i < dim_num_ ? dims_[i] : kInvalidDimValue; }
    Shape &SetDim(size_t i, int64_t v)
    {
        if (i < kMaxDimNum)
            dims_[i] = v;
        return *this;
    }
    Shape &AppendDim(int64_t v)
    {
        if (dim_num_ < kMaxDimNum)
            dims_[dim_num_++] = v;
        return *this;
    }
    bool IsScalar() const { return dim_num_ == 0; }
    void SetScalar() { dim_num_ = 0; }
    // The element count: 1 for a scalar, -1 when a dim is unknown (< 0).
    int64_t GetShapeSize() const
    {
        int64_t n = 1;
        for (size_t i = 0; i < dim_num_; i++) {
            if (dims_[i] < 0)
                return -1;
            n *= dims_[i];
        }
        return n;
    }
    const int64_t &operator[](size_t i) const { return dims_[i]; }
    int64_t &operator[](size_t i) { return dims_[i]; }
    bool operator==(const Shape &o) const
    {
        if (dim_num_ != o.dim_num_)
            return false;
        for (size_t i = 0; i < dim_num_; i++)
            if (dims_[i] != o.dims_[i])
                return false;
        return true;
    }
    bool operator!=(const Shape &o) const { return !(*this == o); }

private:
    size_t dim_num_;
    int64_t dims_[kMaxDimNum];
};

// A view's element strides, one per dim (inputs here are contiguous, so
// host code meets none; see TilingContext::GetInputStride).
class Stride {
public:
    Stride() = default;
    Stride(std::initializer_list<int64_t> s) : s_(s) {}
    size_t GetDimNum() const { return s_.GetDimNum(); }
    int64_t GetStride(size_t i) const { return s_.GetDim(i); }
    void SetDimNum(size_t n) { s_.SetDimNum(n); }
    void SetStride(size_t i, int64_t v) { s_.SetDim(i, v); }
    const int64_t &operator[](size_t i) const { return s_[i]; }
    int64_t &operator[](size_t i) { return s_[i]; }

private:
    Shape s_;
};

class StorageShape {
public:
    StorageShape() = default;
    StorageShape(std::initializer_list<int64_t> origin, std::initializer_list<int64_t> storage)
        : origin_shape_(origin), storage_shape_(storage) {}
    const Shape &GetOriginShape() const { return origin_shape_; }
    const Shape &GetStorageShape() const { return storage_shape_; }
    const Shape &GetShape() const { return storage_shape_; }  // the tensor's (contiguous) shape
    Shape &MutableOriginShape() { return origin_shape_; }
    Shape &MutableStorageShape() { return storage_shape_; }
    bool operator==(const StorageShape &o) const
    {
        return origin_shape_ == o.origin_shape_ && storage_shape_ == o.storage_shape_;
    }
    bool operator!=(const StorageShape &o) const { return !(*this == o); }

private:
    Shape origin_shape_;
    Shape storage_shape_;
};

} // namespace gert

namespace ge {

class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t> &dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    std::vector<int64_t> GetDims() const { return dims_; }
    graphStatus SetDim(size_t i, int64_t v)
    {
        if (i >= dims_.size())
            return GRAPH_FAILED;
        dims_[i] = v;
        return GRAPH_SUCCESS;
    }
    int64_t GetShapeSize() const
    {
        if (dims_.empty())
            return 0;
        int64_t n = 1;
        for (int64_t d : dims_) {
            if (d < 0)
                return -1;
            n *= d;
        }
        return n;
    }

private:
    std::vector<int64_t> dims_;
};

} // namespace ge

#endif
