/* tensor.h - TPosition, GlobalTensor<T> (a GM pointer plus the element
 * count given to SetGlobalBuffer) and LocalTensor<T> (a UB/L1 address, its
 * length and the room left in its buffer). */
#ifndef ARC_TENSOR_H_
#define ARC_TENSOR_H_

#include "arc/state.h"

namespace AscendC {

enum class TPosition : uint8_t {
    GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC,
    SPM, SHM = SPM, TSCM, C2PIPE2GM, C2PIPE2LOCAL, MAX
};
using QuePosition = TPosition;
static_assert((int)TPosition::GM == ARC_POS_GM && (int)TPosition::A1 == ARC_POS_A1 && (int)TPosition::A2 == ARC_POS_A2 &&
                  (int)TPosition::B1 == ARC_POS_B1 && (int)TPosition::B2 == ARC_POS_B2 &&
                  (int)TPosition::C1 == ARC_POS_C1 && (int)TPosition::C2 == ARC_POS_C2 &&
                  (int)TPosition::CO1 == ARC_POS_CO1 && (int)TPosition::CO2 == ARC_POS_CO2 &&
                  (int)TPosition::VECIN == ARC_POS_VECIN && (int)TPosition::VECOUT == ARC_POS_VECOUT &&
                  (int)TPosition::VECCALC == ARC_POS_VECCALC && (int)TPosition::SPM == ARC_POS_SPM &&
                  (int)TPosition::TSCM == ARC_POS_TSCM && (int)TPosition::C2PIPE2GM == ARC_POS_C2PIPE2GM &&
                  (int)TPosition::C2PIPE2LOCAL == ARC_POS_C2PIPE2LOCAL,
              "TPosition and ARC_POS_* (core_abi.h) must agree");

namespace __detail {
/* The on-chip memory a position lives in, its size on this core and the
 * start alignment its operands need (UB and L1 32 B, L0A/L0B 512 B, L0C
 * and the BiasTable 64 B, the Fixpipe buffer 128 B). */
struct Arena {
    unsigned char *base;
    uint64_t size;
    uint32_t align;
    const char *name;
};
static inline Arena arena_of(TPosition p)
{
    arc_core *c = __arc_core();
    switch (p) {
    case TPosition::A1: case TPosition::B1: case TPosition::C1: case TPosition::TSCM:
        return {c->l1, c->l1_size, 32, "L1"};
    case TPosition::A2: return {c->l0 + ARC_L0A_OFF, arc_l0a_size_of(c->arch), 512, "L0A"};
    case TPosition::B2: return {c->l0 + ARC_L0B_OFF, arc_l0b_size_of(c->arch), 512, "L0B"};
    case TPosition::CO1: return {c->l0 + ARC_L0C_OFF, arc_l0c_size_of(c->arch), 64, "L0C"};
    case TPosition::C2: return {c->l0 + arc_bt_off(c->arch), arc_bt_size_of(c->arch), 64, "BiasTable"};
    case TPosition::C2PIPE2GM: return {c->l0 + ARC_FB_OFF, ARC_FB_SIZE, 128, "Fixpipe buffer"};
    default: return {c->ub, c->ub_size, 32, "unified buffer"};
    }
}
} // namespace __detail
/* GM cache hint of SetL2CacheHint; the simulated core has no L2 model. */
enum class CacheMode : uint8_t { CACHE_MODE_NORMAL = 0, CACHE_MODE_DISABLE, CACHE_MODE_LAST, CACHE_MODE_PERSISTENT };

template <typename T> class GlobalTensor {
public:
    using PrimType = T;
    GlobalTensor() = default;
    void SetGlobalBuffer(T *buffer, uint64_t size) { addr_ = base_ = buffer; size_ = size; }
    void SetGlobalBuffer(T *buffer) { addr_ = base_ = buffer; size_ = 0; }
    /* Moves the address; the size is not reduced (CANN semantics).  A
     * packed type's offset counts elements and must land on a byte. */
    GlobalTensor operator[](uint64_t offset) const
    {
        constexpr uint32_t per = __arc::packed_per_byte<T>::value;
        if constexpr (per > 1)
            ARC_CHECK(offset % per == 0, "AscendC::GlobalTensor::operator[]",
                      "offset %llu of %s is not a multiple of %u (a whole byte)", (unsigned long long)offset,
                      __arc::tname<T>(), per);
        GlobalTensor r = *this;
        r.addr_ += offset / per;
        return r;
    }
    T GetValue(uint64_t offset) const
    {
        check_range(offset, 1, "AscendC::GlobalTensor::GetValue");
        __arc::race_gm(ARC_GM_READ, __arc::RP_S, addr_ + offset, 1, sizeof(T), sizeof(T), "AscendC::GlobalTensor::GetValue");
        return addr_[offset];
    }
    void SetValue(uint64_t offset, T value) const
    {
        check_range(offset, 1, "AscendC::GlobalTensor::SetValue");
        __arc::race_gm(ARC_GM_WRITE, __arc::RP_S, addr_ + offset, 1, sizeof(T), sizeof(T), "AscendC::GlobalTensor::SetValue");
        addr_[offset] = value;
    }
    /* Elements [offset, offset + n) must lie inside a live device
     * allocation; with --sanitizer also inside the size given to
     * SetGlobalBuffer (when one was given). */
    void check_range(uint64_t offset, uint64_t n, const char *api) const
    {
        __arc::gm_access(addr_ + offset, n * sizeof(T), api);
#ifdef ASCENDRTC_SANITIZER
        if (size_ != 0) __arc_gm_view((long long)(addr_ - base_) + (long long)offset, n, size_, api);
#else
        (void)offset; (void)n; (void)api;
#endif
    }
    T &operator()(uint64_t offset) const
    {
        __arc::gm_access(addr_ + offset, sizeof(T), "AscendC::GlobalTensor::operator()");
        return addr_[offset];
    }
    T *GetPhyAddr() const { return addr_; }
    T *GetPhyAddr(uint64_t offset) const { return addr_ + offset / __arc::packed_per_byte<T>::value; }
    uint64_t GetSize() const { return size_; }
    void SetL2CacheHint(CacheMode) {}
    void SetL2CacheHint(int) {}
    template <typename... A> void SetShapeInfo(A...) {}

    /* address_ is CANN's name for the GM pointer; kernels read it. */
    union {
        T *addr_ = nullptr;
        T *address_;
    };
    T *base_ = nullptr;   /* the address given to SetGlobalBuffer */
    uint64_t size_ = 0;
};

/* CANN's TBuffAddr: a local tensor's address as LocalTensor::address_
 * holds it and SetAddr copies it (CATLASS moves tensors this way): here the
 * tensor's own address, length, room left and position seen as one struct. */
struct TBuffAddr {
    void *bufferAddr;
    uint32_t dataLen;
    uint32_t bufferCap;
    TPosition logicPos;
};

template <typename T> class LocalTensor {
public:
    using PrimType = T;
    LocalTensor() : address_{nullptr, 0, 0, TPosition::VECCALC} {}
    LocalTensor(T *addr, uint32_t bytes, TPosition pos) : address_{(void *)addr, bytes, bytes, pos} {}
    /* Static tensor without a TPipe: `tileSize` elements at byte offset
     * `addr` of the position's memory (UB, or L1 for A1/B1/C1). */
    LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize) : address_{nullptr, 0, 0, pos}
    {
        __detail::Arena a = __detail::arena_of(pos);
        uint64_t size = a.size;
        ARC_CHECK((uint64_t)addr + (uint64_t)tileSize * sizeof(T) <= size, "AscendC::LocalTensor::LocalTensor",
                  "%u elements of %s at byte %u exceed the %s (%llu bytes)", tileSize, __arc::tname<T>(), addr,
                  a.name, (unsigned long long)size);
        ARC_CHECK(addr % a.align == 0, "AscendC::LocalTensor::LocalTensor",
                  "byte address %u in the %s is not %u-byte aligned", addr, a.name, a.align);
        addr_ = (T *)(void *)(a.base + addr);
        bytes_ = tileSize * (uint32_t)sizeof(T);
        cap_ = (uint32_t)(size - addr);
    }

