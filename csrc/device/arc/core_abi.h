/* core_abi.h - the contract between JIT-compiled kernels and the simulated
 * NPU runtime.  Plain C so both the C runtime and the C++ device API include
 * it.  JIT code cannot use thread_local (no ORC TLS runtime), so per-core
 * state is reached through __arc_core(), which the runtime resolves per
 * worker thread.  Changing this layout changes ARC_CORE_ABI_VERSION. */
#ifndef ARC_CORE_ABI_H_
#define ARC_CORE_ABI_H_

#include "common/socs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARC_CORE_ABI_VERSION 4

/* Calls the optimiser must not merge: each keeps its own kernel source line
 * (rtc/sites.cpp). */
#if defined(__clang__)
#define ARC_NOMERGE __attribute__((nomerge))
#else
#define ARC_NOMERGE
#endif
#define ARC_CORE_DEV_SLOTS 64

typedef struct arc_core {
    long long block_idx;      /* GetBlockIdx() */
    long long block_num;      /* GetBlockNum() */
    long long sub_block_idx;  /* GetSubBlockIdx() */
    long long sub_block_num;  /* GetSubBlockNum() */
    unsigned char *ub;        /* unified buffer arena, 32-byte aligned */
    unsigned long long ub_size;  /* bytes of UB the arch gives a vector core */
    unsigned char *l1;        /* L1 arena (cube side), 32-byte aligned */
    unsigned long long l1_size;
    unsigned long long tiling_key;  /* TILING_KEY_IS() compares against it */
    unsigned char *workspace; /* user workspace, or NULL */
    unsigned int arch;        /* 2201 or 3510 */
    unsigned int core_type;   /* 0 = AIV (vector), 1 = AIC (cube) */
    const char *kernel_name;  /* for error messages */
    /* Private to the device API (mask registers, atomic mode, the TPipe
     * pointer, ...); zeroed before each block runs. */
    unsigned long long dev[ARC_CORE_DEV_SLOTS];
    /* Cube-side buffers of this core (L0A, L0B, L0C, BiasTable, Fixpipe
     * buffer) at the ARC_L0*_OFF offsets below; the device API's
     * bookkeeping (ARC_L0_META_*) is zeroed before each block. */
    unsigned char *l0;
    unsigned int ktype;       /* the launch's KERNEL_TYPE_* (written or inferred by the rtc) */
} arc_core;

/* What a kernel's code uses, as the rtc finds it (rtc/kernel_uses.cpp): the
 * kernel type CANN's compiler infers when the source writes none comes from
 * these.  ARC_USES_WRITTEN: the source wrote KERNEL_TASK_TYPE*, the type is
 * not inferred. */
#define ARC_USES_CUBE 1u    /* cube instructions: Mmad, LoadData, Fixpipe, ND2NZ into L1 */
#define ARC_USES_VEC 2u     /* vector instructions */
#define ARC_USES_MATMUL 4u  /* the Matmul API served by the AIC (no ASCENDC_CUBE_ONLY) */
#define ARC_USES_WRITTEN 0x100u
/* A use of ARC_USES_* by the device-API function that calls it: the rtc
 * notes the uses reachable from each kernel and deletes these calls before
 * optimising, so they cost nothing and no object refers to the symbol. */
void __arc_uses(unsigned what);

/* Each cube-side buffer has its own window at the start of a 1 MiB slot
 * whose rest is inaccessible (rt/cores/arena.c), so a raw pointer run off one
 * faults, naming it, instead of writing into the next: L0A, L0B and L0C
 * (the arch's sizes, arc_l0*_size_of) start at a slot; the BiasTable and
 * Fixpipe buffer end at the end of their slot's first page, so running
 * past their end faults at once (the bytes before their start, to the
 * page start, are accessible but hold nothing). */
#define ARC_L0_SLOT (1u << 20)
#define ARC_L0_SLOTS 6u
#define ARC_L0_PAGE 4096u
#define ARC_L0A_OFF 0u
#define ARC_L0B_OFF (1u * ARC_L0_SLOT)
#define ARC_L0C_OFF (2u * ARC_L0_SLOT)
/* The arch's L0A/L0B/L0C and BiasTable bytes (common/socs.h), 0 for an
 * unknown arch.  The BiasTable ends at the end of its slot's first page. */
