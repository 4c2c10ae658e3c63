/* cost_env.c - a profiling session for a whole process from its
 * environment: `msopprof ./demo` (ascendrtc/_msopprof.py) runs a program
 * with $ASCENDRTC_PROFILE_OUT set; the session starts when libascendcl
 * loads (priced for $ASCENDRTC_PROFILE_SOC, else the device's SoC) and the
 * launches it priced are written there, as ascendrtc_profile_take's JSON,
 * when the process exits.  A program that exits with launches still
 * running loses those. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/exports.h"

static char *g_out;

static void write_profile(void)
{
    const char *json = ascendrtc_profile_take();
    FILE *f = g_out && json ? fopen(g_out, "w") : NULL;
    if (!f) {
        if (g_out)
            fprintf(stderr, "ascendrtc: cannot write the profile to %s\n", g_out);
        return;
    }
    fputs(json, f);
    fclose(f);
}

__attribute__((constructor)) static void profile_from_env(void)
{
    const char *out = getenv("ASCENDRTC_PROFILE_OUT");
    if (!out || !*out)
        return;
    const char *soc = getenv("ASCENDRTC_PROFILE_SOC");
    if (ascendrtc_profile(1, soc) < 0) {
        fprintf(stderr, "ascendrtc: ASCENDRTC_PROFILE_SOC=%s is not a SoC the cost model knows (%s); pricing for "
                        "the device's\n", soc, ascendrtc_profile_socs());
        ascendrtc_profile(1, NULL);
    }
    g_out = strdup(out);
    atexit(write_profile);
}
