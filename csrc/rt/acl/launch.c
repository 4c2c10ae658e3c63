/* launch.c - aclrtLaunchKernelWith{Config,ArgsArray,HostArgs}.  Each
 * launch is validated completely before anything is queued (numBlocks,
 * reserve, the launch attributes aclrtLaunchKernelWithConfig takes, the arguments
 * against the kernel's metadata), then the packed argument block - each
 * parameter at its metadata offset, placeholder data after them - is
 * copied into the task, and the call returns before the kernel runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt/rt_internal.h"

/* What the launch attributes set. */
typedef struct launch_opts {
    uint64_t timeout_ns; /* 0 = none, TIMEOUT_UNSET = ASCENDRTC_LAUNCH_TIMEOUT */
    uint64_t tiling_key; /* ASCENDRTC_LAUNCH_KERNEL_ATTR_TILING_KEY */
    int race_mode;       /* ASCENDRTC_LAUNCH_KERNEL_ATTR_RACE_CHECK, else $ASCENDRTC_RACE_CHECK */
    int profile;         /* queued while a profiling session was on (cost.c) */
    int poison_ub;       /* queued under ASCENDRTC_POISON=1 (sim_poison_ub) */
    int simt_block, simt_grid; /* the SIMT attributes were given */
    arc_simt_dims simt;  /* SIMT_BLOCK, SIMT_GRID, DYN_UBUF_SIZE */
} launch_opts;

typedef struct launch_task {
    sim_task t;
    sim_func *f;
    uint32_t nblocks;
    launch_opts opts;
    unsigned char *args;
    size_t args_size;
    char site[192]; /* "file:line" of a <<<...>>> launch, else "" */
} launch_task;

static __thread const char *site_file;
static __thread unsigned site_line;

void sim_launch_site(const char *file, unsigned line)
{
    site_file = file;
    site_line = line;
}

/* A failure of a launch's kernel as it ran, recorded for the stream's next
 * synchronize; a <<<...>>> launch's is printed too: single-source programs
 * (CANN's examples among them) seldom check aclrtSynchronizeStream, and
 * the simulator's refusal must not pass for a wrong result. */
static void launch_fail(const launch_task *l, sim_stream *s, aclError code, const char *msg)
{
    sim_stream_fail(s, code, msg);
    if (l->site[0]) {
        fprintf(stderr, "%s: error: the kernel of this <<<...>>> launch failed as it ran (error %d): %s\n", l->site,
                (int)code, msg);
        fflush(stderr);
    }
}

/* No TIMEOUT/TIMEOUT_US attribute: the default applies. */
#define TIMEOUT_UNSET UINT64_MAX

typedef struct orphan {
    sim_task *t;
    sim_stream *s;
} orphan;

/* The worker running t was abandoned in kernel code (core_hang.c): on the
 * thread that finished the launch, record its failure and serve the
 * stream.  t is never released: the abandoned core may still read it. */
static void launch_orphaned(void *arg, aclError code, const char *msg)
{
    orphan *o = arg;
    if (code)
        launch_fail((const launch_task *)o->t, o->s, code, msg);
    sim_stream_takeover(o->s, o->t);
}

/* The kernel's name in messages: a template instance's (CATLASS's run to
 * kilobytes) keeps its head and tail, so the message's reason still fits. */
static const char *short_name(const char *name, char *buf, size_t n)
{
    size_t len = strlen(name), head = 160, tail = 64;
    if (len <= head + tail + 5 || n < head + tail + 6)
        return name;
    snprintf(buf, n, "%.*s ... %s", (int)head, name, name + len - tail);
    return buf;
}

