/* crd2idx.h - the coordinate-to-offset map both layout APIs give: the basic
 * API's Layout / Crd2Idx (dav-2201, arc/layout.h) and the Tensor API's
 * (dav-3510, arc/te_layout.h).  A tuple coordinate goes mode by mode (its
 * tuple structure must be the shape's and the stride's); an integer
 * coordinate of a tuple mode is first delinearized colexicographically
 * (c % d0, c / d0 % d1, ..., the first sub-mode fastest), as Crd2Idx's page
 * gives it; a leaf adds coordinate times stride. */
#ifndef ARC_CRD2IDX_H_
#define ARC_CRD2IDX_H_

#include "arc/utils.h"

namespace __arc {
/* A leaf's value. */
template <typename V> __aicore__ inline constexpr int64_t lay_val(const V &v)
{
    static_assert(!AscendC::Std::is_tuple_v<V>, "AscendC layout: an integer was expected where a tuple was given");
    return (int64_t)v;
}
/* Product of a (nested) shape's leaves. */
template <typename V> __aicore__ inline constexpr int64_t lay_size(const V &s)
{
    if constexpr (AscendC::Std::is_tuple_v<V>)
        return std::apply([](const auto &...e) { return (int64_t(1) * ... * lay_size(e)); }, s);
    else
        return lay_val(s);
}
template <typename C, typename S, typename D> __aicore__ inline constexpr int64_t crd2idx(const C &c, const S &s, const D &d);
template <typename C, typename S, typename D, size_t... I>
__aicore__ inline constexpr int64_t crd2idx_modes(const C &c, const S &s, const D &d, std::index_sequence<I...>)
{
    return (int64_t(0) + ... + crd2idx(std::get<I>(c), std::get<I>(s), std::get<I>(d)));
}
template <typename S, typename D, size_t... I>
__aicore__ inline constexpr int64_t crd2idx_split(int64_t c, const S &s, const D &d, std::index_sequence<I...>)
{
    int64_t sum = 0, rest = c;
    const size_t last = sizeof...(I) - 1;
    ((sum += crd2idx(I == last ? rest : rest % lay_size(std::get<I>(s)), std::get<I>(s), std::get<I>(d)),
      rest = I == last ? 0 : rest / lay_size(std::get<I>(s))),
     ...);
    return sum;
}
template <typename C, typename S, typename D> __aicore__ inline constexpr int64_t crd2idx(const C &c, const S &s, const D &d)
{
    using AscendC::Std::is_tuple_v;
    if constexpr (is_tuple_v<S>) {
        static_assert(is_tuple_v<D> && std::tuple_size<S>::value == std::tuple_size<D>::value,
                      "AscendC layout: the stride's tuple structure differs from the shape's");
        if constexpr (is_tuple_v<C>) {
            static_assert(std::tuple_size<C>::value == std::tuple_size<S>::value,
                          "AscendC layout: the coordinate's tuple structure differs from the shape's");
            return crd2idx_modes(c, s, d, std::make_index_sequence<std::tuple_size<C>::value>{});
        } else {
            return crd2idx_split(lay_val(c), s, d, std::make_index_sequence<std::tuple_size<S>::value>{});
        }
    } else {
        static_assert(!is_tuple_v<C>, "AscendC layout: the coordinate's tuple structure differs from the shape's");
        return lay_val(c) * lay_val(d);
    }
}
} // namespace __arc

#endif
