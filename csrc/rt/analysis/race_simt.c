/* race_simt.c - data races on a SIMT block's shared UB between its threads
 * (issue 25 item 4), found as compute-sanitizer's racecheck finds them in
 * CUDA shared memory: two threads of one block access the same bytes, one
 * of them writes, and no asc_syncthreads() lies between the accesses; and,
 * as its memcheck would, an access through a UB pointer outside the UB.
 *
 * The checked run functions (rtc/simt_ubcheck.cpp) stamp each access into
 * a shadow of the UB, three entries per 4-byte word (arc/simt_abi.h): the
 * last writer, the first reader, and the last reader that is another
 * thread.  An entry counts only in its epoch; epochs come from one counter
 * for the process, taken at each block start and each barrier, so entries
 * of another block or an earlier epoch never match and the shadow is
 * cleared only when the counter's field wraps.  A warp function orders the
 * lanes of its warp (an entry keeps its warp's count of them).  The
 * compiled fast path handles aligned words no other thread touched in the
 * epoch; everything else comes here.  Pure SIMT kernels only: a hybrid
 * kernel's VF reaches UB on PIPE_V, which the pipe race check watches. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rt_internal.h"

#define EPOCH_BITS (64 - ARC_UBSH_EPOCH_SHIFT)
#define WHO(x) ((unsigned)((x) & ((1u << ARC_UBSH_MASK_SHIFT) - 1)))
#define BYTES(x) ((unsigned)((x) >> ARC_UBSH_MASK_SHIFT & 0xf))
#define SITE(x) ((unsigned)((x) >> ARC_UBSH_SITE_SHIFT & ARC_UBSH_MAX_SITE))
#define WSYNC(x) ((unsigned char)((x) >> ARC_UBSH_WSYNC_SHIFT))

typedef struct shadow {
    unsigned long long *e; /* 3 entries per word */
    unsigned long long words, gen;
    arc_simt_ub_aff aff[ARC_SIMT_MAX_AFF]; /* the last run's affine accesses (ctx->ub_naff of them) */
} shadow;

static atomic_ullong epochs;      /* taken so far, by every block of every launch */
static atomic_ullong warn_launch; /* the launch warn_count counts for */
static atomic_uint warn_count;
static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void shadow_free(void *p)
{
    shadow *s = p;
    free(s->e);
    free(s);
}
static void key_make(void) { pthread_key_create(&key, shadow_free); }

/* A new epoch for b: entries stamped before it no longer count. */
static void next_epoch(arc_simt_block_ctx *b, shadow *s)
{
    unsigned long long n, field;
    do {
        n = atomic_fetch_add(&epochs, 1) + 1;
        field = n & ((1ull << EPOCH_BITS) - 1);
    } while (!field); /* 0: a cleared entry's */
    if (n >> EPOCH_BITS != s->gen) { /* the field wrapped: old entries could match */
        memset(s->e, 0, s->words * 3 * sizeof *s->e);
        s->gen = n >> EPOCH_BITS;
    }
    b->epoch = field << ARC_UBSH_EPOCH_SHIFT;
}

void sim_simt_ub_begin(arc_simt_block_ctx *b, const arc_simt_desc *d, unsigned long long ub_bytes)
{
    pthread_once(&once, key_make);
    shadow *s = pthread_getspecific(key);
    unsigned long long words = ub_bytes / 4;
    if (!s || s->words < words) {
        if (s)
            shadow_free(s);
        s = calloc(1, sizeof *s);
        if (s && !(s->e = calloc(words * 3, sizeof *s->e))) {
            free(s);
            s = NULL;
        }
        pthread_setspecific(key, s);
        if (!s) /* no memory: run unchecked rather than fail the launch */
            return;
        s->words = words;
    }
    b->shadow = s->e;
    b->shadow_words = words;
    b->ub_sites = d->ub_sites;
    b->ub_fresh = 1;
    next_epoch(b, s);
}

void sim_simt_ub_barrier(arc_simt_block_ctx *b)
{
    shadow *s = pthread_getspecific(key);
    if (s)
        next_epoch(b, s);
    memset(b->wsync, 0, sizeof b->wsync);
    b->ub_naff = 0; /* the last run's accesses, race-free among themselves, were all of the epoch */
    b->ub_fresh = 1;
}

static const char *site_of(const arc_simt_block_ctx *b, unsigned site) { return b->ub_sites[site]; }

/* Whether entry x is another thread's access of bytes `mask` in this epoch
 * that no warp function of their common warp has ordered since. */
