/* soc.c - the simulated SoCs, one per --npu-arch.  Sizes are CANN's
 * documented figures (docs/simulated_npu.md lists them); where no official
 * figure exists the simulator's choice is marked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rt_internal.h"

#define KiB ((size_t)1024)
#define GiB ((int64_t)1 << 30)

static const sim_arch archs[] = {
    {
        .arch = "dav-2201", .soc = "Ascend910B1", .num = 2201,
        .cube_cores = 24, .vector_cores = 48, .aicpu_cores = 6,
        .ub_size = 192 * KiB, .l1_size = 512 * KiB,
        .l0a_size = 64 * KiB, .l0b_size = 64 * KiB, .l0c_size = 128 * KiB,
        .hbm_bytes = 64 * GiB, .l2_bytes = 192 * (int64_t)1024 * 1024,
        .ubuf_attr = 0, .warp_size = 0, .max_threads_per_vector_core = 0,
    },
    {
        /* Ascend950PR: UB/L1/L0 sizes from the 3510 architecture page.  The
         * core counts (32 AIC / 64 AIV), HBM, L2 and SIMT figures are the
         * simulator's choice: no official per-SKU table was found. */
        .arch = "dav-3510", .soc = "Ascend950PR", .num = 3510,
        .cube_cores = 32, .vector_cores = 64, .aicpu_cores = 6,
        .ub_size = 256 * KiB, .l1_size = 512 * KiB,
        .l0a_size = 64 * KiB, .l0b_size = 64 * KiB, .l0c_size = 256 * KiB,
        .hbm_bytes = 128 * GiB, .l2_bytes = 128 * (int64_t)1024 * 1024,
        .ubuf_attr = 256 * 1024, .warp_size = 32, .max_threads_per_vector_core = 2048,
    },
};
#define NARCH (sizeof archs / sizeof archs[0])

const sim_arch *sim_arch_find(const char *arch)
{
    for (size_t i = 0; arch && i < NARCH; i++)
        if (strcmp(archs[i].arch, arch) == 0 || strcmp(archs[i].soc, arch) == 0)
            return &archs[i];
    return NULL;
}

const sim_arch *sim_arch_device(void)
{
    /* Read each time: cheap, and tests may switch it between processes. */
    const char *e = getenv("ASCENDRTC_SIM_SOC");
    const sim_arch *a = sim_arch_find(e);
    if (!a && e && *e) {
        static _Atomic(const char *) warned;
        if (atomic_exchange(&warned, e) != e) /* once per value */
            fprintf(stderr, "ascendrtc: warning: ASCENDRTC_SIM_SOC=%s names no simulated SoC (accepted: Ascend910B1 "
                            "or dav-2201, Ascend950PR or dav-3510); simulating Ascend910B1\n", e);
    }
    return a ? a : &archs[0];
}

const char *sim_arch_names(void)
{
    return "dav-2201, dav-3510";
}

size_t sim_arch_max_ub(void)
{
    size_t m = 0;
    for (size_t i = 0; i < NARCH; i++)
        m = archs[i].ub_size > m ? archs[i].ub_size : m;
    return m;
}

size_t sim_arch_max_l1(void)
{
    size_t m = 0;
    for (size_t i = 0; i < NARCH; i++)
        m = archs[i].l1_size > m ? archs[i].l1_size : m;
    return m;
}

unsigned sim_arch_max_cores(void)
{
    unsigned m = 0;
    for (size_t i = 0; i < NARCH; i++)
        m = archs[i].vector_cores > m ? archs[i].vector_cores : m;
    return m;
}

long long ascendrtc_ub_size(void)
{
    return (long long)sim_arch_device()->ub_size;
}
