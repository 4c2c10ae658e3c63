/* host_run.c - op host code contained like kernel code.  An op's host
 * functions (its OpDef constructor, InferShape, InferDataType, tiling) and
 * the host compile run on a thread of their own: a fault or an abort there
 * siglongjmps back to that thread's recovery point (the runtime's fault
 * handlers, ascendrtc_fault_recovery), and the caller waits in slices,
 * running Python's signal handlers between them.  When the time runs out
 * or Ctrl-C raises, the thread gets the runtime's interrupt signal
 * (ascendrtc_fault_interrupt), which sends it to its recovery point too;
 * the caller returns within a second either way.  What the abandoned call
 * had allocated is lost; the process goes on. */
#include "arc_ext.h"
#include "host_run.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ARC_HOST_POLL_MS 20
#define ARC_HOST_STOP_WAIT_MS 1000
#define ARC_HOST_STACK (64u << 20) /* host code may recurse; virtual until touched */
#define ARC_HOST_ALTSTACK (256u << 10)

typedef struct host_job {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    void (*fn)(void *);
    void *arg;
    int sig;       /* the signal that ended it, 0 when fn returned */
    int done;
    int abandoned; /* the caller left: the thread frees the job */
} host_job;

/* One host call at a time, process-wide: the driver keeps process-wide
 * hooks, and op code may too. */
static pthread_mutex_t host_mu = PTHREAD_MUTEX_INITIALIZER;

static void *host_main(void *p)
{
    host_job *j = p;
    /* a stack overflow in op code reports like any fault */
    stack_t ss = {.ss_sp = malloc(ARC_HOST_ALTSTACK), .ss_size = ARC_HOST_ALTSTACK, .ss_flags = 0};
    if (ss.ss_sp)
        sigaltstack(&ss, NULL);
    sigjmp_buf jb;
    int sig = sigsetjmp(jb, 1);
    if (!sig) {
        arc_acl.ascendrtc_fault_recovery(&jb);
        j->fn(j->arg);
    }
    arc_acl.ascendrtc_fault_recovery(NULL);
    if (ss.ss_sp) {
        stack_t off = {.ss_flags = SS_DISABLE};
        sigaltstack(&off, NULL);
        free(ss.ss_sp);
    }
    pthread_mutex_lock(&j->mu);
    j->sig = sig;
    j->done = 1;
    int abandoned = j->abandoned;
    pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->mu);
    if (abandoned) {
        pthread_mutex_destroy(&j->mu);
        pthread_cond_destroy(&j->cv);
        free(j);
    }
    return NULL;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Waits up to ms for the job; 1 when it is done.  Called with j->mu held. */
static int wait_done(host_job *j, int ms)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += (long)ms * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    while (!j->done)
        if (pthread_cond_timedwait(&j->cv, &j->mu, &until) == ETIMEDOUT)
            break;
    return j->done;
}

int arc_host_run(void (*fn)(void *), void *arg, double timeout_s, int *sig, const int *cancel)
{
    *sig = 0;
    if (!arc_acl.ascendrtc_fault_recovery || !arc_acl.ascendrtc_fault_interrupt) {
        arc_raise_host_compile(NULL, "op host code runs on the simulated NPU only: this backend has no "
                                     "fault recovery (ascendrtc_fault_recovery)");
        return ARC_HOST_ERROR;
    }
    host_job *j = calloc(1, sizeof *j);
    if (!j) {
        PyErr_NoMemory();
        return ARC_HOST_ERROR;
    }
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    j->fn = fn;
    j->arg = arg;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&host_mu);
    Py_END_ALLOW_THREADS
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, ARC_HOST_STACK);
    pthread_t t;
    int rc = pthread_create(&t, &attr, host_main, j);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        pthread_mutex_unlock(&host_mu);
        pthread_mutex_destroy(&j->mu);
        pthread_cond_destroy(&j->cv);
        free(j);
        errno = rc;
        PyErr_SetFromErrno(PyExc_OSError);
        return ARC_HOST_ERROR;
    }
    double t0 = now_s();
    int outcome = ARC_HOST_DONE, done = 0;
    for (;;) {
        Py_BEGIN_ALLOW_THREADS
        pthread_mutex_lock(&j->mu);
        done = wait_done(j, ARC_HOST_POLL_MS);
        pthread_mutex_unlock(&j->mu);
        Py_END_ALLOW_THREADS
        if (done)
            break;
        if (PyErr_CheckSignals() < 0) {
            outcome = ARC_HOST_INTERRUPTED;
            break;
        }
        if (timeout_s > 0 && now_s() - t0 > timeout_s) {
            outcome = ARC_HOST_TIMEOUT;
            break;
        }
    }
    if (!done) {
        /* stop it: a compile at its next declaration (cancel), op code at
         * once (the interrupt signal sends it to its recovery point) */
        if (cancel)
            __atomic_store_n((int *)cancel, 1, __ATOMIC_RELAXED);
        else
            arc_acl.ascendrtc_fault_interrupt((unsigned long)t);
        Py_BEGIN_ALLOW_THREADS
        pthread_mutex_lock(&j->mu);
        /* a cancelled compile ends within moments (its parse stops): wait
         * for it, its arguments live on the caller's stack */
        while (!(done = wait_done(j, ARC_HOST_STOP_WAIT_MS)) && cancel)
            ;
        if (!done)
            j->abandoned = 1; /* it blocks the signal: left running */
        pthread_mutex_unlock(&j->mu);
        Py_END_ALLOW_THREADS
        if (!done) {
            pthread_detach(t);
            pthread_mutex_unlock(&host_mu);
            *sig = -1; /* arg stays in use: the caller must not free it */
            return outcome == ARC_HOST_TIMEOUT ? ARC_HOST_STUCK : outcome;
        }
    }
    pthread_join(t, NULL);
    pthread_mutex_unlock(&host_mu);
    *sig = j->sig;
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->cv);
    free(j);
    if (outcome == ARC_HOST_DONE && *sig)
        outcome = ARC_HOST_FAULT;
    return outcome;
}

const char *arc_host_signal_text(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV: invalid memory access (a null or wild pointer, or a stack overflow)";
    case SIGBUS: return "SIGBUS: invalid memory access";
    case SIGFPE: return "SIGFPE: arithmetic exception (an integer division by zero)";
    case SIGILL: return "SIGILL: illegal instruction";
    case SIGABRT: return "SIGABRT: abort() (a failed assert, or std::terminate)";
    case SIGTRAP: return "SIGTRAP: breakpoint trap";
    default: return "a signal";
    }
}
