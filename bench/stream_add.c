/* STREAM-style add, z[i] = x[i] + y[i], timed inside C (as STREAM does) so
 * the Python call does not count: the machine's practical bandwidth limit
 * for the add kernel rows.  Built at bench time with cc -O3 -march=native
 * -fopenmp (bench/_stream.py). */
#include <stddef.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Runs the add `reps` times on `threads` threads (1: no OpenMP region at all)
 * and stores each run's seconds in times[]. */
void stream_add_times(const float *restrict x, const float *restrict y, float *restrict z, size_t n, int threads,
                      int reps, double *times)
{
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        if (threads > 1) {
#pragma omp parallel for num_threads(threads) schedule(static)
            for (size_t i = 0; i < n; i++) z[i] = x[i] + y[i];
        } else {
            for (size_t i = 0; i < n; i++) z[i] = x[i] + y[i];
        }
        times[r] = now() - t0;
    }
}
