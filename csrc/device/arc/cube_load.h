/* cube_load.h - moving data towards the cube: GM -> L1 with ND -> NZ
 * (Nd2NzParams), L1 -> BiasTable, LoadData 2D (L1/GM -> L0A/L0B, with the
 * b16 fractal transpose), LoadDataWithTranspose and the img2col 3D load.
 * Index formulas: the layouts of "Cube unit" in csrc/device/README.md. */
#ifndef ARC_CUBE_LOAD_H_
#define ARC_CUBE_LOAD_H_

#include "arc/cube_types.h"
#include "arc/data_copy.h"

namespace AscendC {
namespace __cube {

static inline bool in_arena(const void *p, TPosition pos)
{
    __detail::Arena a = __detail::arena_of(pos);
    const unsigned char *q = (const unsigned char *)p;
    return q >= a.base && q < a.base + a.size;
}
static inline const char *pos_str(TPosition p)
{
    switch (p) {
    case TPosition::A1: return "A1"; case TPosition::B1: return "B1"; case TPosition::C1: return "C1";
    case TPosition::A2: return "A2"; case TPosition::B2: return "B2"; case TPosition::CO1: return "CO1";
    case TPosition::C2: return "C2"; case TPosition::CO2: return "CO2"; case TPosition::TSCM: return "TSCM";
    case TPosition::GM: return "GM"; case TPosition::VECIN: return "VECIN"; case TPosition::VECOUT: return "VECOUT";
    case TPosition::VECCALC: return "VECCALC"; case TPosition::C2PIPE2GM: return "C2PIPE2GM";
    default: return "other";
    }
}
static inline bool is_l1(TPosition p)
{
    return p == TPosition::A1 || p == TPosition::B1 || p == TPosition::C1 || p == TPosition::TSCM;
}

/* A local operand must be in the memory `want` names, start on that
 * memory's alignment, and span `bytes` inside its tensor. */
template <typename T>
inline void check_operand(const LocalTensor<T> &t, TPosition want, uint64_t bytes, const char *api, const char *what)
{
    __detail::Arena a = __detail::arena_of(want);
    ARC_CHECK(in_arena(t.addr_, want), api, "%s is a %s tensor, not in the %s (position %s expected)", what,
              pos_str(t.pos_), a.name, pos_str(want));
    uint64_t off = (uint64_t)((const unsigned char *)t.addr_ - a.base);
    ARC_CHECK(off % a.align == 0, api, "%s starts at byte %llu of the %s, which is not %u-byte aligned", what,
              (unsigned long long)off, a.name, a.align);
#ifdef ASCENDRTC_NPU_SEMANTICS
    const uint64_t limit = a.size - off; /* the NPU knows buffers, not tensors */
#else
    const uint64_t limit = t.bytes_;
#endif
    ARC_CHECK(bytes <= limit, api,
              "%s: %llu bytes exceed " ARC_LIMIT_WHAT " %llu bytes (%s at byte %llu of the %s)" ARC_LIMIT_HINT, what,
              (unsigned long long)bytes, (unsigned long long)limit, __arc::tname<T>(), (unsigned long long)off,
              a.name);
}
/* The position of a tensor's memory (its own if it lies there). */
template <typename T> inline TPosition where(const LocalTensor<T> &t)
{
    static const TPosition order[] = {TPosition::A2, TPosition::B2, TPosition::CO1, TPosition::C2, TPosition::C2PIPE2GM,
                                      TPosition::A1};
    for (TPosition p : order)
        if (in_arena(t.addr_, p)) return p == TPosition::A1 && is_l1(t.pos_) ? t.pos_ : p;
    return TPosition::VECCALC;
}
/* Fractal bitmap and the index of a byte address in it. */
static inline uint64_t *l0_bits(TPosition p)
{
    __arc::CubeMeta *m = __arc::cube_meta();
    return p == TPosition::A2 ? m->l0a : p == TPosition::B2 ? m->l0b : m->l0c;
}
static inline uint32_t frac_of(const void *p, TPosition pos, uint32_t fbytes)
{
    return (uint32_t)(((const unsigned char *)p - __detail::arena_of(pos).base) / fbytes);
}
template <typename T> constexpr uint32_t c0_of() { return 32u / (uint32_t)sizeof(T); }
} // namespace __cube

/* ---- GM -> L1 with ND -> NZ ---- */
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const Nd2NzParams &p)
{
    __arc_uses(ARC_USES_CUBE);
    const char *api = "AscendC::DataCopy(Nd2NzParams)";
    static_assert(sizeof(T) <= 4, "AscendC::DataCopy(Nd2NzParams): element types of 1, 2 or 4 bytes");
    constexpr uint32_t C0 = __cube::c0_of<T>();
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
    ARC_CHECK(p.ndNum <= 4095 && p.nValue <= 16384, api, "ndNum %u (max 4095) or nValue %u (max 16384) out of range",
              (unsigned)p.ndNum, (unsigned)p.nValue);
    ARC_CHECK(p.srcDValue >= 1 && p.dstNzC0Stride >= 1 && p.dstNzNStride >= 1 && p.dstNzC0Stride <= 16384 &&
                  p.dstNzNStride <= 16384,
              api, "srcDValue %u, dstNzC0Stride %u and dstNzNStride %u must be at least 1 (strides at most 16384)",
              (unsigned)p.srcDValue, (unsigned)p.dstNzC0Stride, (unsigned)p.dstNzNStride);
    ARC_CHECK(__cube::is_l1(dst.pos_) || __cube::in_arena(dst.addr_, TPosition::A1), api,
              "dst is a %s tensor; Nd2NzParams copies GM into L1 (A1, B1, C1)", __cube::pos_str(dst.pos_));
    uint32_t cblocks = (p.dValue + C0 - 1) / C0;
    /* Last element written: matrix ndNum-1, column block cblocks-1, row nValue-1, lane C0-1. */
    uint64_t last = (uint64_t)(p.ndNum - 1) * p.dstNzMatrixStride + (uint64_t)(cblocks - 1) * p.dstNzC0Stride * C0 +
                    (uint64_t)(p.nValue - 1) * p.dstNzNStride * C0 + C0;
    __cube::check_operand(dst, __cube::where(dst), last * sizeof(T), api, "dst (L1)");
    uint64_t src_last = (uint64_t)(p.ndNum - 1) * p.srcNdMatrixStride + (uint64_t)(p.nValue - 1) * p.srcDValue +
                        p.dValue;
    src.check_range(0, src_last, api);
    /* dense when the NZ rows fill each column block and the matrices follow on */
    bool dense = p.dstNzNStride == 1 && p.dstNzC0Stride == p.nValue &&
                 (p.ndNum == 1 || p.dstNzMatrixStride == (uint64_t)cblocks * p.nValue * C0);
    __arc::race(__arc::RP_MTE2, dense ? 1 : 1 | ARC_RACE_SPARSE, dst.addr_, last * sizeof(T), api);
    if (__arc::race_gm_on())
        for (uint32_t i = 0; i < p.ndNum; i++)
            __arc::race_gm(ARC_GM_READ, __arc::RP_MTE2, src.addr_ + (uint64_t)i * p.srcNdMatrixStride, p.nValue,
                           (uint64_t)p.dValue * sizeof(T), (uint64_t)p.srcDValue * sizeof(T), api);
    T *d = dst.addr_;
    const T *s = src.addr_;
    for (uint32_t i = 0; i < p.ndNum; i++)
        for (uint32_t r = 0; r < p.nValue; r++) {
            const T *row = s + (uint64_t)i * p.srcNdMatrixStride + (uint64_t)r * p.srcDValue;
            T *out = d + (uint64_t)i * p.dstNzMatrixStride + (uint64_t)r * p.dstNzNStride * C0;
            for (uint32_t cb = 0; cb < cblocks; cb++) {
                T *o = out + (uint64_t)cb * p.dstNzC0Stride * C0;
                uint32_t n = p.dValue - cb * C0 < C0 ? p.dValue - cb * C0 : C0;
                if (n == C0) { /* a whole 32-byte row: a fixed-size (inlined) copy */
                    __builtin_memcpy((void *)o, (const void *)(row + cb * C0), 32);
                    continue;
                }
                __builtin_memcpy((void *)o, (const void *)(row + cb * C0), n * sizeof(T));
                /* The last column block is zero-filled up to 32 bytes. */
                if (n < C0) __builtin_memset((void *)(o + n), 0, (C0 - n) * sizeof(T));
            }
        }
}

