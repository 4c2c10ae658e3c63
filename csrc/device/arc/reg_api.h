/* reg_api.h - AscendC::Reg (alias AscendC::MicroAPI), the register-level
 * vector compute of dav-3510, on the register model of arc/reg.h: RegTensor,
 * MaskReg, CreateMask/UpdateMask, LoadAlign/StoreAlign with their
 * distributions and post-update forms, the arithmetic, scalar, compare,
 * select, duplicate and reduce families, LocalMemBar; asc_vf_call and
 * __simd_vf__.  A form the simulator does not model fails to compile with
 * its name (static_assert), never computes something else. */
#ifndef ARC_REG_API_H_
#define ARC_REG_API_H_

#include "arc/reg.h"
#include "arc/vec_unary.h" /* __arc::op: what the operations compute */

#if __NPU_ARCH__ == 3510
namespace AscendC {
/* Bytes of one vector register (VL), the same as asc_get_vf_len(). */
__attribute__((always_inline)) constexpr uint32_t GetVecLen() { return __arc::reg::VL; }
/* The same, as CANN's op libraries spell it. */
constexpr uint32_t VECTOR_REG_WIDTH = __arc::reg::VL;

namespace Reg {
struct DefaultType {};
struct RegTrait {
    int num;
};
constexpr RegTrait RegTraitNumOne{1};
constexpr RegTrait RegTraitNumTwo{2};

template <typename T, const RegTrait &trait = RegTraitNumOne> struct RegTensor : __arc::reg::vreg<T> {
    static_assert(trait.num == 1, "AscendC::Reg::RegTensor: RegTraitNumTwo (two VL) is not simulated");
};
using MaskReg = __arc::reg::vmask;

enum class MaskPattern { ALL, VL1, VL2, VL3, VL4, VL8, VL16, VL32, VL64, VL128, M3, M4, H, Q, ALLF = 15 };
enum class MaskMergeMode { UNKNOWN, MERGING, ZEROING };
enum class PostLiteral { POST_MODE_NORMAL, POST_MODE_UPDATE };
using ::AscendC::ReduceType; /* arc/reduce_names.h */
enum class MemType { VEC_STORE, VEC_LOAD, SCALAR_STORE, SCALAR_LOAD, VEC_ALL, SCALAR_ALL };
enum class LoadDist {
    DIST_NORM, DIST_BRC_B8, DIST_BRC_B16, DIST_BRC_B32, DIST_US_B8, DIST_US_B16, DIST_DS_B8, DIST_DS_B16,
    DIST_UNPACK_B8, DIST_UNPACK_B16, DIST_BLK, DIST_E2B_B16, DIST_E2B_B32, DIST_UNPACK_B32, DIST_UNPACK4_B8,
    DIST_DINTLV_B8, DIST_DINTLV_B16, DIST_DINTLV_B32
};
enum class StoreDist {
    DIST_NORM_B8, DIST_NORM_B16, DIST_NORM_B32, DIST_FIRST_ELEMENT_B8, DIST_FIRST_ELEMENT_B16,
    DIST_FIRST_ELEMENT_B32, DIST_PACK_B16, DIST_PACK_B32, DIST_PACK_B64, DIST_PACK4_B32, DIST_NORM, DIST_INTLV_B8,
    DIST_INTLV_B16, DIST_INTLV_B32
};

template <typename T, MaskPattern mode = MaskPattern::ALL, const RegTrait &trait = RegTraitNumOne>
inline MaskReg CreateMask()
{
    return __arc::reg::pattern<T>((int)mode, "AscendC::Reg::CreateMask");
}
template <typename T, const RegTrait &trait = RegTraitNumOne> inline MaskReg UpdateMask(uint32_t &scalarValue)
{
    return __arc::reg::update<T>(scalarValue);
}

namespace detail {
template <class U> struct elem_of;
template <class E, const RegTrait &t> struct elem_of<RegTensor<E, t>> { using type = E; };
template <class E> struct elem_of<__arc::reg::vreg<E>> { using type = E; };
/* The element type an API works on: T when given, else the register's. */
template <class T, class U> using elem_t =
    typename __arc::conditional<__arc::is_same<T, DefaultType>::value, typename elem_of<U>::type, T>::type;

/* One single-register load of distribution d from src (elements of E). */
template <LoadDist d, class E> inline void load(__arc::reg::vreg<E> &r, const E *src, const char *api)
{
    using namespace __arc::reg;
    constexpr uint32_t N = vreg<E>::N;
    if constexpr (d == LoadDist::DIST_NORM) {
        load(r, src, api);
    } else if constexpr (d == LoadDist::DIST_BRC_B8 || d == LoadDist::DIST_BRC_B16 || d == LoadDist::DIST_BRC_B32) {
        constexpr uint32_t b = d == LoadDist::DIST_BRC_B8 ? 1 : d == LoadDist::DIST_BRC_B16 ? 2 : 4;
        static_assert(sizeof(E) == b, "AscendC::Reg::LoadAlign: DIST_BRC_B<n> needs an element of n bits");
        ub_operand(src, b, b, 0, api, "src");
        E v;
        ub_read(&v, src, sizeof v);
        for (uint32_t i = 0; i < N; i++) r.v[i] = v;
    } else if constexpr (d == LoadDist::DIST_US_B8 || d == LoadDist::DIST_US_B16) {
        static_assert(sizeof(E) == (d == LoadDist::DIST_US_B8 ? 1 : 2), "AscendC::Reg::LoadAlign: DIST_US_B<n> element size");
        ub_operand(src, 128, 32, 0, api, "src");
        E t[N / 2];
        ub_read(t, src, sizeof t);
        for (uint32_t i = 0; i < N; i++) r.v[i] = t[i / 2];
    } else if constexpr (d == LoadDist::DIST_DS_B8 || d == LoadDist::DIST_DS_B16) {
        static_assert(sizeof(E) == (d == LoadDist::DIST_DS_B8 ? 1 : 2), "AscendC::Reg::LoadAlign: DIST_DS_B<n> element size");
        ub_operand(src, 512, 32, 0, api, "src");
        E t[2 * N];
        ub_read(t, src, sizeof t);
        for (uint32_t i = 0; i < N; i++) r.v[i] = t[2 * i];
    } else if constexpr (d == LoadDist::DIST_BLK) {
        ub_operand(src, 32, 32, 0, api, "src");
        E t[32 / sizeof(E)];
        ub_read(t, src, sizeof t);
        for (uint32_t i = 0; i < N; i++) r.v[i] = t[i % (32 / sizeof(E))];
    } else if constexpr (d == LoadDist::DIST_UNPACK_B8 || d == LoadDist::DIST_UNPACK_B16 ||
                         d == LoadDist::DIST_UNPACK_B32 || d == LoadDist::DIST_UNPACK4_B8) {
        /* VL/2 (VL/4) bytes of b<n> units, each followed by 1 (3) zero units
         * (the register's bits, whatever its element type) */
        constexpr uint32_t b = d == LoadDist::DIST_UNPACK_B16 ? 2 : d == LoadDist::DIST_UNPACK_B32 ? 4 : 1;
        constexpr uint32_t k = d == LoadDist::DIST_UNPACK4_B8 ? 4 : 2;
        ub_operand(src, 256 / k, 32, 0, api, "src");
        uint8_t t[256 / k], *o = (uint8_t *)r.v;
        ub_read(t, src, sizeof t);
        __builtin_memset(o, 0, 256);
        for (uint32_t j = 0; j < 256 / k / b; j++) __builtin_memcpy(o + j * k * b, t + j * b, b);
    } else {
        static_assert(d == LoadDist::DIST_NORM, "AscendC::Reg::LoadAlign: this LoadDist is not simulated");
    }
}
} // namespace detail

/* LoadAlign(dst, src): one register from 32-byte aligned UB. */
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>
inline void LoadAlign(U &dstReg, __ubuf__ T *srcAddr)
{
    detail::load<dist>(dstReg, (const typename detail::elem_of<U>::type *)srcAddr, "AscendC::Reg::LoadAlign");
}
/* The post-update form: loads at srcAddr, then srcAddr += stride elements. */
template <typename T = DefaultType, PostLiteral postMode, LoadDist dist = LoadDist::DIST_NORM, typename U>
inline void LoadAlign(U &dstReg, __ubuf__ T *&srcAddr, int32_t postUpdateStride)
{
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE,
                  "AscendC::Reg::LoadAlign: the post-update form takes POST_MODE_UPDATE (POST_MODE_NORMAL is not supported)");
    detail::load<dist>(dstReg, (const typename detail::elem_of<U>::type *)srcAddr, "AscendC::Reg::LoadAlign");
    srcAddr += postUpdateStride;
}
/* Dual load (DIST_DINTLV_*): the even elements of 2*VL into dst0, the odd into dst1. */
template <typename T = DefaultType, LoadDist dist, typename U>
inline void LoadAlign(U &dst0, U &dst1, __ubuf__ T *srcAddr)
{
    using E = typename detail::elem_of<U>::type;
    static_assert(dist == LoadDist::DIST_DINTLV_B8 || dist == LoadDist::DIST_DINTLV_B16 ||
                      dist == LoadDist::DIST_DINTLV_B32,
                  "AscendC::Reg::LoadAlign: the dual form takes a DIST_DINTLV_* distribution");
    E s[2 * __arc::reg::vreg<E>::N];
    __arc::reg::ub_operand(srcAddr, 512, 32, 0, "AscendC::Reg::LoadAlign", "src");
    __arc::reg::ub_read(s, srcAddr, sizeof s);
    for (uint32_t i = 0; i < __arc::reg::vreg<E>::N; i++) {
        dst0.v[i] = s[2 * i];
        dst1.v[i] = s[2 * i + 1];
    }
}

namespace detail {
template <StoreDist d, class E>
inline void store(E *dst, const __arc::reg::vreg<E> &r, const MaskReg &m, const char *api)
{
    using namespace __arc::reg;
    if constexpr (d == StoreDist::DIST_NORM || d == StoreDist::DIST_NORM_B8 || d == StoreDist::DIST_NORM_B16 ||
                  d == StoreDist::DIST_NORM_B32) {
        static_assert(d == StoreDist::DIST_NORM || sizeof(E) == (d == StoreDist::DIST_NORM_B8 ? 1 : d == StoreDist::DIST_NORM_B16 ? 2 : 4),
                      "AscendC::Reg::StoreAlign: DIST_NORM_B<n> needs an element of n bits");
        store(dst, r, m, api);
    } else if constexpr (d == StoreDist::DIST_FIRST_ELEMENT_B8 || d == StoreDist::DIST_FIRST_ELEMENT_B16 ||
                         d == StoreDist::DIST_FIRST_ELEMENT_B32) {
        ub_operand(dst, sizeof(E), sizeof(E), 1, api, "dst");
        if (__arc::race_on()) __arc_race_reg_use(sizeof(E), api);
        ub_write(dst, &r.v[0], sizeof(E)); /* the mask is ignored */
    } else if constexpr (d == StoreDist::DIST_PACK_B16 || d == StoreDist::DIST_PACK_B32 ||
                         d == StoreDist::DIST_PACK_B64 || d == StoreDist::DIST_PACK4_B32) {
        /* the low half (quarter) of each active b<n> unit of the register's
         * bits, at its place in a packed row (the mask read per unit) */
        constexpr uint32_t b = d == StoreDist::DIST_PACK_B16 ? 2 : d == StoreDist::DIST_PACK_B64 ? 8 : 4;
        constexpr uint32_t k = d == StoreDist::DIST_PACK4_B32 ? 4 : 2, w = b / k;
        ub_operand(dst, 256 / k, 32, 2, api, "dst");
        const uint8_t *in = (const uint8_t *)r.v;
        for (uint32_t j = 0; j < 256 / b; j++)
            if (on<uint8_t>(m, j * b)) ub_write((uint8_t *)dst + j * w, in + j * b, w); /* little-endian: the low bytes */
    } else {
        static_assert(d == StoreDist::DIST_NORM, "AscendC::Reg::StoreAlign: this StoreDist is not simulated");
    }
}
} // namespace detail

/* StoreAlign(dst, src, mask): the active elements to 32-byte aligned UB. */
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>
inline void StoreAlign(__ubuf__ T *dstAddr, U &srcReg, MaskReg &mask)
{
    detail::store<dist>((typename detail::elem_of<U>::type *)dstAddr, srcReg, mask, "AscendC::Reg::StoreAlign");
}
template <typename T = DefaultType, PostLiteral postMode, StoreDist dist = StoreDist::DIST_NORM, typename U>
inline void StoreAlign(__ubuf__ T *&dstAddr, U &srcReg, int32_t postUpdateStride, MaskReg &mask)
{
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE,
                  "AscendC::Reg::StoreAlign: the post-update form takes POST_MODE_UPDATE (POST_MODE_NORMAL is not supported)");
    detail::store<dist>((typename detail::elem_of<U>::type *)dstAddr, srcReg, mask, "AscendC::Reg::StoreAlign");
    dstAddr += postUpdateStride;
}

