/* event.c - events: markers recorded into a stream.  The timestamp is
 * taken when the stream's worker reaches the record, so elapsed times
 * measure the work between two records.  An event stays alive while
 * queued tasks refer to it, even after aclrtDestroyEvent. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rt/rt_internal.h"

#define MAX_EVENTS 65536
#define EVENT_FLAGS (ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE | ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL)

struct sim_event {
    uint32_t magic;
    uint32_t flags;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t recorded;  /* aclrtRecordEvent calls so far */
    uint64_t reached;   /* highest record a stream has reached */
    uint64_t ts_ns;     /* CLOCK_MONOTONIC time of that record */
    sim_stream *stream; /* stream of the latest record */
    int refs;           /* the handle + queued tasks */
};

static atomic_int nevents;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void unref(sim_event *e)
{
    pthread_mutex_lock(&e->mu);
    int left = --e->refs;
    pthread_mutex_unlock(&e->mu);
    if (left == 0) {
        e->magic = 0;
        pthread_mutex_destroy(&e->mu);
        pthread_cond_destroy(&e->cv);
        free(e);
        atomic_fetch_sub(&nevents, 1);
    }
}

static aclError resolve(aclrtEvent h, const char *api, const char *what, sim_event **out)
{
    if (!h)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", what);
    if (!sim_handle_ok(h, SIM_K_EVENT, SIM_MAGIC_EVENT))
        return sim_err(ACL_ERROR_RT_INVALID_HANDLE, api,
                       "%s %p is not a live event (never created, or already destroyed)", what, h);
    *out = h;
    return ACL_SUCCESS;
}

static aclError create(const char *api, aclrtEvent *event, uint32_t flag)
{
    aclError rc = sim_rt_enter(api);
    if (rc)
        return rc;
    if (!event)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "event is NULL");
    if (flag & ~EVENT_FLAGS)
        return sim_err(ACL_ERROR_INVALID_PARAM, api,
                       "flag 0x%x has unknown bits 0x%x (valid: ACL_EVENT_SYNC 0x1, ACL_EVENT_TIME_LINE 0x8, "
                       "ACL_EVENT_DEVICE_USE_ONLY 0x10, ACL_EVENT_EXTERNAL 0x20)", flag, flag & ~EVENT_FLAGS);
    if (atomic_fetch_add(&nevents, 1) >= MAX_EVENTS) {
        atomic_fetch_sub(&nevents, 1);
        return sim_err(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "too many events: the device allows %d", MAX_EVENTS);
    }
    sim_event *e = calloc(1, sizeof *e);
    if (!e) {
        atomic_fetch_sub(&nevents, 1);
        return sim_err(ACL_ERROR_BAD_ALLOC, api, "out of host memory");
    }
    e->magic = SIM_MAGIC_EVENT;
    e->flags = flag;
    e->refs = 1;
    pthread_mutex_init(&e->mu, NULL);
    pthread_condattr_t ca; /* timed waits (ascendrtc_event_sync_polled) on the monotonic clock */
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&e->cv, &ca);
    pthread_condattr_destroy(&ca);
    sim_handle_add(e, SIM_K_EVENT);
    *event = e;
    return ACL_SUCCESS;
}

aclError aclrtCreateEvent(aclrtEvent *event)
{
    return create("aclrtCreateEvent", event, ACL_EVENT_SYNC);
}

aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag)
{
    return create("aclrtCreateEventWithFlag", event, flag);
}

/* The "Ex" form: on the NPU its events do not count against the stream's
 * hardware event slots; the simulator has one limit for both. */
aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag)
{
    return create("aclrtCreateEventExWithFlag", event, flag);
}

/* Safe while records or waits are queued: the event is freed after them. */
aclError aclrtDestroyEvent(aclrtEvent event)
{
    sim_event *e;
    aclError rc = sim_rt_enter("aclrtDestroyEvent");
    if (!rc)
        rc = resolve(event, "aclrtDestroyEvent", "event", &e);
    if (rc)
        return rc;
    sim_handle_del(e);
    unref(e);
    return ACL_SUCCESS;
}

typedef struct ev_task {
    sim_task t;
    sim_event *e;
    uint64_t n; /* the record this task marks, or waits for */
} ev_task;

static void record_run(sim_task *t, sim_stream *s)
{
    (void)s;
    ev_task *et = (ev_task *)t;
    sim_event *e = et->e;
    uint64_t ts = now_ns();
    pthread_mutex_lock(&e->mu);
    if (et->n > e->reached) {
        __atomic_store_n(&e->reached, et->n, __ATOMIC_RELEASE); /* read unlocked by sim_spin_counter */
        e->ts_ns = ts;
    }
    pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->mu);
}

static void wait_run(sim_task *t, sim_stream *s)
{
    (void)s;
    ev_task *et = (ev_task *)t;
    sim_event *e = et->e;
    pthread_mutex_lock(&e->mu);
    sim_spin_counter(&e->mu, &e->reached, et->n);
    while (e->reached < et->n)
        pthread_cond_wait(&e->cv, &e->mu);
    pthread_mutex_unlock(&e->mu);
}

static void ev_release(sim_task *t)
{
    ev_task *et = (ev_task *)t;
    unref(et->e);
    free(et);
}

static aclError push(const char *api, sim_stream *s, sim_event *e, uint64_t n, void (*run)(sim_task *, sim_stream *))
{
    ev_task *et = calloc(1, sizeof *et);
    if (!et)
        return sim_err(ACL_ERROR_BAD_ALLOC, api, "out of host memory for a stream task");
    et->t.run = run;
    et->t.release = ev_release;
    et->e = e;
    et->n = n;
    pthread_mutex_lock(&e->mu);
    e->refs++;
    pthread_mutex_unlock(&e->mu);
    return sim_stream_push(s, &et->t, api);
}

