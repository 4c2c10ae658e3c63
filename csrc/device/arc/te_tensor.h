/* te_tensor.h - the Tensor API's memory pointers and tensors (AscendC::Te):
 * Location, MakeMemPtr, ViewEngine, MakeTensor, Slice.  On the NPU a pointer's address
 * space (__gm__, __cbuf__, __ca__...) says where it points; on the
 * simulated core those qualifiers place arrays in this core's memories
 * (rtc/simd_ub.cpp), so MakeMemPtr(p) finds the memory from the address:
 * an address in L1, L0A, L0B, L0C, the BiasTable, the Fixpipe buffer or
 * the UB is local, any other is GM (MakeTensor then gives a global
 * tensor).  A tensor keeps the end of the memory MakeTensor gave it, so
 * Copy and Mmad check their extents against it as the C++ API checks a
 * LocalTensor's length. */
#ifndef ARC_TE_TENSOR_H_
#define ARC_TE_TENSOR_H_

#include "arc/cube_load.h"
#include "arc/te_layout.h"

namespace AscendC {
namespace Te {

/* Where a pointer points (MakeMemPtr's Hardware argument). */
struct Location {
    struct GM {};
    struct L1 {};
    struct L0A {};
    struct L0B {};
    struct L0ScaleA {};
    struct L0ScaleB {};
    struct L0C {};
    struct UB {};
    struct BIAS {};
    struct FIXBUF {};
};

namespace __te {
/* The memories, as the C++ API's positions name them. */
template <typename Hw> struct pos_of;
template <> struct pos_of<Location::GM> { static constexpr TPosition value = TPosition::GM; };
template <> struct pos_of<Location::L1> { static constexpr TPosition value = TPosition::A1; };
template <> struct pos_of<Location::L0A> { static constexpr TPosition value = TPosition::A2; };
template <> struct pos_of<Location::L0B> { static constexpr TPosition value = TPosition::B2; };
template <> struct pos_of<Location::L0C> { static constexpr TPosition value = TPosition::CO1; };
template <> struct pos_of<Location::UB> { static constexpr TPosition value = TPosition::VECCALC; };
template <> struct pos_of<Location::BIAS> { static constexpr TPosition value = TPosition::C2; };
template <> struct pos_of<Location::FIXBUF> { static constexpr TPosition value = TPosition::C2PIPE2GM; };
/* The MX scale buffers (L0A_MX / L0B_MX) have no C++ API position: these
 * two stand for them here. */
constexpr TPosition SCALE_A = TPosition::SPM, SCALE_B = TPosition::C2PIPE2LOCAL;
template <> struct pos_of<Location::L0ScaleA> { static constexpr TPosition value = SCALE_A; };
template <> struct pos_of<Location::L0ScaleB> { static constexpr TPosition value = SCALE_B; };
static inline bool in_mx(const void *p, TPosition side)
{
    const unsigned char *q = (const unsigned char *)p, *b = __arc::mx::buf(side);
    return q >= b && q < b + ARC_MX_SIZE;
}

/* The memory an address lies in: the core's arenas, else GM. */
static inline TPosition locate(const void *p)
{
    static const TPosition order[] = {TPosition::A1, TPosition::A2, TPosition::B2, TPosition::CO1,
                                      TPosition::C2, TPosition::C2PIPE2GM, TPosition::VECCALC};
    for (TPosition q : order)
        if (__cube::in_arena(p, q)) return q;
    if (in_mx(p, TPosition::A2)) return SCALE_A;
    if (in_mx(p, TPosition::B2)) return SCALE_B;
    return TPosition::GM;
}
static inline const char *loc_name(TPosition p)
{
    switch (p) {
    case TPosition::GM: return "GM";
    case TPosition::A1: return "L1";
    case TPosition::A2: return "L0A";
    case TPosition::B2: return "L0B";
    case TPosition::CO1: return "L0C";
    case TPosition::C2: return "BIAS";
    case TPosition::C2PIPE2GM: return "FIXBUF";
    case TPosition::VECCALC: return "UB";
    case SCALE_A: return "L0ScaleA";
    case SCALE_B: return "L0ScaleB";
    default: return "another memory";
    }
}
} // namespace __te

/* The pointer adapter: an element pointer and the memory it points into. */
template <typename Elem> struct HardwareMemPtr {
    using valueType = Elem;
    using elementType = Elem;
    using iterator = Elem *;
    using reference = Elem &;
    Elem *ptr = nullptr;
    TPosition pos = TPosition::GM;
    __aicore__ inline Elem *Begin() const { return ptr; }
    __aicore__ inline Elem *Get() const { return ptr; }
};

/* MakeMemPtr(p): the memory from the address. */
template <typename Elem> __aicore__ inline HardwareMemPtr<Elem> MakeMemPtr(Elem *p)
{
    return HardwareMemPtr<Elem>{p, __te::locate(p)};
}
template <typename Elem> __aicore__ inline HardwareMemPtr<Elem> MakeMemPtr(const HardwareMemPtr<Elem> &p) { return p; }
/* MakeMemPtr<Location::X, T>(offset): byte offset `offset` of that memory
 * (an address for GM). */
template <typename Hw, typename Elem, typename Addr, typename = std::enable_if_t<std::is_integral<Addr>::value>>
__aicore__ inline HardwareMemPtr<Elem> MakeMemPtr(Addr addr)
{
    constexpr TPosition p = __te::pos_of<Hw>::value;
    if constexpr (p == TPosition::GM) {
        return HardwareMemPtr<Elem>{(Elem *)(uintptr_t)addr, p};
    } else if constexpr (p == __te::SCALE_A || p == __te::SCALE_B) {
        /* The NPU places a matrix's scales at its L0A/L0B address / 16; a
         * kernel computes that from its __ca__/__cb__ array's address, which
         * here is the simulated buffer's: such an offset is taken back to one
         * in the buffer. */
        constexpr TPosition side = p == __te::SCALE_A ? TPosition::A2 : TPosition::B2;
        __detail::Arena a = __detail::arena_of(side);
        uint64_t off = (uint64_t)addr, host = (uint64_t)addr * 16;
        if (host >= (uint64_t)(uintptr_t)a.base && host < (uint64_t)(uintptr_t)(a.base + a.size))
            off = (host - (uint64_t)(uintptr_t)a.base) / 16;
        ARC_CHECK(off < ARC_MX_SIZE, "AscendC::Te::MakeMemPtr", "offset %llu is beyond the %s buffer (%u bytes)",
                  (unsigned long long)off, __te::loc_name(p), (unsigned)ARC_MX_SIZE);
        return HardwareMemPtr<Elem>{(Elem *)(void *)(__arc::mx::buf(side) + off), p};
    } else {
        __detail::Arena a = __detail::arena_of(p);
        ARC_CHECK((uint64_t)addr < a.size, "AscendC::Te::MakeMemPtr", "offset %llu is beyond the %s (%llu bytes)",
                  (unsigned long long)addr, a.name, (unsigned long long)a.size);
        return HardwareMemPtr<Elem>{(Elem *)(void *)(a.base + addr), p};
    }
}
/* MakeMemPtr<Location::X>(p): p, said to point into X (checked). */
template <typename Hw, typename Elem> __aicore__ inline HardwareMemPtr<Elem> MakeMemPtr(Elem *p)
{
    constexpr TPosition want = __te::pos_of<Hw>::value;
    TPosition got = __te::locate(p);
    ARC_CHECK(got == want, "AscendC::Te::MakeMemPtr", "the pointer is in %s, not in %s", __te::loc_name(got),
              __te::loc_name(want));
    return HardwareMemPtr<Elem>{p, got};
}
template <typename Hw, typename Elem> __aicore__ inline HardwareMemPtr<Elem> MakeMemPtr(const HardwareMemPtr<Elem> &p)
{
    return MakeMemPtr<Hw>(p.ptr);
}

template <typename EngineType, typename LayoutType> struct TensorAttribute {};
template <typename A> struct BaseTensor;

/* A tensor: a pointer, its layout, and the end of the memory it was made
 * over (a slice keeps its parent's end). */
template <typename EngineType, typename LayoutType> struct BaseTensor<TensorAttribute<EngineType, LayoutType>> {
    using iterator = typename EngineType::iterator;
    using valueType = typename EngineType::valueType;
    using elementType = typename EngineType::elementType;
    using reference = typename EngineType::reference;
    using engineType = EngineType;
    using layoutType = LayoutType;
    static constexpr int rank = LayoutType::rank;
    EngineType engine_;
    LayoutType layout_;
    const unsigned char *end_ = nullptr;

    __aicore__ inline BaseTensor() = default;
    __aicore__ inline BaseTensor(const EngineType &e, const LayoutType &l) : engine_(e), layout_(l)
    {
        end_ = (const unsigned char *)e.ptr + bytes_of(l.Capacity());
    }
    __aicore__ inline const BaseTensor &Tensor() const { return *this; }
    __aicore__ inline const EngineType &Engine() const { return engine_; }
    __aicore__ inline EngineType &Engine() { return engine_; }
    __aicore__ inline const LayoutType &Layout() const { return layout_; }
    __aicore__ inline elementType *Data() const { return engine_.ptr; }
    __aicore__ inline decltype(auto) Shape() const { return layout_.Shape(); }
    __aicore__ inline decltype(auto) Stride() const { return layout_.Stride(); }
    __aicore__ inline int64_t Size() const { return layout_.Size(); }
    __aicore__ inline int64_t Capacity() const { return layout_.Capacity(); }
    __aicore__ inline TPosition Position() const { return engine_.pos; }
    __aicore__ inline bool IsGlobal() const { return engine_.pos == TPosition::GM; }
    /* The bytes from the data to the end of the tensor's memory. */
    __aicore__ inline uint64_t BytesLeft() const
    {
        return (uint64_t)(end_ - (const unsigned char *)engine_.ptr);
    }
    static __aicore__ inline uint64_t bytes_of(int64_t elems)
    {
        constexpr int64_t per = __te::per_v<elementType>;
        return (uint64_t)((elems + per - 1) / per) * sizeof(elementType);
    }
    /* One element: the coordinate's offset, inside the layout's capacity. */
    template <typename C> __aicore__ inline elementType &operator()(const C &c) const
    {
        int64_t off = layout_(c);
        ARC_CHECK(off >= 0 && bytes_of(off + 1) <= BytesLeft(), "AscendC::Te::Tensor::operator()",
                  "the coordinate's offset %lld is outside the tensor's %llu bytes", (long long)off,
                  (unsigned long long)BytesLeft());
        if (IsGlobal()) __arc::gm_access(engine_.ptr + off, sizeof(elementType), "AscendC::Te::Tensor::operator()");
        return engine_.ptr[off];
    }
    template <typename C> __aicore__ inline elementType &operator[](const C &c) const { return (*this)(c); }
    template <typename C0, typename C1, typename... Cs>
    __aicore__ inline elementType &operator()(const C0 &c0, const C1 &c1, const Cs &...cs) const
    {
        return (*this)(MakeCoord(c0, c1, cs...));
    }
    template <typename C, typename Info> __aicore__ inline auto Slice(const C &coord, const Info &info) const;
    __aicore__ inline void SetL2CacheHint(CacheMode) const {}
};
template <typename Elem, typename L> using TeTensor = BaseTensor<TensorAttribute<HardwareMemPtr<Elem>, L>>;

template <typename Elem, typename L> __aicore__ inline auto MakeTensor(const HardwareMemPtr<Elem> &p, const L &l)
{
    static_assert(!__te::is_tuple_v<L>, "AscendC::Te::MakeTensor: a layout (MakeLayout, MakeFrameLayout) as second argument");
    return TeTensor<Elem, L>(p, l);
}
template <typename Elem, typename L> __aicore__ inline auto MakeTensor(Elem *p, const L &l)
{
    return MakeTensor(MakeMemPtr(p), l);
}
/* The view engine (its page): the iterator a tensor's view starts at. */
template <typename Iterator> struct ViewEngine {
    using iterator = Iterator;
    using elementType = typename Iterator::elementType;
    using valueType = typename Iterator::valueType;
    using reference = typename Iterator::reference;
    iterator storage_;
    __aicore__ inline constexpr ViewEngine(iterator storage = {}) : storage_(storage) {}
    __aicore__ inline constexpr const iterator &Begin() const { return storage_; }
    __aicore__ inline constexpr iterator &Begin() { return storage_; }
};
template <typename Elem, typename L> __aicore__ inline auto MakeTensor(const ViewEngine<HardwareMemPtr<Elem>> &e, const L &l)
{
    return MakeTensor(e.Begin(), l);
}
/* MakeTensor(iter, shape, stride): over MakeLayout(shape, stride). */
template <typename It, typename S, typename D> __aicore__ inline auto MakeTensor(const It &it, const S &shape, const D &stride)
{
    return MakeTensor(it, MakeLayout(shape, stride));
}

namespace __te {
/* A slice's shape, mode by mode: an extent e at coordinate c of a mode
 * (inner, outer) keeps the inner fractal size and needs c on its boundary;
 * a flat mode takes e.  Each must fit in the mode's extent. */
template <typename C, typename S, typename E> __aicore__ inline auto slice_mode(const C &c, const S &s, const E &e, int mode);
template <typename C, typename S, typename E, size_t... I>
__aicore__ inline auto slice_modes(const C &c, const S &s, const E &e, int mode, std::index_sequence<I...>)
{
    return Std::make_tuple(slice_mode(std::get<I>(c), std::get<I>(s), std::get<I>(e), mode * 10 + (int)I + 1)...);
}
template <typename C, typename S, typename E> __aicore__ inline auto slice_mode(const C &c, const S &s, const E &e, int mode)
{
    if constexpr (is_tuple_v<E>) {
        static_assert(is_tuple_v<S> && is_tuple_v<C> && std::tuple_size<E>::value == std::tuple_size<S>::value &&
                          std::tuple_size<C>::value == std::tuple_size<S>::value,
                      "AscendC::Te::Slice: the coordinate, the shape and the tensor's layout must have one tuple structure");
        return slice_modes(c, s, e, mode, std::make_index_sequence<std::tuple_size<S>::value>{});
    } else {
        static_assert(!is_tuple_v<C>, "AscendC::Te::Slice: a tuple coordinate where the shape has an integer");
        int64_t at = lay_val(c), n = lay_val(e), total = lay_size(s);
        ARC_CHECK(at >= 0 && n >= 0 && at + n <= total, "AscendC::Te::Slice",
                  "mode %d: coordinate %lld + extent %lld exceeds the tensor's %lld (modes are numbered from 1, "
                  "a nested mode's number follows its parent's)", mode, (long long)at, (long long)n, (long long)total);
        if constexpr (is_tuple_v<S>) {
            static_assert(std::tuple_size<S>::value == 2, "AscendC::Te::Slice: a mode of more than (inner, outer)");
            int64_t inner = lay_size(std::get<0>(s));
            ARC_CHECK(at % inner == 0, "AscendC::Te::Slice",
                      "mode %d: coordinate %lld is not on a fractal boundary (a multiple of %lld)", mode, (long long)at,
                      (long long)inner);
            return MakeShape(std::get<0>(s), (int64_t)ceil_div(n, inner));
        } else {
            return (int64_t)n;
        }
    }
}
template <typename Info> __aicore__ inline decltype(auto) extents_of(const Info &info)
{
    if constexpr (is_tuple_v<Info>) return info;
    else return info.Shape();
}
} // namespace __te

/* Slice(tensor, coord, shape or layout): the sub-tensor at coord with that
 * shape, in the tensor's memory, stride and pattern. */
template <typename Elem, typename L, typename C, typename Info>
__aicore__ inline auto Slice(const TeTensor<Elem, L> &t, const C &coord, const Info &info)
{
    const auto &e = __te::extents_of(info);
    static_assert(__te::is_tuple_v<C>, "AscendC::Te::Slice: the coordinate is a Coord (MakeCoord)");
    auto ns = __te::slice_mode(coord, t.Layout().Shape(), e, 0);
    int64_t off = t.Layout()(coord);
    using L2 = Layout<decltype(ns), typename L::strideType, typename L::pattern>;
    TeTensor<Elem, L2> r;
    r.layout_ = L2(ns, t.Layout().Stride());
    r.engine_ = t.Engine();
    constexpr int64_t per = __te::per_v<Elem>;
    if constexpr (per > 1)
        ARC_CHECK(off % per == 0, "AscendC::Te::Slice", "offset %lld of %s is not a whole byte", (long long)off,
                  __arc::tname<Elem>());
    r.engine_.ptr += off / per;
    r.end_ = t.end_;
    return r;
}

template <typename EngineType, typename LayoutType>
template <typename C, typename Info>
__aicore__ inline auto BaseTensor<TensorAttribute<EngineType, LayoutType>>::Slice(const C &coord, const Info &info) const
{
    return ::AscendC::Te::Slice(*this, coord, info);
}
} // namespace Te
} // namespace AscendC

#endif /* ARC_TE_TENSOR_H_ */
