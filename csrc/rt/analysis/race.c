/* race.c - the pipe race detector of the simulated core.
 *
 * The simulated core runs every pipe in program order, so a kernel that
 * forgets a WaitFlag computes the right answer here and the wrong one on
 * an NPU.  This finds such kernels: each device-API access to UB, L1 or L0 is
 * attributed to the pipe the NPU runs it on (docs/simulated_npu.md, "Race
 * detection", has the table), and happens-before between pipes comes from
 * what orders them on the hardware: SetFlag/WaitFlag, PipeBarrier<PIPE_ALL>,
 * the flags queue EnQue/DeQue and FreeTensor/AllocTensor imply, SyncAll, the
 * compiler's automatic scalar<->pipe syncs around GetValue/SetValue, and
 * the issue order (a pipe's instruction sees what the scalar unit did
 * before issuing it).  Two accesses on different pipes to overlapping bytes,
 * one a write, neither ordered before the other, are a race.  The kernel's
 * own loads and stores through pointers into UB are the scalar unit's
 * (sim_race_scalar, reached from race_raw.c).
 *
 * The clocks are vector clocks per pipe (msSanitizer's inter-pipe
 * analysis).  The shadow of each memory space is a sorted list of segments
 * of equal state (last write: pipe, epoch, event; last read per pipe), so a
 * tile-sized access costs a few segment operations, not one per byte.
 *
 * Within one pipe instructions start in order but one may start before the
 * previous has finished its memory accesses (msSanitizer's within-pipe
 * analysis): two instructions of one pipe at most SAME_WINDOW apart, with
 * overlapping ranges, one a write, and nothing telling the pipe the first
 * has finished (PipeBarrier<pipe>, PIPE_ALL, or a flag or queue wait whose
 * clock covers it) are a race too.  PIPE_V is left out: on dav-2201 the
 * compiler's auto-sync puts the PipeBarrier<PIPE_V> between dependent
 * vector instructions itself (on by default in every CANN build) and the
 * 950 orders V in hardware; and an accumulating Mmad whose L0C tile spans
 * 10 or more 16x16 fractals is ordered by the cube (docs/simulated_npu.md,
 * "Race detection").  GM races between cores are race_gm.c's; GM hazards
 * within one core (an MTE3 store read back by MTE2, overlapping stores of
 * different data) are this file's, in a fourth space keyed by address.
 *
 * All state is per core thread (a fiber block and each AIC/AIV of a MIX
 * block keep their own, swapped in by core_mix.c) and reset at every block
 * start. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/analysis/race_state.h"
#include "rt/rt_internal.h"

#define SAME_WINDOW 16u     /* msSanitizer: instructions further apart in one pipe have finished */
#define SAME_PIPES 0x7cu    /* pipes checked within themselves: M MTE1 MTE2 MTE3 FIX (bit per index) */
#define MMAD_ORDERED 10240u /* an L0C tile of 10 fractals (1 KiB each): the cube orders accumulation */

static const char *const pipe_names[NP] = {"PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3",
                                           "PIPE_FIX"};

static __thread race_state *st;
static pthread_key_t st_key;
static pthread_once_t st_once = PTHREAD_ONCE_INIT;

static void st_free(void *p)
{
    race_state *r = p;
    for (int i = 0; i < 4; i++)
        space_free(&r->sp[i]);
    free(r);
}
static void st_key_make(void) { pthread_key_create(&st_key, st_free); }

/* A block run as a fiber (core_fibers.c) keeps its own state: it may move between
 * threads, and several blocks share one thread. */
void *sim_race_state_new(void) { return calloc(1, sizeof(race_state)); }
void sim_race_state_free(void *s) { if (s) st_free(s); }
void *sim_race_swap(void *s)
{
    race_state *old = st;
    st = s;
    sim_race_held_drop(); /* held reports belong to the block that made them */
    return old;
}

/* The published clock of flag (s, d, id), zeroed when it is from an older block. */
static uint32_t *flag_of(int s, int d, int id)
{
    if (st->flag_gen[s][d][id] != st->gen) {
        st->flag_gen[s][d][id] = st->gen;
        memset(st->flag[s][d][id], 0, sizeof st->flag[s][d][id]);
    }
    return st->flag[s][d][id];
}

