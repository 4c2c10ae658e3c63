/* layout.h - the basic API's Layout and Coordinate (the docs' 辅助数据结构
 * Layout / Coordinate, Atlas A2/A3: dav-2201): Shape, Stride and Coord are
 * Std::tuple of integers (nested for hierarchical modes), Layout holds a
 * shape and a stride, and Crd2Idx / layout(coord) map a coordinate to its
 * element index: the sum of coordinate times stride, mode by mode, where
 * an integer coordinate of a tuple mode is first delinearized
 * colexicographically (c % d0, c / d0 % d1, ...), as Crd2Idx's page gives
 * it.  Ascend 950 has the Tensor API's (AscendC::Te) instead. */
#ifndef ARC_LAYOUT_H_
#define ARC_LAYOUT_H_

#include "arc/crd2idx.h"
#include "arc/utils.h"


namespace AscendC {
#define ARC_BASIC_LAYOUT_ONLY(api)                                                                             \
    static_assert(__NPU_ARCH__ != 3510, api ": the basic API's Layout is Atlas A2/A3's (dav-2201); on Ascend " \
                                        "950 use the Tensor API's (AscendC::Te, tensor_api/tensor.h)")
template <typename... Shapes> using Shape = Std::tuple<Shapes...>;
template <typename... Strides> using Stride = Std::tuple<Strides...>;
template <typename... Coords> using Coord = Std::tuple<Coords...>;

template <typename... Ts> __aicore__ inline constexpr Shape<Ts...> MakeShape(const Ts &...t) { return {t...}; }
template <typename... Ts> __aicore__ inline constexpr Stride<Ts...> MakeStride(const Ts &...t) { return {t...}; }
template <typename... Ts> __aicore__ inline constexpr Coord<Ts...> MakeCoord(const Ts &...t) { return {t...}; }

template <typename ShapeType, typename StrideType> struct Layout : Std::tuple<ShapeType, StrideType> {
    __aicore__ inline constexpr Layout(const ShapeType &shape = {}, const StrideType &stride = {})
        : Std::tuple<ShapeType, StrideType>(shape, stride)
    {
        ARC_BASIC_LAYOUT_ONLY("AscendC::Layout");
    }
    __aicore__ inline constexpr const ShapeType &GetShape() const { return std::get<0>(*this); }
    __aicore__ inline constexpr const StrideType &GetStride() const { return std::get<1>(*this); }
    /* The element index of coord (Crd2Idx). */
    template <typename CoordType> __aicore__ inline constexpr auto operator()(const CoordType &coord) const
    {
        return __arc::crd2idx(coord, GetShape(), GetStride());
    }
};
template <typename T> struct is_layout_ : Std::false_type {};
template <typename S, typename D> struct is_layout_<Layout<S, D>> : Std::true_type {};
/* Whether T (cv and reference aside) is a Layout. */
template <typename T> struct is_layout : is_layout_<Std::remove_cvref_t<T>> {};

template <typename ShapeType, typename StrideType>
__aicore__ inline constexpr auto MakeLayout(const ShapeType &shape, const StrideType &stride)
{
    static_assert(Std::is_tuple_v<ShapeType> && Std::is_tuple_v<StrideType>,
                  "AscendC::MakeLayout: the shape and the stride are Std::tuple (MakeShape, MakeStride)");
    return Layout<ShapeType, StrideType>(shape, stride);
}
template <typename CoordType, typename S, typename D>
__aicore__ inline constexpr auto Crd2Idx(const CoordType &coord, const Layout<S, D> &layout)
{
    return layout(coord);
}
template <typename CoordType, typename ShapeType, typename StrideType>
__aicore__ inline constexpr auto Crd2Idx(const CoordType &coord, const ShapeType &shape, const StrideType &stride)
{
    ARC_BASIC_LAYOUT_ONLY("AscendC::Crd2Idx");
    return __arc::crd2idx(coord, shape, stride);
}
#undef ARC_BASIC_LAYOUT_ONLY
} // namespace AscendC
#endif
