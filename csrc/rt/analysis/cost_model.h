/* cost_model.h - what the cost model's two files share: cost.c prices
 * each block's operations as they run, cost_report.c places the blocks on
 * the SoC's cores and reports the launch.  Private to csrc/rt. */
#ifndef SIM_COST_MODEL_H_
#define SIM_COST_MODEL_H_

#include <pthread.h>

#include "rt/rt_internal.h"

#define CP 7          /* S V M MTE1 MTE2 MTE3 FIX, as race.c */
#define QDEPTH 32     /* pipe queue depth (ARCH: MTE1 and MMAD queues); a full queue stalls issue */
#define ISSUE 1.0     /* [assumed] scalar cycles to issue one instruction (mask setters: 1 cycle [doc]) */
#define VEC_HEAD 2.0  /* [meas] the first repeat costs about 3 cycles: 2 beyond the steady rate */
#define MAX_BLOCKS 8192u      /* larger launches are not profiled (memory) */
#define EVENT_BUDGET 400000u  /* timeline events kept per launch; the totals count every operation */

typedef struct cost_ev {
    double start, end;
    const char *api, *site;
    uint64_t bytes;
    uint32_t phase;
    uint8_t pipe, assumed;
} cost_ev;

typedef struct qtime {
    uintptr_t key;
    int dst;
    double t;
} qtime;

typedef struct cost_block {
    double free[CP]; /* when each pipe finishes what it was given */
    double s;        /* the scalar unit's issue clock */
    double busy[CP];
    double flag[CP][CP][8];      /* when SetFlag(src, dst, id) fires */
    double qstart[CP][QDEPTH];   /* start times of each pipe's last QDEPTH operations */
    uint64_t nissued[CP];
    qtime q[64];
    unsigned nq;
    cost_ev cur;   /* the open operation (its operands arrive one by one) */
    int cur_open;
    /* what the open operation has seen: a write; sizes by role (the cube's
     * L0A, L0B and L0C operands; the largest operand; the write's space) */
    int cur_w, cur_l0c, cur_dst_sp, cur_nread;
    uint64_t cur_a, cur_b, cur_c, cur_src;
    double *marks; /* times of SyncAll */
    uint32_t nmarks, capmarks;
    cost_ev *ev;
    size_t nev, capev, maxev;
    uint64_t dropped, nops, gm_rd, gm_wr;
    double first_drop;  /* when the first operation the timeline did not keep started */
    double flops, cur_flops; /* cube operations (2 per multiply-add), the open Mmad's */
    /* The core's share of the chip's GM budget (cost_gm.c): cycles per byte
     * from HBM (misses, write-backs) and from L2 (hits); its GM port's
     * reservations, [start, end) pairs by start; port cycles of GM accesses
     * reported before their operation opened. */
    double hbm_cpb, l2_cpb;
    double *port;
    unsigned nport, capport;
    double pend[CP];
    uintptr_t not_gm_page; /* the last page a raw pointer hit outside device memory */
    /* The core's own L2 history (cost_l2.c): its lines read and written,
     * by chunk in an open-addressing table; the allocations it touched
     * (bits by region) and their bytes; bytes it read from device memory
     * and from host memory (no L2). */
    struct l2_chunk **seen;
    unsigned nseen, capseen;
    uint64_t l2_regions, dev_rd, hbm_host;
    double footprint;
    double cur_port; /* when the open operation's GM port reservations end */
    struct sim_cost_launch *launch;
    /* the Matmul API's buffers (cost_cube.c): when each L1 half of A and B
     * was last read and filled, each L0A/L0B half last read, the last
     * Mmad and Fixpipe; chunks and load groups so far */
    double mm_a_free[2], mm_b_free[2], mm_a_full[2], mm_b_full[2], mm_l0[2], mm_m, mm_fix;
    unsigned mm_k, mm_ga, mm_gb;
    double hz;
    /* cross-core flags set for this core (cost_mix.c): per flag id, the
     * times of the sets not yet waited for, oldest first */
    double xq[16][16];
    uint8_t xh[16], xn[16];
    unsigned char *l1, *l0;
    unsigned long long l1_size;
} cost_block;

