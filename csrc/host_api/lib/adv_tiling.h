/* adv_tiling.h - host tiling of the advanced API (Pad, UnPad, SoftMax,
 * LayerNorm (both forms), Normalize, RmsNorm, ConfusionTranspose): the scratch sizes (Get*MaxMinTmpSize) and the tiling
 * structs the kernels take, filled in the layout of
 * csrc/device/lib/tiling/adv_tiling_data.h.  Plain C11 (also valid C++), no
 * dependencies, so it serves both the Python extension (csrc/ext/adv_tiling.c)
 * and the op-project host API (adv_tiling_api.h wraps it in CANN's names).
 *
 * Every function returns NULL on success, else a message naming the bad
 * argument.  Shapes are given as dims; "rows" is the product of all dims but
 * the last.  The scratch sizes are ascendrtc's: the simulated kernels need
 * none, so min is what one row's float intermediates take and max what the
 * whole tensor's take (the figures the NPU uses are not public). */
#ifndef ARC_HOST_ADV_TILING_H_
#define ARC_HOST_ADV_TILING_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The structs are the device headers' (one definition): found next to this
 * tree in the repository build, else through a host compile's include path
 * that also holds the device headers. */
#if defined(__has_include)
#if __has_include("../../device/lib/tiling/adv_tiling_data.h")
#include "../../device/lib/tiling/adv_tiling_data.h"
#else
#include "lib/tiling/adv_tiling_data.h"
#endif
#else
#include "../../device/lib/tiling/adv_tiling_data.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Rows and last dim of a shape, checked to fit the 32-bit tiling fields. */
static inline const char *arc_adv_rows_cols(const int64_t *dims, size_t n, uint32_t *rows, uint32_t *cols)
{
    if (n < 1) return "shape has no dimensions";
    uint64_t r = 1;
    for (size_t i = 0; i + 1 < n; i++) {
        if (dims[i] <= 0) return "shape has a dimension <= 0";
        r *= (uint64_t)dims[i];
        if (r > 0xffffffffu) return "shape has more than 2^32 - 1 rows";
    }
    if (dims[n - 1] <= 0) return "shape has a dimension <= 0";
    if ((uint64_t)dims[n - 1] > 0xffffffffu) return "last dimension exceeds 2^32 - 1";
    *rows = (uint32_t)r;
    *cols = (uint32_t)dims[n - 1];
    return NULL;
}

static inline const char *arc_adv_type_size(uint32_t type_size, int allow_one)
{
    if (type_size == 2 || type_size == 4 || (allow_one && type_size == 1)) return NULL;
    return "typeSize must be 2 or 4 (bytes of the element type)";
}

static inline uint32_t arc_adv_align(uint32_t n, uint32_t type_size) /* n elements rounded up to 32 bytes */
{
    uint32_t per = 32u / type_size;
    return (n + per - 1) / per * per;
}

/* Scratch of a row-wise API: min one row of float intermediates (k elements,
 * `bufs` buffers) plus a 32-byte block per buffer, max all rows. */
static inline void arc_adv_row_scratch(uint32_t rows, uint32_t k, uint32_t bufs, uint32_t *max_v, uint32_t *min_v)
{
    uint64_t row = (uint64_t)arc_adv_align(k, 4) * 4u * bufs + 32u * bufs;
    uint64_t all = row * rows;
    *min_v = (uint32_t)(row > 0xffffffffu ? 0xffffffffu : row);
    *max_v = (uint32_t)(all > 0xffffffffu ? 0xffffffffu : all);
}

/* Split `rows` rows of `row_bytes` into passes that fit `buf` bytes. */
static inline void arc_adv_split(uint32_t rows, uint64_t row_bytes, uint32_t buf, uint32_t *per, uint32_t *loops,
                                 uint32_t *tail)
{
    uint64_t p = row_bytes ? buf / row_bytes : rows;
    if (p == 0) p = 1;
    if (p > rows) p = rows;
    *per = (uint32_t)p;
    *loops = p ? (uint32_t)(rows / p) : 0;
    *tail = p ? (uint32_t)(rows % p) : 0;
}

