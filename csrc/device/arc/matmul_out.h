/* matmul_out.h - the Matmul API's values (arc/matmul_api.h): operands and
 * their GM reads for the race check, the accumulator type of an input type, the
 * narrowing to C's type (with the config's ReLU), the atomic modes, and
 * C's layouts -- ND, ND_ALIGN (rows padded to 32 bytes), NZ (16-row
 * fractals of C0 columns: 32 bytes, or 8 floats with the channel split),
 * COLUMN_MAJOR (Ascend 950: columns of M), which the MatmulConfig page and
 * the CubeFormat list define. */
#ifndef ARC_MATMUL_OUT_H_
#define ARC_MATMUL_OUT_H_

#include "arc/cube_types.h"

namespace AscendC {
namespace __mm {
template <typename T> struct acc { typedef float type; };
template <> struct acc<int8_t> { typedef int32_t type; };
template <> struct acc<int4b_t> { typedef int32_t type; };
template <typename T> inline typename acc<T>::type wide(T v) { return (typename acc<T>::type)v; }
inline float wide(bfloat16_t v) { return v.ToFloat(); }
template <typename D, typename S> inline D narrow(S v) { return (D)v; }
template <> inline bfloat16_t narrow<bfloat16_t, float>(float v) { return bfloat16_t(v); }

/* An operand: GM or local data, its format, its leading dimension. */
template <typename T> struct Operand {
    typedef T elem;
    const T *p = nullptr;
    GlobalTensor<T> g;
    bool gm = false, trans = false, scalar = false, set = false;
    T value{};
};

/* This core's GM reads of A, B and the bias for the GM race check
 * between cores (on the NPU the cube's MTE2 loads them): ND rows
 * exactly, an NZ operand as the span its fractals cover. */
template <CubeFormat FMT, typename T>
inline void log_operand(const __mm::Operand<T> &o, int rows, int cols, int ld, int padRows, const char *api)
{
    if (!o.gm || o.scalar || rows <= 0 || cols <= 0) return;
    constexpr int per = __arc::packed_per_byte<T>::value, C0 = 32 * per / sizeof(T); /* bytes = elements / per */
    if (FMT == CubeFormat::NZ)
        __arc::race_gm(ARC_GM_READ, __arc::RP_MTE2, o.p, 1, (uint64_t)(cols + C0 - 1) / C0 * padRows * 32,
                       (uint64_t)(cols + C0 - 1) / C0 * padRows * 32, api);
    else
        __arc::race_gm(ARC_GM_READ, __arc::RP_MTE2, o.p, (uint64_t)rows, ((uint64_t)cols + per - 1) / per * sizeof(T),
                       (uint64_t)ld / per * sizeof(T), api);
}

/* C's layout: element (r, c) of the core's C at r * pitch + c (ND), or in
 * NZ at (c / c0) * rows * c0 + r * c0 + c % c0, rows being the original M
 * rounded up to 16. */
struct COut {
    bool nz = false, col = false; /* col: COLUMN_MAJOR, (r, c) at c * pitch + r */
    int pitch = 0, rows = 0, c0 = 16;
    int64_t at(int r, int c) const
    {
        if (col) return (int64_t)c * pitch + r;
        return nz ? (int64_t)(c / c0) * rows * c0 + (int64_t)r * c0 + c % c0 : (int64_t)r * pitch + c;
    }
};

/* An A or B in CubeFormat::COLUMN_MAJOR (Ascend 950, GM only: the
 * MatmulType page) is stored as the transpose of its ND form: (m, k) of A
 * at k * M + m is A^T in ND.  The operand's ND transpose flag for the
 * user's isTranspose. */
constexpr bool nd_like(CubeFormat f) { return f == CubeFormat::ND || f == CubeFormat::COLUMN_MAJOR; }
template <CubeFormat FMT> inline bool nd_trans(bool isTranspose, bool gm, const char *api)
{
    if (FMT != CubeFormat::COLUMN_MAJOR) return isTranspose;
    ARC_CHECK(__NPU_ARCH__ == 3510, api, "CubeFormat::COLUMN_MAJOR is Ascend 950 (dav-3510) only");
    ARC_CHECK(gm, api, "a CubeFormat::COLUMN_MAJOR operand must be in GM (TPosition::GM; the MatmulType page)");
    return !isTranspose;
}

/* The GM race check's record of C's block (i0, j0) of bm x bn written as o
 * lays it out, d being C's start. */
template <typename TC>
inline void race_c_block(const COut &o, TC *d, int i0, int j0, int bm, int bn, uint8_t atomic, const char *api)
{
    const int kind = atomic ? ARC_GM_ATOMIC : ARC_GM_WRITE;
    TC *lo = d + o.at(i0, j0);
    if (o.nz) /* each c0-column strip of the block is bm rows of c0, one strip per rows x c0 */
        __arc::race_gm(kind, __arc::RP_FIX, lo, (uint64_t)((j0 + bn - 1) / o.c0 - j0 / o.c0 + 1),
                       (uint64_t)bm * o.c0 * sizeof(TC), (uint64_t)o.rows * o.c0 * sizeof(TC), api);
    else if (o.col) /* bn columns of bm */
        __arc::race_gm(kind, __arc::RP_FIX, lo, (uint64_t)bn, (uint64_t)bm * sizeof(TC), (uint64_t)o.pitch * sizeof(TC),
                       api);
    else
        __arc::race_gm(kind, __arc::RP_FIX, lo, (uint64_t)bm, (uint64_t)bn * sizeof(TC), (uint64_t)o.pitch * sizeof(TC),
                       api);
}

/* C's row pitch for n columns in ND / ND_ALIGN (the pad is left as it
 * was: the docs call it invalid data). */
template <typename TC, CubeFormat FMT> inline int c_pitch(int n)
{
    constexpr int e = 32 / (int)sizeof(TC);
    return FMT == CubeFormat::ND_ALIGN ? (n + e - 1) / e * e : n;
}

/* The C layout of a block written to GM or to a local tensor. */
template <typename TC, CubeFormat FMT> inline COut c_layout(int n, int orgM, bool channelSplit, const char *api)
{
    ARC_CHECK(FMT == CubeFormat::ND || FMT == CubeFormat::ND_ALIGN || FMT == CubeFormat::NZ ||
                  FMT == CubeFormat::COLUMN_MAJOR, api,
              "C in CubeFormat %d: only ND, ND_ALIGN, NZ and COLUMN_MAJOR are simulated yet by ascendrtc's Matmul API",
              (int)FMT);
    COut o;
    o.pitch = c_pitch<TC, FMT>(n);
    if (FMT == CubeFormat::COLUMN_MAJOR) { /* a column of orgM rows */
        ARC_CHECK(__NPU_ARCH__ == 3510, api, "C in CubeFormat::COLUMN_MAJOR is Ascend 950 (dav-3510) only");
        o.col = true;
        o.pitch = orgM;
    }
    if (FMT == CubeFormat::NZ) {
        ARC_CHECK(sizeof(TC) == 2 || sizeof(TC) == 4, api,
                  "C in NZ of %u-byte elements: only 2- and 4-byte types are simulated yet", (unsigned)sizeof(TC));
        o.nz = true;
        o.rows = (orgM + 15) / 16 * 16;
        o.c0 = channelSplit ? 8 : 16;
    }
    ARC_CHECK(!channelSplit || (FMT == CubeFormat::NZ && sizeof(TC) == 4), api,
              "MatmulConfig.isEnableChannelSplit needs C in CubeFormat::NZ of float (the MatmulConfig page)");
    return o;
}

/* The value the Fixpipe stores: the accumulator narrowed to C's type,
 * negative values zeroed first with the config's enableRelu. */
template <typename ACC> inline ACC post(ACC v, bool relu) { return relu && v < (ACC)0 ? (ACC)0 : v; }

/* The (de)quantisation of C's store (SetQuantScalar / SetQuantVector: a
 * word per C, or per column), the Fixpipe's for these types: int32 -> half
 * (DEQF16), int32 -> int8 (REQ8), float -> int8 (QF322B8_PRE), or the
 * vector forms; other pairs take no quantisation. */
struct Quant {
    int kind = 0; /* 0 none, 1 scalar, 2 per column */
    uint64_t word = 0;
    const uint64_t *vec = nullptr;
};
template <typename TC, typename ACC> constexpr QuantMode_t quant_mode(bool vec)
{
    return __arc::is_same<ACC, int32_t>::value && __arc::is_same<TC, half>::value
               ? (vec ? QuantMode_t::VDEQF16 : QuantMode_t::DEQF16)
           : __arc::is_same<ACC, int32_t>::value && sizeof(TC) == 1 ? (vec ? QuantMode_t::VREQ8 : QuantMode_t::REQ8)
           : __arc::is_same<ACC, float>::value && sizeof(TC) == 1 ? (vec ? QuantMode_t::VQF322B8_PRE : QuantMode_t::QF322B8_PRE)
                                                                   : QuantMode_t::NoQuant;
}
template <typename TC, typename ACC> constexpr bool needs_quant() { return quant_mode<TC, ACC>(false) != QuantMode_t::NoQuant; }
template <typename TC, typename ACC> inline void check_quant(const Quant &q, const char *api)
{
    constexpr bool need = needs_quant<TC, ACC>();
    ARC_CHECK(!need || q.kind, api,
              "a %s accumulator stored as %s C needs its (de)quantisation: SetQuantScalar or SetQuantVector first",
              __arc::tname<ACC>(), __arc::tname<TC>());
    ARC_CHECK(need || !q.kind, api,
              "SetQuantScalar/SetQuantVector with a %s accumulator and %s C: the Matmul quantises int32 to half or "
              "int8, and float to int8, only", __arc::tname<ACC>(), __arc::tname<TC>());
}
/* Column col's value v as the Fixpipe stores it with quantisation q. */
template <typename TC, typename ACC> inline TC quantize(ACC v, const Quant &q, int col, bool relu)
{
    __cube::QuantWord w = __cube::decode_quant(q.kind == 2 ? q.vec[col] : q.word);
    return __cube::fix_value<TC, ACC>(v, quant_mode<TC, ACC>(q.kind == 2), w, relu);
}

/* dst op= v for enAtomic 0 (store), 1 (add), 2 (max), 3 (min). */
template <typename TC, typename ACC> inline void combine(TC &dst, ACC v, uint8_t atomic)
{
    TC x = narrow<TC, ACC>(v);
    if (atomic == 1) dst = narrow<TC, ACC>((ACC)wide(dst) + v);
    else if (atomic == 2) dst = (ACC)wide(dst) > v ? dst : x;
    else if (atomic == 3) dst = (ACC)wide(dst) < v ? dst : x;
    else dst = x;
}
/* v (column col of C) stored into d: quantised when C's type asks it
 * (the atomic op then in C's type, after the Fixpipe), else the relu'd
 * accumulator narrowed. */
template <typename TC, typename ACC>
inline void store(TC &d, ACC v, const Quant &q, int col, bool relu, uint8_t atomic)
{
    if constexpr (needs_quant<TC, ACC>()) {
        using W = typename acc<TC>::type;
        TC x = quantize<TC, ACC>(v, q, col, relu);
        combine<TC, W>(d, (W)wide(x), atomic);
    } else {
        combine<TC, ACC>(d, post(v, relu), atomic);
    }
}
} // namespace __mm
} // namespace AscendC

#endif /* ARC_MATMUL_OUT_H_ */
