/* handle.c - registry of live API handles.  Handles are validated by
 * looking them up here before they are dereferenced, so a destroyed,
 * freed or foreign pointer gives ACL_ERROR_RT_INVALID_HANDLE instead of a
 * crash.  Open addressing with tombstones under one mutex: handle
 * operations are rare next to the work they describe. */
#include <stdlib.h>
#include <string.h>

#include "rt/rt_internal.h"

typedef struct slot {
    uintptr_t key; /* 0 empty, 1 tombstone */
    int kind;
} slot;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static slot *tab;
static size_t cap, used; /* used counts live + tombstones */

static size_t hash(uintptr_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k;
}

static slot *find(uintptr_t k)
{
    if (!cap)
        return NULL;
    for (size_t i = hash(k) & (cap - 1), n = 0; n < cap; i = (i + 1) & (cap - 1), n++) {
        if (tab[i].key == k)
            return &tab[i];
        if (tab[i].key == 0)
            return NULL;
    }
    return NULL;
}

static int grow(void)
{
    size_t ncap = cap ? cap * 2 : 256;
    slot *nt = calloc(ncap, sizeof *nt);
    if (!nt)
        return -1;
    for (size_t i = 0; i < cap; i++) {
        if (tab[i].key > 1) {
            size_t j = hash(tab[i].key) & (ncap - 1);
            while (nt[j].key)
                j = (j + 1) & (ncap - 1);
            nt[j] = tab[i];
        }
    }
    free(tab);
    tab = nt;
    cap = ncap;
    used = 0;
    for (size_t i = 0; i < cap; i++)
        used += tab[i].key != 0;
    return 0;
}

void sim_handle_add(const void *p, int kind)
{
    uintptr_t k = (uintptr_t)p;
    pthread_mutex_lock(&mu);
    slot *s = find(k);
    if (s) {
        s->kind = kind;
    } else if ((used + 1) * 2 <= cap || grow() == 0) {
        size_t i = hash(k) & (cap - 1);
        while (tab[i].key > 1)
            i = (i + 1) & (cap - 1);
        if (tab[i].key == 0)
            used++;
        tab[i].key = k;
        tab[i].kind = kind;
    }
    /* On OOM the handle stays unregistered: its first use reports it as
     * invalid, which is safe. */
    pthread_mutex_unlock(&mu);
}

void sim_handle_del(const void *p)
{
    pthread_mutex_lock(&mu);
    slot *s = find((uintptr_t)p);
    if (s) {
        s->key = 1;
        s->kind = 0;
    }
    pthread_mutex_unlock(&mu);
}

int sim_handle_ok(const void *p, int kind, uint32_t magic)
{
    if (!p)
        return 0;
    pthread_mutex_lock(&mu);
    slot *s = find((uintptr_t)p);
    int ok = s && s->kind == kind;
    pthread_mutex_unlock(&mu);
    if (ok) {
        uint32_t m;
        memcpy(&m, p, sizeof m);
        ok = m == magic;
    }
    return ok;
}
