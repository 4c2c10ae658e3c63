/* rdc.c - relocatable device code (-dc): a single-source program's device
 * binaries compiled with -dc register themselves (ascendrtc_rdc_register,
 * from their host part's constructor, before main).  Loading one of them
 * links it against all of them, each loaded once more as a library (its
 * own JITDylib, kept for the process): a kernel calls __aicore__ functions
 * another file defines, as CANN's device link step resolves them. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/checksum.h"
#include "common/exports.h"
#include "rt/rt_internal.h"

typedef struct rdc_bin {
    const unsigned char *bin;
    unsigned long size;
    sim_orc_image *lib; /* loaded on the first link */
    struct rdc_bin *next;
} rdc_bin;

static rdc_bin *g_rdc;
static pthread_mutex_t g_rdc_lock = PTHREAD_MUTEX_INITIALIZER;

void ascendrtc_rdc_register(const void *bin, unsigned long bin_size)
{
    rdc_bin *r = bin ? malloc(sizeof *r) : NULL;
    if (!r) /* out of memory before main: its kernels then name the missing functions at load */
        return;
    pthread_mutex_lock(&g_rdc_lock);
    *r = (rdc_bin){bin, bin_size, NULL, g_rdc};
    g_rdc = r;
    pthread_mutex_unlock(&g_rdc_lock);
}

static int load_lib(rdc_bin *r, const sim_orc_symbol *syms, char *err, size_t errlen)
{
    size_t len = r->size;
    char why[512];
    if (arc_sum_check(r->bin, r->size, &len, why, sizeof why) || sim_elf_check(r->bin, len, why, sizeof why)) {
        snprintf(err, errlen, "a -dc device binary of this program is corrupt: %s", why);
        return -1;
    }
    return sim_orc_load(r->bin, len, "rdc", syms, &r->lib, err, errlen);
}

int sim_rdc_link(const void *data, sim_orc_image *img, const sim_orc_symbol *syms, char *err, size_t errlen)
{
    int rc = 0, mine = 0;
    pthread_mutex_lock(&g_rdc_lock);
    for (rdc_bin *r = g_rdc; r && !mine; r = r->next)
        mine = r->bin == data;
    for (rdc_bin *r = g_rdc; mine && r && !rc; r = r->next) {
        if (r->bin == data)
            continue; /* its own functions are img's */
        rc = r->lib ? 0 : load_lib(r, syms, err, errlen);
        if (!rc)
            rc = sim_orc_link_with(img, r->lib, err, errlen);
    }
    pthread_mutex_unlock(&g_rdc_lock);
    return rc;
}
