/* simt_abi.h - the contract between SIMT kernels (the simt_api headers, the rtc's
 * SIMT pass, rtc/simt_pass.cpp) and the runtime's block driver
 * (rt/cores/simt.c).  Plain C.
 *
 * A SIMT kernel is compiled as the code of one thread.  Its builtins
 * (threadIdx ... gridDim, the UB bases) are calls of __arc_simt_get, which
 * the pass replaces; asc_syncthreads and every warp function are calls the
 * pass turns into "points" where a thread returns to the driver, which
 * runs the block's threads as loops between points (loop fission) and
 * computes warp functions over the lanes that reached them (hierarchical
 * collapsing, as COX does).  Nothing here is called at run time by name
 * except the driver entry __arc_simt_block and the shared-UB race check's
 * __arc_simt_ub_race and __arc_simt_ub_affine. */
#ifndef ARC_SIMT_ABI_H_
#define ARC_SIMT_ABI_H_

#ifdef __cplusplus
extern "C" {
#endif

/* __arc_simt_get(which): threadIdx.x,y,z, blockIdx, blockDim, gridDim. */
enum {
    ARC_SIMT_TID = 0, ARC_SIMT_BID = 3, ARC_SIMT_BDIM = 6, ARC_SIMT_GDIM = 9,
    ARC_SIMT_NGET = 12
};

/* Warp function codes: op | type << 8 (__arc_simt_warp). */
enum {
    ARC_WARP_SHFL = 1, ARC_WARP_SHFL_UP, ARC_WARP_SHFL_DOWN, ARC_WARP_SHFL_XOR,
    ARC_WARP_ALL, ARC_WARP_ANY, ARC_WARP_BALLOT, ARC_WARP_ACTIVEMASK,
    ARC_WARP_RED_ADD, ARC_WARP_RED_MAX, ARC_WARP_RED_MIN,
    ARC_WARP_SYNC /* a tile's sync: every active lane of the warp arrives */
};
enum {
    ARC_WT_I32 = 0, ARC_WT_U32, ARC_WT_F32, ARC_WT_F16, ARC_WT_I64, ARC_WT_U64, ARC_WT_F64, ARC_WT_BF16
};

/* Each thread's frame starts with its warp-function exchange slot; the
 * values it keeps across points follow. */
typedef struct arc_simt_xch {
    int op, arg, width, pad;
    unsigned long long v, result;
} arc_simt_xch;

/* The most threads a block may have (dav-3510), and the default bound. */
#define ARC_SIMT_MAX_THREADS 2048
#define ARC_SIMT_DEFAULT_THREADS 1024
/* The most blocks a grid may have. */
#define ARC_SIMT_MAX_BLOCKS 65535

/* Point kinds.  A yield is the back edge of a spin loop (a loop whose
 * exit depends on a volatile or atomic read): the thread lets the others
 * (and a hybrid kernel's SIMD side) run before it tries again.  A lockstep
 * point is the back edge of a grid-stride loop (rtc/simt_lockstep.h): its
 * run takes every thread in the loop one iteration at a time until none
 * is left there. */
enum { ARC_SIMT_BARRIER = 0, ARC_SIMT_WARP = 1, ARC_SIMT_YIELD = 2, ARC_SIMT_LOCKSTEP = 3 };

/* One kernel's description, emitted by the pass as __arc_simt_desc_<i>. */
typedef struct arc_simt_block_ctx arc_simt_block_ctx;
typedef int (*arc_simt_run_fn)(arc_simt_block_ctx *b, const unsigned char *args);
/* What a run function returns: 0, or from a checked one that starts an
 * epoch, ARC_SIMT_RUN_UNCHECKED: its threads ran nothing, the unchecked
 * run[s] is to run them (its UB accesses proven race-free,
 * __arc_simt_ub_affine). */
#define ARC_SIMT_RUN_UNCHECKED 1
typedef struct arc_simt_desc {
    unsigned frame_size;        /* bytes per thread (>= sizeof(arc_simt_xch)) */
    unsigned npoints;           /* points 1..npoints; 0 is the kernel's start */
    unsigned static_ub;         /* bytes of static __ubuf__ arrays */
    unsigned args_size;         /* the packed parameters; the launch's dims follow */
    const arc_simt_run_fn *run; /* run[s]: every thread stopped at s to its next point */
    const unsigned char *kind;  /* kind[s] of point s (ARC_SIMT_BARRIER/WARP/...), s >= 1 */
    const char *const *where;   /* where[s]: "file:line" of point s */
    /* run[s] with each access to the block's shared UB checked for races
     * between its threads (rt/analysis/race_simt.c), NULL when the kernel
     * has no such access or spins (a spin loop orders through memory) */
    const arc_simt_run_fn *runc;
    const char *const *ub_sites; /* ub_sites[k]: "file:line" of checked UB access k (0: unknown) */
    /* behind + s * behind_words: the points behind yield s of a spin loop,
     * a bit set (rtc/simt_spin.h's spin_behind); NULL when no yield has any */
    const unsigned long long *behind;
    unsigned behind_words;
} arc_simt_desc;

/* The shared-UB race check's shadow (race_simt.c): per 4-byte UB word,
 * relative to the block's static UB, three entries -- the last writer, the
 * first reader and the last reader that is another thread -- each
 * epoch << 36 | warp syncs << 28 | site << 16 | byte mask << 12 | thread + 1.
 * The epoch grows at each block start and asc_syncthreads(); the warp
 * syncs count the warp functions of the thread's warp. */
#define ARC_UBSH_EPOCH_SHIFT 36
#define ARC_UBSH_WSYNC_SHIFT 28
#define ARC_UBSH_SITE_SHIFT 16
#define ARC_UBSH_MASK_SHIFT 12
#define ARC_UBSH_MAX_SITE 4095u

/* GM bounds (rtc/param_bounds.cpp, rt/cores/gm_bounds.c): each load, store
 * or atomic of a SIMT thread (or of a SIMD kernel's own code) through a
 * pointer derived from pointer parameter k < ARC_GM_PARAMS is checked
 * against gm[k] = {lo, span}: the allocation the parameter points into,
 * [lo, lo + span) (span 0 when it points into none, lo 0 and span ~0 with
 * the GM checks off). */
#define ARC_GM_PARAMS 16

/* A SIMT launch's shape (rt/acl/launch.c keeps it with the launch). */
typedef struct arc_simt_dims {
    unsigned grid[3], block[3];
    unsigned dyn_ub;
} arc_simt_dims;

/* The block the driver runs; run functions read it. */
struct arc_simt_block_ctx {
    unsigned get[ARC_SIMT_NGET]; /* [0..2] unused: threadIdx comes from the loop */
    unsigned nthreads;
    unsigned frame_size;
    unsigned char *ub;          /* static __ubuf__ at 0 */
    unsigned char *dyn_ub;      /* extern __ubuf__ T d[] */
    unsigned char *frames;      /* nthreads * frame_size, by slot (rtc/simt_frame.h): xch[nthreads] first */
    int *pend;                  /* per thread: the point it stopped at, -1 when it returned */
    int s;                      /* the point run[s] resumes */
    /* the driver's own (rt/cores/simt.c): rounds, and since when (ns), that
     * lanes at a warp function waited for lanes of their warp spinning */
    unsigned stall;
    unsigned long long stall_ns;
    /* the shared-UB race check's (race_simt.c; shadow NULL when off):
     * 3 entries per UB word, the words it covers, the epoch (shifted),
     * each warp's count of warp functions, the checked accesses' lines */
    unsigned long long *shadow;
    unsigned long long shadow_words;
    unsigned long long epoch;
    unsigned char wsync[ARC_SIMT_MAX_THREADS / 32];
    const char *const *ub_sites;
    unsigned warned;
    unsigned long long gm[ARC_GM_PARAMS][2]; /* the GM bounds, above */
    /* the shared-UB race check's affine path (race_simt.c): ub_fresh is 1
     * while the next run starts an epoch with every thread at its point;
     * ub_naff accesses of the last run wait to be stamped in the shadow */
    unsigned ub_fresh, ub_naff;
};

/* One shared-UB access of a checked run function that each thread makes
 * once, at an address affine in its index (rtc/simt_ubaffine.cpp): thread
 * (x, y, z) accesses `bytes` at off + x * step[0] + y * step[1] + z * step[2]
 * from the static UB (flags bit 1: from the dynamic UB); flags bit 0: a
 * store; site as __arc_simt_ub_race's. */
typedef struct arc_simt_ub_aff {
    long long off, step[3];
    unsigned bytes, flags, site, pad;
} arc_simt_ub_aff;
#define ARC_SIMT_MAX_AFF 16

/* The driver: runs one block of a SIMT kernel (rt/cores/simt.c). */
void __arc_simt_block(const arc_simt_desc *d, const unsigned char *args);
/* The checked run functions' shared-UB access that their inline check
 * does not settle (rt/analysis/race_simt.c): tid is the thread's linear
 * index, site its line's index in the kernel's ub_sites. */
void __arc_simt_ub_race(arc_simt_block_ctx *b, const void *p, unsigned long long bytes, int write, unsigned tid,
                        unsigned site);
/* A checked run function that starts an epoch with every thread at its
 * point, and whose shared-UB accesses are the n of a (rt/analysis/race_simt.c):
 * 1 when they provably stay in the UB and race with none of each other --
 * then the unchecked run does the work -- else 0: the checked run does. */
int __arc_simt_ub_affine(arc_simt_block_ctx *b, const arc_simt_ub_aff *a, unsigned n);
/* A thread's access of `bytes` at p through pointer parameter `param`
 * (bit 8 of it: a store) left gm[param] (rt/cores/gm_bounds.c): fails the
 * launch naming the thread, the line (site) and the parameter. */
void __arc_simt_gm_oob(const arc_simt_block_ctx *b, const void *p, unsigned long long bytes, unsigned param,
                       const char *site, unsigned x, unsigned y, unsigned z);
/* A hybrid kernel's asc_vf_call: runs the block entry in site (a site
 * record, arc/site.h) as one block of x*y*z threads on this core. */
void __arc_simt_vf(const void *site, unsigned x, unsigned y, unsigned z, const unsigned char *args);
/* A hybrid kernel's SIMD code calls this on each back edge of a spin loop:
 * a VF of this core that waits (its threads all spin) runs on a while. */
void __arc_vf_poll(void);

#ifdef __cplusplus
}
#endif
#endif /* ARC_SIMT_ABI_H_ */
