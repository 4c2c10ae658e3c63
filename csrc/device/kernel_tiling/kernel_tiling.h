/* kernel_tiling/kernel_tiling.h - the kernel-side tiling structs of the
 * library APIs, which op_host tiling headers nest with
 * TILING_DATA_FIELD_DEF_STRUCT and kernels take by pointer or value.
 * Each is a plain struct with the host class's field order (see
 * arc/tiling_dsl.h for the layout rule). */
#ifndef ARC_KERNEL_TILING_H_
#define ARC_KERNEL_TILING_H_

#include <cstdint>

/* ---- Matmul: TCubeTiling, int32 fields in the order
 * CANN documents.  ARC_TCUBE_TILING_FIELDS(X) lists them once for
 * the kernel struct, the host tiling (csrc/host_api/lib/matmul) and
 * Python (ascendrtc.matmul_tiling). */
#define ARC_TCUBE_TILING_FIELDS(X)                                                                    \
    X(usedCoreNum) X(M) X(N) X(Ka) X(Kb) X(singleCoreM) X(singleCoreN) X(singleCoreK) X(baseM) X(baseN) \
    X(baseK) X(depthA1) X(depthB1) X(stepM) X(stepN) X(isBias) X(transLength) X(iterateOrder)        \
    X(shareMode) X(shareL1Size) X(shareL0CSize) X(shareUbSize) X(batchM) X(batchN) X(singleBatchM)   \
    X(singleBatchN) X(stepKa) X(stepKb) X(depthAL1CacheUB) X(depthBL1CacheUB) X(dbL0A) X(dbL0B)      \
    X(dbL0C) X(ALayoutInfoB) X(ALayoutInfoS) X(ALayoutInfoN) X(ALayoutInfoG) X(ALayoutInfoD)         \
    X(BLayoutInfoB) X(BLayoutInfoS) X(BLayoutInfoN) X(BLayoutInfoG) X(BLayoutInfoD) X(CLayoutInfoB)  \
    X(CLayoutInfoS1) X(CLayoutInfoN) X(CLayoutInfoG) X(CLayoutInfoS2) X(BatchNum) X(mxTypePara)
/* The plain struct in the global namespace for kernels, and in a
 * single-source program (whose kernels name it so) next to the host class. */
#if !defined(ASCENDRTC_TILING_HOST) || defined(__ASCENDRTC_HOST_CODE__)
#define ARC_TCUBE_FIELD_(f) int32_t f;
struct TCubeTiling {
    ARC_TCUBE_TILING_FIELDS(ARC_TCUBE_FIELD_)
};
#undef ARC_TCUBE_FIELD_
namespace AscendC {
namespace tiling {
using ::TCubeTiling;
} // namespace tiling
} // namespace AscendC
#else
/* Host side: the plain struct as AscendC::tiling::TCubeTiling and, when
 * the tiling DSL is in (tiling/tiling_api.h), optiling::TCubeTiling as a
 * tiling class with set_/get_ per field and the same bytes. */
#define ARC_TCUBE_FIELD_(f) int32_t f;
namespace AscendC {
namespace tiling {
struct TCubeTiling {
    ARC_TCUBE_TILING_FIELDS(ARC_TCUBE_FIELD_)
};
} // namespace tiling
} // namespace AscendC
/* and in the global namespace, as CANN's generated kernel_tiling.h exports
 * its legacy structs (`using AscendC::tiling::TCubeTiling;`): op host
 * tiling headers name `TCubeTiling` and `::TCubeTiling` (ops-nn matmul) */
using AscendC::tiling::TCubeTiling;
#undef ARC_TCUBE_FIELD_
#endif

/* ---- Advanced API tiling structs (PadTiling, UnPadTiling, SoftMaxTiling,
 * LayerNormTiling, RmsNormTiling), shared with the host tiling functions
 * (csrc/host_api/lib/adv_tiling.h). */
#include "lib/tiling/adv_tiling_data.h"
#if defined(ASCENDRTC_TILING_HOST) && defined(ARC_TILING_DSL_HOST_)
/* their fields, for Python's decoding (op_host code: register/tilingdata_base.h
 * brings the DSL in host mode first; plain C++ users of these headers, and a
 * single-source file that had kernel_operator.h first, get the structs only) */
#include "lib/tiling/adv_tiling_fields.h"
#endif

#endif /* ARC_KERNEL_TILING_H_ */

/* optiling::TCubeTiling, the host tiling class (set_/get_ per field, the
 * same bytes), wherever the tiling DSL is in host mode.  Outside the guard:
 * a single-source program may include this header (kernel mode, the plain
 * struct) before tiling/tiling_api.h brings the DSL in host mode, which
 * includes it again for this part. */
#if defined(ARC_TILING_DSL_HOST_) && !defined(ARC_KERNEL_TILING_TCUBE_HOST_)
#define ARC_KERNEL_TILING_TCUBE_HOST_
#define ARC_TCUBE_FIELD_(f) TILING_DATA_FIELD_DEF(int32_t, f)
namespace optiling {
BEGIN_TILING_DATA_DEF(TCubeTiling)
ARC_TCUBE_TILING_FIELDS(ARC_TCUBE_FIELD_)
END_TILING_DATA_DEF;
} // namespace optiling
#undef ARC_TCUBE_FIELD_
#endif
