/* capi_cube.h - the SIMD C API's cube data moves and matrix multiply on
 * dav-3510 (c_api/asc_simd.h): GM/UB -> L1, the MTE2_NZ_PARA register and
 * the ND/DN -> NZ moves, L1 -> L0A/L0B (2D, transposed), L1 -> Fixpipe
 * buffer / BiasTable, asc_mmad, L0C -> GM with the FPC registers
 * (nz2nd, the quant words' address, the scalar quant word), the MX scale
 * moves and asc_mmad_mx (arc/mmad_mx.h), asc_fill_l1/l0a/l0b.  Each is the
 * C++ API's operation on raw `__cbuf__`/`__ca__`/`__cb__`/`__cc__`/
 * `__fbuf__` pointers (a pointer must lie in its memory: the rtc places
 * the static arrays there, rtc/simd_ub.cpp), so the C++ checks, fractal
 * bookkeeping and race check apply; the parameters are converted from the
 * C API's units (each API's dav-3510 page).  What the pages leave open is
 * refused by name: the pad modes and multi-burst strides of
 * asc_copy_gm2l1, smallc0, the post-quant stage and the other L0C -> GM
 * extras, a ReLU vector, BiasTable conversion. */
#ifndef ARC_CAPI_CUBE_H_
#define ARC_CAPI_CUBE_H_

#include "arc/capi.h"
#include "arc/cube_950.h"
#include "arc/cube_dn2nz.h"
#include "arc/mmad.h"
#include "arc/mmad_mx.h"
#include "arc/cube_fill.h"

#if __NPU_ARCH__ == 3510
/* asc_copy_l0c2gm's quant_post stage: only NoConv is simulated (the
 * numbers of the others are not documented). */
enum class QuantMode_post : uint64_t { NoConv = 0 };