/* Element-wise families.  ZEROING clears the inactive destination lanes,
 * MERGING keeps them. */
namespace detail {
template <MaskMergeMode mode, class E, class F>
inline void apply(__arc::reg::vreg<E> &d, const MaskReg &m, F f)
{
    static_assert(mode == MaskMergeMode::ZEROING || mode == MaskMergeMode::MERGING,
                  "AscendC::Reg: MaskMergeMode::UNKNOWN is for conversions only");
    __arc::reg::vreg<E> r;
    for (uint32_t i = 0; i < __arc::reg::vreg<E>::N; i++)
        r.v[i] = __arc::reg::on<E>(m, i) ? f(i) : mode == MaskMergeMode::MERGING ? d.v[i] : (E)0;
    d = r;
}
} // namespace detail

/* The operations are the C++ API's (__arc::op, arc/vec_binary.h, vec_unary.h). */
#define ARC_REG_BINARY(NAME)                                                                                    \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>                \
    inline void NAME(U &dstReg, U &srcReg0, U &srcReg1, MaskReg &mask)                                         \
    {                                                                                                          \
        using E = typename detail::elem_of<U>::type;                                                           \
        const U a = srcReg0, b = srcReg1;                                                                      \
        detail::apply<mode>(dstReg, mask, [&](uint32_t i) -> E { return __arc::op::NAME{}(a.v[i], b.v[i]); }); \
    }