/* ---- UB -> L1 with ND -> NZ (MTE3): the same layout as from GM; the source
 * rows are read from the vector unit's buffer. ---- */
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const Nd2NzParams &p)
{
    __arc_uses(ARC_USES_CUBE);
    const char *api = "AscendC::DataCopy(UB -> L1, Nd2NzParams)";
    static_assert(sizeof(T) <= 4, "AscendC::DataCopy(Nd2NzParams): element types of 1, 2 or 4 bytes");
    constexpr uint32_t C0 = __cube::c0_of<T>();
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
    ARC_CHECK(p.srcDValue >= 1 && p.dstNzC0Stride >= 1 && p.dstNzNStride >= 1, api,
              "srcDValue %u, dstNzC0Stride %u and dstNzNStride %u must be at least 1", (unsigned)p.srcDValue,
              (unsigned)p.dstNzC0Stride, (unsigned)p.dstNzNStride);
    ARC_CHECK(__cube::in_arena(src.addr_, TPosition::VECIN), api, "src is a %s tensor; this form copies UB into L1",
              __cube::pos_str(src.pos_));
    ARC_CHECK(__cube::is_l1(dst.pos_) || __cube::in_arena(dst.addr_, TPosition::A1), api,
              "dst is a %s tensor; Nd2NzParams copies into L1 (A1, B1, C1)", __cube::pos_str(dst.pos_));
    uint32_t cblocks = (p.dValue + C0 - 1) / C0;
    uint64_t last = (uint64_t)(p.ndNum - 1) * p.dstNzMatrixStride + (uint64_t)(cblocks - 1) * p.dstNzC0Stride * C0 +
                    (uint64_t)(p.nValue - 1) * p.dstNzNStride * C0 + C0;
    uint64_t src_last = (uint64_t)(p.ndNum - 1) * p.srcNdMatrixStride + (uint64_t)(p.nValue - 1) * p.srcDValue +
                        p.dValue;
    ARC_CHECK(src_last * sizeof(T) <= src.bytes_, api, "src: the copy reads %llu elements, the tensor has %u",
              (unsigned long long)src_last, (unsigned)(src.bytes_ / sizeof(T)));
    __cube::check_operand(dst, __cube::where(dst), last * sizeof(T), api, "dst (L1)");
    __arc::race(__arc::RP_MTE3, 0, src.addr_, src_last * sizeof(T), api);
    __arc::race(__arc::RP_MTE3, 1, dst.addr_, last * sizeof(T), api);
    for (uint32_t i = 0; i < p.ndNum; i++)
        for (uint32_t r = 0; r < p.nValue; r++) {
            const T *row = src.addr_ + (uint64_t)i * p.srcNdMatrixStride + (uint64_t)r * p.srcDValue;
            T *out = dst.addr_ + (uint64_t)i * p.dstNzMatrixStride + (uint64_t)r * p.dstNzNStride * C0;
            for (uint32_t cb = 0; cb < cblocks; cb++) {
                T *o = out + (uint64_t)cb * p.dstNzC0Stride * C0;
                uint32_t n = p.dValue - cb * C0 < C0 ? p.dValue - cb * C0 : C0;
                __builtin_memcpy((void *)o, (const void *)(row + cb * C0), n * sizeof(T));
                if (n < C0) __builtin_memset((void *)(o + n), 0, (C0 - n) * sizeof(T));
            }
        }
}

