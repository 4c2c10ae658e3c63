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

int sim_mem_nearest(const void *p, sim_alloc *out)
{
    pthread_rwlock_rdlock(&lock);
    size_t i = floor_idx((uintptr_t)p);
    int found = i != (size_t)-1;
    if (found)
        *out = tab[i];
    pthread_rwlock_unlock(&lock);
    return found;
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

/* Recently freed guarded mappings, reused by size: mmap + mprotect +
 * munmap per allocation (a TLB shootdown across the core threads) would
 * double the cost of a launch with NumPy arguments. */
#define MAP_CACHE 32
#define MAP_CACHE_MAX_LEN (1u << 20)
static pthread_mutex_t map_mu = PTHREAD_MUTEX_INITIALIZER;
static struct { uintptr_t map; size_t len; } map_cache[MAP_CACHE];
static unsigned map_cached;

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

static void map_give(uintptr_t map, size_t len)
{
    if (len <= MAP_CACHE_MAX_LEN) {
        pthread_mutex_lock(&map_mu);
        if (map_cached < MAP_CACHE) {
            map_cache[map_cached].map = map;
            map_cache[map_cached].len = len;
            map_cached++;
            pthread_mutex_unlock(&map_mu);
            return;
        }
        pthread_mutex_unlock(&map_mu);
    }
    munmap((void *)map, len);
}

/* Reserve span bytes, 64-byte aligned; device memory ends just before a
 * PROT_NONE guard page.  map, maplen: the mapping (0 when malloc'd). */
static void *reserve(size_t span, int device, uintptr_t *map, size_t *maplen)
{
    *map = 0;
    *maplen = 0;
    if (device && sim_gm_checks()) {
        size_t pg = (size_t)sysconf(_SC_PAGESIZE);
        size_t body = sim_align_up(span, pg), len = body + pg;
        unsigned char *m = map_take(len);
        if (m) {
            *map = (uintptr_t)m;
            *maplen = len;
            return m + ((body - span) & ~(size_t)63);
        }
        m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m != MAP_FAILED) {
            if (mprotect(m + body, pg, PROT_NONE) == 0) {
                *map = (uintptr_t)m;
                *maplen = len;
                return m + ((body - span) & ~(size_t)63);
            }
            munmap(m, len);
        }
    }
    void *p = NULL;
    return posix_memalign(&p, 64, span) ? NULL : p;
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

static aclError alloc_common(const char *api, void **ptr, size_t size, int device)
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
    size_t span = sim_align_up(size, 32) + (device && a->num == 2201 ? 32 : 0);
    pthread_rwlock_wrlock(&lock);
    if (device && device_bytes + span > (size_t)limit) {
        size_t used = device_bytes;
        pthread_rwlock_unlock(&lock);
        return sim_err(ACL_ERROR_RT_MEMORY_ALLOCATION, api,
                       "out of device memory: %zu bytes requested, %zu of %lld bytes in use", size, used,
                       (long long)limit);
    }
    if (ntab == captab) {
        size_t nc = captab ? captab * 2 : 256;
        sim_alloc *nt = realloc(tab, nc * sizeof *nt);
        if (!nt) {
            pthread_rwlock_unlock(&lock);
            return sim_err(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of host memory for the allocation table");
        }
        tab = nt;
        captab = nc;
    }
    uintptr_t map;
    size_t maplen;
    void *p = reserve(span, device, &map, &maplen);
    if (!p) {
        pthread_rwlock_unlock(&lock);
        return sim_err(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory allocating %zu bytes", size);
    }
    size_t i = floor_idx((uintptr_t)p) + 1; /* wraps to 0 when none is lower */
    memmove(&tab[i + 1], &tab[i], (ntab - i) * sizeof *tab);
    tab[i] = (sim_alloc){(uintptr_t)p, size, span, device, map, maplen};
    ntab++;
    if (device)
        device_bytes += span;
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
        pthread_rwlock_unlock(&lock);
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

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    aclError rc = sim_rt_enter("aclrtMalloc");
    if (rc)
        return rc;
    unsigned pol = (unsigned)policy, flags = 0x100u | 0x1000u | 0x100000u;
    if ((pol & ~flags) > ACL_MEM_MALLOC_HUGE1G_ONLY_P2P)
        return sim_err(ACL_ERROR_INVALID_PARAM, "aclrtMalloc",
                       "policy 0x%x is not a valid aclrtMemMallocPolicy (0..7, optionally with the 0x100, "
                       "0x1000 or 0x100000 flags)", pol);
    return alloc_common("aclrtMalloc", devPtr, size, 1);
}

aclError aclrtFree(void *devPtr)
{
    aclError rc = sim_rt_enter("aclrtFree");
    return rc ? rc : free_common("aclrtFree", devPtr, 1);
}

aclError aclrtMallocHost(void **hostPtr, size_t size)
{
    aclError rc = sim_rt_enter("aclrtMallocHost");
    return rc ? rc : alloc_common("aclrtMallocHost", hostPtr, size, 0);
}

aclError aclrtFreeHost(void *hostPtr)
{
    aclError rc = sim_rt_enter("aclrtFreeHost");
    return rc ? rc : free_common("aclrtFreeHost", hostPtr, 0);
}

static const char *kind_name(int kind)
{
    static const char *names[] = {"HOST_TO_HOST", "HOST_TO_DEVICE", "DEVICE_TO_HOST", "DEVICE_TO_DEVICE",
                                  "DEFAULT", "HOST_TO_BUF_TO_DEVICE", "INNER_DEVICE_TO_DEVICE",
                                  "INTER_DEVICE_TO_DEVICE"};
    return kind >= 0 && kind < 8 ? names[kind] : "?";
}

/* Check that [p, p+count) is device memory inside one allocation (kind:
 * the copy kind that requires it, or -1). */
static aclError check_device_range(const char *api, const char *what, const void *p, size_t count, int kind)
{
    char why[96] = "";
    if (kind >= 0)
        snprintf(why, sizeof why, " (kind ACL_MEMCPY_%s needs device memory there)", kind_name(kind));
    sim_alloc a;
    if (!sim_mem_find(p, &a) || !a.device) {
        if (was_freed(p, 1, &a))
            return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                           "%s %p is device memory that was already freed (allocation of %zu bytes at %p)", what,
                           p, a.size, (void *)a.base);
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "%s %p is not device memory returned by aclrtMalloc%s", what,
                       p, why);
    }
    size_t off = (uintptr_t)p - a.base;
    if (off > a.size || count > a.size - off)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                       "%s range [%p, +%zu bytes) leaves its allocation at %p of %zu bytes (offset %zu, %zu "
                       "bytes available)", what, p, count, (void *)a.base, a.size, off,
                       off > a.size ? (size_t)0 : a.size - off);
    return ACL_SUCCESS;
}