/* 4096 lines (2 MiB) of a core's L2 history: bit set once it read (rd) or
 * wrote (wr) the line; key: the chunk's number + 1. */
typedef struct l2_chunk {
    uintptr_t key;
    uint64_t rd[64], wr[64];
} l2_chunk;

/* One device allocation's 512-byte lines, for the L2 model (cost_l2.c):
 * bit set once any core read (rd) or wrote (wr) a line in the launch. */
typedef struct l2_region {
    uintptr_t base;
    size_t size;
    _Atomic uint64_t *rd, *wr;
} l2_region;
#define L2_REGIONS 64

struct sim_cost_launch {
    const sim_cost_soc *soc;
    char kernel[128];
    uint32_t nblocks, cores, core_type;
    _Atomic int mix; /* a MIX launch (cost_mix.c) */
    int simt;        /* a SIMT launch: no block is priced */
    cost_block **blocks;
    cost_block **subs; /* a MIX launch's AIC and AIVs, MIX_SUBS per block (cost_mix.c) */
    pthread_mutex_t l2mu;
    l2_region l2[L2_REGIONS];
    _Atomic unsigned nl2;
};

/* Append the open operation of b to its timeline (or count it dropped). */
void sim_cost_close_op(cost_block *b);
/* The scalar unit issues one instruction into pipe q's queue; returns when
 * the pipe may start it. */
double sim_cost_issue(cost_block *b, int q);
/* Pipe d (model index) may run nothing before t. */
void sim_cost_hold(cost_block *b, int d, double t);
/* Charge rows of a GM transfer to the open operation on pipe q: `rows`
 * runs of `len` bytes, `stride` apart, from p (cost_gm.c). */
void sim_cost_gm_rows(cost_block *b, int q, int write, const void *p, uint64_t rows, uint64_t len, uint64_t stride);
/* Index of pipe_t value p in the model's pipes (-1: none). */
int sim_cost_pidx(int pipe_t_value);
/* The calling core's record (NULL: not profiled). */
cost_block *sim_cost_blk(void);
/* Charge the GM port cycles a newly opened operation on pipe q was
 * given before it opened (cost_gm.c). */
void sim_cost_gm_open(cost_block *b, int q);
/* The L2 region of the device allocation holding a (NULL: host memory or
 * too many allocations) (cost_l2.c). */
l2_region *sim_cost_l2_region(sim_cost_launch *c, uintptr_t a);
/* The bytes of b's access to [p, p + n) that HBM moves, from b's own
 * history; records the access in the chip's union (cost_l2.c). */
uint64_t sim_cost_l2_hbm(cost_block *b, const void *p, uint64_t n, int write);
/* The chip's HBM bytes for the launch: every line read and written once,
 * re-reads (dev_rd beyond the lines read) missing as far as the footprint
 * exceeds L2, and host bytes (cost_l2.c). */
uint64_t sim_cost_l2_chip_hbm(sim_cost_launch *c, uint64_t dev_rd, uint64_t host);
/* A block's record for core k, bound to it (NULL: no memory); freed. */
cost_block *sim_cost_block_new(sim_cost_launch *c, arc_core *k);
void sim_cost_block_free(cost_block *b);
/* A MIX launch's sub-cores folded into one record per block (cost_mix.c). */
#define MIX_SUBS 3
void sim_cost_mix_fold(sim_cost_launch *c);
/* The launch's L2 regions freed; a block's history freed (cost_l2.c). */
void sim_cost_l2_free(sim_cost_launch *c);
void sim_cost_l2_block_free(cost_block *b);
/* The SoC the session prices for (NULL: the device's). */
const sim_cost_soc *sim_cost_session_soc(void);

#endif /* SIM_COST_MODEL_H_ */