/* ---- L1 -> BiasTable: blockLen and dstGap count 64-byte units of the
 * source (dav-3510: 32-byte units, blockLen even; its page); half
 * converts to float on the way. ---- */
template <typename T, typename U>
inline void __cube_copy_to_bt(const LocalTensor<T> &dst, const LocalTensor<U> &src, const DataCopyParams &p)
{
    __arc_uses(ARC_USES_CUBE);
    const char *api = "AscendC::DataCopy(L1 -> C2)";
    static_assert(sizeof(T) == 4, "AscendC::DataCopy to C2: the BiasTable holds float or int32_t");
    if (p.blockCount == 0 || p.blockLen == 0) return;
    constexpr uint64_t unit = __NPU_ARCH__ == 3510 ? 32 : 64;
    ARC_CHECK(unit == 64 || p.blockLen % 2 == 0, api, "blockLen %u (32-byte units on dav-3510) must be even",
              (unsigned)p.blockLen);
    uint64_t len = (uint64_t)p.blockLen * unit;        /* source bytes per block */
    uint64_t n = len / sizeof(U);                       /* elements per block */
    uint64_t src_bytes = (p.blockCount - 1) * (len + p.srcStride * 64ull) + len;
    uint64_t dst_bytes = ((p.blockCount - 1) * (n + p.dstStride * unit / sizeof(T)) + n) * sizeof(T);
    __cube::check_operand(src, __cube::where(src), src_bytes, api, "src (L1)");
    ARC_CHECK(__cube::is_l1(__cube::where(src)), api, "src is a %s tensor; the BiasTable is filled from L1 (C1)",
              __cube::pos_str(src.pos_));
    __cube::check_operand(dst, TPosition::C2, dst_bytes, api, "dst (C2)");
    __arc::race(__arc::RP_MTE1, 0, src.addr_, src_bytes, api);
    __arc::race(__arc::RP_MTE1, 1, dst.addr_, dst_bytes, api);
    for (uint32_t b = 0; b < p.blockCount; b++) {
        const U *s = (const U *)(const void *)((const uint8_t *)src.addr_ + b * (len + p.srcStride * 64ull));
        T *d = dst.addr_ + b * (n + p.dstStride * unit / sizeof(T));
        for (uint64_t i = 0; i < n; i++) d[i] = (T)s[i];
    }
    uint32_t first = (uint32_t)(((uint8_t *)dst.addr_ - __detail::arena_of(TPosition::C2).base) / 64);
    for (uint32_t i = first; i < first + (dst_bytes + 63) / 64 && i < 64; i++) __arc::cube_meta()->bt |= 1ull << i;
}
/* ---- L1 -> Fixpipe buffer (uint64_t quantisation words, pipe FIX):
 * blockLen counts 128-byte units (64-byte on Ascend 950, the page's note);
 * the gaps are head-to-head distances, the source's in 32-byte and the
 * destination's in 128-byte units. ---- */
