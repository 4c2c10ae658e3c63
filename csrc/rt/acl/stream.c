/* stream.c - asynchronous, in-order streams.  Each stream owns one worker
 * thread that runs its tasks (copies, sets, launches, event records and
 * waits) in FIFO order, and its own pool of core threads for launches, so
 * launches on two streams never wait for each other's cores.
 *
 * Failures: a task that fails (a kernel trap) records the error on the
 * stream; the next synchronize (stream, event or device) reports it once
 * and clears it, and the stream keeps working.  Tasks queued after a
 * failed one still run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt/rt_internal.h"

#define MAX_STREAMS 1984 /* per device, the default stream included */

struct sim_stream {
    uint32_t magic;
    int is_default;
    pthread_mutex_t mu;
    pthread_cond_t cv_work; /* the worker waits for tasks */
    pthread_cond_t cv_done; /* synchronizers wait for progress */
    sim_task *head, *tail;
    uint64_t pushed, done;  /* sequence numbers */
    int stop;
    aclError err;           /* first failure since the last report */
    unsigned more_errs;     /* failures after the first */
    char errmsg[SIM_MSG_MAX];
    pthread_t thread;
    sim_corepool *pool;
    sim_stream *next;       /* all streams, for device sync */
    int pinned;             /* device syncs waiting on it (list_mu) */
};

static pthread_mutex_t list_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t unpinned = PTHREAD_COND_INITIALIZER; /* a device sync let go */
static sim_stream *all;
static unsigned nstreams;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;
static sim_stream *default_stream;
static char default_err[SIM_MSG_MAX];

/* head, stop and done are also read without the lock, by the worker's
 * spin and by sim_spin_counter: they are written with atomic stores. */
static int has_work(const void *arg)
{
    const sim_stream *s = arg;
    return __atomic_load_n(&s->head, __ATOMIC_ACQUIRE) != NULL || __atomic_load_n(&s->stop, __ATOMIC_ACQUIRE);
}

/* The worker's loop; s->mu held on entry, released on return (the stream
 * stopped). */
static void serve(sim_stream *s)
{
    for (;;) {
        sim_spin_until(&s->mu, has_work, s); /* more work often follows at once */
        while (!s->head && !s->stop)
            pthread_cond_wait(&s->cv_work, &s->mu);
        if (!s->head)
            break; /* stop requested and the queue is drained */
        sim_task *t = s->head;
        __atomic_store_n(&s->head, t->next, __ATOMIC_RELEASE);
        if (!s->head)
            s->tail = NULL;
        pthread_mutex_unlock(&s->mu);
        uint64_t seq = t->seq;
        t->run(t, s);
        t->release(t);
        pthread_mutex_lock(&s->mu);
        __atomic_store_n(&s->done, seq, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&s->cv_done);
    }
    pthread_mutex_unlock(&s->mu);
}

static void *worker(void *arg)
{
    sim_stream *s = arg;
    pthread_mutex_lock(&s->mu);
    serve(s);
    return NULL;
}

void sim_stream_takeover(sim_stream *s, sim_task *t)
{
    pthread_mutex_lock(&s->mu);
    s->thread = pthread_self(); /* the one aclrtDestroyStream joins */
    __atomic_store_n(&s->done, t->seq, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&s->cv_done);
    serve(s);
}

static sim_stream *stream_new(int is_default, char *err, size_t errlen)
{
    sim_stream *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    s->magic = SIM_MAGIC_STREAM;
    s->is_default = is_default;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv_work, NULL);
    pthread_cond_init(&s->cv_done, &ca);
    pthread_condattr_destroy(&ca);
    s->pool = sim_corepool_new();
    /* The worker also runs blocks of its launches: give it a core's stack. */
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, SIM_CORE_STACK);
    int e = s->pool ? pthread_create(&s->thread, &at, worker, s) : ENOMEM;
    pthread_attr_destroy(&at);
    if (e) {
        snprintf(err, errlen, "cannot start the stream's worker thread: %s", strerror(e));
        sim_corepool_free(s->pool);
        pthread_mutex_destroy(&s->mu);
        pthread_cond_destroy(&s->cv_work);
        pthread_cond_destroy(&s->cv_done);
        free(s);
        return NULL;
    }
    return s;
}

static void make_default(void)
{
    default_stream = stream_new(1, default_err, sizeof default_err);
    if (default_stream) {
        pthread_mutex_lock(&list_mu);
        default_stream->next = all;
        all = default_stream;
        nstreams++;
        pthread_mutex_unlock(&list_mu);
    }
}

