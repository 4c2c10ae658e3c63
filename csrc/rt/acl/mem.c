/* mem.c - device and pinned host memory.  Device memory is host memory
 * (the simulated cores run in this process), 64-byte aligned, with the
 * size rounded up as the real runtime does (to 32 B, plus 32 B on
 * dav-2201).  Every allocation is tracked in a sorted table so that bad
 * pointers, double frees and copies that leave their allocation are
 * reported, with the pointer and the sizes, instead of corrupting memory.
 * A ring of recently freed blocks lets messages say "already freed".
 *
 * Device allocations are mmap'd with an inaccessible guard page right
 * after them (their end lies at most 32 bytes before it), so a raw store
 * past the end faults and fault.c reports it; ASCENDRTC_GM_CHECKS=0 turns
 * the guard pages off (plain posix_memalign). */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rt_internal.h"

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static sim_alloc *tab;
static size_t ntab, captab;
static size_t device_bytes; /* sum of device spans */

#define NFREED 1024
static sim_alloc freed[NFREED];
static size_t freed_next;

/* Allocations an abandoned core may still use (sim_mem_keep): freeing one
 * leaves its memory mapped. */
#define NKEPT 256
static uintptr_t kept[NKEPT];
static size_t nkept;

/* Index of the last entry with base <= p, or (size_t)-1. Lock held. */
static size_t floor_idx(uintptr_t p)
{
    size_t lo = 0, hi = ntab;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (tab[mid].base <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? lo - 1 : (size_t)-1;
}

void sim_mem_keep(const void *p)
{
    uintptr_t u = (uintptr_t)p;
    pthread_rwlock_wrlock(&lock);
    size_t i = floor_idx(u);
    if (i != (size_t)-1 && u < tab[i].base + tab[i].span) {
        size_t k = 0;
        while (k < nkept && kept[k] != tab[i].base)
            k++;
        if (k == nkept && nkept < NKEPT)
            kept[nkept++] = tab[i].base;
    }
    pthread_rwlock_unlock(&lock);
}

/* Forget base from kept; 1 when it was there.  Lock held. */
static int unkeep(uintptr_t base)
{
    for (size_t k = 0; k < nkept; k++)
        if (kept[k] == base) {
            kept[k] = kept[--nkept];
            return 1;
        }
    return 0;
}

int sim_mem_find(const void *p, sim_alloc *out)
{
    uintptr_t u = (uintptr_t)p;
    pthread_rwlock_rdlock(&lock);
    size_t i = floor_idx(u);
    int found = i != (size_t)-1 && u < tab[i].base + tab[i].span;
    if (found && out)
        *out = tab[i];
    pthread_rwlock_unlock(&lock);
    return found;
}

static int was_freed(const void *p, int device, sim_alloc *out);

int sim_mem_was_freed(const void *p, sim_alloc *out)
{
    return was_freed(p, 1, out);
}

/* Guarded device memory.  Each allocation is one mapping:
 *   [GUARD PROT_NONE][body: pages, the allocation ends at its end][GUARD PROT_NONE]
 * The allocation starts 64-byte aligned, so when its size rounded to 32 B
 * is an odd multiple of 32 the 32 bytes before the upper guard are filled
 * with a canary that sim_mem_check_canary verifies after each launch.
 *
 * A freed mapping is quarantined: its body is replaced by fresh PROT_NONE
 * pages (releasing the memory), so a late access (a kernel still in
 * flight, a stale pointer) faults and is reported as a use after free of
 * that allocation instead of writing into the next one.  Quarantined
 * mappings are reused, oldest first, once QUARANTINE of them (or
 * QUARANTINE_BYTES of address space) are held; those up to
 * MAP_CACHE_MAX_LEN go to a cache of mappings reused by size (a new
 * mapping costs mmap + mprotect, and munmap a TLB shootdown). */
#define GUARD ((size_t)64 << 10)
#define QUARANTINE 1024
#define QUARANTINE_BYTES ((size_t)1 << 32)
#define MAP_CACHE 32
#define MAP_CACHE_MAX_LEN ((size_t)1 << 21)
#define CANARY 0xa5
typedef struct { uintptr_t map; size_t len; } mapping;
static pthread_mutex_t map_mu = PTHREAD_MUTEX_INITIALIZER;
static mapping map_cache[MAP_CACHE];
static unsigned map_cached;
static mapping quarantine[QUARANTINE];
static unsigned q_head, q_count;
static size_t q_bytes;

static size_t page_size(void)
{
    static size_t pg;
    if (!pg)
        pg = (size_t)sysconf(_SC_PAGESIZE);
    return pg;
}

/* A quarantined or cached mapping (all PROT_NONE) becomes cached or goes.
 * map_mu held. */
static void retire(mapping m)
{
    if (m.len <= MAP_CACHE_MAX_LEN + 2 * GUARD) {
        if (map_cached < MAP_CACHE) {
            map_cache[map_cached++] = m;
            return;
        }
    }
    munmap((void *)m.map, m.len);
}

/* Gives every quarantined and cached mapping back to the kernel (when
 * mappings run out).  map_mu held. */
static void drop_all(void)
{
    while (q_count) {
        munmap((void *)quarantine[q_head].map, quarantine[q_head].len);
        q_head = (q_head + 1) % QUARANTINE;
        q_count--;
    }
    q_bytes = 0;
    while (map_cached) {
        map_cached--;
        munmap((void *)map_cache[map_cached].map, map_cache[map_cached].len);
    }
}

static unsigned char *map_take(size_t len)
{
    unsigned char *m = NULL;
    pthread_mutex_lock(&map_mu);
    for (unsigned i = 0; i < map_cached; i++)
        if (map_cache[i].len == len) {
            m = (unsigned char *)map_cache[i].map;
            map_cache[i] = map_cache[--map_cached];
            break;
        }
    pthread_mutex_unlock(&map_mu);
    return m;
}

/* Quarantines a freed device mapping (see above). */
static void map_give(uintptr_t map, size_t len)
{
    /* Fresh inaccessible pages over the body: the memory goes back, and
     * any access now faults. */
    if (mmap((void *)(map + GUARD), len - 2 * GUARD, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
             -1, 0) == MAP_FAILED) {
        munmap((void *)map, len);
        return;
    }
    pthread_mutex_lock(&map_mu);
    while (q_count && (q_count == QUARANTINE || q_bytes + len > QUARANTINE_BYTES)) {
        mapping old = quarantine[q_head];
        q_head = (q_head + 1) % QUARANTINE;
        q_count--;
        q_bytes -= old.len;
        retire(old);
    }
    quarantine[(q_head + q_count) % QUARANTINE] = (mapping){map, len};
    q_count++;
    q_bytes += len;
    pthread_mutex_unlock(&map_mu);
}

static size_t max_map_count(void)
{
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    unsigned long v = 0;
    if (f) {
        if (fscanf(f, "%lu", &v) != 1)
            v = 0;
        fclose(f);
    }
    return v;
}

/* Device memory of 2 MiB or more asks for transparent huge pages, as
 * NumPy does for its large arrays: a kernel streaming through 64 MiB
 * otherwise takes a TLB miss every 4 KiB per array (the bench's SIMT vector
 * add: 8.6-10 ms -> 7.4 ms race off; its transpose 12% less CPU). */
#define HUGE_MIN (2u << 20)

/* A guarded mapping whose body of `body` bytes is read-write; NULL with
 * errno when the process has run out of memory or of mappings. */
static unsigned char *map_new(size_t body)
{
    size_t len = body + 2 * GUARD;
    unsigned char *m = map_take(len);
    if (!m) {
        m = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED)
            return NULL;
    }
    if (mprotect(m + GUARD, body, PROT_READ | PROT_WRITE)) {
        int e = errno;
        munmap(m, len);
        errno = e;
        return NULL;
    }
    if (body >= HUGE_MIN) /* a hint; where the kernel declines, 4 KiB pages */
        madvise(m + GUARD, body, MADV_HUGEPAGE);
    return m;
}

