/* race_gm_arena.c - where the GM race check's records live: chunks of the
 * launch's log, carved per OS thread.
 *
 * An agent (a block) writes its records at the top of its thread's chunk
 * and grows there while nothing else took from it since, so the records of
 * the blocks a thread runs lie one after the other: one stream of writes
 * while they run and of reads for the sweep, where an array per agent
 * (16,384 of them for a big grid) missed the cache on every record.  An
 * agent no longer at the top (fibers interleave, SyncAll fibers move
 * between threads, a chunk ran out) moves its records to the top of the
 * thread it runs on, with room to double.  Chunks are handed out under the
 * log's mutex, within the launch's budget (ASCENDRTC_RACE_RECORDS), and
 * kept for the next launch up to KEEP records. */
#include <stdlib.h>
#include <string.h>

#include "rt/analysis/race_gm.h"

typedef struct rec_chunk {
    struct rec_chunk *next;
    size_t cap;
    gm_rec r[];
} rec_chunk;

enum {
    CHUNK = 4096,   /* records a thread takes at once */
    GROW = 4,       /* records an agent at the top adds at once */
    KEEP = 1 << 17, /* records of chunks a reused log keeps (12 MiB) */
};
#define BUDGET_DEFAULT ((size_t)1 << 22)
#define BUDGET_MAX (1ull << 30) /* the sweep numbers entries (up to 4 a record) in 32 bits */

/* This thread's free records in the chunk it took last, of launch serial. */
static _Thread_local struct {
    unsigned long long serial;
    gm_rec *next, *end;
} top;

int sim_race_gm_budget(size_t *records)
{
    const char *e = getenv("ASCENDRTC_RACE_RECORDS");
    *records = BUDGET_DEFAULT;
    if (!e || !*e)
        return 0;
    char *end;
    unsigned long long v = strtoull(e, &end, 10);
    if (*end || e[0] == '-' || v < 1 || v > BUDGET_MAX)
        return -1;
    *records = (size_t)v;
    return 0;
}

/* A chunk of at least need records for this thread: 0, or -1 past the
 * budget or memory. */
static int refill(sim_race_gm *g, size_t need)
{
    pthread_mutex_lock(&g->mu);
    size_t want = need > CHUNK ? need : CHUNK, left = g->budget - g->taken;
    if (want > left)
        want = left;
    rec_chunk *c = NULL;
    if (want >= need) {
        if (g->spare_chunks && g->spare_chunks->cap >= want) {
            c = g->spare_chunks;
            g->spare_chunks = c->next;
        } else if ((c = malloc(sizeof *c + want * sizeof(gm_rec)))) {
            c->cap = want;
        }
    }
    if (c) {
        c->next = g->chunks;
        g->chunks = c;
        g->taken += want;
        top.serial = g->serial;
        top.next = c->r;
        top.end = c->r + want;
    } else {
        atomic_store_explicit(&g->over, 1, memory_order_relaxed);
    }
    pthread_mutex_unlock(&g->mu);
    return c ? 0 : -1;
}

gm_rec *sim_race_gm_grow(gm_agent *a)
{
    sim_race_gm *g = a->g;
    if (atomic_load_explicit(&g->over, memory_order_relaxed))
        return NULL;
    if (top.serial == g->serial && a->cap && a->r + a->cap == top.next && top.end - top.next >= GROW) {
        top.next += GROW; /* still on top: grow in place */
        a->cap += GROW;
        return &a->r[a->n++];
    }
    size_t cap = a->n ? 2 * a->n : GROW;
    if ((top.serial != g->serial || (size_t)(top.end - top.next) < cap) && refill(g, cap))
        return NULL;
    gm_rec *r = top.next;
    top.next += cap;
    if (a->n)
        memcpy(r, a->r, a->n * sizeof *r);
    a->r = r;
    a->cap = cap;
    return &a->r[a->n++];
}

void sim_race_gm_arena_end(sim_race_gm *g, int all)
{
    size_t kept = 0;
    for (rec_chunk *c = g->spare_chunks; c; c = c->next)
        kept += c->cap;
    for (rec_chunk *c = g->chunks, *nx; c; c = nx) {
        nx = c->next;
        if (!all && c->cap == CHUNK && kept + c->cap <= KEEP) { /* an odd size (a budget's end, a big move) is not */
            kept += c->cap;
            c->next = g->spare_chunks;
            g->spare_chunks = c;
        } else {
            free(c);
        }
    }
    g->chunks = NULL;
    if (all) {
        for (rec_chunk *c = g->spare_chunks, *nx; c; c = nx) {
            nx = c->next;
            free(c);
        }
        g->spare_chunks = NULL;
    }
    g->taken = 0;
    atomic_store(&g->over, 0);
}
