// exe_graph/runtime/continuous_vector.h - gert::TypedContinuousVector, the
// inline array behind list attributes (GetListInt and friends).
#ifndef ARC_HOST_EXE_GRAPH_CONTINUOUS_VECTOR_H
#define ARC_HOST_EXE_GRAPH_CONTINUOUS_VECTOR_H

#include <cstddef>

namespace gert {

// Header {capacity, size} followed by the elements in the same allocation.
template <typename T> class TypedContinuousVector {
public:
    size_t GetSize() const { return size_; }
    size_t GetCapacity() const { return capacity_; }
    const T *GetData() const { return reinterpret_cast<const T *>(this + 1); }
    T *MutableData() { return reinterpret_cast<T *>(this + 1); }
    void Init(size_t capacity, size_t size)
    {
        capacity_ = capacity;
        size_ = size;
    }

private:
    size_t capacity_ = 0;
    size_t size_ = 0;
};

using ContinuousVector = TypedContinuousVector<char>;

} // namespace gert

#endif
