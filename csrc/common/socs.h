/* socs.h - the simulated NPU architectures and SoCs: the one table.
 *
 * Everything that knows a SoC fact expands these rows: the runtime
 * (rt/acl/soc.c: aclrtGetSocName, aclrtGetDeviceInfo, the core arenas), the
 * compiler's option parser (rtc/options.c: --npu-arch, --npu-soc), the
 * cost model (rt/analysis/cost_rates.c), the device API (arc/core_abi.h: the L0
 * windows), the host tiling API (Matmul defaults) and Python
 * (_C.ARCHS, _C.SOCS; op projects' PlatformAscendC).  Adding a SoC is
 * one ARC_SOCS row; docs/simulated_npu.md lists the sources.
 *
 * Plain C preprocessor data, no includes: csrc/common is served to the
 * device and host compiles as well (tools/embed_headers.py --also). */
#ifndef ARC_COMMON_SOCS_H_
#define ARC_COMMON_SOCS_H_

/* X(arch, npu_arch, ub_kib, l1_kib, l0a_kib, l0b_kib, l0c_kib, bt_kib,
 *   vl_bytes, warp_size, max_threads, soc)
 * per-core memories of the architecture ("NPU架构版本2201/3510" pages of
 * the Ascend C guide); vl_bytes: the Reg vector register (VL, 0 = no Reg
 * API); warp_size, max_threads: SIMT (0 = no SIMT); soc: the SoC a binary
 * of the arch runs as when the device is another arch (CANN's CMake maps
 * dav-2201 -> Ascend910B1, dav-3510 -> Ascend950PR_9599). */
#define ARC_ARCHS(X)                                                             \
    X("dav-2201", 2201, 192, 512, 64, 64, 128, 1, 0, 0, 0, "Ascend910B1")        \
    X("dav-3510", 3510, 256, 512, 64, 64, 256, 4, 256, 32, 2048, "Ascend950PR_9599")

/* PlatformAscendC::GetLibApiWorkSpaceSize(): the system workspace the
 * advanced APIs reserve, 16 MiB on every simulated SoC (the figure CANN's
 * asc-devkit examples allocate for it and ops-nn's kernel tests mock; its
 * page gives no number).  Nonzero, as on the NPU: programs aclrtMalloc it,
 * and aclrtMalloc refuses 0 bytes.  The simulated APIs keep nothing there
 * (GetUserWorkspace is the workspace's start). */
#define ARC_LIB_API_WORKSPACE (16u << 20)

/* Architectures CANN names that the simulator does not compile for. */
#define ARC_ARCHS_NOT_SIMULATED(X) X("dav-1001") X("dav-2002") X("dav-3002")

/* X(soc, npu_arch, short, aic, aiv, aicpu, mhz, l2_mib, hbm_gib, gm_gbps,
 *   l2_gbps)
 * short: PlatformAscendC's short SoC version (its lower case is the op
 * definition's AddConfig name); aic/aiv: cube and vector cores; mhz: the
 * clock; gm_gbps / l2_gbps: HBM and L2 (hit) bandwidth shared by all cores
 * (GB/s, the cost model).  Figures: the 910B rows' cores, clock and L2 size
 * are CANN's platform configs; 1.6 TB/s HBM and 7 TB/s L2 are the docs'
 * illustrative A2 figures; HBM sizes and every 910_93/950 core count,
 * clock, L2 and bandwidth are the simulator's choice (no per-SKU table is
 * published). */
#define ARC_SOCS(X)                                                                          \
    X("Ascend910B1", 2201, "Ascend910B", 24, 48, 6, 1850, 192, 64, 1600, 7000)                     \
    X("Ascend910B2", 2201, "Ascend910B", 24, 48, 6, 1800, 192, 64, 1600, 7000)                     \
    X("Ascend910B3", 2201, "Ascend910B", 20, 40, 6, 1800, 192, 64, 1600, 7000)                     \
    X("Ascend910B4", 2201, "Ascend910B", 20, 40, 6, 1500, 96, 64, 1600, 7000)                     \
    X("Ascend910_9391", 2201, "Ascend910_93", 24, 48, 6, 1850, 192, 64, 1600, 7000)                \
    X("Ascend910_9392", 2201, "Ascend910_93", 24, 48, 6, 1850, 192, 64, 1600, 7000)                \
    ARC_SOCS_950(X)

