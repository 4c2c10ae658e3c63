/* te_layout.h - the Tensor API's layouts (AscendC::Te, tensor_api/tensor.h):
 * Shape, Stride and Coord as nested Std::tuple of integers and Std::Int
 * constants, Layout (a shape, a stride and the frame pattern that made it),
 * MakeLayout / MakeFrameLayout with the patterns of "Layout和层次化表述法"
 * (NZ, ZN, ZZ, NN, ND, DN, NDExt, DNExt, the Scale* and the convolution
 * NCHW / NHWC / NC1HWC0 layouts, each with an optional leading batch), the
 * coordinate-to-offset map (crd2idx: an integer coordinate of a
 * hierarchical mode splits colexicographically, as the docs' figures
 * index) and the queries Get, GetShape, GetStride, Rank, Size, Capacity,
 * Cosize, Coshape, Select, GetLayoutPattern; Squeeze is in te_tensor.h. */
#ifndef ARC_TE_LAYOUT_H_
#define ARC_TE_LAYOUT_H_

#include "arc/mmad_mx.h"
#include "arc/crd2idx.h"
#include "arc/utils.h"

namespace AscendC {
namespace Std {
/* Std::Int<v>: an integer held in the type (the docs write _16 for Int<16>). */
template <int64_t v> using Int = std::integral_constant<int64_t, v>;
/* What GetLayoutPattern gives for a layout whose pattern it cannot tell. */
struct ignore_t {};
} // namespace Std

namespace Te {
using _0 = Std::Int<0>;
using _1 = Std::Int<1>;
using _2 = Std::Int<2>;
using _4 = Std::Int<4>;
using _8 = Std::Int<8>;
using _16 = Std::Int<16>;
using _32 = Std::Int<32>;
using _64 = Std::Int<64>;
using _128 = Std::Int<128>;
using _256 = Std::Int<256>;
using _512 = Std::Int<512>;

template <typename... Shapes> using Shape = Std::tuple<Shapes...>;
template <typename... Strides> using Stride = Std::tuple<Strides...>;
template <typename... Coords> using Coord = Std::tuple<Coords...>;

template <typename... Ts> __aicore__ inline constexpr auto MakeShape(const Ts &...t) { return Shape<Ts...>(t...); }
template <typename... Ts> __aicore__ inline constexpr auto MakeStride(const Ts &...t) { return Stride<Ts...>(t...); }
template <typename... Ts> __aicore__ inline constexpr auto MakeCoord(const Ts &...t) { return Coord<Ts...>(t...); }

/* The frame patterns (MakeFrameLayout's first template argument). */
struct NZLayoutPtn {};
struct ZNLayoutPtn {};
struct ZZLayoutPtn {};
struct NNLayoutPtn {};
struct NDLayoutPtn {};
struct DNLayoutPtn {};
struct NDExtLayoutPtn {};
struct DNExtLayoutPtn {};
struct ScaleANDLayoutPtn {};
struct ScaleADNLayoutPtn {};
struct ScaleBNDLayoutPtn {};
struct ScaleBDNLayoutPtn {};
struct NCHWLayoutPtn {};
struct NHWCLayoutPtn {};
struct NC1HWC0LayoutPtn {};

namespace __te {
/* Values per element of storage: 2 for the packed 4-bit types (int4b_t,
 * fp4x2_e2m1_t, fp4x2_e1m2_t, whose layouts count 4-bit values), else 1. */
template <typename E, bool = __arc::mx::elem<E>::ok> struct mx_per { static constexpr int64_t value = 1; };
template <typename E> struct mx_per<E, true> { static constexpr int64_t value = __arc::mx::elem<E>::per; };
template <typename E> constexpr int64_t per_v =
    __arc::packed_per_byte<E>::value > 1 ? (int64_t)__arc::packed_per_byte<E>::value : mx_per<E>::value;
} // namespace __te
/* LayoutTrait: the C0 of a fractal pattern (elements per 32-byte row). */
template <typename Elem> struct LayoutTraitDefault {
    static constexpr auto C0_ELEMENT = Std::Int<(int64_t)(32 * __te::per_v<Elem> / sizeof(Elem))>{};
};
template <typename Elem, int64_t c0 = 32 / sizeof(Elem)> struct LayoutTrait {
    static constexpr auto C0_ELEMENT = Std::Int<c0>{};
};

namespace __te {
template <typename V> struct is_tuple : std::false_type {};
template <typename... V> struct is_tuple<std::tuple<V...>> : std::true_type {};
template <typename V> constexpr bool is_tuple_v = is_tuple<Std::remove_cvref_t<V>>::value;

using __arc::crd2idx;
using __arc::lay_size;
using __arc::lay_val;
/* The largest offset + 1 a shape/stride pair reaches (0 for an empty shape). */
template <typename S, typename D> __aicore__ inline constexpr int64_t cosize_of(const S &s, const D &d);
template <typename S, typename D, size_t... I>
__aicore__ inline constexpr int64_t cosize_modes(const S &s, const D &d, std::index_sequence<I...>)
{
    return (int64_t(1) + ... + (cosize_of(std::get<I>(s), std::get<I>(d)) - 1));
}
template <typename S, typename D> __aicore__ inline constexpr int64_t cosize_of(const S &s, const D &d)
{
    if constexpr (is_tuple_v<S>) {
        return cosize_modes(s, d, std::make_index_sequence<std::tuple_size<S>::value>{});
    } else {
        int64_t n = lay_val(s), st = lay_val(d);
        return n == 0 ? 0 : (n - 1) * (st < 0 ? -st : st) + 1;
    }
}
template <typename... V> __aicore__ inline constexpr int64_t max_of(const V &...v)
{
    int64_t m = 0;
    ((m = v > m ? v : m), ...);
    return m;
}
template <typename S, typename D> __aicore__ inline constexpr int64_t capacity_of(const S &s, const D &d);
template <typename S, typename D, size_t... I>
__aicore__ inline constexpr int64_t capacity_modes(const S &s, const D &d, std::index_sequence<I...>)
{
    return max_of(capacity_of(std::get<I>(s), std::get<I>(d))...);
}
/* Capacity: the largest shape x stride of the leaves (the page: the
 * memory a layout occupies, its gaps included). */
template <typename S, typename D> __aicore__ inline constexpr int64_t capacity_of(const S &s, const D &d)
{
    if constexpr (is_tuple_v<S>) {
        return capacity_modes(s, d, std::make_index_sequence<std::tuple_size<S>::value>{});
    } else {
        int64_t st = lay_val(d);
        return lay_val(s) * (st < 0 ? -st : st);
    }
}
template <typename V> __aicore__ inline constexpr int64_t ceil_div(V a, int64_t b) { return ((int64_t)a + b - 1) / b; }
} // namespace __te

/* A layout: Shape and Stride of the same tree; Ptn is the frame pattern
 * that made it (void for MakeLayout), which Copy and Mmad read to know
 * the fractal arrangement. */
template <typename ShapeType, typename StrideType, typename Ptn = void> struct Layout {
    using shapeType = ShapeType;
    using strideType = StrideType;
    using pattern = Ptn;
    static constexpr int rank = (int)std::tuple_size<ShapeType>::value;
    ShapeType shape_;
    StrideType stride_;
    __aicore__ inline constexpr Layout() = default;
    __aicore__ inline constexpr Layout(const ShapeType &s, const StrideType &d) : shape_(s), stride_(d) {}
    __aicore__ inline constexpr const ShapeType &Shape() const { return shape_; }
    __aicore__ inline constexpr const StrideType &Stride() const { return stride_; }
    __aicore__ inline constexpr const Layout &layout() const { return *this; }
    /* The element count the shape covers. */
    __aicore__ inline constexpr int64_t Size() const { return __arc::lay_size(shape_); }
    /* The memory the layout occupies, gaps included (Capacity's page). */
    __aicore__ inline constexpr int64_t Capacity() const { return __te::capacity_of(shape_, stride_); }
    template <typename C> __aicore__ inline constexpr int64_t operator()(const C &c) const
    {
        return __te::crd2idx(c, shape_, stride_);
    }
};

template <typename S, typename D> __aicore__ inline constexpr auto MakeLayout(const S &s, const D &d)
{
    static_assert(__te::is_tuple_v<S> && __te::is_tuple_v<D>, "AscendC::Te::MakeLayout: a Shape and a Stride");
    return Layout<S, D>(s, d);
}
/* MakeLayout(shape): the compact row-major stride, over the shape's leaves
 * in order (the last leaf's stride is _1). */
namespace __te {
template <typename S, size_t... I>
__aicore__ inline constexpr auto row_major_modes(const S &s, int64_t &run, std::index_sequence<I...>);
template <typename S> __aicore__ inline constexpr auto row_major(const S &s, int64_t &run)
{
    if constexpr (is_tuple_v<S>) {
        return row_major_modes(s, run, std::make_index_sequence<std::tuple_size<S>::value>{});
    } else {
        int64_t here = run;
        run *= lay_val(s);
        return here;
    }
}
template <typename S, size_t... I>
__aicore__ inline constexpr auto row_major_modes(const S &s, int64_t &run, std::index_sequence<I...>)
{
    constexpr size_t n = sizeof...(I);
    /* the last mode first: its stride is the smallest */
    auto parts = std::make_tuple(row_major(std::get<n - 1 - I>(s), run)...);
    return Std::make_tuple(std::get<n - 1 - I>(parts)...);
}
} // namespace __te
template <typename ShapeType> __aicore__ inline constexpr auto MakeLayout(const ShapeType &s)
{
    static_assert(__te::is_tuple_v<ShapeType>, "AscendC::Te::MakeLayout: a Shape");
    int64_t run = 1;
    auto d = __te::row_major(s, run);
    if constexpr (std::tuple_size<ShapeType>::value == 2 && !__te::is_tuple_v<std::tuple_element_t<1, ShapeType>> &&
                  !__te::is_tuple_v<std::tuple_element_t<0, ShapeType>>) {
        auto d2 = MakeStride(std::get<0>(d), _1{}); /* a flat matrix: row-major, recognisably ND */
        return Layout<ShapeType, decltype(d2)>(s, d2);
    } else {
        return Layout<ShapeType, decltype(d)>(s, d);
    }
}

template <typename L> __aicore__ inline constexpr decltype(auto) GetShape(const L &l) { return l.Shape(); }
template <typename L> __aicore__ inline constexpr decltype(auto) GetStride(const L &l) { return l.Stride(); }
namespace __te {
/* Element Is... (a path into nested tuples) of a tuple. */
template <typename T> __aicore__ inline constexpr decltype(auto) path(const T &t) { return t; }
template <size_t I, size_t... Is, typename T> __aicore__ inline constexpr decltype(auto) path(const T &t)
{
    static_assert(is_tuple_v<T>, "AscendC::Te::Get: the index path goes past a leaf");
    return path<Is...>(std::get<I>(t));
}
template <typename S> __aicore__ inline constexpr int rank_of(const S &)
{
    if constexpr (is_tuple_v<S>) return (int)std::tuple_size<S>::value;
    else return 1;
}
} // namespace __te
/* Get<Is...>: a nested element of a tuple, or the sub-layout of a layout. */
template <size_t... Is, typename L> __aicore__ inline constexpr decltype(auto) Get(const L &l)
{
    if constexpr (__te::is_tuple_v<L>) return __te::path<Is...>(l);
    else return MakeLayout(__te::path<Is...>(l.Shape()), __te::path<Is...>(l.Stride()));
}
/* Rank, Size, Capacity, Coshape, Cosize of a layout (or of its sub-layout Is...). */
template <size_t... Is, typename L> __aicore__ inline constexpr int Rank(const L &l)
{
    if constexpr (__te::is_tuple_v<L>) return __te::rank_of(__te::path<Is...>(l));
    else return __te::rank_of(__te::path<Is...>(l.Shape()));
}
template <size_t... Is, typename L> __aicore__ inline constexpr int64_t Size(const L &l)
{
    if constexpr (__te::is_tuple_v<L>) return __arc::lay_size(__te::path<Is...>(l));
    else return __arc::lay_size(__te::path<Is...>(l.Shape()));
}
/* Capacity<Is...>: over the top-level modes Is... (all when none). */
template <size_t... Is, typename L> __aicore__ inline constexpr int64_t Capacity(const L &l)
{
    if constexpr (sizeof...(Is) == 0) return __te::capacity_of(l.Shape(), l.Stride());
    else return __te::capacity_of(MakeShape(std::get<Is>(l.Shape())...), MakeStride(std::get<Is>(l.Stride())...));
}
/* Coshape<Is...>: sum of (shape - 1) x stride over the leaves of the
 * top-level modes Is... (all when none), + 1; Cosize<Is...>: the same for
 * the sub-layout Is... (the pages: the size of the index range the layout
 * maps onto). */
template <size_t... Is, typename L> __aicore__ inline constexpr int64_t Coshape(const L &l)
{
    if constexpr (sizeof...(Is) == 0) return __te::cosize_of(l.Shape(), l.Stride());
    else return __te::cosize_of(MakeShape(std::get<Is>(l.Shape())...), MakeStride(std::get<Is>(l.Stride())...));
}
template <size_t... Is, typename L> __aicore__ inline constexpr int64_t Cosize(const L &l)
{
    return __te::cosize_of(__te::path<Is...>(l.Shape()), __te::path<Is...>(l.Stride()));
}
/* Select<I...>(layout): the layout of those top-level modes. */
template <size_t... I, typename L> __aicore__ inline constexpr auto Select(const L &l)
{
    return MakeLayout(MakeShape(std::get<I>(l.Shape())...), MakeStride(std::get<I>(l.Stride())...));
}
namespace __te {
/* A MakeLayout layout's pattern from its types: a flat matrix whose
 * column stride is _1 is ND, whose row stride is _1 DN; else unknown. */
template <typename L, typename = void> struct pattern_of { using type = typename L::pattern; };
template <typename S, typename D> struct pattern_of<Layout<S, D, void>, void> {
    template <typename X> static constexpr bool unit = std::is_same<Std::remove_cvref_t<X>, _1>::value;
    static constexpr bool flat2 = std::tuple_size<S>::value == 2 && !is_tuple_v<std::tuple_element_t<0, S>> &&
                                  !is_tuple_v<std::tuple_element_t<1, S>>;
    template <size_t I> using st = std::tuple_element_t<I < std::tuple_size<D>::value ? I : 0, D>;
    using type = std::conditional_t<flat2 && unit<st<1>>, NDLayoutPtn,
                                    std::conditional_t<flat2 && unit<st<0>>, DNLayoutPtn, Std::ignore_t>>;
};
} // namespace __te
template <typename T> using GetLayoutPattern = typename __te::pattern_of<Std::remove_cvref_t<T>>::type;

namespace __te {
/* C0 of a MakeFrameLayout trait argument: a data type, a trait with C0_ELEMENT. */
template <typename Tr, typename = void> struct c0_from {
    static_assert(sizeof(Tr) <= 8, "AscendC::Te::MakeFrameLayout: the trait is a data type, an Std::Int or a type with "
                                   "C0_ELEMENT");
    static constexpr int64_t value = 32 * per_v<Tr> / (int64_t)sizeof(Tr);
};
template <typename Tr> struct c0_from<Tr, std::void_t<decltype(Tr::C0_ELEMENT)>> {
    static constexpr int64_t value = (int64_t)Tr::C0_ELEMENT;
};
template <int64_t v> struct c0_from<std::integral_constant<int64_t, v>, void> { static constexpr int64_t value = v; };

/* One matrix of a pattern: ((row0, row1), (col0, col1)) : ((...), (...)),
 * or the flat ND / DN (row, col). */
template <typename Ptn, int64_t C0> struct frame {
    __aicore__ static constexpr auto make(int64_t r, int64_t c)
    {
        constexpr int64_t F = 16;
        using I = int64_t;
        if constexpr (std::is_same<Ptn, NZLayoutPtn>::value)
            return MakeLayout(MakeShape(MakeShape(Std::Int<F>{}, ceil_div(r, F)), MakeShape(Std::Int<C0>{}, ceil_div(c, C0))),
                              MakeStride(MakeStride(Std::Int<C0>{}, Std::Int<C0 * F>{}), MakeStride(_1{}, (I)(C0 * ceil_div(r, F) * F))));
        else if constexpr (std::is_same<Ptn, ZNLayoutPtn>::value)
            return MakeLayout(MakeShape(MakeShape(Std::Int<C0>{}, ceil_div(r, C0)), MakeShape(Std::Int<F>{}, ceil_div(c, F))),
                              MakeStride(MakeStride(_1{}, (I)(C0 * ceil_div(c, F) * F)), MakeStride(Std::Int<C0>{}, Std::Int<C0 * F>{})));
        else if constexpr (std::is_same<Ptn, ZZLayoutPtn>::value)
            return MakeLayout(MakeShape(MakeShape(Std::Int<F>{}, ceil_div(r, F)), MakeShape(Std::Int<C0>{}, ceil_div(c, C0))),
                              MakeStride(MakeStride(Std::Int<C0>{}, (I)(F * ceil_div(c, C0) * C0)), MakeStride(_1{}, Std::Int<C0 * F>{})));
        else if constexpr (std::is_same<Ptn, NNLayoutPtn>::value)
            return MakeLayout(MakeShape(MakeShape(_2{}, (I)(r / 2)), MakeShape(Std::Int<F>{}, ceil_div(c, F))),
                              MakeStride(MakeStride(_1{}, _32{}), MakeStride(_2{}, (I)(r * F))));
        else if constexpr (std::is_same<Ptn, NDExtLayoutPtn>::value || std::is_same<Ptn, ScaleANDLayoutPtn>::value)
            return MakeLayout(MakeShape(MakeShape(_1{}, r), MakeShape(_1{}, c)), MakeStride(MakeStride(_0{}, c), MakeStride(_0{}, _1{})));
        else if constexpr (std::is_same<Ptn, DNExtLayoutPtn>::value || std::is_same<Ptn, ScaleBDNLayoutPtn>::value)
            return MakeLayout(MakeShape(MakeShape(_1{}, r), MakeShape(_1{}, c)), MakeStride(MakeStride(_0{}, _1{}), MakeStride(_0{}, r)));
        else if constexpr (std::is_same<Ptn, ScaleADNLayoutPtn>::value)
            return MakeLayout(MakeShape(MakeShape(_1{}, r), MakeShape(_2{}, (I)(c / 2))), MakeStride(MakeStride(_0{}, _2{}), MakeStride(_1{}, (I)(2 * r))));
        else if constexpr (std::is_same<Ptn, ScaleBNDLayoutPtn>::value)
            return MakeLayout(MakeShape(MakeShape(_2{}, (I)(r / 2)), MakeShape(_1{}, c)), MakeStride(MakeStride(_1{}, (I)(2 * c)), MakeStride(_0{}, _2{})));
        else if constexpr (std::is_same<Ptn, NDLayoutPtn>::value)
            return MakeLayout(MakeShape(r, c), MakeStride(c, _1{}));
        else if constexpr (std::is_same<Ptn, DNLayoutPtn>::value)
            return MakeLayout(MakeShape(r, c), MakeStride(_1{}, r));
        else
            static_assert(Std::always_false_v<Ptn>, "AscendC::Te::MakeFrameLayout: not a matrix pattern");
    }
};
template <typename Ptn, int64_t C0, typename... A> __aicore__ inline constexpr auto frame_layout(const A &...a)
{
    constexpr size_t n = sizeof...(A);
    int64_t v[] = {(int64_t)a...};
    if constexpr (std::is_same<Ptn, NCHWLayoutPtn>::value || std::is_same<Ptn, NHWCLayoutPtn>::value) {
        static_assert(n == 4, "AscendC::Te::MakeFrameLayout: NCHW and NHWC take 4 extents");
        return Layout<Shape<int64_t, int64_t, int64_t, int64_t>, Stride<int64_t, int64_t, int64_t, _1>, Ptn>(
            MakeShape(v[0], v[1], v[2], v[3]), MakeStride(v[1] * v[2] * v[3], v[2] * v[3], v[3], _1{}));
    } else if constexpr (std::is_same<Ptn, NC1HWC0LayoutPtn>::value) {
        static_assert(n == 5, "AscendC::Te::MakeFrameLayout: NC1HWC0 takes 5 extents (n, c1, h, w, c0)");
        return Layout<Shape<int64_t, int64_t, int64_t, int64_t, int64_t>, Stride<int64_t, int64_t, int64_t, int64_t, _1>, Ptn>(
            MakeShape(v[0], v[1], v[2], v[3], v[4]),
            MakeStride(v[1] * v[2] * v[3] * v[4], v[2] * v[3] * v[4], v[3] * v[4], v[4], _1{}));
    } else if constexpr (n == 2) {
        auto m = frame<Ptn, C0>::make(v[0], v[1]);
        return Layout<typename decltype(m)::shapeType, typename decltype(m)::strideType, Ptn>(m.Shape(), m.Stride());
    } else {
        static_assert(n == 3, "AscendC::Te::MakeFrameLayout: a matrix takes (m, n), a batch of matrices (batch, m, n)");
        auto m = frame<Ptn, C0>::make(v[1], v[2]);
        auto s = MakeShape(v[0], m.Shape());
        auto d = MakeStride(m.Capacity() == 0 ? (int64_t)0 : __te::cosize_of(m.Shape(), m.Stride()), m.Stride());
        /* NZ/ZN/ZZ matrices follow each other at their fractal-rounded size */
        if constexpr (std::is_same<Ptn, NZLayoutPtn>::value || std::is_same<Ptn, ZNLayoutPtn>::value ||
                      std::is_same<Ptn, ZZLayoutPtn>::value)
            std::get<0>(d) = lay_size(m.Shape());
        return Layout<decltype(s), decltype(d), Ptn>(s, d);
    }
}
} // namespace __te

/* MakeFrameLayout<Pattern[, Trait]>(extents...): Trait is a data type (C0
 * = 32 bytes of it), an Std::Int C0, a trait with C0_ELEMENT, or omitted
 * (C0 16: the L0C fractal, half's and the patterns that fix their own). */
template <typename Ptn, typename Tr = _16, typename... A> __aicore__ inline constexpr auto MakeFrameLayout(const A &...a)
{
    return __te::frame_layout<Ptn, __te::c0_from<Tr>::value>(a...);
}
template <typename Ptn, auto C0, typename... A> __aicore__ inline constexpr auto MakeFrameLayout(const A &...a)
{
    static_assert(C0 > 0, "AscendC::Te::MakeFrameLayout: C0 must be positive");
    return __te::frame_layout<Ptn, (int64_t)C0>(a...);
}
} // namespace Te
} // namespace AscendC

#endif /* ARC_TE_LAYOUT_H_ */