/* ---- Pad / UnPad: 2-D [height, width] ---- */
static inline const char *arc_pad_tmp_size(const int64_t *dims, size_t n, uint32_t type_size, uint32_t *max_v,
                                           uint32_t *min_v)
{
    uint32_t h = 0, w = 0;
    const char *e = arc_adv_type_size(type_size, 0);
    if (e || (e = arc_adv_rows_cols(dims, n, &h, &w))) return e;
    if (n != 2) return "Pad takes a 2-D shape [height, width]";
    uint64_t row = (uint64_t)arc_adv_align(w, type_size) * type_size * 2u;
    *min_v = (uint32_t)row;
    *max_v = (uint32_t)(row * h > 0xffffffffu ? 0xffffffffu : row * h);
    return NULL;
}

static inline const char *arc_pad_tiling(const int64_t *dims, size_t n, const int64_t *ori, size_t ori_n,
                                         uint32_t stack_bytes, uint32_t type_size, PadTiling *t)
{
    uint32_t h = 0, w = 0, oh = 0, ow = 0, mx = 0, mn = 0;
    const char *e = arc_pad_tmp_size(dims, n, type_size, &mx, &mn);
    if (e || (e = arc_adv_rows_cols(ori, ori_n, &oh, &ow))) return e;
    if (ori_n != 2) return "Pad takes a 2-D oriSrcShape [height, width]";
    arc_adv_rows_cols(dims, n, &h, &w);
    if (oh != h) return "oriSrcShape has a different height from srcShape";
    if (ow > w) return "oriSrcShape is wider than srcShape";
    memset(t, 0, sizeof *t);
    t->srcHeight = h;
    t->srcWidth = w;
    t->srcOriWidth = ow;
    t->typeSize = type_size;
    t->widthAligned = arc_adv_align(w, type_size);
    t->tmpBufferSize = stack_bytes;
    arc_adv_split(h, (uint64_t)t->widthAligned * type_size * 2u, stack_bytes, &t->rowsPerLoop, &t->loopCount,
                  &t->tailRows);
    return NULL;
}

static inline const char *arc_unpad_tmp_size(const int64_t *dims, size_t n, uint32_t type_size, uint32_t *max_v,
                                             uint32_t *min_v)
{
    return arc_pad_tmp_size(dims, n, type_size, max_v, min_v);
}

static inline const char *arc_unpad_tiling(const int64_t *dims, size_t n, uint32_t stack_bytes, uint32_t type_size,
                                           UnPadTiling *t)
{
    uint32_t h = 0, w = 0, mx = 0, mn = 0;
    const char *e = arc_pad_tmp_size(dims, n, type_size, &mx, &mn);
    if (e) return e;
    arc_adv_rows_cols(dims, n, &h, &w);
    memset(t, 0, sizeof *t);
    t->srcHeight = h;
    t->srcWidth = w;
    t->typeSize = type_size;
    t->tmpBufferSize = stack_bytes;
    arc_adv_split(h, (uint64_t)arc_adv_align(w, type_size) * type_size * 2u, stack_bytes, &t->rowsPerLoop,
                  &t->loopCount, &t->tailRows);
    return NULL;
}

/* ---- SoftMax: [.., k] as rows x k ---- */
static inline const char *arc_softmax_tmp_size(const int64_t *dims, size_t n, uint32_t type_size, uint32_t *max_v,
                                               uint32_t *min_v)
{
    uint32_t m = 0, k = 0;
    const char *e = arc_adv_type_size(type_size, 0);
    if (e || (e = arc_adv_rows_cols(dims, n, &m, &k))) return e;
    arc_adv_row_scratch(m, k, 2u, max_v, min_v);
    return NULL;
}

static inline const char *arc_softmax_tiling(const int64_t *dims, size_t n, uint32_t type_size, uint32_t local_ws,
                                             SoftMaxTiling *t)
{
    uint32_t m = 0, k = 0, mx = 0, mn = 0;
    const char *e = arc_softmax_tmp_size(dims, n, type_size, &mx, &mn);
    if (e) return e;
    arc_adv_rows_cols(dims, n, &m, &k);
    if ((uint64_t)k * type_size % 32u) return "the last dimension (srcK) must be 32-byte aligned";
    if (local_ws < mn) return "localWorkSpaceSize is below the minimum scratch (GetSoftMaxMinTmpSize)";
    memset(t, 0, sizeof *t);
    uint32_t split = 0, loops = 0, tail = 0;
    arc_adv_split(m, (uint64_t)mn, local_ws, &split, &loops, &tail);
    t->srcM = m;
    t->srcK = k;
    t->srcSize = m * k;
    t->outMaxM = m;
    t->outMaxK = 32u / type_size;
    t->outMaxSize = m * t->outMaxK;
    t->splitM = split;
    t->splitK = k;
    t->splitSize = split * k;
    t->reduceM = split;
    t->reduceK = 32u / type_size;
    t->reduceSize = split * t->reduceK;
    t->rangeM = loops;
    t->tailM = tail;
    t->tailSplitSize = tail * k;
    t->tailReduceSize = tail * t->reduceK;
    return NULL;
}