static void launch_run(sim_task *t, sim_stream *s)
{
    char name[256];
    launch_task *l = (launch_task *)t;
    orphan o = {t, s}; /* on this thread's stack, which lives on if it is abandoned */
    sim_func *f = l->f;
    sim_kernel_run r = {
        .entry = f->entry, .args = l->args, .args_size = l->args_size, .km = f->km,
        .timeout_ns = l->opts.timeout_ns == TIMEOUT_UNSET ? sim_default_launch_timeout_ns() : l->opts.timeout_ns,
        .kernel_name = short_name(f->km->name, name, sizeof name), .arch = f->arch,
        .nblocks = l->nblocks, .max_concurrent = f->max_concurrent, .core_type = f->core_type,
        .tiling_key = l->opts.tiling_key, .threads = f->threads, .fibers = f->fibers, .race_mode = l->opts.race_mode,
        .poison_ub = l->opts.poison_ub,
        .seq = t->seq, .orphaned = launch_orphaned, .orphan_arg = &o, .bin = f->bin,
        .simt = f->km->simt_threads ? &l->opts.simt : NULL,
    };
    sim_gm_bounds(&r, r.gm);
    if (l->opts.profile) {
        r.cost = sim_cost_launch_new(f->arch, f->km->name, l->nblocks, f->max_concurrent, f->core_type);
        if (f->km->simt_threads) /* in the profile, as not priced */
            sim_cost_mark_simt(r.cost);
    }
    char msg[SIM_MSG_MAX];
    aclError code = sim_cores_run(sim_stream_pool(s), &r, msg, sizeof msg);
    sim_cost_launch_end(r.cost, code);
    /* Raw stores into the few bytes between an allocation's end and its
     * guard page are found here, through the canary there. */
    for (uint32_t i = 0; !code && sim_gm_checks() && i < f->km->nparams; i++) {
        const arc_param *p = &f->km->params[i];
        uintptr_t v;
        if (p->kind != ARC_PARAM_POINTER || (size_t)p->offset + sizeof v > l->args_size)
            continue;
        memcpy(&v, l->args + p->offset, sizeof v);
        char body[SIM_MSG_MAX / 2];
        if ((code = sim_mem_check_canary((const void *)v, body, sizeof body)))
            snprintf(msg, sizeof msg, "%s (%u blocks): kernel parameter %u '%s': %s", f->km->name, l->nblocks, i,
                     p->name && *p->name ? p->name : "?", body);
    }
    if (code)
        launch_fail(l, s, code, msg);
}

static void launch_release(sim_task *t)
{
    launch_task *l = (launch_task *)t;
    sim_module_release(l->f->bin);
    free(l->args);
    free(l);
}

/* Launch attributes (CheckKernelLaunchCfg rules). */
static aclError check_cfg(const char *api, const sim_func *f, const aclrtLaunchKernelCfg *cfg, launch_opts *o)
{
    memset(o, 0, sizeof *o);
    o->timeout_ns = TIMEOUT_UNSET;
    o->profile = sim_cost_session_on();
    o->poison_ub = sim_poison_ub();
    if (sim_race_default_mode(&o->race_mode))
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                       "ASCENDRTC_RACE_CHECK=%s: expected error (the default), warn or off", getenv("ASCENDRTC_RACE_CHECK"));
    size_t records;
    if (sim_race_gm_budget(&records))
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "ASCENDRTC_RACE_RECORDS=%s: expected a count of access "
                       "records from 1 to 1073741824 (the default 4194304)", getenv("ASCENDRTC_RACE_RECORDS"));
    if (!cfg)
        return ACL_SUCCESS;
    if (!cfg->attrs)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "cfg->attrs is NULL (numAttrs %zu); pass cfg = NULL for "
                       "no attributes", cfg->numAttrs);
    int seen_s = 0, seen_us = 0;
    for (size_t i = 0; i < cfg->numAttrs; i++) {
        const aclrtLaunchKernelAttr *at = &cfg->attrs[i];
        const aclrtLaunchKernelAttrValue *v = &at->value;
        switch ((int)at->id) {
        case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
            if (v->schemMode >= 2)
                return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                               "cfg attr %zu: SCHEM_MODE %u must be 0 (normal) or 1 (batch)", i, v->schemMode);
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
            if (f->arch->num != 3510 && v->dynUBufSize)
                return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                               "cfg attr %zu: DYN_UBUF_SIZE %u is for SIMT kernels on dav-3510; it must be 0 for "
                               "'%s' (%s)", i, v->dynUBufSize, f->km->name, f->arch->arch);
            if (v->dynUBufSize > f->arch->ub_size)
                return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "cfg attr %zu: DYN_UBUF_SIZE %u exceeds the %zu-byte UB",
                               i, v->dynUBufSize, f->arch->ub_size);
            o->simt.dyn_ub = v->dynUBufSize;
            break;
        case ASCENDRTC_LAUNCH_KERNEL_ATTR_SIMT_BLOCK:
        case ASCENDRTC_LAUNCH_KERNEL_ATTR_SIMT_GRID: {
            int blk = at->id == ASCENDRTC_LAUNCH_KERNEL_ATTR_SIMT_BLOCK;
            if (!f->km->simt_threads)
                return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "cfg attr %zu: '%s' is a SIMD kernel; a thread %s "
                               "(SIMT_%s) is for SIMT kernels (bare __global__, compiled with --enable-simt)", i,
                               f->km->name, blk ? "block" : "grid", blk ? "BLOCK" : "GRID");
            memcpy(blk ? o->simt.block : o->simt.grid, v->rsv, 3 * sizeof(uint32_t));
            *(blk ? &o->simt_block : &o->simt_grid) = 1;
            break;
        }
        case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
        case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
            return sim_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, api,
                           "cfg attr %zu: %s applies to Atlas 310P (coupled AI Core + Vector Core) only, not to %s",
                           i, at->id == ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE ? "ENGINE_TYPE" : "BLOCKDIM_OFFSET",
                           f->arch->soc);
        case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
        case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
        case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING: {
            uint8_t b = at->id == ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH ? v->isBlockTaskPrefetch
                        : at->id == ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP       ? v->isDataDump
                                                                               : v->enableProfiling;
            if (b > 1)
                return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "cfg attr %zu (id %d): value %u must be 0 or 1", i,
                               (int)at->id, b);
            break;
        }
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
            seen_s = 1;
            o->timeout_ns = (uint64_t)v->timeout * 1000000000ull;
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
            seen_us = 1;
            o->timeout_ns = ((uint64_t)v->timeoutUs.timeoutHigh << 32 | v->timeoutUs.timeoutLow) * 1000ull;
            break;
        case ASCENDRTC_LAUNCH_KERNEL_ATTR_TILING_KEY:
            o->tiling_key = (uint64_t)v->rsv[1] << 32 | v->rsv[0];
            break;
        case ASCENDRTC_LAUNCH_KERNEL_ATTR_RACE_CHECK:
            if (v->rsv[0] > ARC_RACE_ERROR)
                return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                               "cfg attr %zu: RACE_CHECK %u must be 0 (off), 1 (warn) or 2 (error)", i, v->rsv[0]);
            o->race_mode = (int)v->rsv[0];
            break;
        default:
            return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                           "cfg attr %zu: unknown attribute id %d (valid: 1..9, 0x7A01 for the tiling key, 0x7A02 "
                           "for the race check)", i, (int)at->id);
        }
        if (seen_s && seen_us)
            return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                           "cfg sets both TIMEOUT (id 7) and TIMEOUT_US (id 8); use one");
    }
    return ACL_SUCCESS;
}