ARC_REG_BINARY(Add)
ARC_REG_BINARY(Sub)
ARC_REG_BINARY(Mul)
ARC_REG_BINARY(Max)
ARC_REG_BINARY(Min)
#undef ARC_REG_BINARY

#define ARC_REG_SCALAR(NAME)                                                                                    \
    template <typename T = DefaultType, typename S, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>    \
    inline void NAME(U &dstReg, U &srcReg, S scalarValue, MaskReg &mask)                                      \
    {                                                                                                          \
        using E = typename detail::elem_of<U>::type;                                                           \
        const U a = srcReg;                                                                                    \
        const E y = (E)scalarValue;                                                                            \
        detail::apply<mode>(dstReg, mask, [&](uint32_t i) -> E { return __arc::op::NAME{}(a.v[i], y); });     \
    }
ARC_REG_SCALAR(Adds)
ARC_REG_SCALAR(Muls)
ARC_REG_SCALAR(Maxs)
ARC_REG_SCALAR(Mins)
#undef ARC_REG_SCALAR

#define ARC_REG_UNARY(NAME)                                                                                     \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>                \
    inline void NAME(U &dstReg, U &srcReg, MaskReg &mask)                                                      \
    {                                                                                                          \
        using E = typename detail::elem_of<U>::type;                                                           \
        const U a = srcReg;                                                                                    \
        detail::apply<mode>(dstReg, mask, [&](uint32_t i) -> E { return __arc::op::NAME{}(a.v[i]); });        \
    }