/* ---- LayerNorm / RmsNorm: [B, S, H] ---- */
/* [B, S, H], or [B, S, H, originH] as LayerNormGrad's page gives the shape
 * (CANN's layernorm example passes that one to LayerNorm's functions too). */
static inline const char *arc_norm_bsh(const int64_t *dims, size_t n, uint32_t *b, uint32_t *s, uint32_t *h)
{
    if (n != 3 && n != 4) return "the shape must be [B, S, H] or [B, S, H, originH]";
    for (size_t i = 0; i < n; i++)
        if (dims[i] <= 0 || dims[i] > 0xffffffff) return "shape has a dimension <= 0 or >= 2^32";
    if (n == 4 && dims[3] > dims[2]) return "originH (the 4th dimension) exceeds H";
    *b = (uint32_t)dims[0];
    *s = (uint32_t)dims[1];
    *h = (uint32_t)dims[2];
    if ((uint64_t)*b * *s * *h > 0xffffffffu) return "shape has more than 2^32 - 1 elements";
    return NULL;
}

static inline const char *arc_layernorm_tmp_size(const int64_t *dims, size_t n, uint32_t type_size, int reuse_source,
                                                 uint32_t *max_v, uint32_t *min_v)
{
    uint32_t b = 0, s = 0, h = 0;
    const char *e = arc_adv_type_size(type_size, 0);
    if (e || (e = arc_norm_bsh(dims, n, &b, &s, &h))) return e;
    arc_adv_row_scratch(b * s, h, reuse_source ? 2u : 3u, max_v, min_v);
    return NULL;
}

static inline const char *arc_layernorm_tiling(const int64_t *dims, size_t n, uint32_t ori_h, uint32_t stack_bytes,
                                               uint32_t type_size, int reuse_source, LayerNormTiling *t)
{
    uint32_t b = 0, s = 0, h = 0, mx = 0, mn = 0;
    const char *e = arc_layernorm_tmp_size(dims, n, type_size, reuse_source, &mx, &mn);
    if (e) return e;
    arc_norm_bsh(dims, n, &b, &s, &h);
    if ((uint64_t)h * type_size % 32u) return "H must be 32-byte aligned";
    if (ori_h == 0) ori_h = n == 4 ? (uint32_t)dims[3] : h;
    if (ori_h > h) return "originalHLength exceeds H";
    if (stack_bytes < mn) return "stackBufferSize is below the minimum scratch (GetLayerNormMaxMinTmpSize)";
    memset(t, 0, sizeof *t);
    uint32_t per, loops, tail, rows = b * s;
    arc_adv_split(rows, mn, stack_bytes, &per, &loops, &tail);
    t->bLength = b;
    t->sLength = s;
    t->hLength = h;
    t->originalHLength = ori_h;
    t->inputXSize = rows * h;
    t->meanVarSize = rows;
    t->numberOfTmpBuf = reuse_source ? 2u : 3u;
    t->oneTmpSize = per * h;
    t->tmpBufSize = stack_bytes / 4u;
    t->meanTmpTensorPos = 0;
    t->meanTmpTensorSize = arc_adv_align(per, 4);
    t->varianceTmpTensorPos = t->meanTmpTensorSize;
    t->varianceTmpTensorSize = t->meanTmpTensorSize;
    t->firstTmpStartPos = 2u * t->meanTmpTensorSize;
    t->secondTmpStartPos = t->firstTmpStartPos + t->oneTmpSize;
    t->thirdTmpStartPos = t->secondTmpStartPos + t->oneTmpSize;
    t->loopRound = loops;
    t->inputRoundSize = per * h;
    t->inputTailSize = tail * h;
    t->inputTailPos = loops * per * h;
    t->meanVarRoundSize = per;
    t->meanVarTailSize = tail;
    t->meanVarTailPos = loops * per;
    t->bshCurLength = per * h;
    t->bsCurLength = per;
    t->lastDimValueBack = 1.0f / (float)ori_h;
    return NULL;
}