static int pipe_index(int pipe_t_value)
{
    switch (pipe_t_value) {
    case 0: case 1: case 2: case 3: case 4: case 5: return pipe_t_value;
    case 10: return 6; /* PIPE_FIX */
    default: return -1;
    }
}

static void join(uint32_t *a, const uint32_t *b)
{
    for (int i = 0; i < NP; i++) /* branch-free: clocks join on every sync and access */
        a[i] = b[i] > a[i] ? b[i] : a[i];
}

void sim_race_block_begin(arc_core *k, int mode, uint64_t seq)
{
    k->dev[ARC_RACE_SLOT] = (unsigned long long)mode;
    if (mode == ARC_RACE_OFF) {
        if (st) st->mode = ARC_RACE_OFF; /* the cost model may still call the hooks */
        return;
    }
    if (!st) {
        pthread_once(&st_once, st_key_make);
        st = calloc(1, sizeof *st);
        if (!st) { /* no memory: run unchecked rather than fail the launch */
            k->dev[ARC_RACE_SLOT] = 0;
            return;
        }
        pthread_setspecific(st_key, st);
    }
    st->mode = mode;
    st->launch = seq;
    st->nev = st->warned = st->nq = 0;
    st->gen++;
    sim_zero(st->vc, sizeof st->vc); /* per block: not inlined as rep stos (arena.c) */
    memset(st->done, 0, sizeof st->done);
    st->cur_pipe = -1;
    st->hold = st->check_only = st->record_only = 0;
    st->reuse_ev = st->nrd = st->rd_next = 0;
    for (int i = 0; i < 4; i++)
        space_clear(&st->sp[i]);
    sim_race_held_drop();
}

static const ev *ev_get(uint32_t id)
{
    if (id == 0 || st->nev - id >= EV_RING) return NULL; /* none, or overwritten */
    return &st->ring[id % EV_RING];
}

static void describe(char *buf, size_t n, const ev *e, int pipe, const char *verb, uint64_t base)
{
    if (e)
        snprintf(buf, n, "%s (%s%s%s) %s [%llu, %llu)", e->api ? e->api : "?", pipe_names[pipe],
                 e->site ? " at " : "", e->site ? e->site : "", verb, (unsigned long long)(e->lo - base),
                 (unsigned long long)(e->hi - base));
    else
        snprintf(buf, n, "an earlier %s operation %s it", pipe_names[pipe], verb);
}

/* The memory a race is in; L0 offsets name the buffer (offsets are
 * reported from the start of the L0 block, core_abi.h's ARC_*_OFF). */
static const char *space_name(int space_ix, uint64_t lo)
{
    if (space_ix == 3) return "GM";
    if (space_ix == 0) return "UB";
    if (space_ix == 1) return "L1";
    return lo < ARC_L0B_OFF ? "L0A" : lo < ARC_L0C_OFF ? "L0B" : lo < 3u * ARC_L0_SLOT ? "L0C" : lo < ARC_FB_OFF ? "BiasTable"
                                                                                                : "the Fixpipe buffer";
}