static aclError check_common(const char *api, aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                             aclrtLaunchKernelCfg *cfg, sim_func **f, sim_stream **s, launch_opts *o)
{
    aclError rc = sim_rt_enter(api);
    if (!rc)
        rc = sim_func_resolve(funcHandle, api, f);
    if (rc)
        return rc;
    if (numBlocks < 1 || numBlocks > 65535)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "numBlocks %u for '%s' is out of range [1, 65535]", numBlocks,
                       (*f)->km->name);
    int aivs = sim_ktype_aivs((*f)->km->ktype);
    if (aivs && numBlocks > (*f)->arch->cube_cores) {
        char why[160];
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                       "'%s' is a MIX kernel (%s) launched on %u blocks, but %s has %u AI cores: a MIX kernel's "
                       "numBlocks counts AI cores, each running its AIC and %d AIV%s, so at most %u; a Matmul-API "
                       "kernel tiled for usedCoreNum vector cores launches (usedCoreNum + %d) / %d blocks",
                       (*f)->km->name, sim_ktype_describe((*f)->km, why, sizeof why), numBlocks,
                       (*f)->arch->soc, (*f)->arch->cube_cores, aivs, aivs == 1 ? "" : "s",
                       (*f)->arch->cube_cores, aivs - 1, aivs);
    }
    if ((rc = check_cfg(api, *f, cfg, o)))
        return rc;
    if ((rc = sim_simt_check_launch(api, *f, numBlocks, o->simt_block, o->simt_grid, &o->simt)))
        return rc;
    return sim_stream_resolve(stream, api, s);
}

static aclError enqueue(const char *api, sim_func *f, uint32_t numBlocks, sim_stream *s, const launch_opts *o,
                        unsigned char *block, size_t block_size)
{
    launch_task *l = calloc(1, sizeof *l);
    if (!l) {
        free(block);
        return sim_err(ACL_ERROR_BAD_ALLOC, api, "out of host memory for the launch");
    }
    l->t.run = launch_run;
    l->t.release = launch_release;
    l->f = f;
    l->nblocks = numBlocks;
    l->opts = *o;
    l->args = block;
    l->args_size = block_size;
    if (site_file)
        snprintf(l->site, sizeof l->site, "%s:%u", site_file, site_line);
    sim_module_hold(f->bin);
    return sim_stream_push(s, &l->t, api);
}

