"""Device API speed: the Ascend C add kernel (GM -> UB -> Add -> GM through
double-buffered queues, as real kernels are written) on 8 cores over
64 MiB per input, against a STREAM-add kernel (a plain loop over the same
GM on the same 8 cores) and numpy.add, all in one run.

Prints GB/s counted as STREAM does (3 arrays moved per element).
Target: the add kernel reaches >= 80% of STREAM-add and beats numpy.add.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
import ascendrtc as arc  # noqa: E402

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = TILE_FLOATS;   // floats per tile (x, y, z double-buffered: 6 tiles of UB)

extern "C" __global__ __aicore__ void add_ub(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint64_t total)
{
    const uint64_t per = total / GetBlockNum();
    GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x + per * GetBlockIdx(), per);
    yg.SetGlobalBuffer((__gm__ float *)y + per * GetBlockIdx(), per);
    zg.SetGlobalBuffer((__gm__ float *)z + per * GetBlockIdx(), per);
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> qx, qy;
    TQue<QuePosition::VECOUT, BUFFER_NUM> qz;
    pipe.InitBuffer(qx, BUFFER_NUM, TILE * sizeof(float));
    pipe.InitBuffer(qy, BUFFER_NUM, TILE * sizeof(float));
    pipe.InitBuffer(qz, BUFFER_NUM, TILE * sizeof(float));
    for (uint64_t off = 0; off < per; off += TILE) {
        LocalTensor<float> a = qx.AllocTensor<float>(), b = qy.AllocTensor<float>();
        DataCopy(a, xg[off], TILE);
        DataCopy(b, yg[off], TILE);
        qx.EnQue(a); qy.EnQue(b);
        a = qx.DeQue<float>(); b = qy.DeQue<float>();
        LocalTensor<float> c = qz.AllocTensor<float>();
        Add(c, a, b, TILE);
        qz.EnQue(c);
        qx.FreeTensor(a); qy.FreeTensor(b);
        c = qz.DeQue<float>();
        DataCopy(zg[off], c, TILE);
        qz.FreeTensor(c);
    }
}

// STREAM add on the same cores: z[i] = x[i] + y[i] straight on GM
extern "C" __global__ __aicore__ void stream_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint64_t total)
{
    const uint64_t per = total / GetBlockNum();
    const float *__restrict a = (const float *)x + per * GetBlockIdx();
    const float *__restrict b = (const float *)y + per * GetBlockIdx();
    float *__restrict c = (float *)z + per * GetBlockIdx();
    for (uint64_t i = 0; i < per; i++) c[i] = a[i] + b[i];
}
'''


def best(fn, reps):
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return min(ts), statistics.median(ts)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=int, default=64, help="MiB per input array")
    ap.add_argument("--blocks", type=int, default=8)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--tile", type=int, default=4096, help="floats per UB tile")
    args = ap.parse_args(argv)
    n = args.mib * 1024 * 1024 // 4
    n -= n % (args.blocks * args.tile)
    mod = arc.Program(SRC, "bench_add.asc").compile(["--npu-arch=dav-2201", "-DTILE_FLOATS=%d" % args.tile]).load()
    add_ub, stream = mod.get_kernel("add_ub"), mod.get_kernel("stream_add")
    rng = np.random.default_rng(0)
    xh, yh = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    x, y, z = arc.to_device(xh), arc.to_device(yh), arc.empty_like(xh)
    zh = np.empty_like(xh)
    total = np.uint64(n)

    def run(k):
        k[args.blocks](x, y, z, total)
        arc.synchronize()

    run(add_ub)
    assert np.array_equal(z.get(), xh + yh)
    run(stream)
    rows = [("ascend add kernel", best(lambda: run(add_ub), args.reps)),
            ("STREAM-add kernel", best(lambda: run(stream), args.reps)),
            ("numpy.add (out=)", best(lambda: np.add(xh, yh, out=zh), args.reps))]
    gb = 3 * n * 4 / 1e9
    print("%d MiB per input, %d blocks, tile %d floats, %d reps (best times)" % (args.mib, args.blocks, args.tile, args.reps))
    print("%-20s %10s %10s %12s" % ("", "ms", "GB/s", "vs STREAM"))
    ref = gb / rows[1][1][0]
    for name, (b, m) in rows:
        print("%-20s %10.2f %10.2f %11.0f%%" % (name, b * 1e3, gb / b, 100 * (gb / b) / ref))
    return 0


if __name__ == "__main__":
    sys.exit(main())