static void report(const char *kind, int space_ix, int prev_pipe, uint32_t prev_ev, int pipe, int write,
                   uint64_t lo, uint64_t hi, const char *api)
{
    char a[256], b[256], body[1200], where[96];
    const ev *pe = ev_get(prev_ev);
    uint64_t base = 0; /* GM: offsets in the allocation */
    sim_alloc al;
    if (space_ix == 3 && sim_mem_find((const void *)(uintptr_t)lo, &al)) base = al.base;
    if (space_ix == 3)
        snprintf(where, sizeof where, "GM (byte offsets in the allocation at %#llx)", (unsigned long long)base);
    else
        snprintf(where, sizeof where, "%s", space_name(space_ix, lo));
    describe(a, sizeof a, pe, prev_pipe, pe ? (pe->write ? "wrote" : "read") : strstr(kind, "after read") ? "read" : "wrote",
             base);
    const char *site = sim_site();
    snprintf(b, sizeof b, "%s (%s%s%s) %s [%llu, %llu)", api ? api : "?", pipe_names[pipe], site ? " at " : "",
             site ? site : "", write == 2 ? "reads and writes" : write ? "writes" : "reads",
             (unsigned long long)(lo - base), (unsigned long long)(hi - base));
    if (prev_pipe == pipe)
        snprintf(body, sizeof body,
                 "data race (%s within %s) on %s: %s, then %s, with nothing ordering them; on the NPU a pipe starts "
                 "its instructions in order, but the second may start before the first has finished its memory "
                 "accesses (add PipeBarrier<%s>() between them). The simulator runs pipes in order and checks this; "
                 "ASCENDRTC_RACE_CHECK=warn or off relaxes it",
                 kind, pipe_names[pipe], where, a, b, pipe_names[pipe]);
    else
        snprintf(body, sizeof body,
                 "data race (%s) on %s: %s, then %s, with nothing ordering them; on the NPU the two pipes run "
                 "concurrently (add %s, or PipeBarrier<PIPE_ALL>()). The simulator runs pipes in order and checks "
                 "this; ASCENDRTC_RACE_CHECK=warn or off relaxes it",
                 kind, where, a, b, sim_race_cure(prev_pipe, pipe));
    uint64_t from = lo > st->acc_lo ? lo - st->acc_lo : 0; /* the racing bytes' first, in the access */
    if (st->hold && from && sim_race_hold((uint32_t)from, body))
        return;
    sim_race_emit(body, st->mode, st->launch, &st->warned);
}

/* Whether this access is another operand of the open instruction (one
 * device-API call reports its operands one by one, as cost.c reads them):
 * vector calls name dst first, then the sources; LoadData and Mmad the
 * sources, then dst; Fixpipe reads L0C last; a copy to or from GM has one
 * local operand.  Opens a new instruction otherwise. */
static int same_instruction(int q, int write, int l0c, const char *api)
{
    int same = st->cur_pipe == q && st->cur_api == api, cont;
    if (same && st->cur_gm_first && !st->cur_local) { /* a copy that reported its GM side first */
        st->cur_local = 1;
        return 1;
    }
    switch (q) {
    case 1: cont = same && !write; break;
    case 2: case 3: cont = same && !st->cur_w; break;
    case 6: cont = same && !st->cur_l0c; break;
    default: cont = 0; break;
    }
    if (!cont) {
        st->cur_pipe = q;
        st->cur_api = api;
        st->cur_w = st->cur_l0c = st->cur_gm_first = 0;
    }
    st->cur_local = 1;
    if (write) st->cur_w = 1;
    if (l0c && !write) st->cur_l0c = 1;
    return cont;
}

/* GM stores that rewrite bytes with what they already hold change nothing
 * (the NPU's result is the same in either order): the part of [lo, hi) in
 * segment s the pending store (st->gm_data, for [glo, ...)) leaves as is.
 * Unknown data counts as different. */
static int same_bytes(const seg *s, uint64_t glo, uint64_t lo, uint64_t hi)
{
    uint64_t a = s->lo > lo ? s->lo : lo, z = s->hi < hi ? s->hi : hi;
    return st->gm_data && z > a && !memcmp((const unsigned char *)st->gm_data + (a - glo), (const void *)(uintptr_t)a,
                                           z - a);
}

/* The access [lo, hi) of space si by instruction `epoch` of pipe q against
 * the shadow; `same`: check within q too.  In GM (si 3) a write that leaves
 * the bytes as they are races with no earlier write, and a write within one
 * pipe is checked only when its data is known. */