ARC_REG_UNARY(Abs)
ARC_REG_UNARY(Neg)
ARC_REG_UNARY(Relu)
ARC_REG_UNARY(Exp)
ARC_REG_UNARY(Ln)
ARC_REG_UNARY(Sqrt)
#undef ARC_REG_UNARY

/* Duplicate(dst, scalar[, mask]): every (active) element = scalar. */
template <typename T = DefaultType, typename U, typename S> inline void Duplicate(S &dstReg, U scalarValue)
{
    using E = typename detail::elem_of<S>::type;
    for (uint32_t i = 0; i < __arc::reg::vreg<E>::N; i++) dstReg.v[i] = (E)scalarValue;
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, typename S>
inline void Duplicate(S &dstReg, U scalarValue, MaskReg &mask)
{
    using E = typename detail::elem_of<S>::type;
    detail::apply<mode>(dstReg, mask, [&](uint32_t) -> E { return (E)scalarValue; });
}

/* Select(dst, src0, src1, mask): src0 where the mask is set, else src1. */
template <typename T = DefaultType, typename U> inline void Select(U &dstReg, U &srcReg0, U &srcReg1, MaskReg &mask)
{
    __arc::reg::select(dstReg, srcReg0, srcReg1, mask);
}

/* Orders the UB accesses of one VF; the simulated core runs them in
 * program order already. */
template <MemType src, MemType dst> inline void LocalMemBar() {}
} // namespace Reg
namespace MicroAPI = Reg;
} // namespace AscendC

/* The C API's asc_loadalign_brc (the deprecated BRC mode, its v1 page):
 * one element at src broadcast to every lane (Reg's DIST_BRC_B8/B16/B32). */