enum { ARC_BUF_L0A, ARC_BUF_L0B, ARC_BUF_L0C, ARC_BUF_BT };
static inline unsigned arc_cube_buf_size(unsigned arch, unsigned which)
{
#define ARC_BUF_ROW_(a, n, ub, l1, l0a, l0b, l0c, bt, vl, warp, thr, soc) \
    case n: { const unsigned v[] = {(l0a) << 10, (l0b) << 10, (l0c) << 10, (bt) << 10}; return v[which]; }
    switch (arch) { ARC_ARCHS(ARC_BUF_ROW_) }
#undef ARC_BUF_ROW_
    return 0;
}
static inline unsigned arc_l0a_size_of(unsigned arch) { return arc_cube_buf_size(arch, ARC_BUF_L0A); }
static inline unsigned arc_l0b_size_of(unsigned arch) { return arc_cube_buf_size(arch, ARC_BUF_L0B); }
static inline unsigned arc_l0c_size_of(unsigned arch) { return arc_cube_buf_size(arch, ARC_BUF_L0C); }
static inline unsigned arc_bt_size_of(unsigned arch) { return arc_cube_buf_size(arch, ARC_BUF_BT); }
static inline unsigned arc_bt_off(unsigned arch) { return 3u * ARC_L0_SLOT + ARC_L0_PAGE - arc_bt_size_of(arch); }
/* Every arch's L0 buffers fit their slot, its BiasTable a page (a negative array size fails to compile). */
#define ARC_L0_FITS_(a, n, ub, l1, l0a, l0b, l0c, bt, vl, warp, thr, soc)                                   \
    +sizeof(char[((l0a) << 10) <= ARC_L0_SLOT && ((l0b) << 10) <= ARC_L0_SLOT && ((l0c) << 10) <= ARC_L0_SLOT && \
                         ((bt) << 10) <= ARC_L0_PAGE ? 1 : -1])
enum { ARC_L0_FITS_CHECK_ = 0 ARC_ARCHS(ARC_L0_FITS_) };
#undef ARC_L0_FITS_
/* The Fixpipe buffer: 7 KB, what CATLASS's Atlas A2 arch (FIXBUF_SIZE)
 * takes with one TPipe::InitBuffer, which runs on the NPU; the dav-2201
 * arch page lists 2 KB (docs/simulated_npu.md).  It ends at the end of its
 * slot's first ARC_FB_SPAN bytes. */
#define ARC_FB_SIZE (7u << 10)
#define ARC_FB_SPAN (2u * ARC_L0_PAGE)
#define ARC_FB_OFF (4u * ARC_L0_SLOT + ARC_FB_SPAN - ARC_FB_SIZE)
#define ARC_L0_META_OFF (5u * ARC_L0_SLOT)
#define ARC_L0_META_BYTES 256u
/* The 4:2 sparse index buffer LoadDataWithSparse fills and MmadWithSparse
 * reads: a quarter of dav-2201's 64 KB L0B (the docs), 128 bytes of index
 * per 512-byte L0B fractal, after the bookkeeping page of the last slot. */
#define ARC_SPARSE_IDX_OFF (ARC_L0_META_OFF + ARC_L0_PAGE)
#define ARC_SPARSE_IDX_SIZE (16u << 10)
/* dav-3510's MX scale buffers L0A_MX and L0B_MX (4 KB each; the MX page:
 * an L0A/L0B address / 16 is its scales' address), after the sparse index;
 * the bookkeeping slot's accessible span ends after them. */
#define ARC_MX_SIZE (4u << 10)
#define ARC_L0A_MX_OFF (ARC_SPARSE_IDX_OFF + ARC_SPARSE_IDX_SIZE)
#define ARC_L0B_MX_OFF (ARC_L0A_MX_OFF + ARC_MX_SIZE)
#define ARC_L0_META_SPAN (ARC_L0_PAGE + ARC_SPARSE_IDX_SIZE + 2u * ARC_MX_SIZE)

/* The calling core's state; valid for the whole block.  In kernel code it
 * is `const` (its value never changes while a kernel function runs), so the
 * compiler fetches it once per function instead of once per device-API
 * call. */
#if defined(__cplusplus) && defined(__ASCENDRTC__)
#define ARC_CORE_CONST __attribute__((const))
#else
#define ARC_CORE_CONST
#endif
arc_core *__arc_core(void) ARC_CORE_CONST;
/* TQue/TQueBind operations (rt/services/queue.c) on the device API's TQueBase, laid
 * out as arc_que (arc/pipe.h asserts it).  pipes: producer pipe * 16 +
 * consumer pipe of the syncs the queue implies (0: none), reported to the
 * race check.  Each checks the queue's state and traps naming the API;
 * alloc and deque return the buffer's index. */
#define ARC_QUE_MAX 64
typedef struct arc_que {
    unsigned char *base;
    unsigned int len;
    unsigned char num, cursor, head, count;
    unsigned long long inuse, queued;
    unsigned char fifo[ARC_QUE_MAX];
    unsigned char pos;
} arc_que;
int __arc_que_alloc(arc_que *q, int pipes) ARC_NOMERGE;
void __arc_que_enque(arc_que *q, const void *p, int depth, int pipes) ARC_NOMERGE;
int __arc_que_deque(arc_que *q, int pipes) ARC_NOMERGE;
void __arc_que_free(arc_que *q, const void *p, int pipes) ARC_NOMERGE;
/* On-chip positions, numbered as the device API's TPosition (arc/tensor.h
 * asserts it). */