static int races(const arc_simt_block_ctx *b, unsigned long long x, unsigned tid, unsigned mask)
{
    if ((x & (~0ull << ARC_UBSH_EPOCH_SHIFT)) != b->epoch || WHO(x) == tid + 1 || !(BYTES(x) & mask))
        return 0;
    unsigned other = WHO(x) - 1;
    return other / 32 != tid / 32 || b->wsync[tid / 32] == WSYNC(x);
}

static void report(arc_simt_block_ctx *b, int prev_write, unsigned long long x, unsigned long long off,
                   unsigned long long bytes, int write, unsigned tid, unsigned site)
{
    char a[96], o[96], body[1024];
    const char *kind = !prev_write ? "write after read" : write ? "write after write" : "read after write";
    sim_simt_thread_name(b, WHO(x) - 1, o, sizeof o);
    sim_simt_thread_name(b, tid, a, sizeof a);
    snprintf(body, sizeof body,
             "data race on shared UB (%s between threads of one block): %s %s UB [%llu, %llu) at %s, then %s "
             "%s [%llu, %llu) at %s, with no asc_syncthreads() between them; on the NPU the threads of a block run "
             "concurrently (add asc_syncthreads() between the two accesses). ASCENDRTC_RACE_CHECK=warn or off "
             "relaxes it",
             kind, o,
             prev_write ? "wrote" : "read", off & ~3ull, (off & ~3ull) + 4, site_of(b, SITE(x)),
             a, write ? "writes" : "reads", off, off + bytes, site_of(b, site));
    arc_core *k = __arc_core();
    if ((k->dev[ARC_RACE_SLOT] & 3) == ARC_RACE_ERROR) {
        __arc_site(NULL);
        __arc_trap("race check", "%s", body);
    }
    /* warn: at most 2 reports per block and 8 per launch */
    unsigned long long launch = (unsigned long long)(uintptr_t)sim_core_launch();
    if (atomic_exchange(&warn_launch, launch) != launch)
        atomic_store(&warn_count, 0);
    if (b->warned++ < 2 && atomic_fetch_add(&warn_count, 1) < 8) {
        int s = sim_core_service_begin();
        fprintf(stderr, "ascendrtc: warning: %s block %lld: %s\n", k->kernel_name ? k->kernel_name : "kernel",
                k->block_idx, body);
        sim_core_service_end(s);
    }
}

void __arc_simt_ub_race(arc_simt_block_ctx *b, const void *p, unsigned long long bytes, int write, unsigned tid,
                        unsigned site)
{
    unsigned long long off = (unsigned long long)((uintptr_t)p - (uintptr_t)b->ub), size = b->shadow_words * 4;
    if (!b->shadow)
        return;
    if (off >= size || bytes > size - off) { /* the compiler saw a pointer into the UB: it left it */
        char a[96];
        sim_simt_thread_name(b, tid, a, sizeof a);
        __arc_site(NULL);
        __arc_trap("SIMT", "%s %s UB bytes [%lld, %lld) at %s, outside the block's shared UB [0, %llu) (a pointer into "
                   "a __ubuf__ array ran off the UB; on the NPU the access faults or reaches other memory)",
                   a, write ? "writes" : "reads", (long long)off, (long long)(off + bytes), site_of(b, site), size);
    }
    unsigned long long mine = b->epoch | (unsigned long long)b->wsync[tid / 32] << ARC_UBSH_WSYNC_SHIFT |
                              (unsigned long long)site << ARC_UBSH_SITE_SHIFT | (tid + 1);
    for (unsigned long long w = off / 4; w * 4 < off + bytes; w++) {
        unsigned long long lo = w * 4 < off ? off - w * 4 : 0, hi = off + bytes - w * 4 < 4 ? off + bytes - w * 4 : 4;
        unsigned mask = (1u << hi) - (1u << lo);
        unsigned long long *e = b->shadow + 3 * w;
        if (races(b, e[0], tid, mask))
            report(b, 1, e[0], off, bytes, write, tid, site);
        else if (write && races(b, e[1], tid, mask))
            report(b, 0, e[1], off, bytes, write, tid, site);
        else if (write && races(b, e[2], tid, mask))
            report(b, 0, e[2], off, bytes, write, tid, site);
        /* the stamp: this thread's bytes of the word, with its earlier ones of this epoch */
        unsigned long long *slot = &e[0];
        if (!write)
            slot = (e[1] & (~0ull << ARC_UBSH_EPOCH_SHIFT)) != b->epoch || WHO(e[1]) == tid + 1 ? &e[1] : &e[2];
        unsigned keep = (*slot & (~0ull << ARC_UBSH_EPOCH_SHIFT)) == b->epoch && WHO(*slot) == tid + 1 ? BYTES(*slot) : 0;
        *slot = mine | (unsigned long long)(mask | keep) << ARC_UBSH_MASK_SHIFT;
    }
}