template <class E> inline void asc_loadalign_brc(__arc::reg::vreg<E> &dst, __ubuf__ E *src)
{
    using AscendC::Reg::LoadDist;
    static_assert(sizeof(E) <= 4, "asc_loadalign_brc: 8-, 16- or 32-bit elements");
    constexpr LoadDist d = sizeof(E) == 1 ? LoadDist::DIST_BRC_B8
                           : sizeof(E) == 2 ? LoadDist::DIST_BRC_B16 : LoadDist::DIST_BRC_B32;
    AscendC::Reg::detail::load<d>(dst, (const E *)src, "asc_loadalign_brc");
}

/* asc_loadalign_upsample / _downsample on a vector register (the UP2X /
 * DOWN2X modes of the same page; b8/b16): Reg's DIST_US_B* / DIST_DS_B*. */
template <class E> inline void asc_loadalign_upsample(__arc::reg::vreg<E> &dst, __ubuf__ E *src)
{
    using AscendC::Reg::LoadDist;
    static_assert(sizeof(E) <= 2, "asc_loadalign_upsample: 8- or 16-bit elements");
    AscendC::Reg::detail::load<sizeof(E) == 1 ? LoadDist::DIST_US_B8 : LoadDist::DIST_US_B16>(dst, (const E *)src,
                                                                                             "asc_loadalign_upsample");
}
template <class E> inline void asc_loadalign_downsample(__arc::reg::vreg<E> &dst, __ubuf__ E *src)
{
    using AscendC::Reg::LoadDist;
    static_assert(sizeof(E) <= 2, "asc_loadalign_downsample: 8- or 16-bit elements");
    AscendC::Reg::detail::load<sizeof(E) == 1 ? LoadDist::DIST_DS_B8 : LoadDist::DIST_DS_B16>(dst, (const E *)src,
                                                                                             "asc_loadalign_downsample");
}

/* The C API's asc_loadalign_unpack[_postupdate]: VL/2 bytes of units the
 * element's width, each followed by a zero unit (Reg's DIST_UNPACK_B8/B16/B32). */
template <class E>
inline void asc_loadalign_unpack(__arc::reg::vreg<E> &dst, __ubuf__ E *src, int32_t offset = 0)
{
    using AscendC::Reg::LoadDist;
    constexpr LoadDist d = sizeof(E) == 1 ? LoadDist::DIST_UNPACK_B8
                           : sizeof(E) == 2 ? LoadDist::DIST_UNPACK_B16 : LoadDist::DIST_UNPACK_B32;
    static_assert(sizeof(E) <= 4, "asc_loadalign_unpack: 8-, 16- or 32-bit elements");
    AscendC::Reg::detail::load<d>(dst, (const E *)(src + offset), "asc_loadalign_unpack");
}
template <class E>
inline void asc_loadalign_unpack_postupdate(__arc::reg::vreg<E> &dst, __ubuf__ E *&src, int32_t offset)
{
    asc_loadalign_unpack(dst, src);
    src += offset;
}
/* The C API's asc_storealign_pack[_postupdate]: the low half of each active
 * b16/b32/b64 element, packed (Reg's DIST_PACK_B16/B32/B64). */
template <class E>
inline void asc_storealign_pack(__ubuf__ E *dst, __arc::reg::vreg<E> src, int32_t offset, __arc::reg::vmask mask)
{
    using AscendC::Reg::StoreDist;
    static_assert(sizeof(E) >= 2, "asc_storealign_pack: 16-, 32- or 64-bit elements");
    constexpr StoreDist d = sizeof(E) == 2 ? StoreDist::DIST_PACK_B16
                            : sizeof(E) == 4 ? StoreDist::DIST_PACK_B32 : StoreDist::DIST_PACK_B64;
    AscendC::Reg::detail::store<d>((E *)(dst + offset), src, mask, "asc_storealign_pack");
}
template <class E> inline void asc_storealign_pack(__ubuf__ E *dst, __arc::reg::vreg<E> src, __arc::reg::vmask mask)
{
    asc_storealign_pack(dst, src, 0, mask);
}
template <class E>
inline void asc_storealign_pack_postupdate(__ubuf__ E *&dst, __arc::reg::vreg<E> src, int32_t offset,
                                           __arc::reg::vmask mask)
{
    asc_storealign_pack(dst, src, 0, mask);
    dst += offset;
}
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_REG_API_H_ */
