/* STREAM-style add, z[i] = x[i] + y[i], timed inside C (as STREAM does) so
 * the Python call does not count: the machine's practical bandwidth limit
 * for the add kernel rows.  Built at bench time with cc -O3 -march=native
 * -fopenmp (bench/_stream.py).
 *
 * staged_add_times is the add kernel's data movement written in plain C:
 * each thread copies a tile of x and of y into a private buffer (the UB),
 * adds them into a third, and writes that to z with streaming stores, as
 * the device API does.  The add kernel against it is the simulator's own
 * cost; the tile staging against STREAM is the algorithm's on a CPU. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

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

/* One tile: x and y into the buffers, a + b into c, c to z (streaming). */
static void staged_tile(const float *x, const float *y, float *z, float *a, float *b, float *c, size_t n)
{
    memcpy(a, x, n * sizeof *a);
    memcpy(b, y, n * sizeof *b);
    for (size_t i = 0; i < n; i++) c[i] = a[i] + b[i];
#if defined(__x86_64__)
    if (((size_t)z & 15) == 0) {
        size_t i = 0;
        for (; i + 4 <= n; i += 4) _mm_stream_ps(z + i, _mm_load_ps(c + i));
        _mm_sfence();
        for (; i < n; i++) z[i] = c[i];
        return;
    }
#endif
    memcpy(z, c, n * sizeof *z);
}

/* z = x + y through `tile`-float buffers, each thread on one contiguous
 * slice; seconds per run in times[] (0 when the buffers cannot be had). */
void staged_add_times(const float *x, const float *y, float *z, size_t n, int threads, size_t tile, int reps,
                      double *times)
{
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        int failed = 0;
#pragma omp parallel num_threads(threads) reduction(| : failed)
        {
            int nt = 1, id = 0;
#ifdef _OPENMP
            nt = omp_get_num_threads();
            id = omp_get_thread_num();
#endif
            size_t per = (n + nt - 1) / nt, lo = per * id, hi = lo + per < n ? lo + per : n;
            float *buf = aligned_alloc(64, 3 * tile * sizeof(float));
            if (!buf) {
                failed = 1;
            } else {
                for (size_t off = lo; off < hi; off += tile) {
                    size_t len = hi - off < tile ? hi - off : tile;
                    staged_tile(x + off, y + off, z + off, buf, buf + tile, buf + 2 * tile, len);
                }
                free(buf);
            }
        }
        times[r] = failed ? 0.0 : now() - t0;
    }
}