/* Reserve span bytes, 64-byte aligned; device memory lies between guards
 * and ends at the upper one (see above).  map, maplen: the mapping (0 when
 * malloc'd).  On failure *why says why. */
static void *reserve(size_t size, size_t span, int device, uintptr_t *map, size_t *maplen, char *why, size_t whylen)
{
    *map = 0;
    *maplen = 0;
    if (device && sim_gm_checks()) {
        size_t pg = page_size(), usable = sim_align_up(size, 32);
        size_t body = sim_align_up(usable, pg);
        unsigned char *m = map_new(body);
        if (!m && errno == ENOMEM) { /* quarantined mappings may be what is missing */
            pthread_mutex_lock(&map_mu);
            drop_all();
            pthread_mutex_unlock(&map_mu);
            m = map_new(body);
        }
        if (!m) {
            size_t mc = max_map_count();
            pthread_rwlock_rdlock(&lock);
            size_t live = ntab;
            pthread_rwlock_unlock(&lock);
            snprintf(why, whylen,
                     "cannot map %zu bytes of guarded device memory: %s (%zu allocations are live; each guarded "
                     "allocation is a memory mapping and the process may have at most vm.max_map_count = %zu: "
                     "free device memory, raise vm.max_map_count, or set ASCENDRTC_GM_CHECKS=0 to allocate without "
                     "guard pages)", size, strerror(errno), live, mc);
            return NULL;
        }
        *map = (uintptr_t)m;
        *maplen = body + 2 * GUARD;
        unsigned char *end = m + GUARD + body;
        unsigned char *base = (unsigned char *)((uintptr_t)(end - usable) & ~(uintptr_t)63);
        memset(m + GUARD, CANARY, (size_t)(base - (m + GUARD)));
        memset(base + usable, CANARY, (size_t)(end - (base + usable)));
        (void)span;
        return base;
    }
    void *p = NULL;
    if (posix_memalign(&p, 64, span)) {
        snprintf(why, whylen, "out of host memory allocating %zu bytes", size);
        return NULL;
    }
    return p;
}

