/* error.c - the per-thread "most recent error" text of aclGetRecentErrMsg
 * and its code (aclrtGetLastError/aclrtPeekAtLastError).  Every failing
 * entry point records a message naming the argument, the value and the
 * limit involved; the text stays until the next error on the same thread
 * (reading it does not clear it); aclrtGetLastError clears the code. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rt/rt_internal.h"

static __thread char recent[SIM_MSG_MAX];
static __thread aclError last_code;

aclError sim_err(aclError code, const char *api, const char *fmt, ...)
{
    char body[SIM_MSG_MAX - 256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    snprintf(recent, sizeof recent, "%s: %s", api, body);
    last_code = code;
    return code;
}

aclError sim_err_raw(aclError code, const char *msg)
{
    snprintf(recent, sizeof recent, "%s", msg ? msg : "");
    last_code = code;
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
