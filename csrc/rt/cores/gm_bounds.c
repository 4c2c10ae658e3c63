/* gm_bounds.c - the GM bounds of a kernel's own loads and stores through
 * its pointer parameters.
 *
 * The rtc checks each access a SIMT thread (rtc/simt_gmcheck.cpp) or a
 * SIMD kernel's own code (rtc/param_bounds.cpp) makes through a pointer
 * derived from a pointer parameter against the allocation that parameter
 * points into (the layout is arc/simt_abi.h's gm[]): with the pointer's
 * provenance known, an index far past the end is caught before the access,
 * where it would otherwise land in mapped host memory unseen (guard pages
 * only catch accesses just off an allocation).  The bounds are computed
 * once per launch (sim_gm_bounds): SIMT blocks copy them into their
 * context, SIMD code asks __arc_gm_bounds once per call of the kernel. */
#include <stdio.h>
#include <string.h>

#include "rt/rt_internal.h"

void sim_gm_bounds(const sim_kernel_run *r, unsigned long long gm[ARC_GM_PARAMS][2])
{
    for (unsigned k = 0; k < ARC_GM_PARAMS; k++) {
        gm[k][0] = 0;
        gm[k][1] = ~0ull;
    }
    if (!sim_gm_checks() || !r->km)
        return;
    for (uint32_t k = 0; k < r->km->nparams && k < ARC_GM_PARAMS; k++) {
        const arc_param *p = &r->km->params[k];
        uintptr_t v;
        if (p->kind != ARC_PARAM_POINTER || (size_t)p->offset + sizeof v > r->args_size)
            continue;
        memcpy(&v, r->args + p->offset, sizeof v);
        sim_alloc a;
        gm[k][0] = gm[k][1] = 0; /* no allocation: every access is out of bounds */
        if (v && sim_mem_find((const void *)v, &a)) {
            gm[k][0] = a.base;
            gm[k][1] = sim_align_up(a.size, 32); /* as aclrtMalloc rounds (fault.c) */
        } else if (v >= (uintptr_t)r->args && v < (uintptr_t)r->args + r->args_size) {
            gm[k][0] = (uintptr_t)r->args; /* placeholder data in the argument block */
            gm[k][1] = r->args_size;
        }
    }
}

/* Fails the launch: `who` made an access of `bytes` at p through pointer
 * parameter param & 0xff (bit 8: a store) at site, outside its allocation. */
__attribute__((noreturn)) static void report(const char *api, const char *who, const void *p,
                                             unsigned long long bytes, unsigned param, const char *site)
{
    const sim_kernel_run *r = sim_core_launch();
    unsigned k = param & 0xff;
    const char *verb = param >> 8 & 1 ? "writes" : "reads";
    char what[200];
    __arc_site(NULL); /* the line is in the message */
    uintptr_t v = 0;
    const arc_param *pp = r && r->km && k < r->km->nparams ? &r->km->params[k] : NULL;
    if (pp && (size_t)pp->offset + sizeof v <= r->args_size)
        memcpy(&v, r->args + pp->offset, sizeof v);
    snprintf(what, sizeof what, "kernel parameter %u '%s'", k, pp && pp->name && *pp->name ? pp->name : "?");
    sim_alloc a;
    if (!v)
        __arc_trap(api, "%s %s %llu bytes at %p through %s at %s, which is a null pointer", who, verb, bytes, p, what,
                   site);
    if (!sim_mem_find((const void *)v, &a)) {
        int freed = sim_mem_was_freed((const void *)v, &a);
        __arc_trap(api, "%s %s %llu bytes at %p through %s at %s, which points into no device allocation (%p%s)", who,
                   verb, bytes, p, what, site, (void *)v,
                   freed ? ", whose allocation was already freed by aclrtFree: a use after free; aclrtFree does not wait for "
                           "the kernels in flight, as CANN's page says: synchronize the stream first, or free with "
                           "aclrtFreeWithDevSync" : "");
    }
    long long off = (long long)((uintptr_t)p - v), size = (long long)(a.base + a.size - v);
    char elem[64] = "";
    if (bytes && off % (long long)bytes == 0)
        snprintf(elem, sizeof elem, " (element %lld of %llu bytes)", off / (long long)bytes, bytes);
    __arc_trap(api, "%s %s %llu bytes at byte offset %lld%s of %s (%lld bytes) at %s: %s (on the NPU the access "
               "faults or reaches other memory)", who, verb, bytes, off, elem, what, size, site,
               off < 0 ? "before its start" : "past its end");
}

void __arc_simt_gm_oob(const arc_simt_block_ctx *b, const void *p, unsigned long long bytes, unsigned param,
                       const char *site, unsigned x, unsigned y, unsigned z)
{
    char who[96];
    unsigned bx = b->get[ARC_SIMT_BDIM], by = b->get[ARC_SIMT_BDIM + 1];
    sim_simt_thread_name(b, (z * by + y) * bx + x, who, sizeof who);
    report("SIMT", who, p, bytes, param, site);
}

static unsigned long long unchecked[ARC_GM_PARAMS][2];

static void fill_unchecked(void)
{
    sim_gm_bounds(&(sim_kernel_run){.km = NULL}, unchecked);
}

const unsigned long long *__arc_gm_bounds(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    const sim_kernel_run *r = sim_core_launch();
    if (r)
        return &r->gm[0][0];
    pthread_once(&once, fill_unchecked); /* kernel code outside a launch: nothing to check against */
    return &unchecked[0][0];
}

void __arc_gm_oob(const void *p, unsigned long long bytes, unsigned param, const char *site)
{
    report("kernel code", "the block", p, bytes, param, site);
}
