/* prewarm.c - _C.prewarm(): ready the simulated NPU's compiler on a
 * background thread while Python goes on importing, so that a new
 * process's first compile is not the slow one.  The thread loads the
 * backend's two libraries (the same dlopen load_backend does later: that
 * one then finds them loaded, and relocating clang and LLVM, tens of ms,
 * is done) and runs the compiler's throwaway compile
 * (ascendrtc_rtc_prewarm, rtc/prewarm.c).  It needs no GIL and touches no
 * Python object.  It is stopped (its compile cancelled, as Ctrl-C cancels
 * one) and waited for before fork() (a child must not inherit a compiler
 * lock held by a thread it does not have), at exit (LLVM's static objects
 * must outlive it; a short-lived process does not wait for the whole
 * compile) and before another backend is chosen (whose libraries must not
 * meet these).  Opt-in (ASCENDRTC_PREWARM=1): on a 2-core machine the
 * thread slowed the import by about what it saved the first compile
 * (BENCHMARKS.md), and a process that only loads cached binaries would pay
 * a compile's CPU for nothing. */
#include "arc_ext.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_t thread;
static int running;         /* started and not yet joined */
static char dir[4200];      /* the home's lib64 */
static void *libs[2];       /* the thread's own references to the libraries */
static int cancel;          /* set (atomically) to stop the throwaway compile */

static void *work(void *arg)
{
    (void)arg;
    char path[4400];
    snprintf(path, sizeof path, "%s/libascendcl.so", dir);
    /* The flags load_backend uses, so that its dlopen is a reference more. */
    libs[0] = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    snprintf(path, sizeof path, "%s/libacl_rtc.so", dir);
    libs[1] = libs[0] ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    void (*prewarm)(const int *) = NULL;
    if (libs[1])
        *(void **)&prewarm = dlsym(libs[1], "ascendrtc_rtc_prewarm");
    if (prewarm && !__atomic_load_n(&cancel, __ATOMIC_RELAXED))
        prewarm(&cancel);
    return NULL;
}

/* Stop the thread (a loading library finishes first) and join it. */
static void stop(void)
{
    pthread_mutex_lock(&mu);
    if (running) {
        __atomic_store_n(&cancel, 1, __ATOMIC_RELAXED);
        pthread_join(thread, NULL);
        running = 0;
    }
    pthread_mutex_unlock(&mu);
}

/* Another backend is about to be chosen: the thread's libraries go, so a
 * CANN home's libascendcl.so cannot resolve to the simulated one. */
void arc_prewarm_forget(void)
{
    stop();
    pthread_mutex_lock(&mu);
    for (int i = 1; i >= 0; i--)
        if (libs[i]) {
            dlclose(libs[i]);
            libs[i] = NULL;
        }
    pthread_mutex_unlock(&mu);
}

static void before_fork(void)
{
    stop();
}

static void at_exit(void)
{
    stop();
}

PyObject *arc_prewarm(PyObject *module, PyObject *args)
{
    const char *home;
    (void)module;
    if (!PyArg_ParseTuple(args, "s:prewarm", &home))
        return NULL;
    const char *env = getenv("ASCENDRTC_PREWARM");
    if (!env || strcmp(env, "1") != 0 || arc_loaded)
        Py_RETURN_FALSE;
    static int hooked;
    int started = 0;
    pthread_mutex_lock(&mu);
    if (!running && !libs[0] && strlen(home) + 8 < sizeof dir) {
        snprintf(dir, sizeof dir, "%s/lib64", home);
        if (!hooked) {
            hooked = 1;
            pthread_atfork(before_fork, NULL, NULL);
            Py_AtExit(at_exit);
        }
        started = running = pthread_create(&thread, NULL, work, NULL) == 0;
    }
    pthread_mutex_unlock(&mu);
    return PyBool_FromLong(started);
}
