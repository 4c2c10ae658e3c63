/* arc_matmul_tiling.h - one Matmul tiling computation, in C (header only)
 * so the Python extension (ascendrtc.matmul_tiling) and the op-project host
 * API (matmul_tiling::MultiCoreMatmulTiling, matmul_tiling.h) share it.
 *
 * Fills the TCubeTiling fields (ARC_TCUBE_TILING_FIELDS order, see
 * kernel_tiling/kernel_tiling.h) for C = A (M x Ka) x B (Kb x N) [+ bias]
 * split over `cores` blocks, under the dav-2201 limits ("Cube unit" in csrc/device/README.md):
 * baseM, baseN multiples of 16, baseK of 32 bytes; base blocks within L0A,
 * L0B and L0C (common/socs.h) with their double buffers; the bias row
 * within the 1 KB BiasTable; L1 blocks within L1 less 256 bytes.  Returns 0, or -1 with
 * a message in err. */
#ifndef ARC_MATMUL_TILING_CORE_H_
#define ARC_MATMUL_TILING_CORE_H_

#include <stdint.h>
#include <stdio.h>

#include "common/socs.h"

#define ARC_TCUBE_NFIELDS 50

/* Field indices (the order of ARC_TCUBE_TILING_FIELDS). */
enum {
    ARC_TC_usedCoreNum, ARC_TC_M, ARC_TC_N, ARC_TC_Ka, ARC_TC_Kb, ARC_TC_singleCoreM, ARC_TC_singleCoreN,
    ARC_TC_singleCoreK, ARC_TC_baseM, ARC_TC_baseN, ARC_TC_baseK, ARC_TC_depthA1, ARC_TC_depthB1, ARC_TC_stepM,
    ARC_TC_stepN, ARC_TC_isBias, ARC_TC_transLength, ARC_TC_iterateOrder, ARC_TC_shareMode, ARC_TC_shareL1Size,
    ARC_TC_shareL0CSize, ARC_TC_shareUbSize, ARC_TC_batchM, ARC_TC_batchN, ARC_TC_singleBatchM,
    ARC_TC_singleBatchN, ARC_TC_stepKa, ARC_TC_stepKb, ARC_TC_depthAL1CacheUB, ARC_TC_depthBL1CacheUB,
    ARC_TC_dbL0A, ARC_TC_dbL0B, ARC_TC_dbL0C, ARC_TC_ALayoutInfoB = 33, ARC_TC_BatchNum = 48
};

typedef struct arc_mm_tiling_in {
    int64_t M, N, Ka, Kb;       /* original shapes */
    int64_t singleM, singleN, singleK; /* -1: choose (multi-core split) */
    int64_t baseM, baseN, baseK;       /* -1: choose */
    int32_t in_size;            /* bytes of an A/B element: 1, 2 or 4 */
    int32_t out_size;           /* bytes of a C element */
    int32_t bias_size;          /* bytes of a bias element, 0 = no bias */
    int32_t cores;              /* blocks the kernel's GetBlockIdx spans; 0: the single-core
                                   API (MatmulApiTiling), whose kernels walk the blocks of
                                   the original shape themselves, so no core limit */
    int64_t l1_size, l0a_size, l0b_size, l0c_size, bt_size; /* <= 0: dav-2201 sizes */
} arc_mm_tiling_in;

static inline int64_t arc_mm_ceil(int64_t a, int64_t b) { return (a + b - 1) / b; }
static inline int64_t arc_mm_align(int64_t a, int64_t b) { return arc_mm_ceil(a, b) * b; }

