/* compile_thread.c - aclrtcCompileProg that Ctrl-C can stop.  A compile
 * takes up to seconds in clang with the GIL released, and Python runs its
 * SIGINT handler only once the call returns; so the compile runs on a
 * thread of its own while the caller waits in slices and runs the signal
 * handlers between them.  When one raises (KeyboardInterrupt), the
 * compile is cancelled (ascendrtc_compile_cancel: clang stops at its next
 * check, see csrc/rtc/compile.cpp) and the call returns; a compile that
 * does not stop within a second (the shared precompiled header being
 * built) finishes on its own, frees the program and nothing is cached. */
#include "arc_ext.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ARC_COMPILE_POLL_MS 50
#define ARC_CANCEL_WAIT_MS 1000
/* clang recurses deeply on deep templates; virtual until touched. */
#define ARC_COMPILE_STACK (64u << 20)

typedef struct compile_job {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    aclrtcProg prog;
    int nopt;
    char **opts;    /* owned copies: the caller may be gone when they are read */
    aclError err;
    char *detail;   /* the compile thread's aclGetRecentErrMsg() on failure */
    int done;
    int abandoned;  /* the caller left: the thread frees prog and the job */
} compile_job;

static void job_free(compile_job *j)
{
    for (int i = 0; i < j->nopt; i++)
        free(j->opts[i]);
    free(j->opts);
    free(j->detail);
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->cv);
    free(j);
}

static void *compile_main(void *arg)
{
    compile_job *j = arg;
    aclError err = arc_acl.aclrtcCompileProg(j->prog, j->nopt, (const char **)j->opts);
    const char *d = err != ACL_SUCCESS ? arc_acl.aclGetRecentErrMsg() : NULL;
    char *detail = d ? strdup(d) : NULL;
    pthread_mutex_lock(&j->mu);
    j->err = err;
    j->detail = detail;
    j->done = 1;
    int abandoned = j->abandoned;
    pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->mu);
    if (abandoned) {
        arc_acl.aclrtcDestroyProg(&j->prog);
        job_free(j);
    }
    return NULL;
}

static void deadline_in(struct timespec *t, long ms)
{
    clock_gettime(CLOCK_MONOTONIC, t);
    t->tv_sec += ms / 1000;
    t->tv_nsec += (ms % 1000) * 1000000L;
    if (t->tv_nsec >= 1000000000L) {
        t->tv_sec++;
        t->tv_nsec -= 1000000000L;
    }
}

static compile_job *job_new(aclrtcProg prog, int nopt, const char **opts)
{
    compile_job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->opts = calloc(nopt ? (size_t)nopt : 1, sizeof *j->opts);
    if (!j->opts) {
        free(j);
        return NULL;
    }
    for (; j->nopt < nopt; j->nopt++)
        if (!(j->opts[j->nopt] = strdup(opts[j->nopt]))) {
            for (int i = 0; i < j->nopt; i++)
                free(j->opts[i]);
            free(j->opts);
            free(j);
            return NULL;
        }
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, &ca);
    pthread_condattr_destroy(&ca);
    j->prog = prog;
    return j;
}

int arc_compile_prog(aclrtcProg *prog, int nopt, const char **opts, char **detail)
{
    *detail = NULL;
    compile_job *j = arc_acl.ascendrtc_compile_cancel ? job_new(*prog, nopt, opts) : NULL;
    pthread_t th;
    pthread_attr_t at;
    int started = 0;
    if (j) {
        pthread_attr_init(&at);
        pthread_attr_setstacksize(&at, ARC_COMPILE_STACK);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        started = pthread_create(&th, &at, compile_main, j) == 0;
        pthread_attr_destroy(&at);
    }
    if (!started) { /* a CANN home, or no thread: compile here, as before */
        if (j)
            job_free(j);
        aclError err;
        Py_BEGIN_ALLOW_THREADS
        err = arc_acl.aclrtcCompileProg(*prog, nopt, opts);
        Py_END_ALLOW_THREADS
        if (err != ACL_SUCCESS) {
            const char *d = arc_acl.aclGetRecentErrMsg();
            *detail = d ? strdup(d) : NULL;
        }
        return err;
    }
    PyThreadState *ts = PyEval_SaveThread();
    int interrupted = 0;
    struct timespec give_up = {0, 0}, now;
    pthread_mutex_lock(&j->mu);
    while (!j->done) {
        struct timespec dl;
        deadline_in(&dl, ARC_COMPILE_POLL_MS);
        if (pthread_cond_timedwait(&j->cv, &j->mu, &dl) != ETIMEDOUT || j->done)
            continue;
        if (interrupted) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (now.tv_sec > give_up.tv_sec || (now.tv_sec == give_up.tv_sec && now.tv_nsec >= give_up.tv_nsec)) {
                j->abandoned = 1; /* compile_main frees everything */
                break;
            }
            continue;
        }
        pthread_mutex_unlock(&j->mu);
        PyEval_RestoreThread(ts);
        int rc = PyErr_CheckSignals();
        ts = PyEval_SaveThread();
        pthread_mutex_lock(&j->mu);
        if (rc < 0) {
            interrupted = 1;
            arc_acl.ascendrtc_compile_cancel(*prog);
            deadline_in(&give_up, ARC_CANCEL_WAIT_MS);
        }
    }
    int abandoned = j->abandoned;
    pthread_mutex_unlock(&j->mu);
    PyEval_RestoreThread(ts);
    if (abandoned) {
        *prog = NULL; /* the compile thread destroys it */
        return -1;
    }
    aclError err = j->err;
    *detail = j->detail;
    j->detail = NULL;
    job_free(j);
    return interrupted ? -1 : err;
}