aclError sim_stream_resolve(aclrtStream stream, const char *api, sim_stream **out)
{
    if (!stream) {
        pthread_once(&default_once, make_default);
        if (!default_stream)
            return sim_err(ACL_ERROR_RT_INTERNAL_ERROR, api, "no default stream: %s", default_err);
        *out = default_stream;
        return ACL_SUCCESS;
    }
    if (!sim_handle_ok(stream, SIM_K_STREAM, SIM_MAGIC_STREAM))
        return sim_err(ACL_ERROR_RT_INVALID_HANDLE, api,
                       "stream %p is not a live stream (never created, or already destroyed)", stream);
    *out = stream;
    return ACL_SUCCESS;
}

/* Short label for messages: "stream 0x..." or "the default stream". */
static void sim_stream_label(const sim_stream *s, char *buf, size_t n)
{
    if (s->is_default)
        snprintf(buf, n, "the default stream");
    else
        snprintf(buf, n, "stream %p", (const void *)s);
}

int sim_stream_alive(const sim_stream *s)
{
    return s == default_stream || sim_handle_ok(s, SIM_K_STREAM, SIM_MAGIC_STREAM);
}

sim_corepool *sim_stream_pool(sim_stream *s)
{
    return s->pool;
}

aclError sim_stream_push(sim_stream *s, sim_task *t, const char *api)
{
    (void)api;
    t->next = NULL;
    pthread_mutex_lock(&s->mu);
    t->seq = ++s->pushed;
    if (s->tail)
        s->tail->next = t;
    else
        __atomic_store_n(&s->head, t, __ATOMIC_RELEASE);
    s->tail = t;
    pthread_cond_signal(&s->cv_work);
    pthread_mutex_unlock(&s->mu);
    return ACL_SUCCESS;
}

void sim_stream_wait_seq(sim_stream *s, uint64_t seq)
{
    pthread_mutex_lock(&s->mu);
    sim_spin_counter(&s->mu, &s->done, seq);
    while (s->done < seq)
        pthread_cond_wait(&s->cv_done, &s->mu);
    pthread_mutex_unlock(&s->mu);
}

void sim_stream_fail(sim_stream *s, aclError code, const char *msg)
{
    pthread_mutex_lock(&s->mu);
    if (!s->err) {
        s->err = code;
        snprintf(s->errmsg, sizeof s->errmsg, "%s", msg);
    } else {
        s->more_errs++;
    }
    pthread_mutex_unlock(&s->mu);
}

/* Move a recorded failure into this thread's message. Lock held. */
static aclError take_locked(sim_stream *s, const char *api)
{
    if (!s->err)
        return ACL_SUCCESS;
    aclError code = s->err;
    char label[64];
    sim_stream_label(s, label, sizeof label);
    if (s->more_errs)
        sim_err(code, api, "a task on %s failed: %s (and %u later task(s) failed too)", label, s->errmsg,
                s->more_errs);
    else
        sim_err(code, api, "a task on %s failed: %s", label, s->errmsg);
    s->err = 0;
    s->more_errs = 0;
    return code;
}

