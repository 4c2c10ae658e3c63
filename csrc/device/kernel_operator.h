/* kernel_operator.h - ascendrtc's clean-room Ascend C kernel API for the
 * simulated core.  Kernels include only this.  Families live in arc/. */
#ifndef ARC_KERNEL_OPERATOR_H_
#define ARC_KERNEL_OPERATOR_H_

#include "arc/entry.h"
#include "arc/qualifiers.h"

/* The simulated core is a CPU twin: kernels' CPU-debug branches apply (and
 * their `#ifndef ASCENDC_CPU_DEBUG` <<<>>> launch wrappers drop out).  Not
 * for a single-source program built by `ascendrtc cc` (__ASCENDRTC_HOST_OBJECT__):
 * its host part runs, and launches as on the NPU. */
#if !defined(ASCENDC_CPU_DEBUG) && !defined(__ASCENDRTC_HOST_OBJECT__)
#define ASCENDC_CPU_DEBUG 1
#endif

/* `__ubuf__ T a[N]` is static UB: the rtc's SimdStaticUb pass (SIMT's
 * passes in SIMT code) places what carries this annotation; protected
 * visibility marks `extern __ubuf__ T d[]`, the launch's dynamic UB. */
#ifndef __ubuf__
#define __ubuf__ ARC_UBUF
#endif
/* the Unified Buffer's other spelling (CANN's op libraries, Reg code) */
#ifndef __local_mem__
#define __local_mem__ __ubuf__
#endif
/* The cube side's memories likewise: `__cbuf__ T a[N]` is static L1,
 * `__ca__`/`__cb__`/`__cc__` static L0A/L0B/L0C, `__biasbuf__` and
 * `__fbuf__` the BiasTable and Fixpipe buffer (ARC_STATIC_MEMS, core_abi.h). */
#ifndef __cbuf__
#define __cbuf__ __attribute__((annotate("arc.cbuf")))
#endif
#ifndef __ca__
#define __ca__ __attribute__((annotate("arc.ca")))
#endif
#ifndef __cb__
#define __cb__ __attribute__((annotate("arc.cb")))
#endif
#ifndef __cc__
#define __cc__ __attribute__((annotate("arc.cc")))
#endif
#ifndef __inout_pipe__
#define __inout_pipe__(p)
#endif
/* Kernel-type qualifiers: the kernel type they give (arc/entry.h) is
 * recorded as KERNEL_TASK_TYPE_DEFAULT's is (after it, before inference). */
#ifndef __vector__
#define __vector__ __ARC_KTYPE(KERNEL_TYPE_AIV_ONLY)
#endif
#ifndef __cube__
#define __cube__ __ARC_KTYPE(KERNEL_TYPE_AIC_ONLY)
#endif
/* dav-3510 qualifiers: vector-function tags, the MIX core split, more
 * address spaces.  They place nothing on the simulated core (a VF runs
 * where it is called, in order, as the vector pipe); `__mix__(c, v)` gives
 * the MIX kernel type of its ratio. */
#ifndef __simd_vf__
#define __simd_vf__
#endif
#ifndef __simd_callee__
#define __simd_callee__
#endif
/* The legacy block form of a vector function (`__VEC_SCOPE__ { ... }`,
 * CANN's op libraries): the block runs where it stands, as a VF does. */
#ifndef __VEC_SCOPE__
#define __VEC_SCOPE__
#endif
/* A kernel's pointer to its tiling data (opbase's atvoss schedules): GM. */
#ifndef __tiling_data_ptr__
#define __tiling_data_ptr__
#endif
#ifndef __mix__
#define __mix__(cube, vec) __ARC_KTYPE((::__arc::mix_type<(cube), (vec)>::value))
#endif
#ifndef __fbuf__
#define __fbuf__ __attribute__((annotate("arc.fbuf")))
#endif
#ifndef __ssbuf__
#define __ssbuf__
#endif
#ifndef __biasbuf__
#define __biasbuf__ __attribute__((annotate("arc.biasbuf")))
#endif
#ifndef __sync_alias__
#define __sync_alias__
#endif
/* Marks the workspace parameter of a single-source (.asc) MIX kernel that the
 * Matmul client/server uses; nothing to place on the simulated core. */
#ifndef __kfc_workspace__
#define __kfc_workspace__
#endif