namespace __arc {
namespace capi_cube {
using AscendC::TPosition;
/* A tensor of pos's memory at p, as long as the memory's rest. */
template <class T> inline AscendC::LocalTensor<T> at(const void *p, TPosition pos, const char *api, const char *what)
{
    AscendC::__detail::Arena a = AscendC::__detail::arena_of(pos);
    const uint8_t *b = (const uint8_t *)p;
    ARC_CHECK(b >= a.base && b < a.base + a.size, api, "%s %p is not in the %s (an array or pointer of that memory)",
              what, p, a.name);
    return AscendC::LocalTensor<T>((T *)(void *)b, (uint32_t)(a.base + a.size - b), pos);
}
template <class T> inline AscendC::GlobalTensor<T> gm(const void *p)
{
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer((T *)(void *)p);
    return g;
}
template <class T> inline uint16_t elems16(uint64_t bytes, const char *api, const char *what)
{
    ARC_CHECK(bytes % sizeof(T) == 0 && bytes / sizeof(T) <= 65535, api,
              "%s %llu bytes is not a whole number of %s elements at most 65535", what, (unsigned long long)bytes,
              __arc::tname<T>());
    return (uint16_t)(bytes / sizeof(T));
}
/* MTE2_NZ_PARA (asc_set_gm2l1_nz_para): [15:0] matrices, [31:16] N stride,
 * [47:32] C0 stride (32-byte units), [63:48] matrix stride (32-byte units). */
inline uint64_t nz_para(const char *api)
{
    CubeMeta *m = cube_meta();
    ARC_CHECK(m->nz_set, api, "MTE2_NZ_PARA was never set: call asc_set_gm2l1_nz_para first");
    return m->nz_para;
}
template <class P, class T> inline void nz_dst(P &p, const char *api)
{
    uint64_t r = nz_para(api);
    uint64_t mat = (r >> 48) * 32 / sizeof(T);
    ARC_CHECK(mat <= 65535, api, "the NZ matrix stride %llu elements exceeds 65535", (unsigned long long)mat);
    p.dstNzNStride = (uint16_t)(r >> 16);
    p.dstNzC0Stride = (uint16_t)(r >> 32);
    p.dstNzMatrixStride = (uint16_t)mat;
}
/* The 2D L1 -> L0 load (LoadData2DParamsV2: the same units). */
template <class T>
inline void load2d(T *dst, T *src, TPosition dp, uint16_t m0, uint16_t k0, uint8_t ms, uint8_t ks, int16_t ss,
                   uint16_t ds, bool tr, const char *api)
{
    AscendC::LoadData2DParamsV2 p;
    p.mStartPosition = m0;
    p.kStartPosition = k0;
    p.mStep = ms;
    p.kStep = ks;
    p.srcStride = ss;
    p.dstStride = ds;
    p.ifTranspose = tr;
    AscendC::LoadData(at<T>(dst, dp, api, "dst"), at<T>(src, TPosition::A1, api, "src"), p);
}
/* n bursts of len bytes, the gaps (tail to head) in bytes, from L1 to the
 * Fixpipe buffer or the BiasTable (pipe FIX / MTE1). */
inline void l1_to(void *dst, const void *src, TPosition dp, uint32_t n, uint64_t len, uint64_t sgap, uint64_t dgap,
                  int pipe, const char *api)
{
    if (n == 0 || len == 0) return;
    AscendC::LocalTensor<uint8_t> d = at<uint8_t>(dst, dp, api, "dst"), s = at<uint8_t>(src, TPosition::A1, api, "src");
    uint64_t sb = (uint64_t)(n - 1) * (len + sgap) + len, db = (uint64_t)(n - 1) * (len + dgap) + len;
    AscendC::__cube::check_operand(s, TPosition::A1, sb, api, "src (L1)");
    AscendC::__cube::check_operand(d, dp, db, api, "dst");
    __arc::race(pipe, 0, s.addr_, sb, api);
    __arc::race(pipe, n > 1 && dgap ? 1 | ARC_RACE_SPARSE : 1, d.addr_, db, api);
    for (uint32_t b = 0; b < n; b++)
        __builtin_memcpy(d.addr_ + b * (len + dgap), s.addr_ + b * (len + sgap), len);
    if (dp == TPosition::C2) { /* the BiasTable's written 64-byte units, which Mmad's bias read checks */
        uint32_t f = (uint32_t)(d.addr_ - AscendC::__detail::arena_of(TPosition::C2).base);
        for (uint32_t b = 0; b < n; b++)
            for (uint64_t i = (f + b * (len + dgap)) / 64; i < (f + b * (len + dgap) + len + 63) / 64 && i < 64; i++)
                cube_meta()->bt |= 1ull << i;
    }
}
} // namespace capi_cube
} // namespace __arc

/* ---- GM / UB -> L1 ---- */
/* The 32-byte-unit form with no padding (pad_func_mode 0) and one burst:
 * the page does not give the unit of src_stride / dst_stride. */
inline void asc_copy_gm2l1(__cbuf__ void *dst, __gm__ void *src, uint32_t n_burst, uint32_t len_burst,
                           uint8_t pad_func_mode, uint64_t src_stride, uint32_t dst_stride)
{
    const char *api = "asc_copy_gm2l1";
    (void)src_stride; (void)dst_stride;
    ARC_CHECK(pad_func_mode == 0, api, "pad_func_mode %u: the padding modes are not simulated yet", pad_func_mode);
    ARC_CHECK(n_burst <= 1 && len_burst <= 65535, api,
              "n_burst %u: more than one burst is not simulated (the unit of src_stride/dst_stride is not documented); "
              "len_burst %u at most 65535", n_burst, len_burst);
    if (n_burst == 0 || len_burst == 0) return;
    AscendC::DataCopy(__arc::capi_cube::at<uint8_t>(dst, AscendC::TPosition::A1, api, "dst"),
                      __arc::capi_cube::gm<uint8_t>(src), AscendC::DataCopyParams(1, (uint16_t)len_burst, 0, 0));
}
inline void asc_copy_gm2l1_sync(__cbuf__ void *dst, __gm__ void *src, uint32_t n_burst, uint32_t len_burst,
                                uint8_t pad_func_mode, uint64_t src_stride, uint32_t dst_stride)
{
    asc_copy_gm2l1(dst, src, n_burst, len_burst, pad_func_mode, src_stride, dst_stride);
    __arc::capi::drain(PIPE_MTE2);
}
inline void asc_set_gm2l1_nz_para(uint64_t config)
{
    __arc::CubeMeta *m = __arc::cube_meta();
    m->nz_para = config;
    m->nz_set = 1;
}
/* ND (rows of d_value elements, loop1_src_stride bytes apart) -> NZ by
 * MTE2_NZ_PARA; the matrices loop4_src_stride bytes apart. */