static void shadow_access(int si, int q, int write, int sparse, uint64_t lo, uint64_t hi, uint32_t epoch, int same,
                          const char *api)
{
    const uint32_t *me = st->vc[q];
    /* pipe q's own earlier instructions this one may overlap with */
    uint32_t fin = st->done[q];
    if (epoch > SAME_WINDOW && epoch - SAME_WINDOW > fin) fin = epoch - SAME_WINDOW;
    uint32_t id = st->reuse_ev;
    if (!id) {
        id = ++st->nev;
        ev *e = &st->ring[id % EV_RING];
        e->api = api;
        e->site = sim_site();
        e->lo = lo;
        e->hi = hi;
        e->pipe = q;
        e->write = write;
    }
    space *sp = &st->sp[si];
    int gm = si == 3;
    /* The common case, a tile accessed as a whole again, is exactly one
     * segment, updated in place: its new state holds this access's event
     * id, which no other segment has, so nothing merges with it. */
    size_t i0 = first_after(sp, lo), i;
    int exact = i0 < sp->n && at(sp, i0)->lo == lo && at(sp, i0)->hi == hi;
    if (!exact && cover(sp, lo, hi, &i0)) return; /* out of memory: stop tracking this access */
    for (i = i0; i < sp->n && at(sp, i)->lo < hi; i++) {
        seg *s = at(sp, i);
        int raced = st->record_only;
        if (!raced && write) { /* reads since the last write are later than it: name the latest first */
            int rr = -1;
            for (int r = 0; r < NP; r++)
                if (r != q && s->r_epoch[r] && me[r] < s->r_epoch[r] && (rr < 0 || s->r_ev[r] > s->r_ev[rr]))
                    rr = r;
            if (rr >= 0) {
                report("write after read", si, rr, s->r_ev[rr], q, write, s->lo, s->hi, api);
                raced = 1;
            }
        }
        /* a GM store over an earlier store: compared only when it would race */
        int over = gm && write == 1 && s->w_epoch;
        if (!raced && s->w_epoch && s->w_pipe != q && me[s->w_pipe] < s->w_epoch &&
            !(over && same_bytes(s, lo, lo, hi))) {
            report(write == 1 ? "write after write" : "read after write", si, s->w_pipe, s->w_ev, q, write, s->lo,
                   s->hi, api);
            raced = 1;
        }
        if (!raced && same) { /* within the pipe: an earlier instruction not known finished */
            if (s->w_epoch && s->w_pipe == q && s->w_epoch != epoch && s->w_epoch > fin && !s->w_sparse &&
                !(gm && (!st->gm_data || same_bytes(s, lo, lo, hi))))
                report(write == 1 ? "write after write" : "read after write", si, q, s->w_ev, q, write, s->lo,
                       s->hi, api);
            else if (write && s->r_epoch[q] && s->r_epoch[q] != epoch && s->r_epoch[q] > fin &&
                     !(s->r_sparse >> q & 1))
                report("write after read", si, q, s->r_ev[q], q, write, s->lo, s->hi, api);
        }
        if (st->check_only) {
        } else if (write) {
            s->w_pipe = (uint8_t)q;
            s->w_epoch = epoch;
            s->w_ev = id;
            s->w_sparse = sparse != 0;
            s->r_sparse = 0;
            memset(s->r_epoch, 0, sizeof s->r_epoch);
            memset(s->r_ev, 0, sizeof s->r_ev);
        } else {
            s->r_epoch[q] = epoch;
            s->r_ev[q] = id;
            s->r_sparse = (uint8_t)(sparse ? s->r_sparse | 1u << q : s->r_sparse & ~(1u << q));
        }
    }
    if (!exact) merge(sp, i0 ? i0 - 1 : 0, i + 1);
}

/* A new instruction on pipe q: issued by the scalar unit after what it did
 * and saw; returns its epoch. */
static uint32_t open_instruction(int q)
{
    uint32_t *me = st->vc[q];
    if (q != 0) join(me, st->vc[0]);
    if (st->vc[0][q] > st->done[q]) st->done[q] = st->vc[0][q];
    return ++me[q];
}