enum {
    ARC_POS_GM = 0, ARC_POS_A1, ARC_POS_A2, ARC_POS_B1, ARC_POS_B2, ARC_POS_C1, ARC_POS_C2, ARC_POS_CO1,
    ARC_POS_CO2, ARC_POS_VECIN, ARC_POS_VECOUT, ARC_POS_VECCALC, ARC_POS_SPM, ARC_POS_TSCM, ARC_POS_C2PIPE2GM,
    ARC_POS_C2PIPE2LOCAL
};
/* TPipe's bookkeeping, laid out as the device API's TPipe (arc/pipe.h
 * asserts it): bytes used of UB, of L1 and of L0A, L0B, L0C, BiasTable and
 * Fixpipe buffer, and the buffers carved so far. */
typedef struct arc_pipe {
    unsigned long long ub_used, l1_used, l0_used[5];
    unsigned int nbuf;
} arc_pipe;
/* TPipe::InitBuffer (rt/services/pipe.c): num buffers of len bytes (rounded up to
 * 32) for q, from the memory of q's position; traps naming api when they do
 * not fit. */
void __arc_pipe_carve(arc_pipe *p, arc_que *q, unsigned num, unsigned len, const char *api) ARC_NOMERGE;
/* Device-API slots of arc_core::dev[] the runtime's DataCopy reads
 * (arc/state.h names them): the atomic mode of copies out (0 none), and
 * the GM ranges already checked (ARC_GM_WAYS [lo, hi) pairs, then the way
 * __arc_gm_check fills next). */
#define ARC_ATOMIC_SLOT 5
/* The atomic modes in ARC_ATOMIC_SLOT (SetAtomicAdd/Max/Min, SetAtomicNone). */
enum { ARC_ATOMIC_NONE = 0, ARC_ATOMIC_ADD = 1, ARC_ATOMIC_MAX = 2, ARC_ATOMIC_MIN = 3 };
#define ARC_GM_CACHE_SLOT 40
#define ARC_GM_WAYS 4
#define ARC_GM_NEXT_SLOT (ARC_GM_CACHE_SLOT + 2 * ARC_GM_WAYS)
/* DataCopy's checks and messages (rt/services/data_copy.c), for every
 * compile mode: arc/data_copy.h passes the mode, flags ARC_DC_NPU
 * (-DASCENDRTC_NPU_SEMANTICS: a count-form length that is not a whole
 * number of 32-byte blocks rounds down as on the NPU instead of stopping)
 * and ARC_DC_NO_GM (-DASCENDRTC_NO_GM_CHECKS), and limit_what, the words
 * naming a local operand's `limit` (arc/state.h ARC_LIMIT_WHAT).  esize and
 * tname are the element type's size and name for messages. */
enum { ARC_DC_NPU = 1, ARC_DC_NO_GM = 2 };
typedef struct arc_dc_mode {
    unsigned flags;
    const char *limit_what;
} arc_dc_mode;
/* A local operand: 32-byte aligned, `bytes` within `limit`, then its access
 * on `pipe` (access: 1 a write, | ARC_RACE_SPARSE) for the race check. */
void __arc_dc_local_check(const void *p, unsigned long long limit, unsigned long long bytes, unsigned esize,
                          const char *tname, const char *api, const char *what, int pipe, int access,
                          const arc_dc_mode *m) ARC_NOMERGE;
/* --sanitizer: GM elements [lo, lo + n) of a GlobalTensor given `size`
 * elements (0: no size given, nothing to check). */
void __arc_gm_view(long long lo, unsigned long long n, unsigned long long size, const char *api) ARC_NOMERGE;
/* The count form: the length rule, the local operand, the GM range (and
 * view_lo/view_size, the sanitizer's), the GM race checks, then the copy.
 * The copy out returns the atomic mode when one is set: nothing was stored,
 * the caller stores *count (the count after the rule) with it. */
void __arc_dc_in(void *dst, unsigned long long limit, const void *src, long long view_lo,
                 unsigned long long view_size, unsigned count, unsigned esize, const char *tname,
                 const arc_dc_mode *m) ARC_NOMERGE;
int __arc_dc_out(void *dst, long long view_lo, unsigned long long view_size, const void *src,
                 unsigned long long limit, unsigned *count, unsigned esize, const char *tname,
                 const arc_dc_mode *m) ARC_NOMERGE;
void __arc_dc_local(void *dst, unsigned long long dst_limit, const void *src, unsigned long long src_limit,
                    unsigned count, unsigned esize, const char *tname, const arc_dc_mode *m) ARC_NOMERGE;
/* A level-0 call's plan and an operand's layout, laid out as the device
 * API's Plan and Opnd (arc/mask.h asserts it): L lanes per repeat, the
 * repeats, counter mode with its element count or the lane mask; elements
 * per 32-byte block, block and repeat strides in blocks. */