template <typename T>
inline void __cube_copy_to_fb(const LocalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p)
{
    __arc_uses(ARC_USES_CUBE);
    const char *api = "AscendC::DataCopy(L1 -> C2PIPE2GM)";
    static_assert(__arc::is_same<T, uint64_t>::value, "AscendC::DataCopy to the Fixpipe buffer: uint64_t words");
    if (p.blockCount == 0 || p.blockLen == 0) return;
    ARC_CHECK(__cube::is_l1(__cube::where(src)), api, "src is a %s tensor; the Fixpipe buffer is filled from L1 (C1)",
              __cube::pos_str(src.pos_));
    ARC_CHECK(p.blockCount == 1 || p.dstStride > 0, api, "dstGap 0 with %u blocks: each block overwrites the first",
              (unsigned)p.blockCount);
    uint64_t len = (uint64_t)p.blockLen * (__NPU_ARCH__ == 3510 ? 64 : 128);
    uint64_t src_bytes = (uint64_t)(p.blockCount - 1) * p.srcStride * 32 + len;
    uint64_t dst_bytes = (uint64_t)(p.blockCount - 1) * p.dstStride * 128 + len;
    __cube::check_operand(src, __cube::where(src), src_bytes, api, "src (L1)");
    __cube::check_operand(dst, TPosition::C2PIPE2GM, dst_bytes, api, "dst (Fixpipe buffer)");
    __arc::race(__arc::RP_FIX, 0, src.addr_, src_bytes, api);
    __arc::race(__arc::RP_FIX, 1, dst.addr_, dst_bytes, api);
    for (uint32_t b = 0; b < p.blockCount; b++)
        __builtin_memcpy((uint8_t *)dst.addr_ + (uint64_t)b * p.dstStride * 128,
                         (const uint8_t *)src.addr_ + (uint64_t)b * p.srcStride * 32, len);
}
template <typename T, typename U, typename = typename __arc::enable_if<!__arc::is_same<T, U>::value>::type>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const DataCopyParams &p)
{
    ARC_CHECK(dst.pos_ == TPosition::C2 || __cube::in_arena(dst.addr_, TPosition::C2), "AscendC::DataCopy",
              "copying %s into %s needs dst in C2 (the BiasTable converts half to float)", __arc::tname<U>(),
              __arc::tname<T>());
    __cube_copy_to_bt(dst, src, p);
}
template <typename T, typename U, typename = typename __arc::enable_if<!__arc::is_same<T, U>::value>::type>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<U> &src, uint32_t count)
{
    DataCopyParams p(1, (uint16_t)((uint64_t)count * sizeof(U) / 64), 0, 0);
    DataCopy(dst, src, p);
}

namespace __cube {
/* One LoadData 2D repeat: a 512-byte fractal, copied or (b16) transposed. */
template <typename T> inline void move_fractal(T *d, const T *s, bool transpose)
{
    if (!transpose) {
        __builtin_memcpy((void *)d, (const void *)s, 512);
        return;
    }
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) d[c * 16 + r] = s[r * 16 + c];
}
template <typename T>
inline void load2d(const LocalTensor<T> &dst, const T *src, uint64_t src_room, const LoadData2DParams &p,
                   bool from_gm, const char *api)
{
    __arc_uses(ARC_USES_CUBE);
    constexpr uint32_t F = 512 / sizeof(T);
    if (p.repeatTimes == 0) return;
    ARC_CHECK(!p.ifTranspose || sizeof(T) == 2, api,
              "ifTranspose is for 16-bit types only (use LoadDataWithTranspose for %s)", __arc::tname<T>());
    ARC_CHECK(!p.ifTranspose || !from_gm, api, "ifTranspose needs an L1 source, not GM");
    TPosition dp = where(dst);
    ARC_CHECK(dp == TPosition::A2 || dp == TPosition::B2 || is_l1(dp), api,
              "dst is a %s tensor; LoadData writes L0A (A2), L0B (B2) or, from GM, L1", pos_str(dst.pos_));
    uint64_t dst_bytes = ((uint64_t)(p.repeatTimes - 1) * (p.dstGap + 1) + 1) * 512;
    check_operand(dst, dp, dst_bytes, api, "dst");
    int64_t lo = p.startIndex, hi = p.startIndex;
    int64_t step = p.addrMode && from_gm ? -(int64_t)p.srcStride : (int64_t)p.srcStride;
    int64_t end = p.startIndex + step * (p.repeatTimes - 1);
    if (end < lo) lo = end;
    if (end > hi) hi = end;
    ARC_CHECK(lo >= 0 && (uint64_t)(hi + 1) * 512 <= src_room, api,
              "the source fractals %lld..%lld (startIndex %u, srcStride %u, repeatTimes %u) exceed the source's "
              "%llu bytes (%llu fractals)", (long long)lo, (long long)hi, (unsigned)p.startIndex,
              (unsigned)p.srcStride, (unsigned)p.repeatTimes, (unsigned long long)src_room,
              (unsigned long long)(src_room / 512));
    if (from_gm)
        __arc::race_gm(ARC_GM_READ, __arc::RP_MTE2, src + lo * F, 1, (uint64_t)(hi - lo + 1) * 512, (uint64_t)(hi - lo + 1) * 512, api);
    else
        __arc::race(__arc::RP_MTE1, 0, src + lo * F, (uint64_t)(hi - lo + 1) * 512, api);
    __arc::race(from_gm ? __arc::RP_MTE2 : __arc::RP_MTE1, p.repeatTimes > 1 && p.dstGap ? 1 | ARC_RACE_SPARSE : 1,
                dst.addr_, dst_bytes, api);
    for (uint32_t i = 0; i < p.repeatTimes; i++)
        move_fractal(dst.addr_ + (uint64_t)i * (p.dstGap + 1) * F, src + (p.startIndex + step * i) * (int64_t)F,
                     p.ifTranspose);
    if (dp == TPosition::A2 || dp == TPosition::B2) {
        uint32_t f = frac_of(dst.addr_, dp, 512);
        for (uint32_t i = 0; i < p.repeatTimes; i++) __arc::frac_mark(l0_bits(dp), f + i * (p.dstGap + 1), 1);
    }
}
} // namespace __cube

