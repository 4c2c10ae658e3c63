/* soc.c - the simulated SoCs: common/socs.h's rows, each SoC with its
 * architecture's per-core memories, as the runtime reads them. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/exports.h"
#include "common/socs.h"
#include "rt/rt_internal.h"

#define KiB ((size_t)1024)

static const struct arch_row {
    const char *arch, *soc;
    unsigned num;
    size_t ub, l1, l0a, l0b, l0c;
    int64_t warp, threads;
} archs[] = {
#define ARCH_ROW(a, n, ub, l1, l0a, l0b, l0c, bt, vl, warp, thr, soc) \
    {a, soc, n, (ub) * KiB, (l1) * KiB, (l0a) * KiB, (l0b) * KiB, (l0c) * KiB, warp, thr},
    ARC_ARCHS(ARCH_ROW)
#undef ARCH_ROW
};
#define NARCH (sizeof archs / sizeof archs[0])

static const struct soc_row {
    const char *soc;
    unsigned num, aic, aiv, aicpu, mhz;
    int64_t l2_mib, hbm_gib;
} soc_rows[] = {
#define SOC_ROW(name, n, short, aic, aiv, aicpu, mhz, l2, hbm, gm, l2bw) {name, n, aic, aiv, aicpu, mhz, l2, hbm},
    ARC_SOCS(SOC_ROW)
#undef SOC_ROW
};
#define NSOC (sizeof soc_rows / sizeof soc_rows[0])

/* Each SoC with its arch's facts, built once. */
static sim_arch socs[NSOC];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char names[128]; /* "dav-2201, dav-3510" */

static void build(void)
{
    for (size_t j = 0; j < NARCH; j++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", j ? ", " : "", archs[j].arch);
    for (size_t i = 0; i < NSOC; i++) {
        const struct soc_row *s = &soc_rows[i];
        const struct arch_row *a = NULL;
        for (size_t j = 0; j < NARCH && !a; j++)
            a = archs[j].num == s->num ? &archs[j] : NULL;
        if (!a)
            abort(); /* a row naming an arch that has none: tests/test_socs.py catches it first */
        socs[i] = (sim_arch){
            .arch = a->arch, .soc = s->soc, .num = a->num,
            .cube_cores = s->aic, .vector_cores = s->aiv, .aicpu_cores = s->aicpu, .mhz = s->mhz,
            .ub_size = a->ub, .l1_size = a->l1, .l0a_size = a->l0a, .l0b_size = a->l0b, .l0c_size = a->l0c,
            .hbm_bytes = s->hbm_gib << 30, .l2_bytes = s->l2_mib << 20,
            /* ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE exists where SIMT does */
            .ubuf_attr = a->warp ? (int64_t)a->ub : 0,
            .warp_size = a->warp, .max_threads_per_vector_core = a->threads,
        };
    }
}

static const sim_arch *find_soc(const char *name)
{
    pthread_once(&once, build);
    for (size_t i = 0; name && i < NSOC; i++)
        if (!strcmp(socs[i].soc, name))
            return &socs[i];
    return NULL;
}

const sim_arch *sim_arch_find(const char *arch)
{
    for (size_t i = 0; arch && i < NARCH; i++)
        if (!strcmp(archs[i].arch, arch))
            return find_soc(archs[i].soc);
    return find_soc(arch);
}

/* A single-source program's own SoC (ascendrtc_program_soc), else NULL. */
static _Atomic(const sim_arch *) program_soc;

void ascendrtc_program_soc(const char *soc_or_arch)
{
    const sim_arch *a = sim_arch_find(soc_or_arch);
    if (a)
        atomic_store(&program_soc, a);
}

const sim_arch *sim_arch_device(void)
{
    /* Read each time: cheap, and tests may switch it between processes. */
    const char *e = getenv("ASCENDRTC_SIM_SOC");
    const sim_arch *a = sim_arch_find(e);
    if (!a && (!e || !*e) && (a = atomic_load(&program_soc)))
        return a;
    if (!a && e && *e) {
        static _Atomic(const char *) warned;
        if (atomic_exchange(&warned, e) != e) /* once per value */
            fprintf(stderr, "ascendrtc: warning: ASCENDRTC_SIM_SOC=%s names no simulated SoC (accepted: Ascend910B1..B4, "
                            "Ascend910_9391/9392, Ascend950PR_9599 and the other Ascend950PR_*/Ascend950DT_* of "
                            "_C.SOCS, or an --npu-arch: dav-2201, dav-3510); simulating Ascend910B1\n", e);
    }
    return a ? a : find_soc(archs[0].soc);
}

const char *sim_arch_names(void)
{
    pthread_once(&once, build);
    return names;
}

size_t sim_arch_max(size_t field)
{
    pthread_once(&once, build);
    size_t m = 0;
    for (size_t i = 0; i < NSOC; i++) {
        size_t v = *(const size_t *)((const char *)&socs[i] + field);
        m = v > m ? v : m;
    }
    return m;
}

long long ascendrtc_ub_size(void)
{
    return (long long)sim_arch_device()->ub_size;
}
