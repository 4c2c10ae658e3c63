/* cost_rates.c - the published figures the cost model (cost.c) prices
 * operations with; docs/performance_model.md lists each with its source:
 * [cfg] CANN's platform config files, [doc] Huawei's Ascend C
 * documentation, [meas] the measured single-core tables shipped with
 * msKPP, [assumed] the simulator's choice where nothing is published. */
#include <math.h>
#include <string.h>

#include "common/socs.h"
#include "rt/rt_internal.h"

/* Chip level: core counts, clock, L2 size and the HBM and L2 bandwidths
 * shared by all cores, of common/socs.h's rows (the figures' sources are
 * there). */
static const sim_cost_soc socs[] = {
#define COST_SOC(name, n, short, aic, aiv, aicpu, mhz, l2, hbm, gm_gbps, l2_gbps) \
    {name, aic, aiv, mhz, (gm_gbps) * 1e9, (l2_gbps) * 1e9, (l2) * 1024.0 * 1024.0},
    ARC_SOCS(COST_SOC)
#undef COST_SOC
};

const sim_cost_soc *sim_cost_soc_find(const char *name)
{
    for (size_t i = 0; name && i < sizeof socs / sizeof socs[0]; i++)
        if (!strcmp(socs[i].name, name))
            return &socs[i];
    return NULL;
}

const sim_cost_soc *sim_cost_soc_names(size_t *n)
{
    *n = sizeof socs / sizeof socs[0];
    return socs;
}

/* Vector cycles per 256-byte repeat at steady state [meas], by Ascend C API
 * (the A2 instruction each maps to in parentheses). */
typedef struct vrate {
    const char *api; /* without "AscendC::" */
    float half, other; /* cycles per repeat for 2-byte elements, and for the rest */
} vrate;

static const vrate vrates[] = {
    /* 1 cycle: vabs vadds vmaxs vmins vrelu vlrelu vrec vrsqrt vnot vshl/vshr
     * vector_dup vcopy vbrcb vconv vcpadd vcmpvs; UB->UB copies measure
     * 263 B/cycle, one repeat per cycle */
    {"Abs", 1, 1}, {"Adds", 1, 1}, {"Maxs", 1, 1}, {"Mins", 1, 1}, {"Muls", 1, 1}, {"Relu", 1, 1},
    {"LeakyRelu", 1, 1}, {"Reciprocal", 1, 1}, {"Rsqrt", 1, 1}, {"Not", 1, 1}, {"ShiftLeft", 1, 1},
    {"ShiftRight", 1, 1}, {"Duplicate", 1, 1}, {"Copy", 1, 1}, {"Brcb", 1, 1}, {"Cast", 1, 1},
    {"CastDeq", 1, 1}, {"PairReduceSum", 1, 1}, {"CompareScalar", 1, 1}, {"DataCopy", 1, 1},
    /* BlockReduce (vcgadd/vcgmax): 1 for fp32, 7 for fp16 */
    {"BlockReduceSum", 7, 1}, {"BlockReduceMax", 7, 1}, {"BlockReduceMin", 7, 1},
    /* 2 cycles: vadd vsub vmul vmax vmin vand vor vaddrelu vsubrelu vaxpy vsel vcmp */
    {"Add", 2, 2}, {"Sub", 2, 2}, {"Mul", 2, 2}, {"Max", 2, 2}, {"Min", 2, 2}, {"And", 2, 2}, {"Or", 2, 2},
    {"AddRelu", 2, 2}, {"SubRelu", 2, 2}, {"Axpy", 2, 2}, {"Select", 2, 2}, {"Compare", 2, 2},
    /* vexp/vln/vsqrt: about 4 for fp16, 2 for fp32 (the same per element) */
    {"Exp", 4, 2}, {"Ln", 4, 2}, {"Log", 4, 2}, {"Sqrt", 4, 2},
    /* vdiv: about 4 for both */
    {"Div", 4, 4},
    /* vcadd: 7 for fp16, 3 for fp32; vcmax/vcmin: 7 */
    {"WholeReduceSum", 7, 3}, {"ReduceSum", 7, 3}, {"RepeatReduceSum", 7, 3},
    {"WholeReduceMax", 7, 7}, {"WholeReduceMin", 7, 7}, {"ReduceMax", 7, 7}, {"ReduceMin", 7, 7},
    /* vmla/vmadd/vmaddrelu: 5-6 */
    {"MulAddDst", 5.5f, 5.5f}, {"FusedMulAdd", 5.5f, 5.5f}, {"FusedMulAddRelu", 5.5f, 5.5f},
    /* vgather: about 24 for u16, 12 for u32; vreducev2 14; vmrgsort about 16 */
    {"Gather", 24, 12}, {"GatherMask", 14, 14}, {"MrgSort", 16, 16},
};

double sim_cost_vec_cpr(const char *api, unsigned esize, int *assumed)
{
    if (api && !strncmp(api, "AscendC::", 9))
        api += 9;
    for (size_t i = 0; api && i < sizeof vrates / sizeof vrates[0]; i++)
        if (!strcmp(vrates[i].api, api)) {
            *assumed = 0;
            return esize == 2 ? vrates[i].half : vrates[i].other;
        }
    *assumed = 1; /* [assumed] the common binary rate */
    return 2.0;
}

/* One core's DMA throughput by bytes per instruction [meas] (GiB/s, the
 * KPP 910B1 tables): GM->UB, UB->GM, GM->L1.  Between two points the rate
 * is interpolated in log2(bytes); below the first the time stays that of
 * the first (fixed cost dominates); above the last it is the plateau. */
typedef struct dpt {
    double bytes, gibs;
} dpt;
static const dpt gm_ub[] = {{1024, 7.3}, {16384, 68}, {40960, 78}};
static const dpt ub_gm[] = {{1024, 11}, {16384, 87}, {30720, 110}};
static const dpt gm_l1[] = {{1024, 9.9}, {16384, 93}, {65536, 176}, {204800, 265}};
static const dpt gm_l0[] = {{1024, 12.6}, {16384, 176}, {65536, 229}}; /* plateau ~229; where it starts: [assumed] 64 KB */
static const dpt l0c_gm[] = {{1024, 21}, {16384, 203}};                /* Fixpipe; plateau ~200 */

static double curve_seconds(const dpt *c, size_t n, double bytes)
{
    if (bytes <= c[0].bytes)
        return c[0].bytes / (c[0].gibs * 1073741824.0);
    double g = c[n - 1].gibs;
    for (size_t i = 0; i + 1 < n; i++)
        if (bytes < c[i + 1].bytes) {
            double f = (log2(bytes) - log2(c[i].bytes)) / (log2(c[i + 1].bytes) - log2(c[i].bytes));
            g = c[i].gibs + f * (c[i + 1].gibs - c[i].gibs);
            break;
        }
    return bytes / (g * 1073741824.0);
}

double sim_cost_dma_seconds(int path, double bytes)
{
    switch (path) {
    case SIM_COST_GM_UB: return curve_seconds(gm_ub, 3, bytes);
    case SIM_COST_UB_GM: return curve_seconds(ub_gm, 3, bytes);
    case SIM_COST_GM_L1: return curve_seconds(gm_l1, 4, bytes);
    case SIM_COST_GM_L0: return curve_seconds(gm_l0, 3, bytes);
    default: return curve_seconds(l0c_gm, 2, bytes);
    }
}