typedef struct arc_plan {
    unsigned L, repeat;
    unsigned char counter;
    unsigned long long count, lo, hi;
} arc_plan;
typedef struct arc_opnd {
    unsigned epb, blk, rep;
} arc_opnd;
/* A vector operand (rt/services/vec_check.c): 32-byte aligned, within its tensor
 * (`tensor_bytes`), then its access on the vector pipe for the race check
 * ("dst..." operands read and written) and the cost model's element size.
 * cnt: the count form's n elements; l0: a level-0 call, up to the last
 * element its plan reaches through the operand's layout. */
void __arc_check_cnt(const void *p, unsigned tensor_bytes, long long n, unsigned esize, const char *tname,
                     const char *api, const char *what) ARC_NOMERGE;
void __arc_check_l0(const void *p, unsigned tensor_bytes, const arc_plan *plan, const arc_opnd *o, unsigned esize,
                    const char *api, const char *what) ARC_NOMERGE;
/* Undefined overlap of a vector API's destination and one source
 * (rt/services/vec_check.c), both UB byte ranges [p, p + bytes), called
 * only when they share a byte (arc/mask.h check_overlap).  The rules are
 * the docs' (the SIMD API's general overlap rule, 通用地址重叠约束, and each API's
 * own page): ARC_OVERLAP_REPEAT, a run of 256-byte repeats: the same bytes,
 * or the destination ending a whole repeat or more before the source
 * (within a repeat 100% or no overlap; no repeat reads what an earlier one
 * wrote); ARC_OVERLAP_NONE: the page says no overlap of source and
 * destination, tolerated only as the very same bytes (in place, as CANN's
 * own operators use Floor, Sign and Log); ARC_OVERLAP_BEHIND, an API whose
 * destination advances no faster than its source (narrowing Cast,
 * GatherMask's compaction): the destination starting at or before the
 * source, so nothing is written before it is read.  Anything else is a
 * trap naming both ranges. */
enum { ARC_OVERLAP_REPEAT = 0, ARC_OVERLAP_NONE = 1, ARC_OVERLAP_BEHIND = 2 };
void __arc_check_overlap(const void *dst, unsigned long long dst_bytes, const void *src, unsigned long long src_bytes,
                         int rule, const char *api, const char *what) ARC_NOMERGE;
/* The same rule, repeat by repeat, for a level-0 call with strided operands
 * of one element size (rt/services/vec_check.c), called when their byte
 * ranges meet: a source and dst overlap 100% or not at all within a
 * repeat, and no repeat reads what an earlier one wrote (but src1 of
 * Add/Sub/Mul/Max/Min/AddRelu/SubRelu on half/int32_t/float may, when
 * src1's or dst's repeat stride is 0, as the docs allow). */
void __arc_check_overlap_l0(const void *dst, const void *src, const arc_plan *p, const arc_opnd *od,
                            const arc_opnd *os, unsigned esize, const char *tname, const char *api,
                            const char *what) ARC_NOMERGE;
/* WholeReduceSum/Max/Min and RepeatReduceSum on float (rt/services/reduce_whole.c),
 * the device API's whole<float> compiled once: the src operand check
 * (__arc_check_l0), dst's length for dstRepStride, then per repeat the
 * pairwise sum tree or the first max/min with its lane; op and order are
 * arc/reduce.h's RedOp and ReduceOrder values.  The last result goes to
 * dev[ARC_ACC_VAL_SLOT] (double bits) and its lane to dev[ARC_ACC_IDX_SLOT]
 * (GetAccVal, GetReduceMaxMinCount; arc/state.h names them). */
#define ARC_ACC_VAL_SLOT 38
#define ARC_ACC_IDX_SLOT 39
void __arc_whole_f32(float *dst, unsigned dst_bytes, const float *src, unsigned src_bytes, const arc_plan *p,
                     int dstRepStride, int srcBlkStride, int srcRepStride, int op, int order,
                     const char *api) ARC_NOMERGE;
/* Brcb (rt/services/brcb.c) on 16- or 32-bit elements (esize): the src check
 * (__arc_check_cnt of repeat * 8), dst's alignment, distinctness and reach,
 * then element j of repeat r fills dst's block r * rep + j * blk. */
void __arc_brcb(void *dst, unsigned dst_bytes, const void *src, unsigned src_bytes, unsigned repeat, unsigned blk,
                unsigned rep, unsigned esize, const char *tname) ARC_NOMERGE;
/* DataCopy UB -> GM in an atomic mode (rt/services/store_atomic.c) on n 32-bit
 * elements of `kind` (ARC_ATOMIC32_*): each combined into GM by a
 * compare-and-swap with op (arc/state.h AtomicOp ADD/MAX/MIN). */
enum { ARC_ATOMIC32_F32 = 0, ARC_ATOMIC32_I32, ARC_ATOMIC32_U32 };
void __arc_store_atomic32(void *dst, const void *src, unsigned long long n, int op, int kind);
/* An integer division by zero (kind 1) or INT_MIN / -1 (kind 2) in kernel
 * code (rt/services/int_div.c): the compiler (rtc/int_div.cpp) makes the
 * division give a defined value and calls this, which warns once per line
 * or, under ASCENDRTC_INT_DIV=trap, fails the launch. */