template <class T>
inline void asc_copy_gm2l1_nd2nz(__cbuf__ T *dst, __gm__ T *src, uint64_t loop1_src_stride, uint8_t l2_cache_ctl,
                                 uint16_t n_value, uint32_t d_value, uint64_t loop4_src_stride, bool smallc0_en)
{
    const char *api = "asc_copy_gm2l1_nd2nz";
    (void)l2_cache_ctl;
    ARC_CHECK(!smallc0_en, api, "smallc0_en: the SmallC0 mode is not simulated yet");
    ARC_CHECK(d_value <= 65535, api, "d_value %u exceeds 65535", d_value);
    AscendC::Nd2NzParams p;
    p.ndNum = (uint16_t)__arc::capi_cube::nz_para(api);
    p.nValue = n_value;
    p.dValue = (uint16_t)d_value;
    p.srcDValue = __arc::capi_cube::elems16<T>(loop1_src_stride, api, "loop1_src_stride");
    p.srcNdMatrixStride = __arc::capi_cube::elems16<T>(loop4_src_stride, api, "loop4_src_stride");
    __arc::capi_cube::nz_dst<AscendC::Nd2NzParams, T>(p, api);
    AscendC::DataCopy(__arc::capi_cube::at<T>(dst, AscendC::TPosition::A1, api, "dst"), __arc::capi_cube::gm<T>(src), p);
}
/* DN (d_value rows of n_value elements, loop1_src_stride bytes apart) -> NZ. */
template <class T>
inline void asc_copy_gm2l1_dn2nz(__cbuf__ T *dst, __gm__ T *src, uint64_t loop1_src_stride, uint8_t l2_cache_ctl,
                                 uint16_t n_value, uint32_t d_value, uint64_t loop4_src_stride, bool smallc0_en)
{
    const char *api = "asc_copy_gm2l1_dn2nz";
    (void)l2_cache_ctl;
    ARC_CHECK(!smallc0_en, api, "smallc0_en: the SmallC0 mode is not simulated yet");
    ARC_CHECK(loop1_src_stride % sizeof(T) == 0 && loop4_src_stride % sizeof(T) == 0, api,
              "loop1_src_stride %llu / loop4_src_stride %llu bytes are not whole %s elements",
              (unsigned long long)loop1_src_stride, (unsigned long long)loop4_src_stride, __arc::tname<T>());
    AscendC::Dn2NzParams p;
    p.dnNum = (uint16_t)__arc::capi_cube::nz_para(api);
    p.nValue = n_value;
    p.dValue = d_value;
    p.srcDValue = loop1_src_stride / sizeof(T);
    p.srcDnMatrixStride = loop4_src_stride / sizeof(T);
    __arc::capi_cube::nz_dst<AscendC::Dn2NzParams, T>(p, api);
    AscendC::DataCopy(__arc::capi_cube::at<T>(dst, AscendC::TPosition::A1, api, "dst"), __arc::capi_cube::gm<T>(src), p);
}
/* UB -> L1 (MTE3): size bytes, or bursts of 32-byte blocks with gaps. */
inline void asc_copy_ub2l1(__cbuf__ void *dst, __ubuf__ void *src, uint16_t n_burst, uint16_t len_burst,
                           uint16_t src_gap, uint16_t dst_gap)
{
    const char *api = "asc_copy_ub2l1";
    AscendC::DataCopy(__arc::capi_cube::at<uint8_t>(dst, AscendC::TPosition::A1, api, "dst"),
                      __arc::capi_cube::at<uint8_t>(src, AscendC::TPosition::VECCALC, api, "src"),
                      AscendC::DataCopyParams(n_burst, len_burst, src_gap, dst_gap));
}
inline void asc_copy_ub2l1(__cbuf__ void *dst, __ubuf__ void *src, uint32_t size)
{
    ARC_CHECK(size % 32 == 0 && size / 32 <= 65535, "asc_copy_ub2l1", "size %u is not a whole number of 32-byte "
              "blocks (at most 65535 of them)", size);
    asc_copy_ub2l1(dst, src, 1, (uint16_t)(size / 32), 0, 0);
}