/* A zeroed block big enough for the parameters plus `extra` bytes. */
static unsigned char *new_block(const sim_func *f, size_t extra, size_t *base)
{
    *base = sim_align_up(f->km->args_size ? f->km->args_size : 8, 8);
    return calloc(1, *base + extra);
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                     aclrtLaunchKernelCfg *cfg, aclrtArgsHandle argsHandle, void *reserve)
{
    const char *api = "aclrtLaunchKernelWithConfig";
    sim_func *f;
    sim_stream *s;
    sim_args *a;
    launch_opts opts;
    aclError rc = check_common(api, funcHandle, numBlocks, stream, cfg, &f, &s, &opts);
    if (rc)
        return rc;
    if (reserve)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "reserve must be NULL");
    if ((rc = sim_args_resolve(argsHandle, api, &a)))
        return rc;
    if (a->func != f)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                       "argsHandle was initialised for kernel '%s' but the launch is of '%s'", a->func->km->name,
                       f->km->name);
    if (!a->finalized)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                       "the args of '%s' are not finalized: call aclrtKernelArgsFinalize (again after "
                       "aclrtKernelArgsParaUpdate)", f->km->name);
    const arc_kernel_meta *k = f->km;
    size_t ph_total = 0;
    for (uint32_t i = 0; i < a->nparams; i++)
        if (a->params[i].placeholder)
            ph_total += sim_align_up(a->params[i].ph_size, 8);
    size_t base;
    unsigned char *block = new_block(f, ph_total, &base);
    if (!block)
        return sim_err(ACL_ERROR_BAD_ALLOC, api, "out of host memory for the arguments");
    size_t ph = base;
    for (uint32_t i = 0; i < a->nparams; i++) {
        const sim_param_slot *sl = &a->params[i];
        if (sl->placeholder) {
            /* The kernel sees a pointer to the launch's own copy of the data. */
            memcpy(block + ph, a->buf + sl->ph_off, sl->ph_size);
            uintptr_t p = (uintptr_t)(block + ph);
            memcpy(block + k->params[i].offset, &p, sizeof p);
            ph += sim_align_up(sl->ph_size, 8);
        } else {
            memcpy(block + k->params[i].offset, a->buf + sl->off, sl->size);
        }
    }
    return enqueue(api, f, numBlocks, s, &opts, block, base + ph_total);
}

aclError aclrtLaunchKernelWithArgsArray(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                        aclrtLaunchKernelCfg *cfg, void **args)
{
    const char *api = "aclrtLaunchKernelWithArgsArray";
    sim_func *f;
    sim_stream *s;
    launch_opts opts;
    aclError rc = check_common(api, funcHandle, numBlocks, stream, cfg, &f, &s, &opts);
    if (rc)
        return rc;
    const arc_kernel_meta *k = f->km;
    if (!args && k->nparams)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "args is NULL but '%s' takes %u parameter(s)", k->name,
                       k->nparams);
    for (uint32_t i = 0; i < k->nparams; i++)
        if (!args[i])
            return sim_err(ACL_ERROR_INVALID_PARAM, api,
                           "args[%u] is NULL: it must point to the value of %s parameter %u '%s' (%s, %u bytes)", i,
                           k->name, i, k->params[i].name, k->params[i].type, k->params[i].size);
    size_t base;
    unsigned char *block = new_block(f, 0, &base);
    if (!block)
        return sim_err(ACL_ERROR_BAD_ALLOC, api, "out of host memory for the arguments");
    for (uint32_t i = 0; i < k->nparams; i++)
        memcpy(block + k->params[i].offset, args[i], k->params[i].size);
    return enqueue(api, f, numBlocks, s, &opts, block, base);
}

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                       aclrtLaunchKernelCfg *cfg, void *hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo *placeHolderArray, size_t placeHolderNum)
{
    const char *api = "aclrtLaunchKernelWithHostArgs";
    sim_func *f;
    sim_stream *s;
    launch_opts opts;
    aclError rc = check_common(api, funcHandle, numBlocks, stream, cfg, &f, &s, &opts);
    if (rc)
        return rc;
    const arc_kernel_meta *k = f->km;
    if (!hostArgs && argsSize)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "hostArgs is NULL but argsSize is %zu", argsSize);
    if (argsSize < k->args_size)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                       "argsSize %zu is smaller than the %u bytes of '%s''s %u parameter(s)", argsSize, k->args_size,
                       k->name, k->nparams);
    if (placeHolderNum && !placeHolderArray)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "placeHolderArray is NULL but placeHolderNum is %zu",
                       placeHolderNum);
    for (size_t i = 0; i < placeHolderNum; i++) {
        const aclrtPlaceHolderInfo *p = &placeHolderArray[i];
        if ((size_t)p->addrOffset + 8 > argsSize || p->dataOffset >= argsSize)
            return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                           "placeHolderArray[%zu]: addrOffset %u (+8) or dataOffset %u lies outside argsSize %zu", i,
                           p->addrOffset, p->dataOffset, argsSize);
    }
    size_t base;
    unsigned char *block = new_block(f, argsSize, &base);
    if (!block)
        return sim_err(ACL_ERROR_BAD_ALLOC, api, "out of host memory for the arguments");
    if (argsSize)
        memcpy(block, hostArgs, argsSize);
    for (size_t i = 0; i < placeHolderNum; i++) {
        uintptr_t p = (uintptr_t)(block + placeHolderArray[i].dataOffset);
        memcpy(block + placeHolderArray[i].addrOffset, &p, sizeof p);
    }
    return enqueue(api, f, numBlocks, s, &opts, block, base + argsSize);
}