/* ---- LoadData 2D: L1 -> L0A/L0B, and GM -> L0A/L0B/L1 ---- */
template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData2DParams &p)
{
    const char *api = "AscendC::LoadData(LoadData2DParams)";
    TPosition sp = __cube::where(src);
    ARC_CHECK(__cube::is_l1(sp), api, "src is a %s tensor; LoadData 2D reads L1 (A1, B1) or GM",
              __cube::pos_str(src.pos_));
    __cube::check_operand(src, sp, 0, api, "src");
    __cube::load2d(dst, src.addr_, __arc::span_limit(src.addr_, src.bytes_), p, false, api);
}
template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const LoadData2DParams &p)
{
    const char *api = "AscendC::LoadData(LoadData2DParams)";
    constexpr uint32_t F = 512 / sizeof(T);
    if (p.repeatTimes == 0) return;
    int64_t a = p.startIndex, b = (int64_t)p.startIndex + (p.addrMode ? -1 : 1) * (int64_t)p.srcStride * (p.repeatTimes - 1);
    int64_t lo = a < b ? a : b, hi = a < b ? b : a;
    ARC_CHECK(lo >= 0, api, "addrMode 1 walks below fractal 0 (startIndex %u, srcStride %u, repeatTimes %u)",
              (unsigned)p.startIndex, (unsigned)p.srcStride, (unsigned)p.repeatTimes);
    src.check_range((uint64_t)lo * F, (uint64_t)(hi - lo + 1) * F, api);
    __cube::load2d(dst, src.addr_, (uint64_t)(hi + 1) * 512, p, true, api);
}

/* ---- LoadDataWithTranspose: one square per repeat (b4 64x64 as four
 * 16x64 fractals, b8 32x32, b16 16x16, b32 16x16 as two 16x8 fractals), its
 * fractals dstFracGap apart.  startIndex and srcStride count squares (NF
 * fractals), as the docs' table and pseudo-code define them; b4 (int4b_t,
 * two per byte, the first in the low nibble) only into L0B. ---- */