    /* Takes another tensor's address_ (its address, length and position). */
    void SetAddr(const TBuffAddr &a) { address_ = a; }

    /* Moves the address and shrinks the length. */
    LocalTensor operator[](uint32_t offset) const
    {
        constexpr uint32_t per = __arc::packed_per_byte<T>::value;
        if constexpr (per > 1) /* packed: offsets count elements and land on a byte */
            ARC_CHECK(offset % per == 0, "AscendC::LocalTensor::operator[]",
                      "offset %u of %s is not a multiple of %u (a whole byte)", offset, __arc::tname<T>(), per);
        ARC_CHECK((uint64_t)offset * sizeof(T) <= (uint64_t)bytes_ * per, "AscendC::LocalTensor::operator[]",
                  "offset %u is beyond the tensor's %u elements of %s", offset,
                  (unsigned)(bytes_ * per / sizeof(T)), __arc::tname<T>());
        LocalTensor r = *this;
        r.addr_ += offset / per;
        r.bytes_ -= offset / per * (uint32_t)sizeof(T);
        r.cap_ -= offset / per * (uint32_t)sizeof(T);
        return r;
    }
    T GetValue(uint32_t index) const
    {
        ARC_CHECK((uint64_t)index < bytes_ / sizeof(T), "AscendC::LocalTensor::GetValue",
                  "index %u is beyond the tensor's %u elements", index, (unsigned)(bytes_ / sizeof(T)));
        __arc::race_sync(ARC_RACE_SCALAR, 0, 0, 0); /* the compiler's auto-sync orders the scalar access */
        return addr_[index];
    }
    template <typename U> void SetValue(uint32_t index, U value) const
    {
        ARC_CHECK((uint64_t)index < bytes_ / sizeof(T), "AscendC::LocalTensor::SetValue",
                  "index %u is beyond the tensor's %u elements", index, (unsigned)(bytes_ / sizeof(T)));
        __arc::race_sync(ARC_RACE_SCALAR, 0, 0, 0); /* the compiler's auto-sync orders the scalar access */
        addr_[index] = (T)value;
    }
    T &operator()(uint32_t index) const
    {
        ARC_CHECK((uint64_t)index < bytes_ / sizeof(T), "AscendC::LocalTensor::operator()",
                  "index %u is beyond the tensor's %u elements", index, (unsigned)(bytes_ / sizeof(T)));
        __arc::race_sync(ARC_RACE_SCALAR, 0, 0, 0); /* the compiler's auto-sync orders the scalar access */
        return addr_[index];
    }
    uint32_t GetSize() const { return bytes_ * __arc::packed_per_byte<T>::value / (uint32_t)sizeof(T); }
    uint32_t GetLength() const { return bytes_; }
    void SetSize(uint32_t n) { set_len(n, "AscendC::LocalTensor::SetSize"); }
    /* The buffer's element count (a tensor made with operator[]): as SetSize. */
    void SetBufferLen(uint32_t dataLen) { set_len(dataLen, "AscendC::LocalTensor::SetBufferLen"); }
    void set_len(uint32_t n, const char *api)
    {
        constexpr uint32_t per = __arc::packed_per_byte<T>::value;
        ARC_CHECK((uint64_t)n * sizeof(T) <= (uint64_t)cap_ * per, api, "size %u exceeds the %u elements left in the buffer",
                  n, (unsigned)(cap_ * per / sizeof(T)));
        bytes_ = (n + per - 1) / per * (uint32_t)sizeof(T);
    }
    template <typename U> LocalTensor<U> ReinterpretCast() const
    {
        LocalTensor<U> r;
        r.addr_ = (U *)(void *)addr_;
        r.bytes_ = bytes_;
        r.cap_ = cap_;
        r.pos_ = pos_;
        return r;
    }
    /* The address as the NPU returns it (uint64_t; CANN's CPU twin returns
     * T*): kernels add byte offsets to it (CATLASS's TransDataTo5HD address
     * lists) and cast it to a pointer. */
    uint64_t GetPhyAddr() const { return (uint64_t)(uintptr_t)addr_; }
    uint64_t GetPhyAddr(uint32_t offset) const { return (uint64_t)(uintptr_t)(addr_ + offset); }
    TPosition GetPosition() const { return pos_; }
    /* The NPU keeps a ShapeInfo on the tensor for the advanced API; the
     * simulated APIs take their shape from their tiling/shape arguments. */
    template <typename... A> void SetShapeInfo(A...) {}
    void SetUserTag(int32_t tag) { tag_ = tag; }
    int32_t GetUserTag() const { return tag_; }
    template <typename U> void SetAddrWithOffset(const LocalTensor<U> &src, uint32_t offset)
    {
        addr_ = (T *)(void *)(src.addr_ + offset);
        bytes_ = cap_ = src.cap_ - offset * (uint32_t)sizeof(U);
        pos_ = src.pos_;
    }
    /* dst = a + b (and -, *, /, &, |): arc/tensor_ops.h builds the
     * expression; it runs over dst's elements. */
    template <class E, class = typename E::arc_tensor_expr> LocalTensor &operator=(const E &e)
    {
        e.run(*this);
        return *this;
    }
    LocalTensor &operator=(const LocalTensor &) = default;
    LocalTensor(const LocalTensor &) = default;
    void Print() const {}
    void Print(uint32_t) const {}

    union { /* the fields, or the same as CANN's TBuffAddr address_ */
        struct {
            T *addr_;
            uint32_t bytes_;  /* this tensor's length */
            uint32_t cap_;    /* bytes from addr_ to the end of its buffer */
            TPosition pos_;
        };
        TBuffAddr address_;
    };
    int32_t tag_ = 0;
};

} // namespace AscendC

#endif /* ARC_TENSOR_H_ */