void __arc_int_div(int kind);
/* The memories a SIMD kernel's static local arrays can live in, by the
 * qualifier that puts them there (kernel_operator.h makes each qualifier
 * its annotation): id, annotation, qualifier, start alignment in bytes.
 * The rtc's SimdStaticUb pass lays each memory's arrays out from offset 0. */
#define ARC_STATIC_MEMS(X)                          \
    X(ARC_MEM_UB, "arc.ubuf", "__ubuf__", 32)        \
    X(ARC_MEM_L1, "arc.cbuf", "__cbuf__", 32)        \
    X(ARC_MEM_L0A, "arc.ca", "__ca__", 512)          \
    X(ARC_MEM_L0B, "arc.cb", "__cb__", 512)          \
    X(ARC_MEM_L0C, "arc.cc", "__cc__", 64)           \
    X(ARC_MEM_BT, "arc.biasbuf", "__biasbuf__", 64)  \
    X(ARC_MEM_FB, "arc.fbuf", "__fbuf__", 128)
#define ARC_STATIC_MEM_ENUM_(id, note, qual, align) id,
enum arc_static_mem { ARC_STATIC_MEMS(ARC_STATIC_MEM_ENUM_) ARC_MEM_COUNT };
#undef ARC_STATIC_MEM_ENUM_
/* SIMD code's static arrays of memory `mem` (the rtc's SimdStaticUb pass
 * calls this in each function that has some, rt/services/static_ub.c):
 * the start of this core's memory, which must hold the `bytes` its
 * kernels' arrays take; fn names the function. */
void *__arc_static_mem(unsigned mem, unsigned long long bytes, const char *fn);
/* DataCopy's bulk copies (rt/services/copy.c): GM -> UB, and UB -> GM (non-temporal
 * stores for large aligned copies, then a fence). */
void __arc_copy_bytes(void *dst, const void *src, unsigned long long n);
void __arc_store_bytes(void *dst, const void *src, unsigned long long n);
/* Hardware all-core barrier of SyncAll<aiv_only>(): every block of the
 * launch must arrive (in a MIX kernel every AIV, or with aiv_only 0 every
 * AIC and AIV).  Traps if the launch has more blocks than can run at once. */
void __arc_sync_all(int aiv_only);
/* A block spinning until another block moves (WaitPreBlock) calls this
 * each round: it leaves the block when the launch has failed (another
 * block trapped), timed out or was cancelled, and yields the CPU. */
void __arc_block_poll(void);
/* Stop this block with an error that names the API and the values
 * involved; the launch fails with ACL_ERROR_RT_AICORE_EXCEPTION and the
 * message reaches aclGetRecentErrMsg().  Never returns. */
void __arc_trap(const char *api, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3))) ARC_NOMERGE;
/* printf for kernels (AscendC::printf / PRINTF); serialised across cores. */
int __arc_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One typed printf argument: kind 'i' (signed integer), 'u' (unsigned),
 * 'f' (double bits), 's' (char pointer), 'p' (other pointer). */
typedef struct arc_printf_arg {
    unsigned long long v;
    char kind;
} arc_printf_arg;
/* Typed kernel printf (what AscendC::printf calls): every conversion of fmt
 * is checked against the n arguments' kinds and a mismatch, a missing
 * argument, %n or an unreadable %s string traps instead of crashing. */
int __arc_printf_v(const char *fmt, unsigned n, const arc_printf_arg *args);
/* GM bounds check, called by the device API when an access of `bytes`
 * bytes at p lies in none of the allocation ranges it cached per block in
 * arc_core::dev[]: traps when the access is outside the live device
 * allocation it points into (naming the range, the allocation and the
 * kernel parameter), else stores that allocation's range in range (the
 * cache entry the device API chose to replace). */
void __arc_gm_check(const void *p, unsigned long long bytes, const char *api, unsigned long long range[2]) ARC_NOMERGE;
/* The GM check's fast path, for the device API and the runtime's DataCopy
 * alike: [p, p + bytes) inside one of the ARC_GM_WAYS ranges this block
 * (dev[]) checked last, else __arc_gm_check, which traps on a bad access
 * and fills the next way round robin. */
static inline void __arc_gm_access(unsigned long long *d, const void *p, unsigned long long bytes, const char *api)
{
    if (bytes == 0)
        return;
    __UINTPTR_TYPE__ a = (__UINTPTR_TYPE__)p, e = a + bytes;
    if (__builtin_expect(e > a, 1)) /* else the range wraps: the runtime traps */
        for (int w = 0; w < ARC_GM_WAYS; w++)
            if (a >= d[ARC_GM_CACHE_SLOT + 2 * w] && e <= d[ARC_GM_CACHE_SLOT + 2 * w + 1])
                return;
    unsigned long long way = d[ARC_GM_NEXT_SLOT]++ % ARC_GM_WAYS;
    __arc_gm_check(p, bytes, api, &d[ARC_GM_CACHE_SLOT + 2 * way]);
}

