// exe_graph/runtime/tiling_data.h - gert::TilingData: the raw tiling buffer a
// tiling function fills (capacity fixed by the caller, data size set by the
// tiling function).
#ifndef ARC_HOST_EXE_GRAPH_TILING_DATA_H
#define ARC_HOST_EXE_GRAPH_TILING_DATA_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>

#include "graph/types.h"

namespace gert {

class TilingData {
public:
    size_t GetCapacity() const { return capacity_; }
    size_t GetDataSize() const { return data_size_; }
    void SetDataSize(size_t n) { data_size_ = n; }
    void *GetData() { return data_; }
    const void *GetData() const { return data_; }

    // Appends one value; GRAPH_FAILED when it does not fit the capacity.
    template <typename T> ge::graphStatus Append(const T &v)
    {
        if (data_size_ + sizeof(T) > capacity_)
            return ge::GRAPH_FAILED;
        std::memcpy(static_cast<uint8_t *>(data_) + data_size_, &v, sizeof(T));
        data_size_ += sizeof(T);
        return ge::GRAPH_SUCCESS;
    }

    // A TilingData header followed by cap_size bytes of data.
    static std::unique_ptr<uint8_t[]> CreateCap(size_t cap_size)
    {
        std::unique_ptr<uint8_t[]> p(new (std::nothrow) uint8_t[sizeof(TilingData) + cap_size]());
        if (p)
            reinterpret_cast<TilingData *>(p.get())->Init(cap_size, p.get() + sizeof(TilingData));
        return p;
    }
    void Init(size_t cap_size, void *data)
    {
        capacity_ = cap_size;
        data_size_ = 0;
        data_ = data;
    }

private:
    size_t capacity_ = 0;
    size_t data_size_ = 0;
    void *data_ = nullptr;
};

} // namespace gert

#endif