namespace __cube {
/* Raw element i of a buffer: a packed type's bits (a nibble), else T. */
template <typename T, typename E> inline E elem_raw(const void *base, uint64_t i)
{
    if constexpr (__arc::packed_per_byte<T>::value > 1) return (E)(((const uint8_t *)base)[i / 2] >> (i % 2 * 4) & 0xF);
    else return ((const T *)base)[i];
}
template <typename T, typename E> inline void elem_put(void *base, uint64_t i, E v)
{
    if constexpr (__arc::packed_per_byte<T>::value > 1) {
        uint8_t &b = ((uint8_t *)base)[i / 2];
        b = (uint8_t)(i % 2 ? (b & 0x0F) | (v << 4) : (b & 0xF0) | v);
    } else {
        ((T *)base)[i] = v;
    }
}
} // namespace __cube
template <typename T>
inline void LoadDataWithTranspose(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                  const LoadData2dTransposeParams &p)
{
    __arc_uses(ARC_USES_CUBE);
    const char *api = "AscendC::LoadDataWithTranspose";
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "AscendC::LoadDataWithTranspose: 4-, 8-, 16- or 32-bit elements");
    if (p.repeatTimes == 0) return;
    constexpr bool b4 = __arc::packed_per_byte<T>::value == 2;
    static_assert(__arc::packed_per_byte<T>::value <= 2, "AscendC::LoadDataWithTranspose: no 2-bit elements");
    typedef typename __arc::conditional<b4, uint8_t, T>::type E; /* one element's bits */
    constexpr uint32_t F = b4 ? 1024 : 512 / sizeof(T);                    /* elements per fractal */
    constexpr uint32_t S = b4 ? 64 : sizeof(T) == 1 ? 32 : 16;             /* side of the square */
    constexpr uint32_t NF = S * S / F;                                     /* fractals per square: 4, 2, 1, 2 */
    TPosition sp = __cube::where(src), dp = __cube::where(dst);
    ARC_CHECK(__cube::is_l1(sp), api, "src is a %s tensor; LoadDataWithTranspose reads L1",
              __cube::pos_str(src.pos_));
    ARC_CHECK(dp == TPosition::A2 || dp == TPosition::B2, api,
              "dst is a %s tensor; LoadDataWithTranspose writes L0A (A2) or L0B (B2)", __cube::pos_str(dst.pos_));
    ARC_CHECK(!b4 || dp == TPosition::B2, api, "int4b_t is transposed into L0B (B2) only, not L0A");
    uint64_t src_need = ((uint64_t)p.startIndex + (uint64_t)p.srcStride * (p.repeatTimes - 1) + 1) * NF * 512;
    __cube::check_operand(src, sp, src_need, api, "src");
    uint64_t dst_need = ((uint64_t)(p.repeatTimes - 1) * (p.dstGap + 1) + (uint64_t)(NF - 1) * (p.dstFracGap + 1) + 1) * 512;
    __cube::check_operand(dst, dp, dst_need, api, "dst");
    const uint8_t *s0 = (const uint8_t *)src.addr_;
    __arc::race(__arc::RP_MTE1, 0, s0 + (uint64_t)p.startIndex * NF * 512, src_need - (uint64_t)p.startIndex * NF * 512,
                api);
    bool gaps = (p.repeatTimes > 1 && p.dstGap) || (NF > 1 && p.dstFracGap);
    __arc::race(__arc::RP_MTE1, gaps ? 1 | ARC_RACE_SPARSE : 1, dst.addr_, dst_need, api);
    uint32_t f0 = __cube::frac_of(dst.addr_, dp, 512);
    for (uint32_t i = 0; i < p.repeatTimes; i++) {
        const uint8_t *s = s0 + ((uint64_t)p.startIndex + (uint64_t)p.srcStride * i) * NF * 512;
        uint8_t *d = (uint8_t *)dst.addr_ + (uint64_t)i * (p.dstGap + 1) * 512;
        /* Source square: b4/b8/b16 rows of S elements contiguous (NZ, NF
         * fractals one after the other); b32 two 16x8 fractals side by side. */
        E sq[64 * 64];
        for (uint32_t r = 0; r < S; r++)
            for (uint32_t c = 0; c < S; c++)
                sq[r * S + c] = __cube::elem_raw<T, E>(s, sizeof(T) == 4 ? (c / 8) * F + r * 8 + c % 8 : r * S + c);
        /* The transposed square t[r][c] = sq[c][r] in output fractals: b4/b8
         * rows of 16 (16 x S each), b16 the one fractal, b32 columns 0-7 and
         * 8-15 (16 x 8 each). */
        for (uint32_t r = 0; r < S; r++)
            for (uint32_t c = 0; c < S; c++) {
                uint32_t frac = sizeof(T) == 4 ? c / 8 : r / 16;
                uint32_t off = sizeof(T) == 4 ? r * 8 + c % 8 : (r % 16) * S + c;
                __cube::elem_put<T, E>(d, (uint64_t)frac * (p.dstFracGap + 1) * F + off, sq[c * S + r]);
            }
        for (uint32_t j = 0; j < NF; j++)
            __arc::frac_mark(__cube::l0_bits(dp), f0 + i * (p.dstGap + 1) + j * (p.dstFracGap + 1), 1);
    }
}

/* ---- LoadData 3D (img2col): source NC1HWC0 in L1 ([C1][H][W][C0]);
 * the im2col matrix has rows m = output pixel (oh * OW + ow) and columns
 * k = ((c1 * Kh + kh) * Kw + kw) * C0 + c0; the window
 * [mStartPt, +mExtension) x [kStartPt, +kExtension) goes to L0A as ZZ
 * (transposed: ZN-like) or to L0B as ZN. ---- */
