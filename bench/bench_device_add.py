"""Device API speed: the Ascend C add kernel (GM -> UB -> Add -> GM through
double-buffered queues, as real kernels are written) on 8 cores over
64 MiB per input, against a STREAM add in C, the same tile staging written
in plain C, and numpy.add, all in one run.

Prints GB/s counted as STREAM does (3 arrays moved per element).
Target (issue 5): the add kernel reaches >= 80% of STREAM add and beats
numpy.add.

rows() (for bench/run.py) sweeps 1 KiB ... 256 MiB per input on 1, 2, 8 and
48 blocks; every throughput row is against a STREAM-style add in C
(bench/stream_add.c, timed inside C, best of 1 and all threads: the machine's
practical limit), with numpy.add, the same kernel in PyOpenCL on PoCL and
the kernel's own data movement in C (tiles staged through per-thread
buffers, bench/stream_add.c staged_add_times) beside it, and "blocks that
scale" rows (48 vs 2 blocks, same total work).  Configurations are sampled
in turn, round after round, so a noisy moment hits them alike.  Each
ascendrtc sample is one launch + synchronize on resident device arrays.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)
import ascendrtc as arc  # noqa: E402
from _pocl import context as pocl_context, unavailable_row  # noqa: E402
from _stream import staged_add, stream_add  # noqa: E402

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = TILE_FLOATS;   // floats per tile (x, y, z double-buffered: 6 tiles of UB)

// Each block takes one contiguous slice, a multiple of 8 floats (32 bytes,
// DataCopy's unit); the last slice and its last tile may be shorter, so any
// total that is a multiple of 8 runs on any number of blocks.
__aicore__ inline uint64_t slice_len(uint64_t total, uint64_t *start)
{
    const uint64_t nb = GetBlockNum();
    const uint64_t per = ((total + nb - 1) / nb + 7) / 8 * 8;
    *start = per * GetBlockIdx();
    if (*start >= total) return 0;
    return total - *start < per ? total - *start : per;
}

extern "C" __global__ __aicore__ void add_ub(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint64_t total)
{
    uint64_t start;
    const uint64_t len = slice_len(total, &start);
    if (len == 0) return;
    GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x + start, len);
    yg.SetGlobalBuffer((__gm__ float *)y + start, len);
    zg.SetGlobalBuffer((__gm__ float *)z + start, len);
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> qx, qy;
    TQue<QuePosition::VECOUT, BUFFER_NUM> qz;
    pipe.InitBuffer(qx, BUFFER_NUM, TILE * sizeof(float));
    pipe.InitBuffer(qy, BUFFER_NUM, TILE * sizeof(float));
    pipe.InitBuffer(qz, BUFFER_NUM, TILE * sizeof(float));
    for (uint64_t off = 0; off < len; off += TILE) {
        const uint32_t cnt = len - off < TILE ? (uint32_t)(len - off) : TILE;
        LocalTensor<float> a = qx.AllocTensor<float>(), b = qy.AllocTensor<float>();
        DataCopy(a, xg[off], cnt);
        DataCopy(b, yg[off], cnt);
        qx.EnQue(a); qy.EnQue(b);
        a = qx.DeQue<float>(); b = qy.DeQue<float>();
        LocalTensor<float> c = qz.AllocTensor<float>();
        Add(c, a, b, cnt);
        qz.EnQue(c);
        qx.FreeTensor(a); qy.FreeTensor(b);
        c = qz.DeQue<float>();
        DataCopy(zg[off], c, cnt);
        qz.FreeTensor(c);
    }
}

// STREAM add on the same cores: z[i] = x[i] + y[i] straight on GM
extern "C" __global__ __aicore__ void stream_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint64_t total)
{
    uint64_t start;
    const uint64_t len = slice_len(total, &start);
    const float *__restrict a = (const float *)x + start;
    const float *__restrict b = (const float *)y + start;
    float *__restrict c = (float *)z + start;
    for (uint64_t i = 0; i < len; i++) c[i] = a[i] + b[i];
}
'''


CL_ADD = """
__kernel void add(__global const float *restrict x, __global const float *restrict y, __global float *restrict z)
{
    size_t i = get_global_id(0);
    z[i] = x[i] + y[i];
}
"""

BLOCKS = (1, 2, 8, 48)
SIZES = (1 << 10, 1 << 16, 1 << 20, 1 << 26, 1 << 28)   # bytes per input
TILE = 4096                 # floats per UB tile, in the kernel and in the C staging
TARGET_SIZE = 1 << 26       # issue 5: 64 MiB per input on 8 blocks
TARGET_STREAM, TARGET_NUMPY = 0.8, 1.0
QUICK_SIZES = (1 << 10, 1 << 16, TARGET_SIZE)
C_REPS = 3                  # runs per round of the self-timed C loops (warm caches at small sizes)
SCALE_TARGET = 1.2          # issue 7: 48 blocks cost at most ~1.2x 2 blocks


def size_name(b):
    return "%d %s" % ((b >> 20, "MiB") if b >= 1 << 20 else (b >> 10, "KiB"))


def batch_size(fn, min_batch_s):
    """Calls of fn() per batch so that a batch lasts min_batch_s (short
    calls are not timer noise)."""
    fn()
    t0 = time.perf_counter()
    fn()
    return max(1, int(min_batch_s / max(time.perf_counter() - t0, 1e-7)))


def sample(fn, reps, min_batch_s):
    """Seconds per call of fn(), one value per batch."""
    return interleaved({0: fn}, reps, min_batch_s)[0]


def interleaved(fns, reps, min_batch_s, self_timed=()):
    """{name: [seconds per call, one per round]}: each round times one batch
    of every fn in turn.  The fns named in self_timed time themselves (the
    C loops, timed inside C: no timer noise to batch away), run once per
    round and return [seconds per rep]; the best rep counts, as in STREAM."""
    ks = {name: 1 if name in self_timed else batch_size(fn, min_batch_s) for name, fn in fns.items()}
    out = {name: [] for name in fns}
    for _ in range(reps):
        for name, fn in fns.items():
            if name in self_timed:
                out[name].append(min(fn()))
                continue
            t0 = time.perf_counter()
            for _ in range(ks[name]):
                fn()
            out[name].append((time.perf_counter() - t0) / ks[name])
    return out


def compile_add(tile=TILE):
    return arc.Program(SRC, "bench_add.asc").compile(["--npu-arch=dav-2201", "-DTILE_FLOATS=%d" % tile]).load()


def measure_size(mod, nbytes, reps, min_batch_s, blocks=BLOCKS, tile=TILE):
    """{config: [seconds per run]} for one input size; checks every result."""
    n = nbytes // 4
    rng = np.random.default_rng(nbytes)
    xh, yh = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    want = xh + yh
    zh = np.empty_like(xh)
    fns = {}
    # The C loops: best of one thread and all threads (small sizes lose to
    # the OpenMP fork, large ones need every core's memory port), each the
    # best of C_REPS runs back to back
    threads = sorted({1, os.cpu_count() or 1})
    for t in threads:
        fns[("stream_c", t)] = lambda t=t: stream_add(xh, yh, zh, t, C_REPS)
        fns[("staged_c", t)] = lambda t=t: staged_add(xh, yh, zh, t, tile, C_REPS)
    c_loops = set(fns)
    for key, fn in fns.items():
        zh[:] = 0
        fn()
        assert np.array_equal(zh, want), key
    fns["numpy"] = lambda: np.add(xh, yh, out=zh)

    x, y, z = arc.to_device(xh), arc.to_device(yh), arc.zeros(n, np.float32)
    total = np.uint64(n)
    for name in ("add_ub", "stream_add"):
        k = mod.get_kernel(name)
        for b in (blocks if name == "add_ub" else (8,)):
            launch = k[b]

            def run(launch=launch):
                launch(x, y, z, total)
                arc.synchronize()
            run()
            assert np.array_equal(z.get(), want), (name, b, nbytes)
            z._fill_zero()  # the next config must write every element itself
            fns[(name, b)] = run
    got = interleaved(fns, reps, min_batch_s, self_timed=c_loops)
    out = {k: v for k, v in got.items() if k not in c_loops}
    for c_loop in ("stream_c", "staged_c"):
        out[c_loop] = min((got[(c_loop, t)] for t in threads), key=statistics.median)
    x = y = z = None  # free the device copies before PoCL allocates its own

    cl, ctx, q = pocl_context()
    if cl is not None:
        mf = cl.mem_flags
        prg = cl.Program(ctx, CL_ADD).build()
        kadd = cl.Kernel(prg, "add")
        xb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=xh)
        yb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=yh)
        zb = cl.Buffer(ctx, mf.WRITE_ONLY, nbytes)
        kadd.set_args(xb, yb, zb)

        def run_cl():
            cl.enqueue_nd_range_kernel(q, kadd, (n,), None)
            q.finish()
        run_cl()
        got = np.empty_like(xh)
        cl.enqueue_copy(q, got, zb)
        assert np.array_equal(got, want), ("pocl", nbytes)
        out["pocl"] = sample(run_cl, reps, min_batch_s)
        del xb, yb, zb
    return out


def rows(quick=False):
    """Rows for bench/run.py (throughput in GB/s, scaling in seconds)."""
    reps, min_batch = (3, 0.002) if quick else (7, 0.02)
    sizes = QUICK_SIZES if quick else SIZES
    mod = compile_add()
    cl, why, _ = pocl_context()
    out, scale = [], []
    for nbytes in sizes:
        m = measure_size(mod, nbytes, reps, min_batch)
        moved = 3 * nbytes / 1e9

        def gbs(ts):
            return [moved / max(t, 1e-9) for t in ts]  # a 1 KiB STREAM run can read as ~0 s
        sn = size_name(nbytes)
        stream = gbs(m["stream_c"])
        base = "STREAM add in C"
        for b in BLOCKS:
            out.append(("add kernel %s/input, %d blocks (GB/s)" % (sn, b), gbs(m[("add_ub", b)]), base, stream, None,
                        "GB/s"))
        out.append(("numpy.add(out=) %s/input (GB/s)" % sn, gbs(m["numpy"]), base, stream, None, "GB/s"))
        if cl is not None:
            out.append(("PyOpenCL/PoCL add %s/input (GB/s)" % sn, gbs(m["pocl"]), base, stream, None, "GB/s"))
        else:
            out.append(unavailable_row("PyOpenCL add %s/input" % sn, why))
        bestb = max(BLOCKS, key=lambda b: statistics.median(gbs(m[("add_ub", b)])))
        out.append(("add kernel %s/input, best (%d blocks) vs numpy.add (GB/s)" % (sn, bestb),
                    gbs(m[("add_ub", bestb)]), "numpy.add", gbs(m["numpy"]), None, "GB/s"))
        if cl is not None:
            out.append(("add kernel %s/input, best (%d blocks) vs PyOpenCL/PoCL (GB/s)" % (sn, bestb),
                        gbs(m[("add_ub", bestb)]), "PyOpenCL/PoCL add", gbs(m["pocl"]), None, "GB/s"))
        if nbytes >= 1 << 20:
            out.append(("add kernel %s/input, 8 blocks vs its tile staging in C (GB/s)" % sn,
                        gbs(m[("add_ub", 8)]), "the same staging in C", gbs(m["staged_c"]), None, "GB/s"))
            out.append(("tile staging in C %s/input (GB/s)" % sn, gbs(m["staged_c"]), base, stream, None, "GB/s"))
        if nbytes == TARGET_SIZE:
            out.append(("issue 5: add kernel %s/input, 8 blocks vs STREAM add in C" % sn, gbs(m[("add_ub", 8)]),
                        base, stream, TARGET_STREAM, "GB/s"))
            out.append(("issue 5: add kernel %s/input, 8 blocks vs numpy.add" % sn, gbs(m[("add_ub", 8)]),
                        "numpy.add", gbs(m["numpy"]), TARGET_NUMPY, "GB/s"))
        if nbytes == sizes[-1]:
            out.append(("plain-loop kernel on GM %s/input, 8 blocks (GB/s)" % sn, gbs(m[("stream_add", 8)]), base,
                        stream, None, "GB/s"))
        if nbytes >= 1 << 20 or nbytes == sizes[-1]:
            scale.append(("blocks that scale: add %s/input on 48 blocks vs 2 blocks" % sn, m[("add_ub", 48)],
                          "2 blocks", m[("add_ub", 2)], SCALE_TARGET))
    return out + scale


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=int, default=64, help="MiB per input array")
    ap.add_argument("--blocks", type=int, default=8)
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--tile", type=int, default=TILE, help="floats per UB tile")
    args = ap.parse_args(argv)
    m = measure_size(compile_add(args.tile), args.mib << 20, args.reps, 0.02, blocks=(args.blocks,), tile=args.tile)
    gb = 3 * (args.mib << 20) / 1e9
    print("%d MiB per input, %d blocks, tile %d floats, %d rounds (medians)" % (args.mib, args.blocks, args.tile,
                                                                                args.reps))
    print("%-28s %10s %10s %10s" % ("", "ms", "GB/s", "vs STREAM"))
    ref = statistics.median(m["stream_c"])
    for name, key in (("add kernel", ("add_ub", args.blocks)), ("plain-loop kernel on GM", ("stream_add", 8)),
                      ("STREAM add in C", "stream_c"), ("tile staging in C", "staged_c"), ("numpy.add", "numpy"),
                      ("PyOpenCL/PoCL add", "pocl")):
        if key in m:
            t = statistics.median(m[key])
            print("%-28s %10.2f %10.2f %9.0f%%" % (name, t * 1e3, gb / t, 100 * ref / t))
    return 0


if __name__ == "__main__":
    sys.exit(main())