/* Ascend 950 (dav-3510): AIC:AIV = 1:2.  "Ascend950PR"/"Ascend950DT" are
 * the family names --npu-soc has taken; the rest are CANN's SoC names. */
#define ARC_SOC_950(X, name) X(name, 3510, "Ascend950", 32, 64, 6, 1850, 128, 128, 1600, 7000)
#define ARC_SOCS_950(X)                                                                      \
    ARC_SOC_950(X, "Ascend950PR_9599") ARC_SOC_950(X, "Ascend950PR")                         \
    ARC_SOC_950(X, "Ascend950DT")                                                            \
    ARC_SOC_950(X, "Ascend950PR_950z") ARC_SOC_950(X, "Ascend950PR_9579")                    \
    ARC_SOC_950(X, "Ascend950PR_957b") ARC_SOC_950(X, "Ascend950PR_957bx")                   \
    ARC_SOC_950(X, "Ascend950PR_957c") ARC_SOC_950(X, "Ascend950PR_957d")                    \
    ARC_SOC_950(X, "Ascend950PR_9589") ARC_SOC_950(X, "Ascend950PR_958a")                    \
    ARC_SOC_950(X, "Ascend950PR_958b")                                                       \
    ARC_SOC_950(X, "Ascend950DT_950x") ARC_SOC_950(X, "Ascend950DT_950y")                    \
    ARC_SOC_950(X, "Ascend950DT_9571") ARC_SOC_950(X, "Ascend950DT_9572")                    \
    ARC_SOC_950(X, "Ascend950DT_9573") ARC_SOC_950(X, "Ascend950DT_9574")                    \
    ARC_SOC_950(X, "Ascend950DT_9575") ARC_SOC_950(X, "Ascend950DT_9576")                    \
    ARC_SOC_950(X, "Ascend950DT_9577") ARC_SOC_950(X, "Ascend950DT_9578")                    \
    ARC_SOC_950(X, "Ascend950DT_9581") ARC_SOC_950(X, "Ascend950DT_9582")                    \
    ARC_SOC_950(X, "Ascend950DT_9582x") ARC_SOC_950(X, "Ascend950DT_9583")                   \
    ARC_SOC_950(X, "Ascend950DT_9584") ARC_SOC_950(X, "Ascend950DT_9585")                    \
    ARC_SOC_950(X, "Ascend950DT_9586") ARC_SOC_950(X, "Ascend950DT_9587")                    \
    ARC_SOC_950(X, "Ascend950DT_9588") ARC_SOC_950(X, "Ascend950DT_9591")                    \
    ARC_SOC_950(X, "Ascend950DT_9592") ARC_SOC_950(X, "Ascend950DT_9595")                    \
    ARC_SOC_950(X, "Ascend950DT_9596") ARC_SOC_950(X, "Ascend950DT_95A1")                    \
    ARC_SOC_950(X, "Ascend950DT_95A2")

/* One architecture's facts in bytes, for C and C++ code that needs a
 * single figure (arc_arch_info(2201)->l1); NULL for an unknown arch. */
typedef struct arc_arch_row {
    const char *arch;
    unsigned npu_arch;
    unsigned long long ub, l1, l0a, l0b, l0c, bt;
    unsigned vl_bytes, warp_size, max_threads;
    const char *soc;
} arc_arch_row;

static inline const arc_arch_row *arc_arch_info(unsigned npu_arch)
{
#define ARC_ARCH_INFO_ROW_(a, n, ub, l1, l0a, l0b, l0c, bt, vl, warp, thr, soc)                                  \
    {a, n, (ub) * 1024ull, (l1) * 1024ull, (l0a) * 1024ull, (l0b) * 1024ull, (l0c) * 1024ull, (bt) * 1024ull,  \
     vl, warp, thr, soc},
    static const arc_arch_row rows[] = {ARC_ARCHS(ARC_ARCH_INFO_ROW_)};
#undef ARC_ARCH_INFO_ROW_
    for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].npu_arch == npu_arch)
            return &rows[i];
    return (const arc_arch_row *)0;
}

#endif /* ARC_COMMON_SOCS_H_ */
