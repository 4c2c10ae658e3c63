// exe_graph/runtime/continuous_vector.h - gert::TypedContinuousVector, the
// inline array behind list attributes (GetListInt and friends).
#ifndef ARC_HOST_EXE_GRAPH_CONTINUOUS_VECTOR_H
#define ARC_HOST_EXE_GRAPH_CONTINUOUS_VECTOR_H

#include <cstddef>

namespace gert {

// Header {capacity, size} followed by the elements in the same allocation;
// untyped (GetData() is void*, as list attributes read raw) and typed.
class ContinuousVector {
public:
    size_t GetSize() const { return size_; }
    size_t GetCapacity() const { return capacity_; }
    const void *GetData() const { return this + 1; }
    void *MutableData() { return this + 1; }
    void Init(size_t capacity, size_t size)
    {
        capacity_ = capacity;
        size_ = size;
    }

private:
    size_t capacity_ = 0;
    size_t size_ = 0;
};

template <typename T> class TypedContinuousVector : public ContinuousVector {
public:
    const T *GetData() const { return static_cast<const T *>(ContinuousVector::GetData()); }
    T *MutableData() { return static_cast<T *>(ContinuousVector::MutableData()); }
};

} // namespace gert

#endif