/* Whether the threads' copies of an access of w bytes at steps st over
 * dims dm never meet: sorted by size, each step clears what the smaller
 * ones span (mixed radix; a negative step is the reflected index's). */
static int apart(const long long st[3], const long long dm[3], long long w)
{
    long long v[3], e[3], span = w;
    int n = 0;
    for (int k = 0; k < 3; k++) {
        if (dm[k] <= 1)
            continue;
        long long a = st[k] < 0 ? -st[k] : st[k];
        int i = n++;
        for (; i > 0 && v[i - 1] > a; i--) {
            v[i] = v[i - 1];
            e[i] = e[i - 1];
        }
        v[i] = a;
        e[i] = dm[k];
    }
    for (int i = 0; i < n; i++) {
        if (v[i] < span)
            return 0;
        span += v[i] * (e[i] - 1);
    }
    return 1;
}

static void dims_of(const arc_simt_block_ctx *b, long long dm[3])
{
    for (int k = 0; k < 3; k++)
        dm[k] = b->get[ARC_SIMT_BDIM + k];
}

/* Access i's offset from the static UB, for thread 0. */
static long long aff_off(const arc_simt_block_ctx *b, const arc_simt_ub_aff *a)
{
    return a->off + (a->flags & 2 ? (long long)(b->dyn_ub - b->ub) : 0);
}

int __arc_simt_ub_affine(arc_simt_block_ctx *b, const arc_simt_ub_aff *a, unsigned n)
{
    shadow *s = b->shadow ? pthread_getspecific(key) : NULL;
    if (!s || !b->ub_fresh || n > ARC_SIMT_MAX_AFF)
        return 0;
    long long dm[3], lo[ARC_SIMT_MAX_AFF], hi[ARC_SIMT_MAX_AFF], size = (long long)b->shadow_words * 4;
    dims_of(b, dm);
    for (unsigned i = 0; i < n; i++) { /* every thread's bytes in the UB */
        lo[i] = hi[i] = aff_off(b, &a[i]);
        for (int k = 0; k < 3; k++) {
            if (a[i].step[k] > (1ll << 40) || a[i].step[k] < -(1ll << 40))
                return 0;
            long long ext = a[i].step[k] * (dm[k] - 1);
            *(ext < 0 ? &lo[i] : &hi[i]) += ext;
        }
        hi[i] += a[i].bytes;
        if (lo[i] < 0 || hi[i] > size)
            return 0; /* the checked run reports it at the access */
    }
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = i; j < n; j++) {
            if (!((a[i].flags | a[j].flags) & 1))
                continue; /* reads do not race with reads */
            if (j == i) {
                if (!apart(a[i].step, dm, a[i].bytes))
                    return 0;
                continue;
            }
            if (hi[i] <= lo[j] || hi[j] <= lo[i])
                continue;
            /* one pattern at two offsets: apart when its copies are as far
             * apart as the offsets differ plus an access (the same thread's
             * two accesses may meet) */
            long long d = aff_off(b, &a[i]) - aff_off(b, &a[j]);
            if (memcmp(a[i].step, a[j].step, sizeof a[i].step) ||
                !apart(a[i].step, dm, (d < 0 ? -d : d) + (a[i].bytes > a[j].bytes ? a[i].bytes : a[j].bytes)))
                return 0;
        }
    memcpy(s->aff, a, n * sizeof *a);
    b->ub_naff = n;
    return 1;
}

void sim_simt_ub_settle(arc_simt_block_ctx *b)
{
    shadow *s = pthread_getspecific(key);
    unsigned n = b->ub_naff;
    b->ub_naff = 0;
    if (!s || !b->shadow)
        return;
    long long dm[3];
    dims_of(b, dm);
    unsigned t = 0;
    for (long long z = 0; z < dm[2]; z++)
        for (long long y = 0; y < dm[1]; y++)
            for (long long x = 0; x < dm[0]; x++, t++)
                for (unsigned i = 0; i < n; i++) {
                    const arc_simt_ub_aff *a = &s->aff[i];
                    long long off = aff_off(b, a) + x * a->step[0] + y * a->step[1] + z * a->step[2];
                    __arc_simt_ub_race(b, b->ub + off, a->bytes, a->flags & 1, t, a->site);
                }
}
