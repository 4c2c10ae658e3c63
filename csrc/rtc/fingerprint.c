/* fingerprint.c - what a compiled binary depends on besides its source and
 * options: the compiler (clang's version and a hash of ascendrtc's own
 * compiler sources and host headers, made by the Makefile), the target CPU
 * and the device-API headers.  Caches
 * put this string in their keys so a new header or compiler never serves a
 * stale binary (bump the version when the compiler's output changes
 * without a header changing, e.g. host objects of ascendrtc cc).  Exported under an ascendrtc_ name (not CANN API). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arc/core_abi.h"
#include "common/exports.h"
#include "common/fnv.h"
#include "compile.h"
#include "device_headers.h"
#include "rtc_sources_hash.h" /* build/gen: the Makefile writes it */

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char fingerprint[256];

static void make(void)
{
    uint64_t h = ARC_FNV1A64_INIT; /* over every header path and text */
    for (const arc_vfile *f = arc_device_headers; f->path; f++) {
        h = arc_fnv1a64(f->path, strlen(f->path), h);
        h = arc_fnv1a64(f->data, f->size, h);
    }
    snprintf(fingerprint, sizeof fingerprint, "ascendrtc-rtc/3 %s rtc=%s cpu=%s core-abi=%d device-api=%016llx",
             rtc_compiler_version(), ARC_RTC_SOURCES_HASH, rtc_target_cpu(), ARC_CORE_ABI_VERSION, (unsigned long long)h);
}

const char *ascendrtc_rtc_fingerprint(void)
{
    pthread_once(&once, make);
    return fingerprint;
}