/* Cross-core flags of MIX kernels (CrossCoreSetFlag / CrossCoreWaitFlag):
 * op 0 sets `flag` with `mode` (1 or 2), op 1 waits for it, op 2 ends the
 * calling AIC (a Matmul server).  Returns 0 outside a MIX launch (nothing
 * done); a wait returns 2 when a mode-0 round released it, else 1. */
int __arc_cross_core(int op, int mode, int flag);
/* The UB of AIV `aiv` of the MIX block the calling AIC runs (L0C -> UB
 * copies write it; core_mix.c); NULL elsewhere or for an AIV it lacks. */
void *__arc_mix_ub(int aiv);
/* CrossCoreSetFlag mode 0: a barrier across every core of the caller's side
 * (all AICs or all AIVs) of the launch; when the last one has set `flag`,
 * each one's counter rises (core_mix.c).  Its own symbol, so the loader
 * runs such kernels with every block live at once (acl/module.c). */
void __arc_cross_set_all(int flag);

/* Pipe race detection (csrc/rt/analysis/race.c).  arc_core::dev[ARC_RACE_SLOT] is
 * the launch's mode, so the device API calls the runtime only when it is
 * on.  __arc_race_access: a device-API access on pipe `pipe` (a pipe_t
 * value) to [p, p + bytes), write 0 a read, 1 a write, 2 a read-modify-write;
 * UB and L1 are tracked.
 * __arc_race_sync: what orders pipes (kind ARC_RACE_*; src/dst are pipe_t
 * values, key an event id or, for queue events, a buffer address). */
#define ARC_RACE_SLOT (ARC_CORE_DEV_SLOTS - 1)
/* The pipes as pipe_t numbers them (arc/sync.h spells pipe_t for kernels). */
enum { ARC_PIPE_S = 0, ARC_PIPE_V = 1, ARC_PIPE_M = 2, ARC_PIPE_MTE1 = 3, ARC_PIPE_MTE2 = 4, ARC_PIPE_MTE3 = 5,
       ARC_PIPE_FIX = 10 };
enum { ARC_RACE_OFF = 0, ARC_RACE_WARN = 1, ARC_RACE_ERROR = 2 };
enum { ARC_RACE_SET = 1, ARC_RACE_WAIT, ARC_RACE_QSET, ARC_RACE_QWAIT, ARC_RACE_ALL, ARC_RACE_SCALAR,
       ARC_RACE_BARRIER /* PipeBarrier on pipe src */,
       ARC_RACE_DRAIN /* the scalar unit waits for pipe src to finish (the C API's _sync forms) */ };
/* Or'ed into __arc_race_access's write: [p, p + bytes) is the hull of
 * strided runs, so the within-pipe analysis leaves it out. */
#define ARC_RACE_SPARSE 4
/* Or'ed in too: a whole-register load of the Reg API, whose races past its
 * first bytes count only when those lanes are used: __arc_race_reg_use
 * (a store's or reduction's predicate covers `end` bytes of the register)
 * reports them, __arc_race_reg_drop (the VF's end) forgets them
 * (rt/analysis/race_report.c). */
#define ARC_RACE_REG 8
void __arc_race_access(int pipe, int write, const void *p, unsigned long long bytes, const char *api) ARC_NOMERGE;
void __arc_race_reg_use(unsigned long long end, const char *api) ARC_NOMERGE;
void __arc_race_reg_drop(void);
void __arc_race_sync(int kind, int src, int dst, unsigned long long key);
/* GM races between the cores of a launch (csrc/rt/analysis/race_gm.c).
 * arc_core::dev[ARC_RACE_GM_SLOT] is the core's log (0: unchecked).
 * __arc_race_gm: op ARC_GM_READ/WRITE/ATOMIC, an access by a device-API call
 * on `pipe` to GM [p, p + bytes); ARC_GM_ATOMIC_RMW a scalar atomic (it
 * also orders, like a lock); ARC_GM_SYNCALL after SyncAll; ARC_GM_RELEASE /
 * ACQUIRE(_NEED) what a cross-core sync orders: key p, kind bytes (an
 * ARC_GM_SYNC_* value); ARC_GM_DCCI after DataCacheCleanAndInvalid (the
 * core's scalar GM writes become visible to the others). */
#define ARC_RACE_GM_SLOT (ARC_CORE_DEV_SLOTS - 4)
enum { ARC_GM_READ = 0, ARC_GM_WRITE, ARC_GM_ATOMIC, ARC_GM_ATOMIC_RMW, ARC_GM_SYNCALL, ARC_GM_RELEASE,
       ARC_GM_ACQUIRE, ARC_GM_ACQUIRE_NEED, ARC_GM_DCCI, ARC_GM_FILL };