/* ---- L1 -> L0A / L0B ---- */
#define ARC_CAPI_LOAD2D(NAME, POS, TR)                                                                            \
    template <class T>                                                                                            \
    inline void NAME(T *dst, T *src, uint16_t m_start_position, uint16_t k_start_position, uint8_t m_step,        \
                     uint8_t k_step, int16_t src_stride, uint16_t dst_stride)                                     \
    {                                                                                                             \
        __arc::capi_cube::load2d(dst, src, AscendC::TPosition::POS, m_start_position, k_start_position, m_step,  \
                                 k_step, src_stride, dst_stride, TR, #NAME);                                      \
    }
ARC_CAPI_LOAD2D(asc_copy_l12l0a, A2, false)
ARC_CAPI_LOAD2D(asc_copy_l12l0a_transpose, A2, true)
ARC_CAPI_LOAD2D(asc_copy_l12l0b, B2, false)
ARC_CAPI_LOAD2D(asc_copy_l12l0b_transpose, B2, true)
#undef ARC_CAPI_LOAD2D
/* The fractal-square transpose into L0B (LoadDataWithTranspose); the
 * source fractals of a square are adjacent (src_frac_gap 0). */
template <class T>
inline void asc_copy_l12l0b_trans(__cb__ T *dst, __cbuf__ T *src, uint16_t index_id, uint8_t repeat, uint16_t src_stride,
                                  uint16_t dst_gap, uint16_t dst_frac_gap, uint16_t src_frac_gap)
{
    const char *api = "asc_copy_l12l0b_trans";
    ARC_CHECK(src_frac_gap == 0 || sizeof(T) == 2, api, "src_frac_gap %u: a gap between a square's source fractals is "
              "not simulated yet", src_frac_gap);
    AscendC::LoadDataWithTranspose(__arc::capi_cube::at<T>(dst, AscendC::TPosition::B2, api, "dst"),
                                   __arc::capi_cube::at<T>(src, AscendC::TPosition::A1, api, "src"),
                                   AscendC::LoadData2dTransposeParams(index_id, repeat, src_stride, dst_gap, dst_frac_gap));
}

/* ---- Mmad: c (m x n) = a (m x k) b (k x n) [+ c or the BiasTable row] ---- */
template <class TC, class TA, class TB>
inline void asc_mmad(__cc__ TC *c_matrix, __ca__ TA *a_matrix, __cb__ TB *b_matrix, uint16_t left_height,
                     uint16_t n_dim, uint16_t right_width, uint8_t unit_flag, bool disable_gemv, bool c_matrix_source,
                     bool c_matrix_init_val)
{
    const char *api = "asc_mmad";
    ARC_CHECK(left_height != 1 || !disable_gemv, api, "left_height 1 with disable_gemv: the non-GEMV m = 1 product is "
              "not simulated yet");
    AscendC::MmadParams p(left_height, right_width, n_dim, unit_flag, c_matrix_source, c_matrix_init_val);
    AscendC::Mmad(__arc::capi_cube::at<TC>(c_matrix, AscendC::TPosition::CO1, api, "c_matrix"),
                  __arc::capi_cube::at<TA>(a_matrix, AscendC::TPosition::A2, api, "a_matrix"),
                  __arc::capi_cube::at<TB>(b_matrix, AscendC::TPosition::B2, api, "b_matrix"), p);
}

/* ---- L1 -> Fixpipe buffer / BiasTable ---- */
/* Bursts of 64 bytes; the source gap in 32-byte blocks, the destination's in 64 bytes. */
inline void asc_copy_l12fb(__fbuf__ void *dst, __cbuf__ void *src, uint16_t n_burst, uint16_t len_burst,
                           uint16_t src_gap_size, uint16_t dst_gap_size)
{
    __arc::capi_cube::l1_to(dst, src, AscendC::TPosition::C2PIPE2GM, n_burst, len_burst * 64ull, src_gap_size * 32ull,
                            dst_gap_size * 64ull, __arc::RP_FIX, "asc_copy_l12fb");
}
inline void asc_copy_l12fb(__fbuf__ void *dst, __cbuf__ void *src, uint32_t size)
{
    __arc::capi_cube::l1_to(dst, src, AscendC::TPosition::C2PIPE2GM, 1, size, 0, 0, __arc::RP_FIX, "asc_copy_l12fb");
}
/* dst: the BiasTable byte address; bursts and gaps in 32-byte blocks, no conversion. */
inline void asc_copy_l12bt(uint64_t dst, __cbuf__ void *src, uint16_t conv_control, uint16_t n_burst,
                           uint16_t len_burst, uint16_t source_gap, uint16_t dst_gap)
{
    const char *api = "asc_copy_l12bt";
    ARC_CHECK(conv_control == 0, api, "conv_control %u: the conversion on the way is not simulated yet", conv_control);
    ARC_CHECK(dst < arc_bt_size_of(__NPU_ARCH__), api, "dst %llu is beyond the %u-byte BiasTable", (unsigned long long)dst,
              arc_bt_size_of(__NPU_ARCH__));
    __arc::capi_cube::l1_to(AscendC::__detail::arena_of(AscendC::TPosition::C2).base + dst, src, AscendC::TPosition::C2,
                            n_burst, len_burst * 32ull, source_gap * 32ull, dst_gap * 32ull, __arc::RP_MTE1, api);
}
inline void asc_copy_l12bt(uint64_t dst, __cbuf__ void *src, uint32_t size)
{
    ARC_CHECK(size % 32 == 0 && size / 32 <= 65535, "asc_copy_l12bt", "size %u is not a whole number of 32-byte blocks",
              size);
    asc_copy_l12bt(dst, src, 0, 1, (uint16_t)(size / 32), 0, 0);
}

/* ---- L0C -> GM ---- */
inline void asc_set_l0c2gm_nz2nd(uint64_t nd_num, uint64_t src_nd_stride, uint64_t dst_nd_stride)
{
    const char *api = "asc_set_l0c2gm_nz2nd";
    ARC_CHECK(nd_num >= 1 && nd_num <= 65535 && dst_nd_stride <= 65535, api,
              "nd_num %llu (1..65535) or dst_nd_stride %llu (at most 65535 here) out of range",
              (unsigned long long)nd_num, (unsigned long long)dst_nd_stride);
    ARC_CHECK(nd_num == 1 || src_nd_stride == 0, api, "nd_num %llu with src_nd_stride %llu: the page gives its unit both as "
              "fractals and as 32 bytes, so more than one matrix is refused", (unsigned long long)nd_num,
              (unsigned long long)src_nd_stride);
    AscendC::SetFixpipeNz2ndFlag((uint16_t)nd_num, 0, (uint16_t)dst_nd_stride);
}
/* quant_pre: the per-column quant words' Fixpipe-buffer address in 128-byte units. */
inline void asc_set_l0c2gm_config(uint64_t relu_pre, uint64_t quant_pre, bool enable_unit_flag)
{
    const char *api = "asc_set_l0c2gm_config";
    (void)enable_unit_flag;
    ARC_CHECK(relu_pre == 0, api, "relu_pre: a per-column ReLU vector is not simulated yet");
    AscendC::__detail::Arena fb = AscendC::__detail::arena_of(AscendC::TPosition::C2PIPE2GM);
    uint64_t b = quant_pre * 128, base = (uint64_t)(uintptr_t)fb.base;
    uint64_t off = b >= base && b < base + fb.size ? b - base : b; /* a static __fbuf__ array's address, or an offset */
    ARC_CHECK(off < fb.size, api, "quant_pre %llu (x 128 bytes) is not in the Fixpipe buffer", (unsigned long long)quant_pre);
    __arc::cube_meta()->fb_quant = quant_pre ? off + 1 : 0;
}
inline void asc_set_l0c_copy_prequant(uint64_t config) { AscendC::SetFixpipePreQuantFlag(config); }
template <class D, class S>
inline void asc_copy_l0c2gm(__gm__ D *dst_addr, __cc__ S *src_addr, uint16_t n_size, uint16_t m_size,
                            uint32_t loop_dst_stride, uint16_t loop_src_stride, uint8_t l2_cache_ctl,
                            uint8_t clip_relu_pre, uint8_t unit_flag_ctl, uint64_t quant_pre, uint8_t relu_pre,
                            bool split_en, bool nz2nd_en, uint64_t quant_post, uint8_t relu_post, bool clip_relu_post,
                            uint8_t eltwise_op, bool eltwise_antq_en, bool c0_pad_en, bool broadcast_en, bool nz2dn_en)
{
    const char *api = "asc_copy_l0c2gm";
    (void)l2_cache_ctl;
    ARC_CHECK(!clip_relu_pre && quant_post == (uint64_t)QuantMode_post::NoConv && !relu_post && !clip_relu_post && !eltwise_op &&
                  !eltwise_antq_en && !c0_pad_en && !broadcast_en && !nz2dn_en,
              api, "not simulated yet: clip_relu_pre %u, quant_post %llu, relu_post %u, clip_relu_post %d, eltwise_op %u, "
              "eltwise_antq_en %d, c0_pad_en %d, broadcast_en %d, nz2dn_en %d (each must be 0)", clip_relu_pre,
              (unsigned long long)quant_post, relu_post, clip_relu_post, eltwise_op, eltwise_antq_en, c0_pad_en,
              broadcast_en, nz2dn_en);
    ARC_CHECK(nz2nd_en || loop_dst_stride * sizeof(D) % 32 == 0, api,
              "NZ loop_dst_stride %u elements is not a whole number of 32-byte blocks", loop_dst_stride);
    AscendC::DataCopyCO12DstParams q;
    q.nSize = n_size;
    q.mSize = m_size;
    q.dstStride = nz2nd_en ? loop_dst_stride : loop_dst_stride * (uint32_t)sizeof(D) / 32;
    q.srcStride = loop_src_stride;
    q.unitFlag = unit_flag_ctl;
    q.quantPre = (QuantMode_t)quant_pre;
    q.reluPre = relu_pre != 0;
    q.channelSplit = split_en;
    q.nz2ndEn = nz2nd_en;
    ARC_CHECK(!nz2nd_en || __arc::cube_meta()->nd2nd[0], api, "nz2nd_en without asc_set_l0c2gm_nz2nd");
    AscendC::DataCopy(__arc::capi_cube::gm<D>(dst_addr), __arc::capi_cube::at<S>(src_addr, AscendC::TPosition::CO1, api,
                                                                                 "src_addr"), q);
}

/* ---- MX (arc/mmad_mx.h) ---- */
namespace __arc {
namespace capi_cube {
/* The scale buffer offset of an L0A_MX/L0B_MX address: an L0A/L0B pointer
 * / 16 (what the examples pass: (uintptr_t)l0 / 16), or an offset. */
inline uint32_t mx_dst(uint64_t v, TPosition p, const char *api)
{
    AscendC::__detail::Arena a = AscendC::__detail::arena_of(p);
    uint64_t b = v * 16, base = (uint64_t)(uintptr_t)a.base;
    uint64_t off = b >= base && b < base + a.size ? (b - base) / 16 : v;
    ARC_CHECK(off < ARC_MX_SIZE, api, "dst %llu is neither an %s address / 16 nor inside the 4 KB scale buffer",
              (unsigned long long)v, a.name);
    return (uint32_t)off;
}
inline void mx_load(uint64_t dst, TPosition p, __cbuf__ fp8_e8m0_t *src, uint16_t x0, uint16_t y0, uint8_t xs,
                    uint8_t ys, uint16_t ss, uint16_t ds, const char *api)
{
    AscendC::LocalTensor<uint8_t> s = at<uint8_t>(src, TPosition::A1, api, "src");
    __arc::mx::load_scales(p, mx_dst(dst, p, api), s.addr_, s.bytes_, x0, y0, xs, ys, ss, ds, api);
}
/* asc_fill_*: the value's own bits when it has dst's type, else only 0 (the
 * pages do not say how a half fills an int32_t). */
template <class T, class V>
inline void fill(T *dst, V value, uint64_t config, TPosition p, const char *api)
{
    T v{};
    if constexpr (__arc::is_same<T, V>::value) v = value;
    else ARC_CHECK(value == V(0), api, "a %s value into %s: only 0 is simulated", __arc::tname<V>(), __arc::tname<T>());
    AscendC::InitConstValueParams<T> q((uint16_t)(config & 0x7fff), (uint16_t)(config >> 16 & 0x7fff),
                                       (uint16_t)(config >> 32 & 0x7fff), v);
    AscendC::Fill(at<T>(dst, p, api, "dst"), q);
}
} // namespace capi_cube
} // namespace __arc

inline void asc_copy_l12l0a_mx(uint64_t dst, __cbuf__ fp8_e8m0_t *src, uint16_t x_start_pos, uint16_t y_start_pos,
                               uint8_t x_step, uint8_t y_step, uint16_t src_stride, uint16_t dst_stride)
{
    __arc::capi_cube::mx_load(dst, AscendC::TPosition::A2, src, x_start_pos, y_start_pos, x_step, y_step, src_stride,
                              dst_stride, "asc_copy_l12l0a_mx");
}
inline void asc_copy_l12l0b_mx(uint64_t dst, __cbuf__ fp8_e8m0_t *src, uint16_t x_start_pos, uint16_t y_start_pos,
                               uint8_t x_step, uint8_t y_step, uint16_t src_stride, uint16_t dst_stride)
{
    __arc::capi_cube::mx_load(dst, AscendC::TPosition::B2, src, x_start_pos, y_start_pos, x_step, y_step, src_stride,
                              dst_stride, "asc_copy_l12l0b_mx");
}
template <class TA, class TB>
inline void asc_mmad_mx(__cc__ float *c_matrix, __ca__ TA *a_matrix, __cb__ TB *b_matrix, uint16_t left_height,
                        uint16_t n_dim, uint16_t right_width, uint8_t unit_flag, bool disable_gemv,
                        bool c_matrix_source, bool c_matrix_init_val)
{
    const char *api = "asc_mmad_mx";
    ARC_CHECK(left_height != 1 || disable_gemv, api, "left_height 1 with disable_gemv false: the GEMV read of L0A "
              "is not simulated for MX yet");
    AscendC::MmadParams p(left_height, right_width, n_dim, unit_flag, c_matrix_source, c_matrix_init_val);
    AscendC::MmadMx(__arc::capi_cube::at<float>(c_matrix, AscendC::TPosition::CO1, api, "c_matrix"),
                    __arc::capi_cube::at<TA>(a_matrix, AscendC::TPosition::A2, api, "a_matrix"),
                    __arc::capi_cube::at<TB>(b_matrix, AscendC::TPosition::B2, api, "b_matrix"), p);
}

/* asc_fill_value_config (its page): repeat [14:0], blk_num [30:16], dst_gap [46:32]. */
constexpr uint64_t ASC_FILL_VALUE_DEFAULT_VALUE = 0;
union asc_fill_value_config {
    uint64_t config = ASC_FILL_VALUE_DEFAULT_VALUE;
    struct {
        uint64_t repeat : 15;
        uint64_t reserved1 : 1;
        uint64_t blk_num : 15;
        uint64_t reserved2 : 1;
        uint64_t dst_gap : 15;
        uint64_t reserved3 : 17;
    };
};
template <class T, class V> inline void asc_fill_l1(__cbuf__ T *dst, V value, const asc_fill_value_config &config)
{
    __arc::capi_cube::fill(dst, value, config.config, AscendC::TPosition::A1, "asc_fill_l1");
}
template <class T, class V> inline void asc_fill_l0a(__ca__ T *dst, V value, const asc_fill_value_config &config)
{
    __arc::capi_cube::fill(dst, value, config.config, AscendC::TPosition::A2, "asc_fill_l0a");
}
template <class T, class V> inline void asc_fill_l0b(__cb__ T *dst, V value, const asc_fill_value_config &config)
{
    __arc::capi_cube::fill(dst, value, config.config, AscendC::TPosition::B2, "asc_fill_l0b");
}
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_CAPI_CUBE_H_ */