/* ---- LayerNorm with rstd (LayerNormSeparateTiling) and Normalize: [A, R],
 * A the product of all dims but the last.  Scratch as the other row-wise
 * APIs: float intermediates of one row (min) or all rows (max), 2 buffers
 * when the source may be reused, else 3. */
static inline const char *arc_layernorm_sep_tmp_size(const int64_t *dims, size_t n, uint32_t type_size,
                                                     int reuse_source, uint32_t *max_v, uint32_t *min_v)
{
    uint32_t a = 0, r = 0;
    const char *e = arc_adv_type_size(type_size, 0);
    if (e || (e = arc_adv_rows_cols(dims, n, &a, &r))) return e;
    arc_adv_row_scratch(a, r, reuse_source ? 2u : 3u, max_v, min_v);
    return NULL;
}

static inline const char *arc_layernorm_sep_tiling(const int64_t *dims, size_t n, uint32_t stack_bytes,
                                                   uint32_t type_size, int reuse_source, LayerNormSeparateTiling *t)
{
    uint32_t a = 0, r = 0, mx = 0, mn = 0;
    const char *e = arc_layernorm_sep_tmp_size(dims, n, type_size, reuse_source, &mx, &mn);
    if (e) return e;
    arc_adv_rows_cols(dims, n, &a, &r);
    if (stack_bytes < mn) return "stackBufferSize is below the minimum scratch (GetLayerNormMaxMinTmpSize)";
    memset(t, 0, sizeof *t);
    uint32_t head = 1, halves = 0, per, loops, tail, r_pad = arc_adv_align(r, type_size);
    while (head * 2u <= r) head *= 2u;
    for (uint32_t v = head; v > 64u; v /= 2u) halves++; /* 64 floats: one 256-byte repeat */
    arc_adv_split(a, (uint64_t)mn, stack_bytes, &per, &loops, &tail);
    t->aLength = a;
    t->rLength = r;
    t->halfAddRepeatTimes = halves;
    t->rHeadLength = head;
    t->k2Rec = 1.0f / (float)head;
    t->k2RRec = (float)head / (float)r;
    t->inputXSize = a * r_pad;
    t->meanVarSize = a;
    t->numberOfTmpBuf = reuse_source ? 2u : 3u;
    t->varianceTmpTensorPos = 0;
    t->varianceTmpTensorSize = arc_adv_align(per, 4);
    t->tmpBufSize = stack_bytes / 4u;
    t->oneTmpSize = per * r_pad;
    t->firstTmpStartPos = t->varianceTmpTensorSize;
    t->secondTmpStartPos = t->firstTmpStartPos + t->oneTmpSize;
    t->thirdTmpStartPos = t->secondTmpStartPos + t->oneTmpSize;
    t->loopRound = loops;
    t->inputRoundSize = per * r_pad;
    t->inputTailSize = tail * r_pad;
    t->inputTailPos = loops * per * r_pad;
    t->meanVarRoundSize = per;
    t->meanVarTailSize = tail;
    t->meanVarTailPos = loops * per;
    t->arCurLength = per * r_pad;
    t->aCurLength = per;
    t->rValueBack = 1.0f / (float)r;
    return NULL;
}

static inline const char *arc_rmsnorm_tmp_size(const int64_t *dims, size_t n, uint32_t type_size, uint32_t *max_v,
                                               uint32_t *min_v)
{
    uint32_t b = 0, s = 0, h = 0;
    const char *e = arc_adv_type_size(type_size, 0);
    if (e || (e = arc_norm_bsh(dims, n, &b, &s, &h))) return e;
    arc_adv_row_scratch(b * s, h, 2u, max_v, min_v);
    return NULL;
}