/* The prologue of the entry points that take an event and a stream. */
static aclError event_stream_enter(const char *api, aclrtEvent event, aclrtStream stream, sim_event **e,
                                   sim_stream **s)
{
    aclError rc = sim_rt_enter(api);
    if (!rc)
        rc = resolve(event, api, "event", e);
    if (!rc)
        rc = sim_stream_resolve(stream, api, s);
    return rc;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
    const char *api = "aclrtRecordEvent";
    sim_event *e;
    sim_stream *s;
    aclError rc = event_stream_enter(api, event, stream, &e, &s);
    if (rc)
        return rc;
    /* A later record supersedes an earlier one even if, on another
     * stream, it is reached first (reached only grows). */
    pthread_mutex_lock(&e->mu);
    uint64_t n = ++e->recorded;
    e->stream = s;
    pthread_mutex_unlock(&e->mu);
    return push(api, s, e, n, record_run);
}

/* The stream waits (on the device side) for the event's latest record;
 * an event never recorded is complete, so there is nothing to wait for. */
aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
    const char *api = "aclrtStreamWaitEvent";
    sim_event *e;
    sim_stream *s;
    aclError rc = event_stream_enter(api, event, stream, &e, &s);
    if (rc)
        return rc;
    pthread_mutex_lock(&e->mu);
    uint64_t n = e->recorded;
    pthread_mutex_unlock(&e->mu);
    return n ? push(api, s, e, n, wait_run) : ACL_SUCCESS;
}

/* Waits for the latest record, then reports a failure recorded on its
 * stream (a kernel that trapped before the record).  With poll, waits in
 * slices of slice_ms and returns -1 once poll says stop: the recorded point
 * may wait (through aclrtStreamWaitEvent) for work on any stream, so an
 * interrupt cancels every stream's queued launches. */
static int event_sync(aclrtEvent event, int slice_ms, int (*poll)(void *arg), void *arg)
{
    const char *api = "aclrtSynchronizeEvent";
    sim_event *e;
    aclError rc = sim_rt_enter(api);
    if (!rc)
        rc = resolve(event, api, "event", &e);
    if (rc)
        return rc;
    if (slice_ms <= 0)
        slice_ms = 1;
    int hit = 0;
    pthread_mutex_lock(&e->mu);
    uint64_t n = e->recorded;
    sim_spin_counter(&e->mu, &e->reached, n);
    while (e->reached < n && !hit) {
        if (!poll) {
            pthread_cond_wait(&e->cv, &e->mu);
            continue;
        }
        struct timespec dl;
        clock_gettime(CLOCK_MONOTONIC, &dl);
        dl.tv_sec += slice_ms / 1000;
        dl.tv_nsec += (slice_ms % 1000) * 1000000L;
        if (dl.tv_nsec >= 1000000000L) {
            dl.tv_sec++;
            dl.tv_nsec -= 1000000000L;
        }
        if (pthread_cond_timedwait(&e->cv, &e->mu, &dl) == ETIMEDOUT && e->reached < n) {
            pthread_mutex_unlock(&e->mu);
            hit = poll(arg) != 0;
            pthread_mutex_lock(&e->mu);
        }
    }
    sim_stream *s = e->stream;
    pthread_mutex_unlock(&e->mu);
    if (hit) {
        sim_stream_interrupt_all(api);
        return -1;
    }
    if (s && sim_stream_alive(s))
        return sim_stream_take_error(s, api);
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event) { return event_sync(event, 0, NULL, NULL); }

/* Declared in common/exports.h. */
int ascendrtc_event_sync_polled(aclrtEvent event, int slice_ms, int (*poll)(void *arg), void *arg)
{
    return event_sync(event, slice_ms, poll, arg);
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
    const char *api = "aclrtQueryEventStatus";
    sim_event *e;
    aclError rc = sim_rt_enter(api);
    if (!rc)
        rc = resolve(event, api, "event", &e);
    if (rc)
        return rc;
    if (!status)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "status is NULL");
    pthread_mutex_lock(&e->mu);
    int done = e->reached >= e->recorded;
    pthread_mutex_unlock(&e->mu);
    *status = done ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

/* Milliseconds between the latest records of two completed events. */
aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent)
{
    const char *api = "aclrtEventElapsedTime";
    sim_event *a, *b;
    aclError rc = sim_rt_enter(api);
    if (!rc)
        rc = resolve(startEvent, api, "startEvent", &a);
    if (!rc)
        rc = resolve(endEvent, api, "endEvent", &b);
    if (rc)
        return rc;
    if (!ms)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "ms is NULL");
    uint64_t t[2];
    sim_event *ev[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        const char *what = i ? "endEvent" : "startEvent";
        pthread_mutex_lock(&ev[i]->mu);
        uint64_t rec = ev[i]->recorded, reached = ev[i]->reached;
        t[i] = ev[i]->ts_ns;
        pthread_mutex_unlock(&ev[i]->mu);
        if (!rec)
            return sim_err(ACL_ERROR_INVALID_PARAM, api, "%s %p was never recorded (call aclrtRecordEvent first)",
                           what, (void *)ev[i]);
        if (reached < rec)
            return sim_err(ACL_ERROR_RT_EVENT_NOT_COMPLETE, api,
                           "%s %p has not completed yet (synchronize its stream or the event first)", what,
                           (void *)ev[i]);
    }
    *ms = (float)((double)((int64_t)(t[1] - t[0])) / 1e6);
    return ACL_SUCCESS;
}
