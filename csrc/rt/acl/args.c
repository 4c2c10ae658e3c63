/* args.c - kernel argument handles (aclrtKernelArgs*).  Parameters are
 * appended in signature order, each 8-byte aligned, and checked against
 * the kernel's metadata as they come (count, size, pointer-ness of
 * placeholders), so a wrong argument is named before launch.  Placeholder
 * data lives after the parameters.  The launch copies everything, so a
 * handle can be refilled as soon as the launch call returns.
 *
 * aclrtKernelArgsInit hands out one handle per thread, re-initialised on
 * every call (as CANN does); aclrtKernelArgsInitByUserMem builds an
 * independent handle in caller memory. */
#include <stdlib.h>
#include <string.h>

#include "rt/rt_internal.h"

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t key;
static __thread sim_args *tls_args;

static void tls_free(void *p)
{
    sim_handle_del(p);
    free(p);
}

static void make_key(void)
{
    pthread_key_create(&key, tls_free);
}

static void reset(sim_args *a, sim_func *f)
{
    a->magic = SIM_MAGIC_ARGS;
    a->func = f;
    a->used = 0;
    a->ph_used = 0;
    a->nparams = 0;
    a->finalized = 0;
}

aclError sim_args_resolve(aclrtArgsHandle h, const char *api, sim_args **out)
{
    if (!h)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "argsHandle is NULL");
    if (!sim_handle_ok(h, SIM_K_ARGS, SIM_MAGIC_ARGS))
        return sim_err(ACL_ERROR_RT_INVALID_HANDLE, api,
                       "argsHandle %p is not an initialised args handle (use aclrtKernelArgsInit)", h);
    sim_args *a = h;
    if (!sim_handle_ok(a->func, SIM_K_FUNC, SIM_MAGIC_FUNC))
        return sim_err(ACL_ERROR_RT_INVALID_HANDLE, api,
                       "argsHandle %p belongs to a kernel whose binary was unloaded", h);
    *out = a;
    return ACL_SUCCESS;
}

/* sim_rt_enter(api) then sim_args_resolve: the prologue of the entry
 * points that take an args handle. */
static aclError args_enter(aclrtArgsHandle h, const char *api, sim_args **out)
{
    aclError rc = sim_rt_enter(api);
    return rc ? rc : sim_args_resolve(h, api, out);
}

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle)
{
    const char *api = "aclrtKernelArgsInit";
    sim_func *f;
    aclError rc = sim_func_enter(funcHandle, api, &f);
    if (rc)
        return rc;
    if (!argsHandle)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "argsHandle is NULL");
    if (!tls_args) {
        pthread_once(&key_once, make_key);
        sim_args *a = calloc(1, sizeof *a + SIM_ARGS_BUF);
        if (!a)
            return sim_err(ACL_ERROR_BAD_ALLOC, api, "out of host memory");
        a->owned = 1;
        a->buf = (unsigned char *)(a + 1);
        a->cap = SIM_ARGS_BUF;
        pthread_setspecific(key, a);
        tls_args = a;
    }
    reset(tls_args, f);
    sim_handle_add(tls_args, SIM_K_ARGS);
    *argsHandle = tls_args;
    return ACL_SUCCESS;
}

aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t *memSize)
{
    const char *api = "aclrtKernelArgsGetHandleMemSize";
    sim_func *f;
    aclError rc = sim_func_enter(funcHandle, api, &f);
    if (rc)
        return rc;
    if (!memSize)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "memSize is NULL");
    *memSize = sizeof(sim_args);
    return ACL_SUCCESS;
}

/* Room for userArgsSize bytes of parameters and placeholder data, plus
 * the padding that 8-byte alignment of each parameter can add. */
aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize, size_t *actualArgsSize)
{
    const char *api = "aclrtKernelArgsGetMemSize";
    sim_func *f;
    aclError rc = sim_func_enter(funcHandle, api, &f);
    if (rc)
        return rc;
    if (!actualArgsSize)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "actualArgsSize is NULL");
    size_t need = sim_align_up(userArgsSize, 8) + 8 * (size_t)f->km->nparams + 8;
    if (need < userArgsSize)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "userArgsSize %zu is too large", userArgsSize);
    *actualArgsSize = need;
    return ACL_SUCCESS;
}

aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle, void *userHostMem,
                                      size_t actualArgsSize)
{
    const char *api = "aclrtKernelArgsInitByUserMem";
    sim_func *f;
    aclError rc = sim_func_enter(funcHandle, api, &f);
    if (rc)
        return rc;
    if (!argsHandle)
        return sim_err(ACL_ERROR_INVALID_PARAM, api,
                       "argsHandle is NULL (pass memory of aclrtKernelArgsGetHandleMemSize bytes)");
    if (!userHostMem)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "userHostMem is NULL");
    if (!actualArgsSize)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "actualArgsSize is 0");
    if ((uintptr_t)argsHandle % 8)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "argsHandle %p is not 8-byte aligned", argsHandle);
    sim_args *a = argsHandle;
    memset(a, 0, sizeof *a);
    a->buf = userHostMem;
    a->cap = actualArgsSize;
    reset(a, f);
    sim_handle_add(a, SIM_K_ARGS);
    return ACL_SUCCESS;
}

/* Check that one more parameter of paramSize bytes fits the kernel. */
static aclError check_next(const char *api, sim_args *a, size_t paramSize, int placeholder)
{
    const arc_kernel_meta *k = a->func->km;
    if (a->finalized)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                       "the args of '%s' are finalized; append before aclrtKernelArgsFinalize (or call "
                       "aclrtKernelArgsInit again)", k->name);
    if (a->ph_used)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                       "no parameters may be appended after aclrtKernelArgsGetPlaceHolderBuffer ('%s')", k->name);
    if (a->nparams >= SIM_MAX_PARAMS)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "more than %d parameters", SIM_MAX_PARAMS);
    if (a->nparams >= k->nparams)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                       "'%s' takes %u parameter(s); all are appended already (this would be parameter %u)",
                       k->name, k->nparams, a->nparams);
    const arc_param *p = &k->params[a->nparams];
    if (placeholder && p->kind != ARC_PARAM_POINTER)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                       "%s: parameter %u '%s' (%s) is not a pointer; a placeholder stands for a pointer parameter",
                       k->name, a->nparams, p->name, p->type);
    if (paramSize != p->size)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "%s: parameter %u '%s' (%s) expects %u bytes, got %zu",
                       k->name, a->nparams, p->name, p->type, p->size, paramSize);
    size_t off = sim_align_up(a->used, 8);
    if (off > a->cap || paramSize > a->cap - off)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                       "%s: parameter %u '%s' does not fit the argument buffer (%zu bytes, %zu used)", k->name,
                       a->nparams, p->name, a->cap, a->used);
    return ACL_SUCCESS;
}

static sim_param_slot *push_slot(sim_args *a, const void *param, size_t size, int placeholder)
{
    size_t off = sim_align_up(a->used, 8);
    sim_param_slot *s = &a->params[a->nparams++];
    memset(s, 0, sizeof *s);
    s->off = (uint32_t)off;
    s->size = (uint32_t)size;
    s->placeholder = (uint32_t)placeholder;
    if (param)
        memcpy(a->buf + off, param, size);
    else
        memset(a->buf + off, 0, size);
    a->used = off + size;
    return s;
}

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                               aclrtParamHandle *paramHandle)
{
    const char *api = "aclrtKernelArgsAppend";
    sim_args *a;
    aclError rc = args_enter(argsHandle, api, &a);
    if (rc)
        return rc;
    if (!param)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "param is NULL (pass the address of the value, e.g. &devPtr)");
    if (!paramSize)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "paramSize is 0");
    if ((rc = check_next(api, a, paramSize, 0)))
        return rc;
    sim_param_slot *s = push_slot(a, param, paramSize, 0);
    if (paramHandle)
        *paramHandle = s;
    return ACL_SUCCESS;
}

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle, aclrtParamHandle *paramHandle)
{
    const char *api = "aclrtKernelArgsAppendPlaceHolder";
    sim_args *a;
    aclError rc = args_enter(argsHandle, api, &a);
    if (rc)
        return rc;
    if (!paramHandle)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "paramHandle is NULL");
    if ((rc = check_next(api, a, 8, 1)))
        return rc;
    *paramHandle = push_slot(a, NULL, 8, 1);
    return ACL_SUCCESS;
}