/* First and last byte in [lo, hi) that is not the canary; 0 if none. */
static int damaged(const unsigned char *lo, const unsigned char *hi, const unsigned char **first,
                   const unsigned char **last)
{
    *first = *last = NULL;
    for (const unsigned char *q = lo; q < hi; q++)
        if (*q != CANARY) {
            if (!*first)
                *first = q;
            *last = q;
        }
    return *first != NULL;
}

aclError sim_mem_check_canary(const void *p, char *msg, size_t msglen)
{
    sim_alloc a;
    if (!sim_mem_find(p, &a) || !a.map)
        return ACL_SUCCESS;
    unsigned char *base = (unsigned char *)a.base;
    unsigned char *lo = (unsigned char *)a.map + GUARD, *hi = (unsigned char *)a.map + a.maplen - GUARD;
    unsigned char *top = base + sim_align_up(a.size, 32);
    const unsigned char *f, *l;
    int below = damaged(lo, base, &f, &l);
    if (!below && !damaged(top, hi, &f, &l))
        return ACL_SUCCESS;
    snprintf(msg, msglen,
             "GM bytes [%lld, %lld) relative to the allocation at %p of %zu bytes were written: a raw store %s "
             "(into the few bytes between the allocation and its guard page, which only a check after the launch "
             "sees)", (long long)(f - base), (long long)(l + 1 - base), (void *)a.base, a.size,
             below ? "before its start" : "past its end");
    memset(lo, CANARY, (size_t)(base - lo));
    memset(top, CANARY, (size_t)(hi - top));
    return ACL_ERROR_RT_AICORE_EXCEPTION;
}

int sim_mem_guard_hit(const void *p, sim_alloc *out)
{
    uintptr_t u = (uintptr_t)p;
    int r = 0;
    pthread_rwlock_rdlock(&lock);
    size_t i = floor_idx(u);
    if (i != (size_t)-1 && tab[i].map && u >= tab[i].base + tab[i].size && u < tab[i].map + tab[i].maplen) {
        *out = tab[i];
        r = 2;
    } else if (i + 1 < ntab && tab[i + 1].map && u >= tab[i + 1].map && u < tab[i + 1].base) {
        *out = tab[i + 1]; /* i + 1 wraps to 0 when nothing lies below */
        r = 1;
    }
    pthread_rwlock_unlock(&lock);
    return r;
}