enum { ARC_GM_SYNC_IB = 16, ARC_GM_SYNC_CROSS, ARC_GM_SYNC_GROUP };
void __arc_race_gm(int op, int pipe, const void *p, unsigned long long bytes, const char *api) ARC_NOMERGE;
/* GM [p, p + bytes) filled with one value (InitGlobalMemory, InitOutput:
 * `value`'s esize low bytes in every element): a write, but two fills of
 * the same value overlapping are not a race -- the bytes end the same
 * whichever lands last (ARC_GM_FILL records). */
void __arc_race_gm_fill(const void *p, unsigned long long bytes, unsigned long long value, unsigned esize,
                        const char *api);
/* The content of a GM write, for the check between cores: the sum over the
 * elements written of __arc_gm_mix(element address, its bits).  A write
 * logged by __arc_race_gm (ARC_GM_WRITE, [p, p + bytes)) and then given its
 * sum by __arc_race_gm_sum is no race with another core's unordered write
 * of the same bytes with the same sum: GM ends the same whichever lands
 * last (two AIVs of a Matmul with IBShare both writing all of C). */
static inline unsigned long long __arc_gm_mix(const void *at, unsigned long long bits)
{
    unsigned long long x = (unsigned long long)(__UINTPTR_TYPE__)at * 0x9e3779b97f4a7c15ull ^ bits;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}
void __arc_race_gm_sum(const void *p, unsigned long long bytes, unsigned long long sum);

/* Loads and stores of the kernel's own code through pointers (not the
 * device API's: it reports its own), instrumented by the compiler
 * (rtc/raw_access.cpp, rt/analysis/race_raw.c): __arc_race_raw_on, once per
 * function, says whether either race check is on; __arc_race_raw reports
 * `bytes` at p, write 0 a load, 1 a store, at kernel source line `site`. */
int __arc_race_raw_on(void);
void __arc_race_raw(const void *p, unsigned long long bytes, int write, const char *site);
/* The accesses one instruction makes in a loop (or masked, or gathered),
 * kept as they are made and reported at the function's next call or
 * return (rt/race_stream.c): the compiled code compares each address with
 * `next` and, when it continues the run, only moves `next` on by `step`;
 * anything else is __arc_race_stream*'s.  A run ended is merged into a
 * pattern of pieces (a row of each thread, the rows of a tile) before it
 * is reported, so a block's loop reports a few ranges, not every access.
 * Zeroed state is empty; the layout is the compiler's (rtc/raw_access.cpp). */
typedef struct arc_raw_site {
    unsigned long long bytes; /* of one access (a vector's lanes together) */
    int write, lanes;         /* lanes: of a masked or gathered access, else 1 */
    const char *site;
} arc_raw_site;
typedef struct arc_raw_stream {
    unsigned long long next; /* the address that continues the run (0: none) */
    long long step;
    unsigned long long lo, state;            /* first address; 0 empty, 1 one access, 2 a run */
    unsigned long long plo, pw, pstep, pcnt; /* the pattern: pcnt pieces of pw bytes, pstep apart */
} arc_raw_stream;
void __arc_race_stream(arc_raw_stream *s, const void *p, const arc_raw_site *d);
void __arc_race_stream_masked(arc_raw_stream *s, const void *p, unsigned long long mask, const arc_raw_site *d);
void __arc_race_stream_gather(arc_raw_stream *s, const void *const *p, unsigned long long mask,
                              const arc_raw_site *d);
void __arc_race_flush(arc_raw_stream *s, const arc_raw_site *d, int n);

/* The cost model (csrc/rt/analysis/cost.c) rides on the race hooks: while a launch
 * is profiled, dev[ARC_RACE_SLOT] also has ARC_COST_ON set (so the hooks
 * run even with the race check off), dev[ARC_COST_SLOT] holds the block's
 * record (runtime-owned) and the device API stores the element size of the
 * vector operation it is about to report in dev[ARC_COST_ESIZE_SLOT]. */
#define ARC_COST_ON 4ull
/* dev[ARC_RACE_SLOT] also has ARC_VF_PENDING set while a hybrid kernel's
 * SIMT VF of this core is in flight (rt/cores/simt_vf.c), so the sync
 * hooks run: a wait for PIPE_V lets it finish. */
#define ARC_VF_PENDING 8ull
/* dev[ARC_RACE_SLOT] also has ARC_SIMD_VF set while asc_vf_call runs a
 * SIMD VF (arc/reg.h): its pointer accesses to UB (a scalar read by
 * AuxScalar, `scalarAddr[i]`) are the vector pipe's, not the scalar unit's
 * (rt/analysis/race_raw.c). */
#define ARC_SIMD_VF 16ull
/* dev[ARC_RACE_GM_SLOT] of a profiled core without a GM race log: the GM
 * hooks run for the cost model alone. */