static inline const char *arc_rmsnorm_tiling(const int64_t *dims, size_t n, const int64_t *ori, size_t ori_n,
                                             uint32_t stack_bytes, uint32_t type_size, RmsNormTiling *t)
{
    uint32_t b = 0, s = 0, h = 0, ob = 0, os = 0, oh = 0, mx = 0, mn = 0;
    const char *e = arc_rmsnorm_tmp_size(dims, n, type_size, &mx, &mn);
    if (e) return e;
    arc_norm_bsh(dims, n, &b, &s, &h);
    if ((e = arc_norm_bsh(ori, ori_n, &ob, &os, &oh))) return e;
    if (ob != b || os != s || oh > h) return "originSrcShape must be [B, S, H'] with H' <= H of srcShape";
    if ((uint64_t)h * type_size % 32u) return "H must be 32-byte aligned";
    if (stack_bytes < mn) return "stackBufferByteSize is below the minimum scratch (GetRmsNormMaxMinTmpSize)";
    memset(t, 0, sizeof *t);
    uint32_t per, loops, tail, rows = b * s;
    arc_adv_split(rows, mn, stack_bytes, &per, &loops, &tail);
    t->bLength = b;
    t->sLength = s;
    t->hLength = h;
    t->originalHLength = oh;
    t->reciprocalOfHLength = 1.0f / (float)oh;
    t->mainBshLength = per * h;
    t->mainBsLength = per;
    t->mainBsLengthAlign = arc_adv_align(per, 4);
    t->loopRound = loops;
    t->inputTailPos = loops * per * h;
    t->tailBshLength = tail * h;
    t->tailBsLength = tail;
    return NULL;
}

/* ---- ConfusionTranspose: scenario 1..7 (TransposeType), shape [B, N, S, H/N]
 * (scenario 7: [H, W]) ---- */
static inline const char *arc_transpose_bnsd(const int64_t *dims, size_t n, uint32_t kind, uint32_t *bnsd)
{
    if (kind < 1 || kind > 7) return "transposeTypeIn must be 1..7";
    size_t want = kind == 7 ? 2 : 4;
    if (n != want) return kind == 7 ? "scenario 7 takes a 2-D shape [H, W]" : "scenarios 1-6 take a 4-D shape [B, N, S, H/N]";
    uint64_t total = 1;
    for (size_t i = 0; i < n; i++) {
        if (dims[i] <= 0 || dims[i] > 0xffffffff) return "shape has a dimension <= 0 or >= 2^32";
        total *= (uint64_t)dims[i]; /* < 2^64: both factors are below 2^32 */
        if (total > 0xffffffffu) return "shape has more than 2^32 - 1 elements"; /* each step: [2^31, 2^31, 4, 1] wrapped to 0 */
    }
    if (kind == 7) {
        bnsd[0] = bnsd[1] = 1;
        bnsd[2] = (uint32_t)dims[0];
        bnsd[3] = (uint32_t)dims[1];
    } else {
        for (int i = 0; i < 4; i++) bnsd[i] = (uint32_t)dims[i];
    }
    if (bnsd[2] % 16u || bnsd[3] % 16u)
        return kind == 7 ? "H and W must be multiples of 16" : "S and H/N must be multiples of 16 (NZ fractals)";
    if (kind == 2 && bnsd[1] % 16u) return "scenario 2 (NZ2NZ_0213) needs N a multiple of 16";
    return NULL;
}

static inline const char *arc_transpose_tmp_size(const int64_t *dims, size_t n, uint32_t type_size, uint32_t kind,
                                                 uint32_t *max_v, uint32_t *min_v)
{
    uint32_t bnsd[4] = {0, 0, 0, 0};
    const char *e = arc_adv_type_size(type_size, 1);
    if (e || (e = arc_transpose_bnsd(dims, n, kind, bnsd))) return e;
    uint64_t all = (uint64_t)bnsd[0] * bnsd[1] * bnsd[2] * bnsd[3] * type_size;
    *min_v = 2u * 16u * 16u * type_size; /* one fractal in, one out */
    *max_v = (uint32_t)(all > 0xffffffffu ? 0xffffffffu : all < *min_v ? *min_v : all);
    return NULL;
}

static inline const char *arc_transpose_tiling(const int64_t *dims, size_t n, uint32_t stack_bytes, uint32_t type_size,
                                               uint32_t kind, ConfusionTransposeTiling *t)
{
    uint32_t bnsd[4] = {0, 0, 0, 0}, mx = 0, mn = 0;
    const char *e = arc_transpose_tmp_size(dims, n, type_size, kind, &mx, &mn);
    if (e) return e;
    arc_transpose_bnsd(dims, n, kind, bnsd);
    memset(t, 0, sizeof *t);
    t->param0 = kind;
    t->param1 = bnsd[0];
    t->param2 = bnsd[1];
    t->param3 = bnsd[2];
    t->param4 = bnsd[3];
    t->param5 = bnsd[1] * bnsd[3];
    t->param6 = type_size;
    t->param7 = stack_bytes;
    return NULL;
}

#ifdef __cplusplus
}
#endif

#endif /* ARC_HOST_ADV_TILING_H_ */