void __arc_race_access(int pipe_t_value, int write, const void *p, unsigned long long bytes, const char *api)
{
    int sparse = write & ARC_RACE_SPARSE, hold = write & ARC_RACE_REG;
    write &= 3;
    arc_core *k = __arc_core();
    if (__builtin_expect(k->dev[ARC_COST_SLOT] != 0, 0)) sim_cost_access(pipe_t_value, write, p, bytes, api);
    if (!st || st->mode == ARC_RACE_OFF || bytes == 0) return;
    int q = pipe_index(pipe_t_value);
    if (q < 0) return;
    const unsigned char *a = (const unsigned char *)p;
    int si;
    uint64_t lo;
    if (a >= k->ub && a < k->ub + k->ub_size) {
        si = 0;
        lo = (uint64_t)(a - k->ub);
    } else if (k->l1 && a >= k->l1 && a < k->l1 + k->l1_size) {
        si = 1;
        lo = (uint64_t)(a - k->l1);
    } else if (k->l0 && a >= k->l0 && a < k->l0 + ARC_L0_META_OFF) {
        si = 2;
        lo = (uint64_t)(a - k->l0);
    } else {
        return; /* GM or elsewhere: not tracked */
    }
    /* 32-byte blocks: the NPU moves and computes whole blocks. */
    uint64_t hi = (lo + bytes + 31) & ~31ull;
    lo &= ~31ull;
    int cont = same_instruction(q, write, si == 2 && lo >= ARC_L0C_OFF && lo < 3u * ARC_L0_SLOT, api);
    uint32_t epoch = cont ? st->vc[q][q] : open_instruction(q);
    int same = (SAME_PIPES >> q & 1) && !sparse && !(q == 2 && write && bytes >= MMAD_ORDERED);
    if (!hold || write || hi - lo <= 32) {
        shadow_access(si, q, write, sparse, lo, hi, epoch, same, api);
        return;
    }
    /* a whole-register load: checked in full (races past its first block
     * held), recorded as a read of its first block only */
    st->hold = st->check_only = 1;
    st->acc_lo = lo;
    shadow_access(si, q, 0, sparse, lo, hi, epoch, same, api);
    st->hold = st->check_only = 0;
    st->record_only = 1;
    st->reuse_ev = st->nev;
    shadow_access(si, q, 0, sparse, lo, lo + 32, epoch, same, api);
    /* the last 8 loads: an older one's register has been used by now, as
     * far as its predicates reached (registers are reloaded in loops) */
    unsigned n = sizeof st->rd / sizeof st->rd[0], j = st->nrd < n ? st->nrd++ : (st->rd_next++ % n);
    st->rd[j].si = (uint8_t)si;
    st->rd[j].q = (uint8_t)q;
    st->rd[j].epoch = epoch;
    st->rd[j].ev = st->reuse_ev;
    st->rd[j].lo = lo;
    st->rd[j].hi = hi;
    st->rd[j].done = lo + 32;
    st->record_only = 0;
    st->reuse_ev = 0;
}

/* A predicate reaching `end` bytes of a register: the VF's whole-register
 * loads read that far (recorded now, under their own events), and their
 * held races there are reported. */
void __arc_race_reg_use(unsigned long long end, const char *api)
{
    if (!st || st->mode == ARC_RACE_OFF) return;
    st->record_only = 1;
    for (unsigned i = 0; i < st->nrd; i++) {
        uint64_t e = (st->rd[i].lo + end + 31) & ~31ull;
        if (e > st->rd[i].hi) e = st->rd[i].hi;
        if (e <= st->rd[i].done) continue;
        st->reuse_ev = st->rd[i].ev;
        shadow_access(st->rd[i].si, st->rd[i].q, 0, 0, st->rd[i].done, e, st->rd[i].epoch, 0, api);
        st->rd[i].done = e;
    }
    st->record_only = 0;
    st->reuse_ev = 0;
    sim_race_held_use((uint32_t)end, api, st->mode, st->launch, &st->warned);
}

void __arc_race_reg_drop(void)
{
    if (st) st->nrd = st->rd_next = 0;
    sim_race_held_drop();
}

void sim_race_gm_data(const void *src)
{
    if (st) st->gm_data = src;
}

/* The GM side of a device-API copy on pipe_t `pipe` (race_gm.c passes on
 * every one): bytes exact.  It belongs to the copy's instruction: the one
 * its local side opened (that side came first, or comes next), and every
 * run of a strided copy to the same one.  An atomic store (op
 * ARC_GM_ATOMIC) is checked against the other pipes only: atomic stores of
 * one pipe combine in any order. */