#include "arc/core_abi.h"
#include <type_traits>   /* CANN kernels use std:: traits without including them */
#include <cstdint>
#include "arc/types.h"
#include "arc/lowp.h"   /* hifloat8_t, fp8, fp4 (shared with simt_api/) */
#include "arc/complex.h" /* complex32, complex64 (dav-3510) */
#include "arc/state.h"
#include "arc/tensor.h"
#include "arc/sync.h"
#include "arc/pipe.h"
#include "arc/sys.h"
#include "arc/aot.h" /* convert_from_bytes (the AOT compilation guide) */
#include "arc/block_order.h" /* InitDetermineComputeWorkspace, WaitPreBlock, NotifyNextBlock */
#include "utils/debug/asc_time.h" /* clock(), which the examples call with this header alone */
#include "arc/atomic.h"
#include "arc/data_copy.h"
#include "arc/data_copy_slice.h" /* DataCopy with SliceInfo */
#include "arc/mask.h"
#include "arc/vec_binary.h"
#include "arc/vec_unary.h"
#include "arc/cast.h"
#include "arc/compare.h"
#include "arc/reduce.h"
#include "arc/misc.h"
#include "arc/transpose.h" /* Transpose (16 x 16 and [N,C,H,W] <-> [N,H,W,C]), TransposeType */
#include "arc/interleave.h" /* memory-vector Interleave / DeInterleave (dav-3510) */
#include "arc/adv_math.h"
#include "arc/adv_config.h" /* the Ascend 950 math configs, Fmod, Truncate, Ands/Ors */
#include "arc/nddma.h"
#include "arc/mutex.h"
#include "arc/broadcast_nd.h"
/* cube unit (helper cube) */
#include "arc/cube_types.h"
#include "arc/cube_load.h"
#include "arc/cube_fill.h"
#include "arc/mmad.h"
#include "arc/fixpipe.h"
#include "arc/cube_950.h" /* Ascend 950: LoadData2DParamsV2, FixpipeParamsArch3510 */
#include "arc/cube_dn2nz.h" /* DataCopy GM -> L1 with Dn2NzParams */
#include "arc/mmad_mx.h" /* dav-3510 MX: LoadData with LoadData2DMxParams, MmadMx */
#include "arc/cube_load3d_stride.h" /* dav-3510: LoadDataWithStride, SetLoadDataRepeatWithStride */
#include "arc/mmad_sparse.h"
/* API breadth (helper "api"): utilities, sort, pools, lists, dumps */
#include "arc/utils.h"
#include "arc/layout.h" /* the basic API's Layout, Coordinate, Crd2Idx (dav-2201) */
#include "arc/scalar_bits.h" /* CountLeadingZero, GetBitCount, GetSFFValue (and their older names) */
#include "arc/tensor_ops.h"
#include "arc/sort.h"
#include "arc/buf_pool.h"
#include "arc/list_tensor.h"
#include "arc/dump.h"
#include "arc/group_barrier.h"
#include "arc/catlass_arch.h"
#include "lib/adv_api.h" /* the advanced API (lib/): CANN's kernel_operator.h exposes it too */
#include "arc/reduce_names.h" /* ReduceRepeat, ReduceDataBlock, ReducePairElem (CANN 9.1 names) */
#include "arc/reg_api.h"  /* AscendC::Reg (dav-3510) */
#include "arc/reg_elem.h" /* Reg compare, truncate, arange (both spellings) */
#include "arc/reg_reduce.h" /* Reg per-block and pairwise reductions (both spellings) */
#include "arc/reg_mask_load.h" /* a mask register loaded from UB (both spellings) */
#include "arc/reg_relayout.h" /* Interleave, DeInterleave, Pack (both spellings) */
#include "arc/reg_gather.h" /* Gather, GatherB (both spellings) */
#include "arc/reg_histogram.h" /* Histograms (both spellings) */
#include "arc/reg_squeeze.h" /* Squeeze, StoreUnAlign (AR form) (both spellings) */
#include "arc/reg_cast.h" /* Reg::Cast, CastTrait */
#include "arc/reg_logic.h" /* Reg And/Or/Xor/Not, shifts */
#include "arc/reg_fused.h" /* Reg Log/Log2/Log10, Axpy, MulAddDst, MulDstAdd, AbsSub */
#include "arc/reg_addr.h" /* Reg AddrReg, the older DataCopy name */
#include "arc/reg_unalign.h" /* Reg LoadUnAlign / StoreUnAlign runs (UnalignRegForLoad) */
#include "arc/reg_blockcopy.h" /* Reg DataBlock-strided LoadAlign / StoreAlign (DATA_BLOCK_COPY) */

typedef uint8_t *GM_ADDR;

/* Scalar min/max as the device compiler provides them (kernels call them
 * unqualified). */
template <typename T, typename U> inline auto min(T a, U b) -> decltype(true ? (T)0 : (U)0) { return b < a ? b : a; }
template <typename T, typename U> inline auto max(T a, U b) -> decltype(true ? (T)0 : (U)0) { return a < b ? b : a; }
/* ... and for two values of one type, as plain functions: those win over a
 * library's own min/max templates found by the same call (CATLASS's tla). */
#define __ARC_MINMAX(T)                                 \
    inline T min(T a, T b) { return b < a ? b : a; }    \
    inline T max(T a, T b) { return a < b ? b : a; }
__ARC_MINMAX(int32_t)
__ARC_MINMAX(uint32_t)
__ARC_MINMAX(int64_t)
__ARC_MINMAX(uint64_t)
__ARC_MINMAX(float)
#undef __ARC_MINMAX

#endif /* ARC_KERNEL_OPERATOR_H_ */
