/* fingerprint.c - what a compiled binary depends on besides its source and
 * options: the compiler, the target CPU and the device-API headers.  Caches
 * put this string in their keys so a new header or compiler never serves a
 * stale binary.  Exported under an ascendrtc_ name (not CANN API). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arc/core_abi.h"
#include "compile.h"
#include "device_headers.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char fingerprint[256];

static void make(void)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a over every header path and text */
    for (const arc_vfile *f = arc_device_headers; f->path; f++) {
        for (const char *c = f->path; *c; c++)
            h = (h ^ (unsigned char)*c) * 1099511628211ull;
        for (size_t i = 0; i < f->size; i++)
            h = (h ^ (unsigned char)f->data[i]) * 1099511628211ull;
    }
    snprintf(fingerprint, sizeof fingerprint, "ascendrtc-rtc/1 %s cpu=%s core-abi=%d device-api=%016llx",
             rtc_compiler_version(), rtc_target_cpu(), ARC_CORE_ABI_VERSION, (unsigned long long)h);
}

__attribute__((visibility("default"))) const char *ascendrtc_rtc_fingerprint(void)
{
    pthread_once(&once, make);
    return fingerprint;
}
