/* spin.c - spin briefly before sleeping.  A thread that blocks on a
 * condition variable gives up its CPU; on a VM, waking an idle virtual CPU
 * again costs tens of microseconds, which was most of a small launch's
 * round trip (enqueue -> stream worker -> core threads -> synchronize).
 * So the stream worker, core threads and synchronizers poll for up to
 * ASCENDRTC_SPIN_US (default 50; 0 = never) before they block, yielding
 * the CPU between polls so that the thread they wait for can run on it.
 * The bound keeps an idle process idle. */
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt/rt_internal.h"

#define SPIN_DEFAULT_NS 50000ull

static uint64_t spin_ns = SPIN_DEFAULT_NS;
static pthread_once_t spin_once = PTHREAD_ONCE_INIT;

static unsigned ncpus = 1;

static void read_spin(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    ncpus = n > 0 ? (unsigned)n : 1;
    const char *e = getenv("ASCENDRTC_SPIN_US");
    if (!e || !*e)
        return;
    char *end;
    double us = strtod(e, &end);
    if (end != e && us >= 0 && us <= 1e6)
        spin_ns = (uint64_t)(us * 1000);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

static int poll(int (*ready)(const void *arg), const void *arg)
{
    uint64_t end = sim_now_ns() + spin_ns;
    for (;;) {
        for (int i = 0; i < 64; i++) {
            cpu_relax();
            if (ready(arg))
                return 1;
        }
        if (sim_now_ns() >= end)
            return ready(arg);
        sched_yield(); /* the thread we wait for may be waiting for this CPU */
    }
}

int sim_spin_until(pthread_mutex_t *mu, int (*ready)(const void *arg), const void *arg)
{
    pthread_once(&spin_once, read_spin);
    if (ready(arg))
        return 1;
    if (!spin_ns)
        return 0;
    pthread_mutex_unlock(mu);
    int r = poll(ready, arg);
    pthread_mutex_lock(mu);
    return r;
}

unsigned sim_spin_cpus(void)
{
    pthread_once(&spin_once, read_spin);
    return ncpus;
}

typedef struct {
    const uint64_t *counter;
    uint64_t target;
} counter_wait;

static int counter_reached(const void *arg)
{
    const counter_wait *w = arg;
    return __atomic_load_n(w->counter, __ATOMIC_ACQUIRE) >= w->target;
}

void sim_spin_counter(pthread_mutex_t *mu, const uint64_t *counter, uint64_t target)
{
    counter_wait w = {counter, target};
    sim_spin_until(mu, counter_reached, &w);
}