aclError sim_stream_take_error(sim_stream *s, const char *api)
{
    pthread_mutex_lock(&s->mu);
    aclError rc = take_locked(s, api);
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static void deadline_in(struct timespec *dl, int64_t ms)
{
    clock_gettime(CLOCK_MONOTONIC, dl);
    dl->tv_sec += ms / 1000;
    dl->tv_nsec += (ms % 1000) * 1000000L;
    if (dl->tv_nsec >= 1000000000L) {
        dl->tv_sec++;
        dl->tv_nsec -= 1000000000L;
    }
}

aclError sim_stream_sync(sim_stream *s, int64_t timeout_ms, const char *api)
{
    struct timespec dl;
    if (timeout_ms >= 0)
        deadline_in(&dl, timeout_ms);
    pthread_mutex_lock(&s->mu);
    uint64_t target = s->pushed; /* work queued later by others is not waited for */
    sim_spin_counter(&s->mu, &s->done, target);
    while (s->done < target) {
        if (timeout_ms < 0) {
            pthread_cond_wait(&s->cv_done, &s->mu);
        } else if (pthread_cond_timedwait(&s->cv_done, &s->mu, &dl) == ETIMEDOUT && s->done < target) {
            uint64_t left = target - s->done;
            pthread_mutex_unlock(&s->mu);
            char label[64];
            sim_stream_label(s, label, sizeof label);
            return sim_err(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, api, "%s still has %llu unfinished task(s) after %lld ms",
                           label, (unsigned long long)left, (long long)timeout_ms);
        }
    }
    aclError rc = take_locked(s, api);
    pthread_mutex_unlock(&s->mu);
    return rc;
}

/* A synchronize that asks fn(arg) every slice_ms whether to stop. */
typedef struct sim_poll {
    int (*fn)(void *arg);
    void *arg;
    int slice_ms;
    int hit; /* fn returned nonzero */
} sim_poll;

/* Ctrl-C: cancel every launch queued on s so far (see sim_corepool_cancel);
 * returns the last task's number. */
static uint64_t cancel(sim_stream *s)
{
    pthread_mutex_lock(&s->mu);
    uint64_t upto = s->pushed;
    pthread_mutex_unlock(&s->mu);
    sim_corepool_cancel(s->pool, upto);
    return upto;
}

/* sim_stream_sync(s, -1, api) polling pl between slices; once it says
 * stop, the launches queued so far are cancelled, the wait ends when they
 * have stopped, and the failures recorded until then are dropped: the
 * caller reports the interrupt instead. */
static aclError sync_polled(sim_stream *s, sim_poll *pl, const char *api)
{
    pthread_mutex_lock(&s->mu);
    uint64_t target = s->pushed;
    sim_spin_counter(&s->mu, &s->done, target);
    while (s->done < target && !pl->hit) {
        struct timespec dl;
        deadline_in(&dl, pl->slice_ms);
        if (pthread_cond_timedwait(&s->cv_done, &s->mu, &dl) == ETIMEDOUT && s->done < target) {
            pthread_mutex_unlock(&s->mu);
            pl->hit = pl->fn(pl->arg) != 0;
            pthread_mutex_lock(&s->mu);
        }
    }
    if (pl->hit) {
        pthread_mutex_unlock(&s->mu);
        target = cancel(s);
        pthread_mutex_lock(&s->mu);
        while (s->done < target)
            pthread_cond_wait(&s->cv_done, &s->mu);
        s->err = 0;
        s->more_errs = 0;
        pthread_mutex_unlock(&s->mu);
        return ACL_SUCCESS;
    }
    aclError rc = take_locked(s, api);
    pthread_mutex_unlock(&s->mu);
    return rc;
}

/* Waits without holding list_mu (other threads may create or destroy
 * streams meanwhile); the streams it waits on are pinned against freeing.
 * pl (NULL: none): see sync_polled; once it says stop, every stream's
 * launches are cancelled. */
static aclError sync_all(const char *api, sim_poll *pl)
{
    aclError first = ACL_SUCCESS;
    char msg[SIM_MSG_MAX] = "";
    unsigned nfail = 0, n = 0;
    pthread_mutex_lock(&list_mu);
    sim_stream **v = malloc((nstreams ? nstreams : 1) * sizeof *v);
    if (!v) {
        pthread_mutex_unlock(&list_mu);
        return sim_err(ACL_ERROR_BAD_ALLOC, api, "out of host memory");
    }
    for (sim_stream *s = all; s; s = s->next) {
        s->pinned++;
        v[n++] = s;
    }
    pthread_mutex_unlock(&list_mu);
    for (unsigned i = 0; i < n && !(pl && pl->hit); i++) {
        aclError rc = pl ? sync_polled(v[i], pl, api) : sim_stream_sync(v[i], -1, api);
        if (rc && !nfail++) {
            first = rc;
            snprintf(msg, sizeof msg, "%s", aclGetRecentErrMsg());
        }
    }
    if (pl && pl->hit) /* interrupted: cancel and drain every stream */
        for (unsigned i = 0; i < n; i++)
            sync_polled(v[i], pl, api);
    pthread_mutex_lock(&list_mu);
    for (unsigned i = 0; i < n; i++)
        v[i]->pinned--;
    pthread_cond_broadcast(&unpinned);
    pthread_mutex_unlock(&list_mu);
    free(v);
    if (pl && pl->hit)
        return ACL_SUCCESS;
    if (nfail > 1)
        return sim_err(first, api, "%u streams had failures; the first: %s", nfail, msg);
    if (nfail)
        return sim_err_raw(first, msg);
    return ACL_SUCCESS;
}

aclError sim_stream_sync_all(const char *api)
{
    return sync_all(api, NULL);
}

void sim_stream_interrupt_all(const char *api)
{
    sim_poll pl = {NULL, NULL, 1, 1}; /* already stopped: sync_all only cancels and drains */
    sync_all(api, &pl);
}

/* ---- public API ---- */

/* Declared in common/exports.h. */
int ascendrtc_sync_polled(aclrtStream stream, int every, int slice_ms, int (*poll)(void *arg), void *arg)
{
    const char *api = every ? "aclrtSynchronizeDevice" : "aclrtSynchronizeStream";
    aclError rc = sim_rt_enter(api);
    if (rc)
        return rc;
    sim_poll pl = {poll, arg, slice_ms > 0 ? slice_ms : 1, 0};
    if (every) {
        rc = sync_all(api, &pl);
    } else {
        sim_stream *s;
        if ((rc = sim_stream_resolve(stream, api, &s)))
            return rc;
        rc = sync_polled(s, &pl, api);
    }
    return pl.hit ? -1 : rc;
}

void ascendrtc_cancel(aclrtStream stream, int every)
{
    if (!every) {
        sim_stream *s;
        if (sim_stream_resolve(stream, "ascendrtc_cancel", &s) == ACL_SUCCESS)
            cancel(s);
        return;
    }
    pthread_mutex_lock(&list_mu); /* streams cannot be freed meanwhile */
    for (sim_stream *s = all; s; s = s->next)
        cancel(s);
    pthread_mutex_unlock(&list_mu);
}

static aclError create(const char *api, aclrtStream *stream, uint32_t priority, uint32_t flag)
{
    aclError rc = sim_rt_enter(api);
    if (rc)
        return rc;
    if (!stream)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "stream is NULL");
    if (priority > 7)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "priority %u is out of range [0, 7]", priority);
    (void)flag; /* stream flags tune scheduling on hardware; no effect here */
    sim_stream *d;
    if ((rc = sim_stream_resolve(NULL, api, &d)))
        return rc;
    pthread_mutex_lock(&list_mu);
    unsigned n = nstreams;
    pthread_mutex_unlock(&list_mu);
    if (n >= MAX_STREAMS)
        return sim_err(ACL_ERROR_RT_MEMORY_ALLOCATION, api,
                       "too many streams: %u exist and the device allows %u (the default stream included)", n,
                       MAX_STREAMS);
    char err[256];
    sim_stream *s = stream_new(0, err, sizeof err);
    if (!s)
        return sim_err(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "%s", err);
    pthread_mutex_lock(&list_mu);
    s->next = all;
    all = s;
    nstreams++;
    pthread_mutex_unlock(&list_mu);
    sim_handle_add(s, SIM_K_STREAM);
    *stream = s;
    return ACL_SUCCESS;
}

