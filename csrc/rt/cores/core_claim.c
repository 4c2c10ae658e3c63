/* core_claim.c - which block a core thread runs next.
 *
 * Threads take blocks from the launch's counter.  One block at a time, two
 * threads alternate 4 KiB-sized blocks of a SIMT kernel and the hardware
 * prefetchers of each restart at every block: a 64 MiB vector add ran at
 * ~24 GB/s that way against ~38 GB/s in runs of 16-32 neighbouring blocks
 * (measured in C and in the runtime, 2 cores).  So a launch of more
 * blocks than the arch has cores claims runs: a thread takes a run of
 * neighbouring blocks, sized as guided scheduling does (what is left over
 * 8 per thread, at most RUN_MAX, so the last runs are single blocks), and
 * starts them in order.
 *
 * Blocks may wait for one another through GM (no kernel should, beyond
 * the cores' count, but a kernel may): a block of a run never starts while
 * its run's thread spins on an earlier one.  So a thread with no run left
 * and nothing left to claim takes the lowest block another's run has not
 * started; and once the stall watch has seen no block finish (core_hang.c),
 * every thread takes the lowest block not started, one at a time, as
 * before runs, while the watch adds threads (core_unstarted counts the
 * runs' blocks as waiting to start).  Runs are only used where the watch
 * can add threads (fewer threads than cores); SyncAll kernels (fibers),
 * whose blocks must all be live, and launches of at most a block per core
 * take one block at a time. */
#include "rt/cores/core_internal.h"

#define RUN_MAX 32u

static uint32_t run_next(uint64_t v)
{
    return (uint32_t)v;
}

static uint32_t run_end(uint64_t v)
{
    return (uint32_t)(v >> 32);
}

/* The first block of a run not started yet, taken (0: none left). */
static int run_pop(_Atomic uint64_t *run, uint32_t *b)
{
    uint64_t v = atomic_load_explicit(run, memory_order_acquire);
    while (run_next(v) < run_end(v))
        if (atomic_compare_exchange_weak(run, &v, v + 1)) {
            *b = run_next(v);
            return 1;
        }
    return 0;
}

/* The lowest block no thread has started: a run's front or the counter's
 * next; a block number >= nblocks when none is left. */
static uint32_t take_lowest(launch_ctx *c)
{
    for (;;) {
        uint32_t low = atomic_load(&c->next);
        core_thread *from = NULL;
        unsigned n = __atomic_load_n(&c->ncores, __ATOMIC_ACQUIRE);
        for (unsigned i = 0; i < n; i++) {
            uint64_t v = atomic_load_explicit(&c->cores[i]->run, memory_order_acquire);
            if (run_next(v) < run_end(v) && run_next(v) < low) {
                low = run_next(v);
                from = c->cores[i];
            }
        }
        uint32_t b;
        if (!from)
            return atomic_fetch_add(&c->next, 1);
        if (run_pop(&from->run, &b))
            return b;
        /* its owner or another thread took it first: look again */
    }
}

void core_claim_init(launch_ctx *c)
{
    c->run_max = !c->fibers && c->r->nblocks > c->limit && c->nthreads < c->limit ? RUN_MAX : 1;
    atomic_init(&c->in_order, 0);
    for (unsigned i = 0; i < c->ncores; i++)
        atomic_store(&c->cores[i]->run, 0);
}

uint32_t core_claim(core_thread *ct, launch_ctx *c)
{
    const uint32_t n = c->r->nblocks;
    uint32_t b;
    if (c->run_max == 1)
        return atomic_fetch_add(&c->next, 1);
    if (atomic_load_explicit(&c->in_order, memory_order_relaxed))
        return take_lowest(c);
    if (run_pop(&ct->run, &b))
        return b;
    uint32_t left = n - atomic_load_explicit(&c->next, memory_order_relaxed); /* wraps when none is left */
    uint32_t size = left / (8 * __atomic_load_n(&c->nthreads, __ATOMIC_RELAXED));
    size = size < 1 || left > n ? 1 : size > c->run_max ? c->run_max : size;
    b = atomic_fetch_add(&c->next, size);
    if (b >= n)
        return take_lowest(c); /* nothing left to claim: the others' runs */
    if (size > 1) {
        uint32_t end = n - b < size ? n : b + size;
        atomic_store_explicit(&ct->run, (uint64_t)end << 32 | (b + 1), memory_order_release);
    }
    return b;
}

uint32_t core_unstarted(launch_ctx *c)
{
    uint32_t next = atomic_load(&c->next), n = c->r->nblocks;
    uint32_t left = next < n ? n - next : 0;
    unsigned nc = __atomic_load_n(&c->ncores, __ATOMIC_ACQUIRE);
    for (unsigned i = 0; i < nc; i++) {
        uint64_t v = atomic_load(&c->cores[i]->run);
        if (run_next(v) < run_end(v))
            left += run_end(v) - run_next(v);
    }
    return left;
}
