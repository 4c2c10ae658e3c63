/* host_run.h - op host code run contained (host_run.c). */
#ifndef ARC_EXT_HOST_RUN_H
#define ARC_EXT_HOST_RUN_H

enum {
    ARC_HOST_DONE = 0,        /* fn returned */
    ARC_HOST_FAULT = 1,       /* it faulted or aborted: *sig says how */
    ARC_HOST_TIMEOUT = 2,     /* stopped after timeout_s */
    ARC_HOST_INTERRUPTED = 3, /* Ctrl-C: a Python exception (KeyboardInterrupt) is set */
    ARC_HOST_STUCK = 4,       /* timed out and did not stop within a second: left running */
    ARC_HOST_ERROR = -1,      /* could not run it: a Python exception is set */
};

/* Runs fn(arg) on a thread of its own under the fault handlers, one such
 * call at a time; timeout_s > 0 bounds it.  With `cancel` (a compile), a
 * stop sets *cancel instead of interrupting the thread, and waits for it.
 * *sig is -1 when the thread did not stop (it blocks the interrupt
 * signal): it still uses arg, which the caller must then leak.  Holds the
 * GIL only between waits. */
int arc_host_run(void (*fn)(void *), void *arg, double timeout_s, int *sig, const int *cancel);

/* "SIGSEGV: invalid memory access ..." for messages. */
const char *arc_host_signal_text(int sig);

#endif