void sim_race_gm_local(int op, int pipe, const void *p, unsigned long long bytes, const char *api)
{
    const void *data = st ? st->gm_data : NULL;
    if (st) st->gm_data = NULL;
    if (!st || st->mode == ARC_RACE_OFF || bytes == 0 || op > ARC_GM_ATOMIC) return;
    int q = pipe_index(pipe);
    if (q <= 0) return; /* the scalar unit's GM accesses are race_gm.c's alone */
    if (api && !strncmp(api, "Matmul::", 8)) return; /* the Matmul API orders its own GM traffic (its calls wait) */
    uint32_t epoch;
    if (st->cur_pipe == q && st->cur_api == api && (!st->cur_gm_first || !st->cur_local)) {
        epoch = st->vc[q][q];
    } else {
        st->cur_pipe = q;
        st->cur_api = api;
        st->cur_w = st->cur_l0c = st->cur_local = 0;
        st->cur_gm_first = 1;
        epoch = open_instruction(q);
    }
    uint64_t lo = (uint64_t)(uintptr_t)p;
    st->gm_data = data;
    shadow_access(3, q, op != ARC_GM_READ, op == ARC_GM_ATOMIC ? ARC_RACE_SPARSE : 0, lo, lo + bytes, epoch,
                  op != ARC_GM_ATOMIC, api);
    st->gm_data = NULL;
}

/* A load or store the kernel's own code makes through a pointer into UB
 * (race_raw.c): the scalar unit's access, bytes exact.  The scalar unit
 * issues every other pipe's instructions, so nothing it did can be the
 * earlier half of a race (each pipe joins its clock at issue); it is only
 * checked against what the other pipes did before, never recorded.  The
 * compiler's auto-sync does not cover raw pointers (docs/simulated_npu.md,
 * "Pipe races"), so only SetFlag/WaitFlag<X_S>,
 * PipeBarrier<PIPE_ALL>, SyncAll or an earlier GetValue/SetValue (whose
 * auto-sync joined the pipes) order it. */
void sim_race_scalar(const void *p, unsigned long long bytes, int write, const char *api, const char *site)
{
    if (!st || st->mode == ARC_RACE_OFF || bytes == 0) return;
    arc_core *k = __arc_core();
    const unsigned char *a = (const unsigned char *)p;
    if (a < k->ub || a >= k->ub + k->ub_size) return; /* the scalar unit reaches UB and GM only */
    uint64_t lo = (uint64_t)(a - k->ub), hi = lo + bytes;
    st->cur_pipe = -1; /* a scalar instruction: the next device-API call starts a new one */
    /* A loop's next element in the range just found clean, nothing recorded
     * since: still clean (the scalar clock only grows). */
    if (st->raw_gen == st->gen && st->raw_nev == st->nev && lo >= st->raw_lo && hi <= st->raw_hi &&
        write <= st->raw_write)
        return;
    space *sp = &st->sp[0];
    const uint32_t *me = st->vc[0];
    size_t lo_i = first_after(sp, lo);
    uint64_t clean_lo = lo_i < sp->n && at(sp, lo_i)->lo < lo ? at(sp, lo_i)->lo : lo, clean_hi = hi;
    for (size_t i = lo_i; i < sp->n && at(sp, i)->lo < hi; i++) {
        const seg *s = at(sp, i);
        if (write) {
            int rr = -1;
            for (int r = 1; r < NP; r++)
                if (s->r_epoch[r] && me[r] < s->r_epoch[r] && (rr < 0 || s->r_ev[r] > s->r_ev[rr])) rr = r;
            if (rr >= 0) {
                __arc_site(site);
                report("write after read", 0, rr, s->r_ev[rr], 0, write, lo, hi, api);
                return;
            }
        }
        if (s->w_epoch && s->w_pipe != 0 && me[s->w_pipe] < s->w_epoch) {
            __arc_site(site);
            report(write ? "write after write" : "read after write", 0, s->w_pipe, s->w_ev, 0, write, lo, hi, api);
            return;
        }
        if (s->hi > clean_hi) clean_hi = s->hi;
    }
    st->raw_gen = st->gen;
    st->raw_nev = st->nev;
    st->raw_lo = clean_lo;
    st->raw_hi = clean_hi;
    st->raw_write = write;
}

