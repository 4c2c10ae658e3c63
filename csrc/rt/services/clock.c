/* clock.c - clock() for kernels (the Utils API's clock, SIMD and SIMT):
 * kernels that call it link to this (loader/orc_builtins.c) rather than to
 * the C library's clock(), which counts the process's CPU time.  It counts
 * cycles of the simulated device's clock since the runtime started, from
 * the host's monotonic time: differences between two calls time a region
 * (at the host's speed, not the NPU's). */
#include <time.h>

#include "rt/rt_internal.h"

static long long t0_ns;

__attribute__((constructor)) static void clock_start(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    t0_ns = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

long sim_kernel_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    long long ns = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec - t0_ns;
    return (long)(ns * (long long)sim_arch_device()->mhz / 1000);
}