/* Host side of a copy: a live host allocation must contain the range;
 * other (pageable) host memory cannot be checked. Sets *pinned. */
static aclError check_host_range(const char *api, const char *what, const void *p, size_t count, int *pinned)
{
    sim_alloc a;
    *pinned = 0;
    if (sim_mem_find(p, &a)) {
        size_t off = (uintptr_t)p - a.base;
        if (off > a.size || count > a.size - off)
            return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                           "%s range [%p, +%zu bytes) leaves its allocation at %p of %zu bytes (offset %zu)",
                           what, p, count, (void *)a.base, a.size, off);
        *pinned = 1;
    }
    return ACL_SUCCESS;
}

/* Validate a copy.  The direction comes from the addresses (as on CANN);
 * a kind that needs device memory on a side that has none is an error.
 * *async_ok: 1 when no pageable host memory is involved. */
static aclError check_copy(const char *api, void *dst, size_t destMax, const void *src, size_t count, int kind,
                           int *async_ok)
{
    if (!dst)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "dst is NULL");
    if (!src)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "src is NULL");
    if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "kind %d is not an aclrtMemcpyKind (0..7)", kind);
    if (count > destMax)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "count %zu exceeds destMax %zu", count, destMax);
    sim_alloc a;
    int dst_dev = sim_mem_find(dst, &a) && a.device;
    int src_dev = sim_mem_find(src, &a) && a.device;
    int need_dst = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE ||
                   kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE || kind >= ACL_MEMCPY_INNER_DEVICE_TO_DEVICE;
    int need_src = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE ||
                   kind >= ACL_MEMCPY_INNER_DEVICE_TO_DEVICE;
    aclError rc;
    int pin_d = 1, pin_s = 1;
    if (dst_dev || need_dst)
        rc = check_device_range(api, "dst", dst, count, need_dst ? kind : -1);
    else
        rc = check_host_range(api, "dst", dst, count, &pin_d);
    if (rc)
        return rc;
    if (src_dev || need_src)
        rc = check_device_range(api, "src", src, count, need_src ? kind : -1);
    else
        rc = check_host_range(api, "src", src, count, &pin_s);
    if (rc)
        return rc;
    *async_ok = pin_d && pin_s;
    return ACL_SUCCESS;
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind)
{
    const char *api = "aclrtMemcpy";
    int async_ok;
    aclError rc = sim_rt_enter(api);
    if (!rc)
        rc = check_copy(api, dst, destMax, src, count, (int)kind, &async_ok);
    if (rc)
        return rc;
    memmove(dst, src, count);
    return ACL_SUCCESS;
}