/* Compute the tiling into out[ARC_TCUBE_NFIELDS]. */
static inline int arc_matmul_tiling(const arc_mm_tiling_in *in, int32_t *out, char *err, size_t errlen)
{
    const arc_arch_row *d = arc_arch_info(2201); /* the defaults: dav-2201's (common/socs.h) */
    int64_t l1 = in->l1_size > 0 ? in->l1_size : (int64_t)d->l1 - 256;
    int64_t l0a = in->l0a_size > 0 ? in->l0a_size : (int64_t)d->l0a, l0b = in->l0b_size > 0 ? in->l0b_size : (int64_t)d->l0b;
    int64_t l0c = in->l0c_size > 0 ? in->l0c_size : (int64_t)d->l0c, bt = in->bt_size > 0 ? in->bt_size : 1024;
    int64_t M = in->M, N = in->N, Ka = in->Ka, Kb = in->Kb > 0 ? in->Kb : in->Ka;
    int es = in->in_size;
    for (int i = 0; i < ARC_TCUBE_NFIELDS; i++)
        out[i] = 0;
    if (M <= 0 || N <= 0 || Ka <= 0) {
        snprintf(err, errlen, "shape M=%lld N=%lld K=%lld: every dimension must be positive", (long long)M,
                 (long long)N, (long long)Ka);
        return -1;
    }
    /* Ka and Kb may differ: they are the row lengths (strides) of A and of a
     * transposed B in GM; the computed K is singleCoreK. */
    if (es != 1 && es != 2 && es != 4) {
        snprintf(err, errlen, "A/B element size %d: 1 (int8), 2 (half, bf16) or 4 (float) bytes", es);
        return -1;
    }
    if (in->cores < 0) {
        snprintf(err, errlen, "cores=%d must not be negative", in->cores);
        return -1;
    }
    /* Multi-core split: the (mc, nc) grid with the smallest per-core block
     * (whole blocks preferred; then the fewest cores, then the most M blocks: CANN's tiling splits
     * M first, which kernels that offset only A and C by the block index
     * rely on, e.g. asc-devkit's matmul_advanced_api); blocks rounded to 16
     * rows/columns. */
    int64_t sM = in->singleM, sN = in->singleN, sK = in->singleK > 0 ? in->singleK : Ka;
    if (sM <= 0 || sN <= 0) {
        int64_t best = -1, bm = M, bn = N;
        const int64_t cores = in->cores > 0 ? in->cores : 1;
        for (int64_t mc = 1; mc <= cores; mc++)
          for (int64_t nc = cores / mc; nc >= 1; nc--) {
            int64_t cm = sM > 0 ? sM : (M <= 16 ? M : arc_mm_align(arc_mm_ceil(M, mc), 16));
            int64_t cn = sN > 0 ? sN : (N <= 16 ? N : arc_mm_align(arc_mm_ceil(N, nc), 16));
            if (cm > M) cm = M;
            if (cn > N) cn = N;
            int64_t used = arc_mm_ceil(M, cm) * arc_mm_ceil(N, cn);
            if (used > cores) continue;
            /* cost: the block's MACs plus its A and B loads; a grid with a
             * tail block costs half again (kernels such as asc-devkit's
             * matmul_nbuffer33 and matmul_async_iterate offset whole blocks
             * without SetTail, so CANN's split leaves none for their shapes) */
            int64_t cost = (cm * cn + (cm + cn) * 8) * (M % cm || N % cn ? 3 : 2);
            if (best < 0 || cost < best || (cost == best && cm * cn * used <= bm * bn * arc_mm_ceil(M, bm) * arc_mm_ceil(N, bn))) {
                best = cost;
                bm = cm;
                bn = cn;
            }
          }
        sM = bm;
        sN = bn;
    }
    int64_t used = arc_mm_ceil(M, sM) * arc_mm_ceil(N, sN);
    if (in->cores > 0 && used > in->cores) {
        snprintf(err, errlen, "singleCoreM=%lld x singleCoreN=%lld needs %lld cores, %d given", (long long)sM,
                 (long long)sN, (long long)used, in->cores);
        return -1;
    }
    /* Base block: the recommended (128, 256, 128 bytes of K), shrunk to the
     * core's block and to the L0 buffers. */
    int64_t c0 = 32 / es;
    int64_t baseM = in->baseM > 0 ? in->baseM : (arc_mm_align(sM, 16) < 128 ? arc_mm_align(sM, 16) : 128);
    int64_t baseN = in->baseN > 0 ? in->baseN : (arc_mm_align(sN, 16) < 256 ? arc_mm_align(sN, 16) : 256);
    int64_t baseK = in->baseK > 0 ? in->baseK : (arc_mm_align(sK, c0) < 128 / es ? arc_mm_align(sK, c0) : 128 / es);
    if (in->bias_size > 0)
        while (baseN * in->bias_size > bt && baseN > 16) baseN -= 16;
    int dbA = 2, dbB = 2, dbC = 2;
    while (baseM * baseK * es * dbA > l0a && (dbA > 1 || baseM > 16)) {
        if (dbA > 1) dbA = 1; else baseM -= 16;
    }
    while (baseN * baseK * es * dbB > l0b && (dbB > 1 || baseN > 16)) {
        if (dbB > 1) dbB = 1; else baseN -= 16;
    }
    while (baseM * baseN * 4 * dbC > l0c && (dbC > 1 || baseN > 16)) {
        if (dbC > 1) dbC = 1; else baseN -= 16;
    }
    if (baseM % 16 || baseN % 16 || (baseK * es) % 32) {
        snprintf(err, errlen, "baseM=%lld and baseN=%lld must be multiples of 16, baseK=%lld of %lld elements",
                 (long long)baseM, (long long)baseN, (long long)baseK, (long long)c0);
        return -1;
    }
    if (baseM * baseK * es * dbA > l0a || baseN * baseK * es * dbB > l0b || baseM * baseN * 4 * dbC > l0c) {
        snprintf(err, errlen, "base block %lld x %lld x %lld does not fit L0A/L0B (%lld bytes) and L0C (%lld bytes)",
                 (long long)baseM, (long long)baseN, (long long)baseK, (long long)l0a, (long long)l0c);
        return -1;
    }
    /* L1: stepKa/stepKb base blocks along K, double-buffered. */
    int64_t kIter = arc_mm_ceil(sK, baseK), stepK = kIter < 4 ? kIter : 4;
    int64_t biasL1 = in->bias_size > 0 ? baseN * in->bias_size : 0;
    while (stepK > 1 && (2 * stepK * (baseM + baseN) * baseK * es + biasL1) > l1) stepK--;
    int64_t depth = stepK * (kIter > stepK ? 2 : 1);
    if (depth * (baseM + baseN) * baseK * es + biasL1 > l1) {
        snprintf(err, errlen, "the L1 blocks (%lld bytes) exceed L1 (%lld bytes)",
                 (long long)(depth * (baseM + baseN) * baseK * es + biasL1), (long long)l1);
        return -1;
    }
    out[ARC_TC_usedCoreNum] = (int32_t)used;
    out[ARC_TC_M] = (int32_t)M;
    out[ARC_TC_N] = (int32_t)N;
    out[ARC_TC_Ka] = (int32_t)Ka;
    out[ARC_TC_Kb] = (int32_t)Kb;
    out[ARC_TC_singleCoreM] = (int32_t)sM;
    out[ARC_TC_singleCoreN] = (int32_t)sN;
    out[ARC_TC_singleCoreK] = (int32_t)sK;
    out[ARC_TC_baseM] = (int32_t)baseM;
    out[ARC_TC_baseN] = (int32_t)baseN;
    out[ARC_TC_baseK] = (int32_t)baseK;
    out[ARC_TC_depthA1] = (int32_t)depth;
    out[ARC_TC_depthB1] = (int32_t)depth;
    out[ARC_TC_stepM] = 1;
    out[ARC_TC_stepN] = 1;
    out[ARC_TC_isBias] = in->bias_size > 0;
    out[ARC_TC_transLength] = (int32_t)(baseM * baseN * in->out_size);
    out[ARC_TC_iterateOrder] = 0;
    out[ARC_TC_shareL1Size] = (int32_t)(depth * (baseM + baseN) * baseK * es + biasL1);
    out[ARC_TC_shareL0CSize] = (int32_t)(baseM * baseN * 4 * dbC);
    out[ARC_TC_batchM] = out[ARC_TC_batchN] = out[ARC_TC_singleBatchM] = out[ARC_TC_singleBatchN] = 1;
    out[ARC_TC_stepKa] = out[ARC_TC_stepKb] = (int32_t)stepK;
    out[ARC_TC_dbL0A] = dbA;
    out[ARC_TC_dbL0B] = dbB;
    out[ARC_TC_dbL0C] = dbC;
    return 0;
}

#endif /* ARC_MATMUL_TILING_CORE_H_ */
