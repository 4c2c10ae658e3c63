/* reduce_whole.c - WholeReduceSum/Max/Min and RepeatReduceSum on float,
 * compiled once here instead of inlined into every kernel that reduces
 * (~700 IR instructions each, most of the softmax example's optimiser and
 * codegen time).  Same checks, messages, race-check/cost report (the src
 * operand through __arc_check_l0), lane order and pairwise summation tree as
 * arc/reduce.h's whole<T>, so results are bit-identical. */
#include <stdint.h>
#include <string.h>

#include "rt/rt_internal.h"

enum { RED_SUM = 0, RED_MAX, RED_MIN };              /* arc/reduce.h RedOp */
enum { ORD_VALUE_INDEX = 0, ORD_INDEX_VALUE, ORD_ONLY_VALUE, ORD_ONLY_INDEX }; /* ReduceOrder */

/* arc/reduce.h tree<float>: pairwise, in place, in float (n >= 1).  Built
 * for AVX2 where the host has it (the kernel's own copy was vectorised for
 * the host CPU); the additions are the same either way (no contraction). */
#define TREE_BODY                                                                 \
    while (n > 1) {                                                               \
        uint32_t h = n / 2;                                                       \
        for (uint32_t i = 0; i < h; i++) v[i] = v[2 * i] + v[2 * i + 1];          \
        if (n & 1) v[h] = v[n - 1];                                               \
        n = h + (n & 1);                                                          \
    }                                                                             \
    return v[0];
__attribute__((target("avx2"), optimize("tree-vectorize", "vect-cost-model=dynamic"))) static float
tree_avx2(float *v, uint32_t n)
{
    TREE_BODY
}
__attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic"))) static float tree_base(float *v, uint32_t n)
{
    TREE_BODY
}
static int g_avx2 = -1;
static float tree(float *v, uint32_t n)
{
    if (g_avx2 < 0) g_avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
    return g_avx2 ? tree_avx2(v, n) : tree_base(v, n);
}

/* arc/reduce.h record_acc: GetAccVal / GetReduceMaxMinCount. */
static void record_acc(arc_core *c, double v, uint32_t idx)
{
    memcpy(&c->dev[ARC_ACC_VAL_SLOT], &v, sizeof v);
    c->dev[ARC_ACC_IDX_SLOT] = idx;
}

static uint64_t off(const arc_opnd *o, uint32_t r, uint32_t l)
{
    return ((uint64_t)r * o->rep + (uint64_t)(l / o->epb) * o->blk) * o->epb + l % o->epb;
}

/* Lanes 0..k-1 and nothing else (k may be 0). */
static int prefix_lanes(uint64_t lo, uint64_t hi)
{
    if (hi) return lo == ~0ull && (hi & (hi + 1)) == 0;
    return (lo & (lo + 1)) == 0;
}

void __arc_whole_f32(float *dst, unsigned dst_bytes, const float *src, unsigned src_bytes, const arc_plan *p,
                     int dstRepStride, int srcBlkStride, int srcRepStride, int op, int order, const char *api)
{
    arc_core *c = __arc_core();
    const arc_opnd os = {32u / (unsigned)sizeof(float), (unsigned)srcBlkStride, (unsigned)srcRepStride};
    __arc_check_l0(src, src_bytes, p, &os, (unsigned)sizeof(float), api, "src");
    int pair = op != RED_SUM && (order == ORD_VALUE_INDEX || order == ORD_INDEX_VALUE);
    uint32_t per = pair ? 2 : 1;
    if (p->repeat && !(((uint64_t)(p->repeat - 1) * dstRepStride * per + per) * sizeof(float) <= dst_bytes))
        __arc_trap(api, "dst: %u repeats with dstRepStride %d need %llu elements, the tensor has %u", p->repeat,
                   dstRepStride, (unsigned long long)((p->repeat - 1) * (uint64_t)dstRepStride * per + per),
                   dst_bytes / (unsigned)sizeof(float));
    /* Each repeat's active lanes 0..k-1 with adjacent blocks: one contiguous
     * run, read straight (the same elements in the same order). */
    const int run = srcBlkStride == 1 && (p->counter || prefix_lanes(p->lo, p->hi));
    const uint32_t run_k = p->counter ? 0 : (uint32_t)(__builtin_popcountll(p->lo) + __builtin_popcountll(p->hi));
    for (uint32_t r = 0; r < p->repeat; r++) {
        float v[256];
        uint32_t li[256];
        uint32_t k = 0;
        uint64_t cnt = p->L;
        if (p->counter) {
            uint64_t left = p->count - (uint64_t)r * p->L;
            cnt = left > p->L ? p->L : left;
        }
        if (run) {
            k = p->counter ? (uint32_t)cnt : run_k;
            memcpy(v, src + off(&os, r, 0), (size_t)k * sizeof(float)); /* lane i is v[i] */
        } else if (p->counter) {
            for (uint32_t l = 0; l < cnt; l++) { li[k] = l; v[k++] = src[off(&os, r, l)]; }
        } else {
            for (uint64_t m = p->lo; m; m &= m - 1) {
                uint32_t l = (uint32_t)__builtin_ctzll(m);
                li[k] = l; v[k++] = src[off(&os, r, l)];
            }
            for (uint64_t m = p->hi; m; m &= m - 1) {
                uint32_t l = 64u + (uint32_t)__builtin_ctzll(m);
                li[k] = l; v[k++] = src[off(&os, r, l)];
            }
        }
        if (k == 0) continue;
        float *d = dst + (uint64_t)r * dstRepStride * per;
        if (op == RED_SUM) {
            d[0] = tree(v, k);
            record_acc(c, (double)d[0], 0);
            continue;
        }
        uint32_t bi = 0;
        for (uint32_t i = 1; i < k; i++)
            if (op == RED_MAX ? v[i] > v[bi] : v[i] < v[bi]) bi = i;
        uint32_t b = run ? bi : li[bi];
        record_acc(c, (double)v[bi], b);
        switch (order) {
        case ORD_VALUE_INDEX: d[0] = v[bi]; memcpy(&d[1], &b, 4); break;
        case ORD_INDEX_VALUE: memcpy(&d[0], &b, 4); d[1] = v[bi]; break;
        case ORD_ONLY_VALUE: d[0] = v[bi]; break;
        default: memcpy(d, &b, 4);
        }
    }
}
