/* te_squeeze.h - Squeeze (AscendC::Te): a layout or tensor without some
 * modes of extent 1, named by top-level index (Squeeze<0, 2>(x)) or by a
 * pattern of the shape's structure (_1: drop, _: keep; nested patterns
 * recurse).  As the page says: a compile-time mode whose extent is not 1
 * stays, a run-time one is dropped unchecked, and a level left with a
 * single nested tuple is unwrapped ((1, (M, N)) -> (M, N)).  The data and
 * the layout's pattern stay. */
#ifndef ARC_TE_SQUEEZE_H_
#define ARC_TE_SQUEEZE_H_

#include "arc/te_tensor.h"

namespace AscendC {
namespace Te {
/* The "keep this mode" mark of a Squeeze pattern. */
struct Underscore {};
inline constexpr Underscore _{};

namespace __te {
template <typename M> constexpr bool static_not_one = false;
template <int64_t v> constexpr bool static_not_one<std::integral_constant<int64_t, v>> = v != 1;

/* Whether mode I goes: it is named and not a compile-time extent other than 1. */
template <size_t I, size_t... Dims> constexpr bool named_v = ((I == Dims) || ...);

template <bool Drop, typename V> __aicore__ inline constexpr auto select_mode(const V &v)
{
    if constexpr (Drop) return std::tuple<>();
    else return std::tuple<V>(v);
}
/* The kept modes of a tuple, given a per-mode drop mask. */
template <typename T, bool... Drop, size_t... I>
__aicore__ inline constexpr auto keep_modes(const T &t, std::integer_sequence<bool, Drop...>, std::index_sequence<I...>)
{
    return std::tuple_cat(select_mode<Drop>(std::get<I>(t))...);
}
/* One nested tuple left at a level: the level is that tuple. */
template <typename T> __aicore__ inline constexpr auto unwrap(const T &t)
{
    if constexpr (std::tuple_size<T>::value == 1 && is_tuple_v<std::tuple_element_t<0, T>>) return std::get<0>(t);
    else return t;
}
template <typename S, size_t... Dims, size_t... I>
__aicore__ inline constexpr auto drop_mask(std::index_sequence<I...>)
{
    return std::integer_sequence<bool, (named_v<I, Dims...> && !static_not_one<std::tuple_element_t<I, S>>)...>{};
}

/* Pattern form: the shape and stride, mode by mode. */
template <typename S, typename D, typename P> __aicore__ inline constexpr auto squeeze_pat(const S &s, const D &d, const P &p);
template <typename S, typename D, typename P, size_t... I>
__aicore__ inline constexpr auto squeeze_pat_modes(const S &s, const D &d, const P &p, std::index_sequence<I...>)
{
    using Mask = std::integer_sequence<bool, (std::is_same<Std::remove_cvref_t<std::tuple_element_t<I, P>>, _1>::value &&
                                              !static_not_one<std::tuple_element_t<I, S>>)...>;
    auto ns = std::make_tuple(squeeze_pat(std::get<I>(s), std::get<I>(d), std::get<I>(p)).first...);
    auto nd = std::make_tuple(squeeze_pat(std::get<I>(s), std::get<I>(d), std::get<I>(p)).second...);
    return std::make_pair(unwrap(keep_modes(ns, Mask{}, std::index_sequence<I...>{})),
                          unwrap(keep_modes(nd, Mask{}, std::index_sequence<I...>{})));
}
template <typename S, typename D, typename P> __aicore__ inline constexpr auto squeeze_pat(const S &s, const D &d, const P &p)
{
    if constexpr (is_tuple_v<P>) {
        static_assert(is_tuple_v<S> && std::tuple_size<P>::value == std::tuple_size<S>::value,
                      "AscendC::Te::Squeeze: the pattern must have the shape's structure");
        return squeeze_pat_modes(s, d, p, std::make_index_sequence<std::tuple_size<S>::value>{});
    } else {
        static_assert(std::is_same<P, _1>::value || std::is_same<P, Underscore>::value,
                      "AscendC::Te::Squeeze: a pattern holds _1 (drop) or _ (keep)");
        return std::make_pair(s, d);
    }
}
template <typename L, typename S, typename D> __aicore__ inline constexpr auto relayout(const S &s, const D &d)
{
    static_assert(is_tuple_v<S>, "AscendC::Te::Squeeze: the result must keep at least one mode");
    return Layout<S, D, typename L::pattern>(s, d);
}
template <typename Elem, typename L, typename L2>
__aicore__ inline auto retensor(const TeTensor<Elem, L> &t, const L2 &l)
{
    TeTensor<Elem, L2> r;
    r.engine_ = t.engine_;
    r.layout_ = l;
    r.end_ = t.end_;
    return r;
}
} // namespace __te

template <size_t... Dims, typename S, typename D, typename P>
__aicore__ inline constexpr auto Squeeze(const Layout<S, D, P> &l)
{
    static_assert(sizeof...(Dims) > 0, "AscendC::Te::Squeeze: name at least one mode");
    static_assert(((Dims < std::tuple_size<S>::value) && ...), "AscendC::Te::Squeeze: a mode index past the shape");
    using Idx = std::make_index_sequence<std::tuple_size<S>::value>;
    auto mask = __te::drop_mask<S, Dims...>(Idx{});
    auto s = __te::unwrap(__te::keep_modes(l.Shape(), mask, Idx{}));
    auto d = __te::unwrap(__te::keep_modes(l.Stride(), mask, Idx{}));
    return __te::relayout<Layout<S, D, P>>(s, d);
}
template <typename Pat, typename S, typename D, typename P>
__aicore__ inline constexpr auto Squeeze(const Layout<S, D, P> &l, const Pat &pattern)
{
    auto r = __te::squeeze_pat(l.Shape(), l.Stride(), pattern);
    return __te::relayout<Layout<S, D, P>>(r.first, r.second);
}
template <size_t... Dims, typename Elem, typename L> __aicore__ inline auto Squeeze(const TeTensor<Elem, L> &t)
{
    return __te::retensor(t, Squeeze<Dims...>(t.Layout()));
}
template <typename Pat, typename Elem, typename L> __aicore__ inline auto Squeeze(const TeTensor<Elem, L> &t, const Pat &p)
{
    return __te::retensor(t, Squeeze(t.Layout(), p));
}
} // namespace Te
} // namespace AscendC

#endif /* ARC_TE_SQUEEZE_H_ */