static qclock *qfind(const void *key, int dst, int create)
{
    for (unsigned i = 0; i < st->nq; i++)
        if (st->q[i].key == key && st->q[i].dst == dst) return &st->q[i];
    if (!create) return NULL;
    if (st->nq == sizeof st->q / sizeof st->q[0]) return NULL;
    qclock *c = &st->q[st->nq++];
    memset(c, 0, sizeof *c);
    c->key = key;
    c->dst = dst;
    return c;
}

void __arc_race_sync(int kind, int src_pipe, int dst_pipe, unsigned long long key)
{
    if (__builtin_expect(__arc_core()->dev[ARC_RACE_SLOT] & ARC_VF_PENDING, 0)) sim_simt_vf_sync(kind, src_pipe);
    if (__builtin_expect(__arc_core()->dev[ARC_COST_SLOT] != 0, 0)) sim_cost_sync(kind, src_pipe, dst_pipe, key);
    if (!st || st->mode == ARC_RACE_OFF) return;
    int s = pipe_index(src_pipe), d = pipe_index(dst_pipe);
    st->cur_pipe = -1; /* the next access is a new instruction */
    switch (kind) {
    case ARC_RACE_SET: /* once the source pipe's earlier accesses are done */
        if (s < 0 || d < 0 || key >= 8) return;
        if (s != 0) join(st->vc[s], st->vc[0]);
        join(flag_of(s, d, (int)key), st->vc[s]);
        return;
    case ARC_RACE_WAIT: {
        if (s < 0 || d < 0 || key >= 8) return;
        uint32_t *f = flag_of(s, d, (int)key);
        join(st->vc[d], f);
        if (f[d] > st->done[d]) st->done[d] = f[d]; /* the source saw those of d's own finish */
        memset(f, 0, NP * sizeof *f); /* the flag is a bit: the wait clears it */
        return;
    }
    case ARC_RACE_QSET: {
        if (s < 0 || d < 0) return;
        if (s != 0) join(st->vc[s], st->vc[0]);
        qclock *c = qfind((const void *)(uintptr_t)key, d, 1);
        if (c) join(c->vc, st->vc[s]);
        return;
    }
    case ARC_RACE_QWAIT: {
        if (d < 0) return;
        qclock *c = qfind((const void *)(uintptr_t)key, d, 0);
        if (c) {
            join(st->vc[d], c->vc);
            if (c->vc[d] > st->done[d]) st->done[d] = c->vc[d];
            memset(c->vc, 0, sizeof c->vc);
        }
        return;
    }
    case ARC_RACE_ALL: { /* PipeBarrier<PIPE_ALL>, SyncAll: everything before orders everything after */
        uint32_t all[NP] = {0};
        for (int p = 0; p < NP; p++) join(all, st->vc[p]);
        for (int p = 0; p < NP; p++) {
            join(st->vc[p], all);
            st->done[p] = st->vc[p][p];
        }
        return;
    }
    case ARC_RACE_DRAIN: /* the scalar has seen pipe s finish: what it issues next is after */
        if (s >= 0) {
            join(st->vc[0], st->vc[s]);
            st->done[s] = st->vc[s][s];
        }
        return;
    case ARC_RACE_BARRIER: /* PipeBarrier<pipe>: its later instructions wait for its earlier ones */
        if (s >= 0) st->done[s] = st->vc[s][s];
        return;
    case ARC_RACE_SCALAR: /* the compiler's auto-sync: the scalar unit waits for V, MTE2, MTE3 */
        join(st->vc[0], st->vc[1]);
        join(st->vc[0], st->vc[4]);
        join(st->vc[0], st->vc[5]);
        return;
    default:
        return;
    }
}
