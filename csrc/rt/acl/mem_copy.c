/* mem_copy.c - copies and sets of device and host memory, synchronous and
 * as stream tasks.  The direction comes from the addresses, as on CANN; a
 * kind that needs device memory where there is none, a range that leaves
 * its allocation (mem.c's table) and count > destMax are errors that name
 * the pointer and the sizes.  An async copy with pageable host memory
 * waits for its own task. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rt_internal.h"

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
        if (sim_mem_was_freed(p, &a))
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
