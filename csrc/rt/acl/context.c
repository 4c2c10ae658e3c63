/* context.c - ACL contexts (aclrtCreateContext ...).  The simulated NPU
 * has one device and one address space, so a context is only a validated
 * handle naming device 0 and the calling thread's current one: streams,
 * memory and modules work the same under every context (and without any,
 * as under the default context aclrtSetDevice makes implicitly). */
#include <stdlib.h>

#include "rt/rt_internal.h"

typedef struct sim_context {
    uint32_t magic;
    int32_t device;
} sim_context;

/* The default context of device 0, current on a thread that set none. */
static sim_context default_ctx = {SIM_MAGIC_CONTEXT, 0};
static _Thread_local sim_context *current;

static aclError resolve(aclrtContext context, const char *api, sim_context **out)
{
    if (!context)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "context is NULL");
    if (context != (aclrtContext)&default_ctx && !sim_handle_ok(context, SIM_K_CONTEXT, SIM_MAGIC_CONTEXT))
        return sim_err(ACL_ERROR_RT_INVALID_HANDLE, api,
                       "context %p is not a live context (destroyed, or not made by aclrtCreateContext)", context);
    *out = (sim_context *)context;
    return ACL_SUCCESS;
}

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId)
{
    const char *api = "aclrtCreateContext";
    aclError rc = sim_rt_enter(api);
    if (rc)
        return rc;
    if (!context)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "context is NULL");
    if ((rc = sim_check_device(deviceId, api)))
        return rc;
    sim_context *c = malloc(sizeof *c);
    if (!c)
        return sim_err(ACL_ERROR_BAD_ALLOC, api, "out of host memory");
    c->magic = SIM_MAGIC_CONTEXT;
    c->device = deviceId;
    sim_handle_add(c, SIM_K_CONTEXT);
    current = c; /* as on the NPU: the new context becomes the thread's current one */
    *context = c;
    return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context)
{
    const char *api = "aclrtDestroyContext";
    sim_context *c;
    aclError rc = sim_rt_enter(api);
    if (!rc)
        rc = resolve(context, api, &c);
    if (rc)
        return rc;
    if (c == &default_ctx)
        return sim_err(ACL_ERROR_INVALID_PARAM, api,
                       "context %p is device 0's default context, which aclrtResetDevice releases", context);
    if (current == c)
        current = NULL;
    sim_handle_del(c);
    c->magic = 0;
    free(c);
    return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context)
{
    const char *api = "aclrtSetCurrentContext";
    sim_context *c;
    aclError rc = sim_rt_enter(api);
    if (!rc)
        rc = resolve(context, api, &c);
    if (rc)
        return rc;
    current = c;
    return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext *context)
{
    const char *api = "aclrtGetCurrentContext";
    aclError rc = sim_rt_enter(api);
    if (rc)
        return rc;
    if (!context)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "context is NULL");
    *context = current ? current : &default_ctx;
    return ACL_SUCCESS;
}