#define ARC_GM_COST_ONLY 1ull
/* The Matmul API computes on the host; it reports each block's cube work
 * to the cost model (csrc/rt/analysis/cost_cube.c) in one call: m x n x k in
 * base_k chunks, loaded step_ka / step_kb chunks at a time by MTE2 from GM
 * into L1 (A at a, B at b, rows lda / ldb bytes apart; k_rows: K runs down
 * the rows; NULL: a local or scalar operand, no GM load), each chunk moved
 * by MTE1 into L0A/L0B, then the Mmad;
 * __arc_cost_mm_out: Fixpipe moves the block's `bytes` out of L0C. */
typedef struct arc_cost_mm {
    const void *a, *b;
    unsigned long long lda, ldb;
    int a_krows, b_krows;
    unsigned m, n, k, base_k, esize, step_ka, step_kb;
} arc_cost_mm;
void __arc_cost_mm(const arc_cost_mm *c);
void __arc_cost_mm_out(unsigned long long bytes);
#define ARC_COST_SLOT (ARC_CORE_DEV_SLOTS - 3)
#define ARC_COST_ESIZE_SLOT (ARC_CORE_DEV_SLOTS - 2)
/* The element size the cube reports for int4b_t (half a byte): a 512-byte
 * fractal then holds K = 64 (the Cube instruction performance page's k0). */
#define ARC_COST_ESIZE_S4 0x40u

/* The kernel source line ("file:line", or NULL when unknown) of the next
 * runtime service call; the compiler inserts it before each (rtc/sites.cpp)
 * so errors name the user's line. */
void __arc_site(const char *where);
/* The same, kept per core for fault and hang reports (the last marked
 * device-API call a core passed; zeroed at block start). */
#define ARC_SITE_SLOT (ARC_CORE_DEV_SLOTS - 5)
/* ARC_SITE_SLOT is the lowest of the runtime's slots: the device API's own
 * (arc/state.h DevSlot) stay below it, which state.h asserts. */

/* GM bounds of a SIMD kernel's own accesses through its pointer parameters
 * (rtc/param_bounds.cpp, rt/cores/gm_bounds.c): the launch's table, two
 * words {lo, span} per parameter (arc/simt_abi.h's gm[]), and the report
 * of an access of `bytes` at p through parameter param & 0xff (bit 8: a
 * store) outside them, which fails the launch naming the line (site). */
const unsigned long long *__arc_gm_bounds(void);
void __arc_gm_oob(const void *p, unsigned long long bytes, unsigned param, const char *site)
    __attribute__((noreturn));

/* Every runtime function loaded kernels may call, for the loader's symbol
 * table (X(name)).  A new service is declared above, implemented in the
 * runtime and listed here. */
#define ARC_KERNEL_SYMBOLS(X) \
    X(__arc_core)             \
    X(__arc_sync_all)         \
    X(__arc_block_poll)       \
    X(__arc_trap)             \
    X(__arc_printf)           \
    X(__arc_printf_v)         \
    X(__arc_gm_check)         \
    X(__arc_cross_core)       \
    X(__arc_mix_ub)           \
    X(__arc_cross_set_all)    \
    X(__arc_race_access)      \
    X(__arc_race_reg_use)     \
    X(__arc_race_reg_drop)    \
    X(__arc_race_sync)        \
    X(__arc_race_gm)          \
    X(__arc_race_gm_fill)     \
    X(__arc_race_gm_sum)      \
    X(__arc_race_raw_on)      \
    X(__arc_race_raw)         \
    X(__arc_race_stream)      \
    X(__arc_race_stream_masked) \
    X(__arc_race_stream_gather) \
    X(__arc_race_flush)       \
    X(__arc_cost_mm)          \
    X(__arc_cost_mm_out)      \
    X(__arc_site)             \
    X(__arc_copy_bytes)       \
    X(__arc_que_alloc)        \
    X(__arc_que_enque)        \
    X(__arc_que_deque)        \
    X(__arc_que_free)         \
    X(__arc_store_bytes)      \
    X(__arc_pipe_carve)       \
    X(__arc_dc_in)            \
    X(__arc_dc_out)           \
    X(__arc_dc_local)         \
    X(__arc_dc_local_check)   \
    X(__arc_gm_view)          \
    X(__arc_check_cnt)        \
    X(__arc_check_l0)         \
    X(__arc_check_overlap)    \
    X(__arc_check_overlap_l0) \
    X(__arc_whole_f32)        \
    X(__arc_brcb)             \
    X(__arc_store_atomic32)   \
    X(__arc_int_div)          \
    X(__arc_simt_block)       \
    X(__arc_simt_vf)          \
    X(__arc_simt_ub_race)     \
    X(__arc_simt_ub_affine)   \
    X(__arc_simt_gm_oob)      \
    X(__arc_gm_bounds)        \
    X(__arc_gm_oob)           \
    X(__arc_vf_poll)          \
    X(__arc_static_mem)

#ifdef __cplusplus
}
#endif
#endif /* ARC_CORE_ABI_H_ */
