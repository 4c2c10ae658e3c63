/* list_tensor.h - ListTensorDesc / TensorDesc: a list of GM tensors passed
 * as one kernel argument (dynamic-input ops such as AddN).
 *
 * GM layout, as the public samples' hosts build it (uint64 words):
 *   [0]            ptrOffset: byte offset of the data-pointer array
 *   per tensor     one word {uint32 dim, uint32 index}, then dim shape words
 *   [ptrOffset/8]  one data pointer per tensor */
#ifndef ARC_LIST_TENSOR_H_
#define ARC_LIST_TENSOR_H_

#include "arc/tensor.h"

namespace AscendC {

template <typename T> class TensorDesc {
public:
    TensorDesc() = default;
    /* Where GetDesc writes the shape (dim words). */
    void SetShapeAddr(uint64_t *shapePtr) { shape_ = shapePtr; }
    uint32_t GetDim() const { return dim_; }
    uint32_t GetIndex() const { return index_; }
    uint64_t GetShape(uint32_t i) const
    {
        ARC_CHECK(shape_ != nullptr, "AscendC::TensorDesc::GetShape", "no shape buffer: call SetShapeAddr first");
        ARC_CHECK(i < dim_, "AscendC::TensorDesc::GetShape", "dimension %u is beyond the tensor's %u", i, dim_);
        return shape_[i];
    }
    T *GetDataPtr() const { return data_; }
    GlobalTensor<T> GetDataObj() const
    {
        GlobalTensor<T> g;
        uint64_t n = 1;
        for (uint32_t i = 0; shape_ && i < dim_; i++) n *= shape_[i];
        g.SetGlobalBuffer(data_, n);
        return g;
    }

    uint64_t *shape_ = nullptr;
    uint32_t dim_ = 0, index_ = 0;
    T *data_ = nullptr;
};

class ListTensorDesc {
public:
    ListTensorDesc() = default;
    ListTensorDesc(void *data, uint32_t length = 0xffffffffu, uint32_t shapeSize = 0xffffffffu)
    {
        Init(data, length, shapeSize);
    }
    /* length: bytes of the descriptor (checked when given); shapeSize:
     * the tensor count (checked when given). */
    void Init(void *data, uint32_t length = 0xffffffffu, uint32_t shapeSize = 0xffffffffu)
    {
        const char *api = "AscendC::ListTensorDesc";
        base_ = (uint64_t *)data;
        ARC_CHECK(base_ != nullptr, api, "the descriptor address is null");
        __arc::gm_access(base_, 8, api);
        uint64_t off = base_[0];
        ARC_CHECK(off >= 8 && off % 8 == 0, api, "ptrOffset %llu is not a multiple of 8 past the header",
                  (unsigned long long)off);
        ARC_CHECK(length == 0xffffffffu || off <= length, api, "ptrOffset %llu lies beyond the %u-byte descriptor",
                  (unsigned long long)off, length);
        __arc::gm_access(base_, off, api);
        count_ = 0;
        for (uint64_t w = 1; w < off / 8;) {
            uint32_t dim = (uint32_t)base_[w];
            w += 1 + dim;
            count_++;
        }
        ptrs_ = base_ + off / 8;
        __arc::gm_access(ptrs_, (uint64_t)count_ * 8, api);
        ARC_CHECK(shapeSize == 0xffffffffu || shapeSize == count_, api,
                  "the descriptor holds %u tensors, %u were announced", count_, shapeSize);
        ARC_CHECK(length == 0xffffffffu || off + (uint64_t)count_ * 8 <= length, api,
                  "%u data pointers at byte %llu run past the %u-byte descriptor", count_,
                  (unsigned long long)off, length);
    }
    uint32_t GetSize() const { return count_; }
    /* The data of tensor `index`, as a T pointer. */
    template <typename T> T *GetDataPtr(uint32_t index) const
    {
        ARC_CHECK(index < count_, "AscendC::ListTensorDesc::GetDataPtr", "tensor %u of %u", index, count_);
        return (T *)(uintptr_t)ptrs_[index];
    }
    template <typename T> void GetDesc(TensorDesc<T> &desc, uint32_t index) const
    {
        const char *api = "AscendC::ListTensorDesc::GetDesc";
        ARC_CHECK(index < count_, api, "tensor %u of %u", index, count_);
        uint64_t w = 1;
        for (uint32_t i = 0; i < index; i++) w += 1 + (uint32_t)base_[w];
        desc.dim_ = (uint32_t)base_[w];
        desc.index_ = (uint32_t)(base_[w] >> 32);
        if (desc.shape_)
            for (uint32_t d = 0; d < desc.dim_; d++) desc.shape_[d] = base_[w + 1 + d];
        desc.data_ = (T *)(uintptr_t)ptrs_[index];
    }

private:
    uint64_t *base_ = nullptr;
    uint64_t *ptrs_ = nullptr;
    uint32_t count_ = 0;
};

} // namespace AscendC

#endif /* ARC_LIST_TENSOR_H_ */
