/* launch_site.c - ascendrtc_launch_site: a <<<...>>> launch of a
 * single-source program (`ascendrtc cc`, csrc/device/arc/launch.h), through
 * the ACL API: the program's embedded device binary is loaded once (by
 * aclrtBinaryLoadFromData, kept for the life of the process), the kernel
 * found by its symbol and launched with the packed arguments. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "common/exports.h"
#include "rt/rt_internal.h"

typedef struct loaded {
    const void *bin;
    aclrtBinHandle handle;
    struct loaded *next;
} loaded;

static loaded *g_loaded;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

static aclError load_once(const void *bin, unsigned long size, aclrtBinHandle *out)
{
    aclError rc = ACL_SUCCESS;
    pthread_mutex_lock(&g_lock);
    loaded *l = g_loaded;
    while (l && l->bin != bin)
        l = l->next;
    if (!l) {
        aclrtBinHandle h = NULL;
        rc = aclrtBinaryLoadFromData(bin, size, NULL, &h);
        if (rc == ACL_SUCCESS && !(l = malloc(sizeof *l))) {
            aclrtBinaryUnLoad(h);
            rc = ACL_ERROR_BAD_ALLOC;
        } else if (rc == ACL_SUCCESS) {
            *l = (loaded){bin, h, g_loaded};
            g_loaded = l;
        }
    }
    if (l)
        *out = l->handle;
    pthread_mutex_unlock(&g_lock);
    return rc;
}

/* Loads, finds and launches with the attributes given (SIMT's and the
 * dynamic UB size); a failure is reported naming the launch site. */
static int launch(const void *bin, unsigned long bin_size, const void *site, const char *file, unsigned line,
                  unsigned blocks, void *stream, aclrtLaunchKernelAttr *attrs, size_t nattrs, void *args,
                  unsigned long args_size)
{
    const char *kernel = site ? *(const char *const *)site : NULL;
    aclrtBinHandle h = NULL;
    aclrtFuncHandle f = NULL;
    const char *what = "aclrtBinaryLoadFromData";
    aclError rc = kernel ? load_once(bin, bin_size, &h) : ACL_ERROR_INVALID_PARAM;
    if (rc == ACL_SUCCESS) {
        what = "aclrtBinaryGetFunction";
        rc = aclrtBinaryGetFunction(h, kernel, &f);
    }
    if (rc == ACL_SUCCESS) {
        what = "aclrtLaunchKernelWithHostArgs";
        aclrtLaunchKernelCfg cfg = {attrs, nattrs};
        sim_launch_site(file, line); /* its failure as it runs is printed, naming the site */
        rc = aclrtLaunchKernelWithHostArgs(f, blocks, stream, nattrs ? &cfg : NULL, args, args_size, NULL, 0);
        sim_launch_site(NULL, 0);
    }
    if (rc != ACL_SUCCESS) {
        const char *msg = aclGetRecentErrMsg();
        fprintf(stderr, "%s:%u: error: the <<<...>>> launch of '%s' failed (%s, error %d): %s\n", file, line,
                kernel ? kernel : "?", what, (int)rc, msg && *msg ? msg : "no detail");
    }
    return (int)rc;
}

int ascendrtc_launch_site(const void *bin, unsigned long bin_size, const void *site, const char *file, unsigned line,
                          unsigned blocks, unsigned dyn_ubuf, void *stream, void *args, unsigned long args_size)
{
    aclrtLaunchKernelAttr attr = {ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE, {.dynUBufSize = dyn_ubuf}};
    return launch(bin, bin_size, site, file, line, blocks, stream, &attr, dyn_ubuf ? 1 : 0, args, args_size);
}

int ascendrtc_launch_site_simt(const void *bin, unsigned long bin_size, const void *site, const char *file,
                               unsigned line, const unsigned *grid, const unsigned *block, unsigned dyn_ubuf,
                               void *stream, void *args, unsigned long args_size)
{
    aclrtLaunchKernelAttr attrs[3] = {
        {ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE, {.dynUBufSize = dyn_ubuf}},
        {ASCENDRTC_LAUNCH_KERNEL_ATTR_SIMT_BLOCK, {.rsv = {block[0], block[1], block[2]}}},
        {ASCENDRTC_LAUNCH_KERNEL_ATTR_SIMT_GRID, {.rsv = {grid[0], grid[1], grid[2]}}},
    };
    /* a grid whose product overflows 32 bits is refused by the grid check */
    unsigned long long n = (unsigned long long)grid[0] * grid[1] * grid[2];
    unsigned blocks = n > 0xffffffffull ? 0xffffffffu : (unsigned)n;
    return launch(bin, bin_size, site, file, line, blocks, stream, attrs, 3, args, args_size);
}
