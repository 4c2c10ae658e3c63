/* error.c - the per-thread "most recent error" text of aclGetRecentErrMsg.
 * Every failing entry point records a message naming the argument, the
 * value and the limit involved; the text stays until the next error on the
 * same thread (reading it does not clear it). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rt/rt_internal.h"

static __thread char recent[SIM_MSG_MAX];

aclError sim_err(aclError code, const char *api, const char *fmt, ...)
{
    char body[SIM_MSG_MAX - 256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    snprintf(recent, sizeof recent, "%s: %s", api, body);
    return code;
}

aclError sim_err_raw(aclError code, const char *msg)
{
    snprintf(recent, sizeof recent, "%s", msg ? msg : "");
    return code;
}

/* Text of the most recent error on this thread; "" when there was none. */
const char *aclGetRecentErrMsg(void)
{
    return recent;
}