namespace __cube {
/* The Feature Map register: l1H, l1W (15 bits each, [1, 32767]) at bits 0
 * and 16, padList at 32..63, bit 15 when set. */
constexpr uint64_t FMATRIX_SET = 1ull << 15;
inline uint64_t fmatrix_word(uint16_t l1H, uint16_t l1W, const uint8_t padList[PAD_SIZE])
{
    ARC_CHECK(l1H <= 32767 && l1W <= 32767, "AscendC::SetFmatrix", "l1H %u / l1W %u: at most 32767", (unsigned)l1H,
              (unsigned)l1W);
    uint64_t r = FMATRIX_SET | l1H | (uint64_t)l1W << 16;
    for (uint32_t i = 0; i < PAD_SIZE; i++) r |= (uint64_t)padList[i] << (32 + 8 * i);
    return r;
}
/* The 3D load's Feature Map and Pad registers: a load with isSetFMatrix /
 * isSetPadding writes its params' l1H, l1W, padList / padValue there, one
 * without reads them (SetFmatrix / SetLoadDataPaddingValue set them too). */
template <typename T>
inline LoadData3DParamsV2<T> load3d_registers(const LoadData3DParamsV2<T> &in, bool set_fm, bool set_pad,
                                              const char *api)
{
    __arc::CubeMeta *m = __arc::cube_meta();
    LoadData3DParamsV2<T> p = in;
    const uint64_t set = 1ull << 63;
    if (set_fm) {
        m->fmatrix = fmatrix_word(p.l1H, p.l1W, p.padList);
    } else {
        ARC_CHECK(m->fmatrix & FMATRIX_SET, api, "isSetFMatrix is false but no SetFmatrix (or earlier load) set the "
                                                 "Feature Map register");
        p.l1H = (uint16_t)(m->fmatrix & 0x7fff);
        p.l1W = (uint16_t)((m->fmatrix >> 16) & 0x7fff);
        for (uint32_t i = 0; i < PAD_SIZE; i++) p.padList[i] = (uint8_t)(m->fmatrix >> (32 + 8 * i));
    }
    static_assert(sizeof(T) <= 4, "padValue of at most 32 bits");
    if (set_pad) {
        uint32_t b = 0;
        __builtin_memcpy(&b, &p.padValue, sizeof(T));
        m->pad_value = set | b;
    } else if (m->pad_value & set) {
        uint32_t b = (uint32_t)m->pad_value;
        __builtin_memcpy(&p.padValue, &b, sizeof(T));
    } else {
        ARC_CHECK(!(p.padList[0] | p.padList[1] | p.padList[2] | p.padList[3]), api,
                  "isSetPadding is false but no SetLoadDataPaddingValue (or earlier load) set the Pad register, "
                  "and the Feature Map is padded");
    }
    return p;
}
} // namespace __cube

namespace __cube {
/* The img2col window [mStartPt, +mExtension) x [kStartPt, +kExtension) of
 * NC1HWC0 src into dst, window element (mm, kk) at element at(mm, kk) of
 * dst (its layout: LoadData 3D's, LoadDataWithStride's); pad outside. */
template <typename T, typename At>
inline void load3d_into(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData3DParamsV2<T> &p, At at,
                        const char *what, const char *api)
{
    constexpr uint32_t C0 = c0_of<T>();
    TPosition sp = where(src), dp = where(dst);
    uint32_t kw = p.filterW + (p.filterSizeW ? 256u : 0u), kh = p.filterH + (p.filterSizeH ? 256u : 0u);
    uint32_t dw = p.dilationFilterW ? p.dilationFilterW : 1, dh = p.dilationFilterH ? p.dilationFilterH : 1;
    uint32_t sw = p.strideW ? p.strideW : 1, sh = p.strideH ? p.strideH : 1;
    int64_t ow_n = ((int64_t)p.l1W + p.padList[0] + p.padList[1] - (int64_t)dw * (kw - 1) - 1) / sw + 1;
    ARC_CHECK(ow_n > 0, api, "the filter (%u x %u, dilation %u) is wider than the padded input (W %u)", kh, kw, dw,
              (unsigned)p.l1W);
    uint32_t c1n = p.channelSize / C0;
    uint64_t src_bytes = (uint64_t)c1n * p.l1H * p.l1W * C0 * sizeof(T);
    check_operand(src, sp, src_bytes, api, "src (NC1HWC0 in L1)");
    const uint64_t dst_bytes = (at(p.mExtension - 1, p.kExtension - 1) + 1) * sizeof(T);
    check_operand(dst, dp, dst_bytes, api, what);
    /* SetLoadDataBoundary: reads at or past L1 byte `wrap` come from L1's start */
    const uint64_t wrap = __arc::cube_meta()->l1_boundary;
    const unsigned char *l1 = __detail::arena_of(sp).base;
    const uint64_t at0 = (uint64_t)((const unsigned char *)src.addr_ - l1);
    ARC_CHECK(!wrap || at0 < wrap, api, "src starts at L1 byte %llu, not inside the boundary of %llu bytes "
              "(SetLoadDataBoundary)", (unsigned long long)at0, (unsigned long long)wrap);
    __arc::race(__arc::RP_MTE1, 0, wrap ? l1 : (const unsigned char *)src.addr_, wrap ? wrap : src_bytes, api);
    __arc::race(__arc::RP_MTE1, 1, dst.addr_, dst_bytes, api);
    for (uint32_t mm = 0; mm < p.mExtension; mm++) {
        uint32_t m = p.mStartPt + mm;
        int64_t oh = m / ow_n, ow = m % ow_n;
        for (uint32_t kk = 0; kk < p.kExtension; kk++) {
            uint32_t k = p.kStartPt + kk;
            uint32_t c0 = k % C0, t = k / C0;
            uint32_t x = t % kw, y = (t / kw) % kh, c1 = t / (kw * kh);
            int64_t ih = oh * sh + (int64_t)y * dh - p.padList[2], iw = ow * sw + (int64_t)x * dw - p.padList[0];
            T v = p.padValue;
            if (c1 < c1n && ih >= 0 && ih < p.l1H && iw >= 0 && iw < p.l1W) {
                uint64_t e = (((uint64_t)c1 * p.l1H + ih) * p.l1W + iw) * C0 + c0;
                if (wrap) __builtin_memcpy(&v, l1 + (at0 + e * sizeof(T)) % wrap, sizeof(T));
                else v = src.addr_[e];
            }
            dst.addr_[at(mm, kk)] = v;
        }
    }
    __arc::frac_mark(l0_bits(dp), frac_of(dst.addr_, dp, 512), (uint32_t)((dst_bytes + 511) / 512));
}
} // namespace __cube