/* 1 when p lay inside a recently freed block of the same kind. */
static int was_freed(const void *p, int device, sim_alloc *out)
{
    uintptr_t u = (uintptr_t)p;
    int hit = 0;
    pthread_rwlock_rdlock(&lock);
    for (size_t k = 0; k < NFREED && !hit; k++) {
        size_t i = (freed_next + NFREED - 1 - k) % NFREED; /* newest first */
        if (freed[i].span && freed[i].device == device && u >= freed[i].base && u < freed[i].base + freed[i].span) {
            *out = freed[i];
            hit = 1;
        }
    }
    pthread_rwlock_unlock(&lock);
    return hit;
}

/* tail32: aclrtMalloc's 32 bytes past the size rounded up to 32 (dav-2201;
 * CANN's aclrtMalloc page, and aclrtMallocAlign32's, which does without). */
static aclError alloc_common(const char *api, void **ptr, size_t size, int device, int tail32)
{
    if (!ptr)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", device ? "devPtr" : "hostPtr");
    if (size == 0)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "size is 0 (allocations must be at least 1 byte)");
    const sim_arch *a = sim_arch_device();
    int64_t limit = a->hbm_bytes;
    if (size > (size_t)limit)
        return sim_err(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "size %zu bytes exceeds the device's %lld bytes of memory",
                       size, (long long)limit);
    size_t span = sim_align_up(size, 32) + (device && tail32 && a->num == 2201 ? 32 : 0);
    pthread_rwlock_wrlock(&lock);
    if (device && device_bytes + span > (size_t)limit) {
        size_t used = device_bytes;
        pthread_rwlock_unlock(&lock);
        return sim_err(ACL_ERROR_RT_MEMORY_ALLOCATION, api,
                       "out of device memory: %zu bytes requested, %zu of %lld bytes in use", size, used,
                       (long long)limit);
    }
    if (device)
        device_bytes += span; /* claimed now: mapping happens unlocked */
    pthread_rwlock_unlock(&lock);
    uintptr_t map;
    size_t maplen;
    char why[512];
    void *p = reserve(size, span, device, &map, &maplen, why, sizeof why);
    pthread_rwlock_wrlock(&lock);
    if (p && ntab == captab) {
        size_t nc = captab ? captab * 2 : 256;
        sim_alloc *nt = realloc(tab, nc * sizeof *nt);
        if (nt) {
            tab = nt;
            captab = nc;
        } else {
            if (map)
                map_give(map, maplen);
            else
                free(p);
            p = NULL;
            snprintf(why, sizeof why, "out of host memory for the allocation table");
        }
    }
    if (!p) {
        if (device)
            device_bytes -= span;
        pthread_rwlock_unlock(&lock);
        return sim_err(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "%s", why);
    }
    size_t i = floor_idx((uintptr_t)p) + 1; /* wraps to 0 when none is lower */
    memmove(&tab[i + 1], &tab[i], (ntab - i) * sizeof *tab);
    tab[i] = (sim_alloc){(uintptr_t)p, size, span, device, map, maplen};
    ntab++;
    pthread_rwlock_unlock(&lock);
    *ptr = p;
    return ACL_SUCCESS;
}

static aclError free_common(const char *api, void *ptr, int device)
{
    const char *what = device ? "devPtr" : "hostPtr";
    if (!ptr)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", what);
    uintptr_t u = (uintptr_t)ptr;
    pthread_rwlock_wrlock(&lock);
    size_t i = floor_idx(u);
    int inside = i != (size_t)-1 && u < tab[i].base + tab[i].span;
    if (inside && tab[i].base == u && tab[i].device == device) {
        sim_alloc a = tab[i];
        memmove(&tab[i], &tab[i + 1], (ntab - i - 1) * sizeof *tab);
        ntab--;
        if (device)
            device_bytes -= a.span;
        freed[freed_next] = a;
        freed_next = (freed_next + 1) % NFREED;
        int keep = nkept && unkeep(a.base);
        pthread_rwlock_unlock(&lock);
        if (keep)
            return ACL_SUCCESS; /* an abandoned core may still touch it: it stays mapped */
        if (a.map)
            map_give(a.map, a.maplen);
        else
            free(ptr);
        return ACL_SUCCESS;
    }
    sim_alloc a = inside ? tab[i] : (sim_alloc){0};
    pthread_rwlock_unlock(&lock);
    if (inside && a.device != device)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "%s %p was allocated by %s; free it with %s", what, ptr,
                       a.device ? "aclrtMalloc" : "aclrtMallocHost", a.device ? "aclrtFree" : "aclrtFreeHost");
    if (inside)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                       "%s %p points %zu bytes into the allocation at %p (%zu bytes); pass its start address",
                       what, ptr, (size_t)(u - a.base), (void *)a.base, a.size);
    /* Only the exact start: freed ranges get reused by other host memory. */
    if (was_freed(ptr, device, &a) && a.base == u)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "double free: %s %p (%zu bytes) was already freed", what,
                       ptr, a.size);
    return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "%s %p was not allocated by %s", what, ptr,
                   device ? "aclrtMalloc" : "aclrtMallocHost");
}

