/* error.c - the per-thread "most recent error" text of aclGetRecentErrMsg
 * and its code (aclrtGetLastError/aclrtPeekAtLastError).  Every failing
 * entry point records a message naming the argument, the value and the
 * limit involved; the text stays until the next error on the same thread
 * (reading it does not clear it); aclrtGetLastError clears the code. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rt_internal.h"

static __thread char recent[SIM_MSG_MAX];
static __thread aclError last_code;

/* ASCEND_SLOG_PRINT_TO_STDOUT=1, as CANN's log: every error is printed to
 * stdout too, for host programs whose error checks print only the code
 * (CATLASS's ACL_CHECK). */
static pthread_once_t slog_once = PTHREAD_ONCE_INIT;
static int slog_stdout;

static void slog_init(void)
{
    const char *e = getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    slog_stdout = e && !strcmp(e, "1");
}

static void slog(void)
{
    pthread_once(&slog_once, slog_init);
    if (slog_stdout) {
        printf("[ERROR] ascendrtc: %s\n", recent);
        fflush(stdout);
    }
}

aclError sim_err(aclError code, const char *api, const char *fmt, ...)
{
    char body[SIM_MSG_MAX - 256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    snprintf(recent, sizeof recent, "%s: %s", api, body);
    last_code = code;
    slog();
    return code;
}

aclError sim_err_raw(aclError code, const char *msg)
{
    snprintf(recent, sizeof recent, "%s", msg ? msg : "");
    last_code = code;
    slog();
    return code;
}

/* Text of the most recent error on this thread; "" when there was none. */
const char *aclGetRecentErrMsg(void)
{
    return recent;
}

/* The code of this thread's most recent error (ACL_SUCCESS when none since
 * the last read), then cleared; thread level is the only level. */
aclError aclrtGetLastError(aclrtLastErrLevel level)
{
    (void)level;
    aclError c = last_code;
    last_code = ACL_SUCCESS;
    return c;
}

/* The same without clearing it. */
aclError aclrtPeekAtLastError(aclrtLastErrLevel level)
{
    (void)level;
    return last_code;
}
