/* te_atom.h - the Tensor API's operation atoms (AscendC::Te): the copy and
 * mmad operations, their traits and run-time parameters as the pages of
 * 矩阵计算（TensorAPI） define them, MakeCopy / MakeMmad and `.with(...)`,
 * and what Copy and Mmad read of a tensor's layout (one matrix's fractal
 * arrangement, an optional batch). */
#ifndef ARC_TE_ATOM_H_
#define ARC_TE_ATOM_H_

#include "arc/te_tensor.h"

namespace AscendC {
namespace Te {

/* Copy operations, one per data path. */
struct CopyGM2L1 {};
struct CopyL12L0A {};
struct CopyL12L0B {};
struct CopyL12BT {};
struct CopyL12FB {};
struct CopyL12L0ScaleA {};
struct CopyL12L0ScaleB {};
struct CopyL0C2GM {};
struct CopyL0C2UB {};
struct CopyUB2GM {};
struct MmadOperation {};

enum class RoundMode : uint8_t { DEFAULT = 0, HYBRID };
enum DualDstMode : uint8_t { DUAL_DST_DISABLE = 0, DUAL_DST_SPLIT_M, DUAL_DST_SPLIT_N };
enum class MmadType : uint8_t { NORMAL = 0, MX };

struct CopyL0C2GMTrait {
    RoundMode roundMode = RoundMode::DEFAULT;
    bool enableRelu = false;
    bool enableChannelSplit = false;
};
struct CopyL0C2UBTrait {
    RoundMode roundMode = RoundMode::DEFAULT;
    bool enableRelu = false;
    bool enableChannelSplit = false;
    DualDstMode dualDstCtl = DUAL_DST_DISABLE;
};
struct MmadTrait {
    int32_t fmOffset = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;
    bool disableGemv = true;
    MmadType mmadType = MmadType::NORMAL;
    __aicore__ constexpr MmadTrait() = default;
    __aicore__ constexpr MmadTrait(int32_t fmOffsetIn, bool kDirectionAlignIn, bool cmatrixSourceIn, bool disableGemvIn,
                                   MmadType mmadTypeIn = MmadType::NORMAL)
        : fmOffset(fmOffsetIn), kDirectionAlign(kDirectionAlignIn), cmatrixSource(cmatrixSourceIn),
          disableGemv(disableGemvIn), mmadType(mmadTypeIn)
    {
    }
};
/* Traits without members carry an empty value. */
struct NoTrait {};
#define ARC_TE_TRAIT_(name, type)                              \
    struct name {                                              \
        using TraitType = type;                                \
        static constexpr const TraitType value = TraitType{};  \
    };
ARC_TE_TRAIT_(CopyGM2L1TraitDefault, NoTrait)
ARC_TE_TRAIT_(CopyL12L0ATraitDefault, NoTrait)
ARC_TE_TRAIT_(CopyL12L0BTraitDefault, NoTrait)
ARC_TE_TRAIT_(CopyL12BTTraitDefault, NoTrait)
ARC_TE_TRAIT_(CopyL12FBTraitDefault, NoTrait)
ARC_TE_TRAIT_(CopyL12L0ScaleATraitDefault, NoTrait)
ARC_TE_TRAIT_(CopyL12L0ScaleBTraitDefault, NoTrait)
ARC_TE_TRAIT_(CopyUB2GMTraitDefault, NoTrait)
ARC_TE_TRAIT_(CopyL0C2GMTraitDefault, CopyL0C2GMTrait)
ARC_TE_TRAIT_(CopyL0C2UBTraitDefault, CopyL0C2UBTrait)
ARC_TE_TRAIT_(MmadTraitDefault, MmadTrait)
#undef ARC_TE_TRAIT_
struct MmadTraitMX {
    using TraitType = MmadTrait;
    static constexpr const TraitType value = MmadTrait(0, false, false, true, MmadType::MX);
};

/* Run-time parameters: Mmad's, the L0C copies' (Fixpipe), Img2Col's. */
struct MmadParams {
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    uint8_t unitFlag = 0;
    bool cmatrixInitVal = false;
    __aicore__ MmadParams() = default;
    __aicore__ MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn = 0, bool cmatrixInitValIn = false)
        : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixInitVal(cmatrixInitValIn)
    {
    }
};
struct FixpipeParams {
    uint8_t unitFlag = 0;
    bool subBlockId = false;
};
template <typename Elem> struct Img2ColParams {
    uint16_t mExtension = 0;
    uint16_t kExtension = 0;
    uint8_t padList[4] = {0, 0, 0, 0};
    uint8_t strideW = 1;
    uint8_t strideH = 1;
    uint8_t filterW = 1;
    uint8_t filterH = 1;
    uint8_t dilationFilterW = 1;
    uint8_t dilationFilterH = 1;
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool transpose = false;
    bool fMatrixCtrl = false;
    Elem padValue = 0;
};
struct NoParams {};

template <typename Op, typename Tr, typename Prm = NoParams> struct CopyAtom {
    using operation = Op;
    using trait = Tr;
    Prm params{};
    template <typename Q> __aicore__ inline CopyAtom<Op, Tr, Q> with(const Q &q) const { return CopyAtom<Op, Tr, Q>{q}; }
};
template <typename Tr, typename Prm = MmadParams> struct MmadAtom {
    using trait = Tr;
    Prm params{};
    __aicore__ inline MmadAtom<Tr, MmadParams> with(const MmadParams &q) const { return MmadAtom<Tr, MmadParams>{q}; }
};

namespace __te {
template <typename Op> struct default_trait;
template <> struct default_trait<CopyGM2L1> { using type = CopyGM2L1TraitDefault; };
template <> struct default_trait<CopyL12L0A> { using type = CopyL12L0ATraitDefault; };
template <> struct default_trait<CopyL12L0B> { using type = CopyL12L0BTraitDefault; };
template <> struct default_trait<CopyL12BT> { using type = CopyL12BTTraitDefault; };
template <> struct default_trait<CopyL12FB> { using type = CopyL12FBTraitDefault; };
template <> struct default_trait<CopyL12L0ScaleA> { using type = CopyL12L0ScaleATraitDefault; };
template <> struct default_trait<CopyL12L0ScaleB> { using type = CopyL12L0ScaleBTraitDefault; };
template <> struct default_trait<CopyL0C2GM> { using type = CopyL0C2GMTraitDefault; };
template <> struct default_trait<CopyL0C2UB> { using type = CopyL0C2UBTraitDefault; };
template <> struct default_trait<CopyUB2GM> { using type = CopyUB2GMTraitDefault; };
} // namespace __te

template <typename Op> __aicore__ inline constexpr auto MakeCopy(const Op &)
{
    return CopyAtom<Op, typename __te::default_trait<Op>::type>{};
}
template <typename Op, typename Tr> __aicore__ inline constexpr auto MakeCopy(const Op &, const Tr &)
{
    return CopyAtom<Op, Tr>{};
}
__aicore__ inline constexpr auto MakeMmad(const MmadOperation &) { return MmadAtom<MmadTraitDefault>{}; }
template <typename Tr> __aicore__ inline constexpr auto MakeMmad(const MmadOperation &, const Tr &)
{
    return MmadAtom<Tr>{};
}

namespace __te {
/* One matrix of a tensor as Copy and Mmad read it: element (r, c) at
 * (r % r0) * sr0 + (r / r0) * sr1 + (c % c0) * sc0 + (c / c0) * sc1
 * (r0 = c0 = 1 for a flat or 1 x 1-fractal mode), `batch` of them
 * `bstride` apart. */
struct Mat {
    int64_t rows, cols, r0, c0, sr0, sr1, sc0, sc1, batch, bstride;
    __aicore__ inline int64_t at(int64_t r, int64_t c) const
    {
        return (r % r0) * sr0 + (r / r0) * sr1 + (c % c0) * sc0 + (c / c0) * sc1;
    }
};
template <typename S, typename D> __aicore__ inline void mode_of(const S &s, const D &d, int64_t &n, int64_t &inner,
                                                                 int64_t &si, int64_t &so)
{
    if constexpr (is_tuple_v<S>) {
        static_assert(std::tuple_size<S>::value == 2 && !is_tuple_v<decltype(std::get<0>(s))> &&
                          !is_tuple_v<decltype(std::get<1>(s))>,
                      "AscendC::Te: a matrix mode is an extent or (inner, outer)");
        inner = lay_val(std::get<0>(s));
        n = inner * lay_val(std::get<1>(s));
        si = lay_val(std::get<0>(d));
        so = lay_val(std::get<1>(d));
    } else {
        n = lay_val(s);
        inner = 1;
        si = 0;
        so = lay_val(d);
    }
}
template <typename S, typename D> __aicore__ inline Mat matrix_of(const S &s, const D &d, int64_t batch, int64_t bstride)
{
    static_assert(std::tuple_size<S>::value == 2, "AscendC::Te: a matrix layout has a row mode and a column mode");
    Mat m;
    mode_of(std::get<0>(s), std::get<0>(d), m.rows, m.r0, m.sr0, m.sr1);
    mode_of(std::get<1>(s), std::get<1>(d), m.cols, m.c0, m.sc0, m.sc1);
    m.batch = batch;
    m.bstride = bstride;
    return m;
}
/* A layout is batched when its second mode is the matrix: (B, (rows, cols)). */
template <typename L> constexpr bool batched_v =
    std::tuple_size<typename L::shapeType>::value == 2 &&
    is_tuple_v<std::tuple_element_t<1, typename L::shapeType>> &&
    std::tuple_size<std::tuple_element_t<1, typename L::shapeType>>::value == 2 &&
    !is_tuple_v<std::tuple_element_t<0, typename L::shapeType>>;
template <typename L> __aicore__ inline Mat mat(const L &l)
{
    if constexpr (batched_v<L>)
        return matrix_of(std::get<1>(l.Shape()), std::get<1>(l.Stride()), lay_val(std::get<0>(l.Shape())),
                         lay_val(std::get<0>(l.Stride())));
    else return matrix_of(l.Shape(), l.Stride(), 1, 0);
}
/* The C++ API's view of a Te tensor in memory `want`. */
template <typename Elem, typename L>
__aicore__ inline LocalTensor<Elem> local_of(const TeTensor<Elem, L> &t, TPosition want, const char *api, const char *what)
{
    ARC_CHECK(t.Position() == want, api, "%s is in %s; this path needs it in %s", what, loc_name(t.Position()),
              loc_name(want));
    uint64_t left = t.BytesLeft();
    return LocalTensor<Elem>(t.Data(), (uint32_t)(left > 0xffffffffull ? 0xffffffffull : left), want);
}
template <typename Elem, typename L>
__aicore__ inline GlobalTensor<Elem> global_of(const TeTensor<Elem, L> &t, const char *api, const char *what)
{
    ARC_CHECK(t.IsGlobal(), api, "%s is in %s; this path needs it in GM", what, loc_name(t.Position()));
    GlobalTensor<Elem> g;
    g.SetGlobalBuffer(t.Data());
    return g;
}
/* The batch count both sides of a copy have (the smaller, as a slice of
 * a bigger buffer is copied). */
__aicore__ inline int64_t batch_of(const Mat &d, const Mat &s) { return d.batch < s.batch ? d.batch : s.batch; }
template <typename Ptn> constexpr bool is_frac_v =
    std::is_same<Ptn, NZLayoutPtn>::value || std::is_same<Ptn, ZNLayoutPtn>::value ||
    std::is_same<Ptn, ZZLayoutPtn>::value || std::is_same<Ptn, NNLayoutPtn>::value;
} // namespace __te
} // namespace Te
} // namespace AscendC

#endif /* ARC_TE_ATOM_H_ */