template <typename T, const IsResetLoad3dConfig &cfg = IS_RESER_LOAD3D_DEFAULT_CONFIG>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData3DParamsV2<T> &params)
{
    __arc_uses(ARC_USES_CUBE);
    const char *api = "AscendC::LoadData(LoadData3DParamsV2)";
    const LoadData3DParamsV2<T> p = __cube::load3d_registers(params, cfg.isSetFMatrix, cfg.isSetPadding, api);
    constexpr uint32_t C0 = __cube::c0_of<T>();
    if (p.l1H == 0 || p.l1W == 0 || p.channelSize == 0 || p.kExtension == 0 || p.mExtension == 0) return;
    TPosition sp = __cube::where(src), dp = __cube::where(dst);
    ARC_CHECK(__cube::is_l1(sp), api, "src is a %s tensor; the 3D load reads L1", __cube::pos_str(src.pos_));
    ARC_CHECK(dp == TPosition::A2 || dp == TPosition::B2, api, "dst is a %s tensor; the 3D load writes A2 or B2",
              __cube::pos_str(dst.pos_));
    ARC_CHECK(!p.fMatrixCtrl, api, "fMatrixCtrl must be false on dav-2201");
    ARC_CHECK(p.kExtension % C0 == 0 && p.mExtension % 16 == 0, api,
              "kExtension %u must be a multiple of C0 = %u and mExtension %u a multiple of 16",
              (unsigned)p.kExtension, C0, (unsigned)p.mExtension);
    ARC_CHECK(p.channelSize % C0 == 0, api, "channelSize %u must be a multiple of C0 = %u",
              (unsigned)p.channelSize, C0);
    /* Where window element (mm, kk) of the img2col matrix X (mExtension x
     * kExtension) lands, as load_data_l12l0's load3d.py model has it: to
     * L0A, ZZ fractals of 16 x C0 (X as A); to L0B (always transposed), ZN
     * fractals of 16 kk x C0 mm (X as B, K = mm: kk padded to 16, the pad not
     * written); to L0A transposed, the same fractals in ZZ order (X^T as A). */
    const uint32_t K1 = p.kExtension / C0, N16 = (p.kExtension + 15) / 16;
    const uint32_t MC = p.mExtension / C0;
    const int mode = dp == TPosition::B2 ? 1 : p.enTranspose ? 2 : 0;
    ARC_CHECK(mode == 1 || __NPU_ARCH__ != 3510, api,
              "the 3D load into L0A on dav-3510 (where L0A holds Nz fractals) is not simulated yet");
    auto at = [&](uint64_t mm, uint64_t kk) -> uint64_t {
        if (mode == 0) return ((mm / 16) * K1 + kk / C0) * 16 * C0 + (mm % 16) * C0 + kk % C0;
        const uint64_t frac = mode == 1 ? (mm / C0) * N16 + kk / 16 : (kk / 16) * MC + mm / C0;
        return frac * 16 * C0 + (kk % 16) * C0 + mm % C0;
    };
    ARC_CHECK(mode == 0 || sizeof(T) == 2 || sizeof(T) == 4, api,
              "the transposing 3D load (to L0B, or enTranspose to L0A) takes b16/b32 elements, not %u-byte ones",
              (unsigned)sizeof(T));
    __cube::load3d_into(dst, src, p, at,
                        mode == 1 && p.kExtension % 16 ? "dst (in L0B each C0 rows of mExtension take kExtension "
                                                         "rounded up to 16 columns)"
                                                       : "dst",
                        api);
}

template <typename T> inline void SetLoadDataPaddingValue(T v)
{
    static_assert(sizeof(T) <= 4, "a padding value of at most 32 bits");
    uint32_t b = 0;
    __builtin_memcpy(&b, &v, sizeof(T));
    __arc::cube_meta()->pad_value = (1ull << 63) | b;
}
inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[PAD_SIZE], const FmatrixMode &mode)
{
    ARC_CHECK(mode == FmatrixMode::FMATRIX_LEFT, "AscendC::SetFmatrix",
              "only FMATRIX_LEFT is supported on this arch (both matrices use it)");
    __arc::cube_meta()->fmatrix = __cube::fmatrix_word(l1H, l1W, padList);
}
/* The Feature Map register for the packed-window load (FMATRIX_LEFT). */
inline void Load3DSetFMatrixCal(uint16_t l1H, uint16_t l1W, const uint8_t padList[4])
{
    SetFmatrix(l1H, l1W, padList, FmatrixMode::FMATRIX_LEFT);
}

} // namespace AscendC

#endif /* ARC_CUBE_LOAD_H_ */