/* priority 0..7 (accepted, no effect); flags tune hardware scheduling and
 * are accepted and ignored. */
aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag)
{
    return create("aclrtCreateStreamWithConfig", stream, priority, flag);
}

aclError aclrtCreateStream(aclrtStream *stream)
{
    return create("aclrtCreateStream", stream, 0, 0);
}

/* Waits for the stream's queued work, then frees it; failures it still
 * held are dropped. */
aclError aclrtDestroyStream(aclrtStream stream)
{
    const char *api = "aclrtDestroyStream";
    aclError rc = sim_rt_enter(api);
    if (rc)
        return rc;
    if (!stream)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "stream is NULL (the default stream cannot be destroyed)");
    sim_stream *s;
    if ((rc = sim_stream_resolve(stream, api, &s)))
        return rc;
    sim_handle_del(s);
    pthread_mutex_lock(&list_mu);
    for (sim_stream **pp = &all; *pp; pp = &(*pp)->next) {
        if (*pp == s) {
            *pp = s->next;
            nstreams--;
            break;
        }
    }
    while (s->pinned) /* a device sync is still waiting on it */
        pthread_cond_wait(&unpinned, &list_mu);
    pthread_mutex_unlock(&list_mu);
    pthread_mutex_lock(&s->mu);
    __atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
    pthread_cond_signal(&s->cv_work);
    /* Once the queue is done, s->thread is final (a stuck worker may have
     * been replaced: sim_stream_takeover). */
    while (s->done < s->pushed)
        pthread_cond_wait(&s->cv_done, &s->mu);
    pthread_t th = s->thread;
    pthread_mutex_unlock(&s->mu);
    pthread_join(th, NULL);
    sim_corepool_free(s->pool);
    s->magic = 0;
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv_work);
    pthread_cond_destroy(&s->cv_done);
    free(s);
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream)
{
    const char *api = "aclrtSynchronizeStream";
    sim_stream *s;
    aclError rc = sim_rt_enter(api);
    if (!rc)
        rc = sim_stream_resolve(stream, api, &s);
    return rc ? rc : sim_stream_sync(s, -1, api);
}

/* timeout in ms; -1 waits forever, 0 only checks. */
aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout)
{
    const char *api = "aclrtSynchronizeStreamWithTimeout";
    sim_stream *s;
    aclError rc = sim_rt_enter(api);
    if (rc)
        return rc;
    if (timeout < -1)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "timeout %d ms is invalid (-1 = forever, or >= 0)", timeout);
    if ((rc = sim_stream_resolve(stream, api, &s)))
        return rc;
    return sim_stream_sync(s, timeout, api);
}
