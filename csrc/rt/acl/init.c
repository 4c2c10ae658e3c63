/* init.c - aclInit/aclFinalize and the runtime's one-time setup.
 * The runtime is permissive: every entry point initialises implicitly, so
 * aclInit is optional (as in CANN's CPU mode).  A repeated aclInit returns
 * ACL_ERROR_REPEAT_INITIALIZE, which callers may ignore.  After fork() the
 * child has none of the runtime's threads, so it refuses to run (an error,
 * never a hang). */
#include <stdio.h>
#include <string.h>

#include "rt/rt_internal.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t init_mu = PTHREAD_MUTEX_INITIALIZER;
static int initialized;      /* between aclInit and aclFinalize */
static volatile int forked;  /* set in a fork() child */

static void in_child(void)
{
    forked = 1;
}

static void setup(void)
{
    pthread_atfork(NULL, NULL, in_child);
}

aclError sim_rt_enter(const char *api)
{
    pthread_once(&once, setup);
    if (forked)
        return sim_err(ACL_ERROR_RT_INTERNAL_ERROR, api,
                       "the simulated NPU was started in the parent process and cannot be used in a "
                       "fork() child (its worker threads do not survive fork); use the 'spawn' start method");
    return ACL_SUCCESS;
}

aclError aclInit(const char *configPath)
{
    aclError rc = sim_rt_enter("aclInit");
    if (rc)
        return rc;
    if (configPath && configPath[0]) {
        FILE *f = fopen(configPath, "rb");
        if (!f)
            return sim_err(ACL_ERROR_INVALID_FILE, "aclInit", "cannot open config file '%s'", configPath);
        fclose(f); /* its settings do not apply to the simulated NPU */
    }
    pthread_mutex_lock(&init_mu);
    int again = initialized;
    initialized = 1;
    pthread_mutex_unlock(&init_mu);
    if (again)
        return sim_err(ACL_ERROR_REPEAT_INITIALIZE, "aclInit",
                       "ACL is already initialised (repeated aclInit; this code may be ignored)");
    return ACL_SUCCESS;
}

/* Waits for all queued work; resources stay valid (the runtime keeps
 * working after aclFinalize, implicitly re-initialised). */
aclError aclFinalize(void)
{
    aclError rc = sim_rt_enter("aclFinalize");
    if (rc)
        return rc;
    rc = sim_stream_sync_all("aclFinalize");
    pthread_mutex_lock(&init_mu);
    initialized = 0;
    pthread_mutex_unlock(&init_mu);
    return rc;
}