/* The slot paramHandle names in a, or NULL. */
static sim_param_slot *slot_of(sim_args *a, aclrtParamHandle h)
{
    uintptr_t base = (uintptr_t)a->params, p = (uintptr_t)h;
    if (p < base || (p - base) % sizeof(sim_param_slot) || (p - base) / sizeof(sim_param_slot) >= a->nparams)
        return NULL;
    return h;
}

/* slot_of, or an error naming both handles. */
static aclError slot_in(sim_args *a, aclrtParamHandle h, const char *api, sim_param_slot **out)
{
    if (!(*out = slot_of(a, h)))
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "paramHandle %p is not a parameter of argsHandle %p", h,
                       (void *)a);
    return ACL_SUCCESS;
}

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                             size_t dataSize, void **bufferAddr)
{
    const char *api = "aclrtKernelArgsGetPlaceHolderBuffer";
    sim_args *a;
    aclError rc = args_enter(argsHandle, api, &a);
    if (rc)
        return rc;
    if (!paramHandle)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "paramHandle is NULL");
    if (!dataSize)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "dataSize is 0");
    if (!bufferAddr)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "bufferAddr is NULL");
    sim_param_slot *s;
    if ((rc = slot_in(a, paramHandle, api, &s)))
        return rc;
    unsigned idx = (unsigned)(s - a->params);
    if (!s->placeholder)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                       "parameter %u was added with aclrtKernelArgsAppend, not as a placeholder", idx);
    if (a->finalized)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "the args are finalized already");
    if (s->ph_size) {
        if (dataSize > s->ph_size)
            return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                           "placeholder %u already has a %u-byte buffer; %zu bytes asked", idx, s->ph_size, dataSize);
        *bufferAddr = a->buf + s->ph_off;
        return ACL_SUCCESS;
    }
    size_t off = sim_align_up(a->ph_used ? a->ph_used : a->used, 8);
    if (off > a->cap || dataSize > a->cap - off || dataSize > UINT32_MAX)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                       "placeholder %u: %zu bytes do not fit the argument buffer (%zu bytes, %zu used)", idx,
                       dataSize, a->cap, off);
    s->ph_off = (uint32_t)off;
    s->ph_size = (uint32_t)dataSize;
    a->ph_used = off + dataSize;
    *bufferAddr = a->buf + off;
    return ACL_SUCCESS;
}

/* Rewrite an appended value; the args must be finalized again. */
aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, void *param,
                                   size_t paramSize)
{
    const char *api = "aclrtKernelArgsParaUpdate";
    sim_args *a;
    aclError rc = args_enter(argsHandle, api, &a);
    if (rc)
        return rc;
    if (!paramHandle)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "paramHandle is NULL");
    if (!param)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "param is NULL");
    sim_param_slot *s;
    if ((rc = slot_in(a, paramHandle, api, &s)))
        return rc;
    unsigned idx = (unsigned)(s - a->params);
    const arc_param *p = &a->func->km->params[idx];
    if (s->placeholder)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                       "parameter %u '%s' is a placeholder; write its data through the placeholder buffer", idx,
                       p->name);
    if (paramSize != s->size)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "%s: parameter %u '%s' (%s) expects %u bytes, got %zu",
                       a->func->km->name, idx, p->name, p->type, s->size, paramSize);
    memcpy(a->buf + s->off, param, paramSize);
    a->finalized = 0;
    return ACL_SUCCESS;
}

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle)
{
    const char *api = "aclrtKernelArgsFinalize";
    sim_args *a;
    aclError rc = args_enter(argsHandle, api, &a);
    if (rc)
        return rc;
    const arc_kernel_meta *k = a->func->km;
    if (a->nparams != k->nparams)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "'%s' takes %u parameter(s) but %u were appended", k->name,
                       k->nparams, a->nparams);
    for (uint32_t i = 0; i < a->nparams; i++)
        if (a->params[i].placeholder && !a->params[i].ph_size)
            return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                           "placeholder parameter %u '%s' has no data: call aclrtKernelArgsGetPlaceHolderBuffer",
                           i, k->params[i].name);
    a->finalized = 1;
    return ACL_SUCCESS;
}