/* The policy check aclrtMalloc and its siblings share. */
static aclError malloc_policy(const char *api, aclrtMemMallocPolicy policy)
{
    unsigned pol = (unsigned)policy, flags = 0x100u | 0x1000u | 0x100000u;
    if ((pol & ~flags) > ACL_MEM_MALLOC_HUGE1G_ONLY_P2P)
        return sim_err(ACL_ERROR_INVALID_PARAM, api,
                       "policy 0x%x is not a valid aclrtMemMallocPolicy (0..7, optionally with the 0x100, "
                       "0x1000 or 0x100000 flags)", pol);
    return ACL_SUCCESS;
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    aclError rc = sim_rt_enter("aclrtMalloc");
    if (!rc)
        rc = malloc_policy("aclrtMalloc", policy);
    return rc ? rc : alloc_common("aclrtMalloc", devPtr, size, 1, 1);
}

/* The size rounded up to 32 bytes only (no 32-byte tail on dav-2201; on
 * Ascend 950 the same as aclrtMalloc, as its page says). */
aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    aclError rc = sim_rt_enter("aclrtMallocAlign32");
    if (!rc)
        rc = malloc_policy("aclrtMallocAlign32", policy);
    return rc ? rc : alloc_common("aclrtMallocAlign32", devPtr, size, 1, 0);
}

/* Device memory the device caches: to the simulated NPU, aclrtMalloc's. */
aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    aclError rc = sim_rt_enter("aclrtMallocCached");
    if (!rc)
        rc = malloc_policy("aclrtMallocCached", policy);
    return rc ? rc : alloc_common("aclrtMallocCached", devPtr, size, 1, 1);
}

aclError aclrtFree(void *devPtr)
{
    aclError rc = sim_rt_enter("aclrtFree");
    return rc ? rc : free_common("aclrtFree", devPtr, 1);
}

/* CANN's aclrtFree does not wait for the tasks using the memory; this one
 * synchronizes the device first (a kernel's failure is still returned,
 * after the memory is freed). */
aclError aclrtFreeWithDevSync(void *devPtr)
{
    aclError rc = sim_rt_enter("aclrtFreeWithDevSync");
    if (rc)
        return rc;
    aclError sync = sim_stream_sync_all("aclrtFreeWithDevSync");
    rc = free_common("aclrtFreeWithDevSync", devPtr, 1);
    return sync ? sync : rc;
}

aclError aclrtMallocHost(void **hostPtr, size_t size)
{
    aclError rc = sim_rt_enter("aclrtMallocHost");
    return rc ? rc : alloc_common("aclrtMallocHost", hostPtr, size, 0, 0);
}

aclError aclrtFreeHost(void *hostPtr)
{
    aclError rc = sim_rt_enter("aclrtFreeHost");
    return rc ? rc : free_common("aclrtFreeHost", hostPtr, 0);
}

aclError aclrtGetMemInfo(int attr, size_t *freeBytes, size_t *totalBytes)
{
    const char *api = "aclrtGetMemInfo";
    aclError rc = sim_rt_enter(api);
    if (rc)
        return rc;
    if (attr < 0 || attr > 7)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "attr %d is not an aclrtMemAttr (0..7)", attr);
    if (!freeBytes || !totalBytes)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", freeBytes ? "totalBytes" : "freeBytes");
    size_t total = (size_t)sim_arch_device()->hbm_bytes;
    pthread_rwlock_rdlock(&lock);
    size_t used = device_bytes;
    pthread_rwlock_unlock(&lock);
    *totalBytes = total;
    *freeBytes = total - (used < total ? used : total);
    return ACL_SUCCESS;
}