static aclError check_set(const char *api, void *devPtr, size_t maxCount, size_t count)
{
    if (!devPtr)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "devPtr is NULL");
    if (count > maxCount)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "count %zu exceeds maxCount %zu", count, maxCount);
    sim_alloc a;
    int pinned;
    if (sim_mem_find(devPtr, &a) && !a.device)
        return check_host_range(api, "devPtr", devPtr, count, &pinned);
    return check_device_range(api, "devPtr", devPtr, count, -1);
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
    const char *api = "aclrtMemset";
    aclError rc = sim_rt_enter(api);
    if (!rc)
        rc = check_set(api, devPtr, maxCount, count);
    if (rc)
        return rc;
    memset(devPtr, value & 0xff, count);
    return ACL_SUCCESS;
}

/* ---- asynchronous copies and sets: tasks on a stream ---- */
typedef struct mem_task {
    sim_task t;
    void *dst;
    const void *src; /* NULL for a memset */
    int value;
    size_t count;
} mem_task;

static void mem_run(sim_task *t, sim_stream *s)
{
    (void)s;
    mem_task *m = (mem_task *)t;
    if (m->src)
        memmove(m->dst, m->src, m->count);
    else
        memset(m->dst, m->value, m->count);
}

static void mem_release(sim_task *t)
{
    free(t);
}

/* Queue the task; with pageable host memory wait for it (as CANN does). */
static aclError push_mem(const char *api, aclrtStream stream, void *dst, const void *src, int value, size_t count,
                         int wait)
{
    sim_stream *s;
    aclError rc = sim_stream_resolve(stream, api, &s);
    if (rc)
        return rc;
    mem_task *m = calloc(1, sizeof *m);
    if (!m)
        return sim_err(ACL_ERROR_BAD_ALLOC, api, "out of host memory for a stream task");
    m->t.run = mem_run;
    m->t.release = mem_release;
    m->dst = dst;
    m->src = src;
    m->value = value & 0xff;
    m->count = count;
    rc = sim_stream_push(s, &m->t, api);
    if (rc)
        return rc;
    if (wait)
        sim_stream_wait_seq(s, m->t.seq); /* m may be freed now: seq was read before */
    return ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream)
{
    const char *api = "aclrtMemcpyAsync";
    int async_ok;
    aclError rc = sim_rt_enter(api);
    if (!rc)
        rc = check_copy(api, dst, destMax, src, count, (int)kind, &async_ok);
    return rc ? rc : push_mem(api, stream, dst, src, 0, count, !async_ok);
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream)
{
    const char *api = "aclrtMemsetAsync";
    aclError rc = sim_rt_enter(api);
    if (!rc)
        rc = check_set(api, devPtr, maxCount, count);
    return rc ? rc : push_mem(api, stream, devPtr, NULL, value, count, 0);
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
