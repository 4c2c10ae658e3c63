/* watchdog.c - one lazily started thread that enforces launch deadlines.
 * A launch with a timeout adds a sim_watch; at its deadline the watch
 * fires once (the launch records ACL_ERROR_RT_AICORE_TIMEOUT and releases
 * its cores), then is kicked every 10 ms until the launch removes it
 * (cores spinning in kernel code are interrupted again until they leave).
 * Callbacks run with the watchdog's lock held, so sim_watch_del returning
 * means none is running.
 *
 * Launches add and remove watches back to back (every capped launch has a
 * stall watch, core_hang.c); waking this thread for each would cost every
 * launch a context switch.  So while watches come and go it wakes every
 * LINGER_TICK_NS anyway, for LINGER_NS after the last one, and an added
 * watch wakes it only when its deadline comes before the next tick. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rt/rt_internal.h"

#define KICK_NS 10000000ull
#define LINGER_TICK_NS 20000000ull
#define LINGER_NS 1000000000ull

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv;
static sim_watch *list;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int started;
static uint64_t wake_at = UINT64_MAX; /* when loop() wakes next; UINT64_MAX: when signalled */
static uint64_t linger_until;

uint64_t sim_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Set by ascendrtc_set_launch_timeout; -1 = not set (the env var rules). */
static _Atomic long long set_ns = -1;

/* Declared in common/exports.h; Python reaches it through the extension. */
void ascendrtc_set_launch_timeout(double seconds)
{
    atomic_store(&set_ns, seconds < 0 ? -1 : seconds > 1e9 ? (long long)1e18 : (long long)(seconds * 1e9));
}

uint64_t sim_default_launch_timeout_ns(void)
{
    long long v = atomic_load(&set_ns);
    if (v >= 0)
        return (uint64_t)v;
    const char *e = getenv("ASCENDRTC_LAUNCH_TIMEOUT");
    if (!e || !*e)
        return 0;
    char *end;
    double s = strtod(e, &end);
    while (*end == ' ')
        end++;
    if (end == e || *end || !(s >= 0) || s > 1e9) {
        static _Atomic(const char *) warned;
        if (atomic_exchange(&warned, e) != e) /* once per value */
            fprintf(stderr, "ascendrtc: warning: ASCENDRTC_LAUNCH_TIMEOUT=%s is not a timeout (seconds, a number "
                            "from 0 to 1e9; 0 or unset = none); launches have no timeout\n", e);
        return 0;
    }
    if (s == 0)
        return 0;
    return (uint64_t)(s * 1e9);
}

static void *loop(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&mu);
    for (;;) {
        uint64_t now = sim_now_ns(), next = UINT64_MAX;
        for (sim_watch *w = list; w; w = w->next) {
            if (!w->fired && w->deadline <= now) {
                w->fired = 1;
                w->fire(w);
                w->next_kick = now + KICK_NS;
            } else if (w->fired && w->next_kick <= now) {
                w->kick(w);
                w->next_kick = now + KICK_NS;
            }
            uint64_t t = w->fired ? w->next_kick : w->deadline;
            if (t < next)
                next = t;
        }
        if (!list && now < linger_until && now + LINGER_TICK_NS < next)
            next = now + LINGER_TICK_NS;
        wake_at = next;
        if (next == UINT64_MAX) {
            pthread_cond_wait(&cv, &mu);
        } else {
            struct timespec ts = {.tv_sec = (time_t)(next / 1000000000ull), .tv_nsec = (long)(next % 1000000000ull)};
            pthread_cond_timedwait(&cv, &mu, &ts);
        }
    }
    return NULL;
}

static void start(void)
{
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_t th;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    started = pthread_create(&th, &at, loop, NULL) == 0;
    pthread_attr_destroy(&at);
}

void sim_watch_add(sim_watch *w)
{
    pthread_once(&once, start);
    pthread_mutex_lock(&mu);
    w->fired = 0;
    w->next = list;
    list = w;
    if (started && w->deadline < wake_at)
        pthread_cond_signal(&cv);
    pthread_mutex_unlock(&mu);
}

void sim_watch_del(sim_watch *w)
{
    pthread_mutex_lock(&mu);
    for (sim_watch **pp = &list; *pp; pp = &(*pp)->next)
        if (*pp == w) {
            *pp = w->next;
            break;
        }
    linger_until = sim_now_ns() + LINGER_NS;
    pthread_mutex_unlock(&mu);
}

void sim_watch_expire(sim_watch *w)
{
    pthread_mutex_lock(&mu);
    for (sim_watch *v = list; v; v = v->next)
        if (v == w && !w->fired) {
            w->deadline = 0;
            if (started)
                pthread_cond_signal(&cv);
        }
    pthread_mutex_unlock(&mu);
}
