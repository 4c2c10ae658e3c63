"""The cube unit: a 1024 x 1024 x 1024 half -> float matmul through the
basic cube API (examples/kernels/matmul_basic.asc: ND2NZ, LoadData, Mmad,
Fixpipe) and through the Matmul API (examples/kernels/matmul_api.asc) on 24
cube cores, as a FLOP rate against numpy.matmul in float32 on the same
inputs, in one run (target >= 0.5x, issue 27).  Results are checked
against NumPy before timing."""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)
import ascendrtc as arc  # noqa: E402
from bench_device_add import interleaved  # noqa: E402

KDIR = os.path.join(ROOT, "examples", "kernels")
N = 1024


def matmul_api(a, b, want):
    """The Matmul API launch (examples/kernels/matmul_api.asc, 24 cube cores,
    zero bias) over the square half matrices a, b on the device, checked
    against want, as a callable (also bench_catlass.py's baseline); its
    ``cores`` is the launch's block count."""
    n = want.shape[0]
    with open(os.path.join(KDIR, "matmul_api.asc")) as f:
        km = arc.Program(f.read(), "matmul_api.asc").compile(["--npu-arch=dav-2201"]).load().get_kernel("matmul_api")
    from ascendrtc import matmul_tiling
    tl = matmul_tiling.tiling(n, n, n, "float16", "float32", bias=True, cores=24)
    bias, cm, tarr = arc.zeros(n, np.float32), arc.zeros((n, n), np.float32), arc.to_device(tl.array())
    api = km[tl.usedCoreNum]

    def run():
        api(a, b, bias, cm, tarr)
        arc.synchronize()
    run()
    assert np.allclose(cm.get(), want, rtol=1e-3, atol=1e-3)
    run.cores = tl.usedCoreNum
    return run


def rows(quick=False):
    """Rows for bench/run.py (GFLOP/s as a rate: higher is better)."""
    reps, min_batch = (3, 0.2) if quick else (7, 1.0)
    with open(os.path.join(KDIR, "matmul_basic.asc")) as f:
        k = arc.Program(f.read(), "matmul_basic.asc").compile(["--npu-arch=dav-2201"]).load().get_kernel("matmul_basic")
    rng = np.random.default_rng(0)
    ah = rng.standard_normal((N, N)).astype(np.float16)
    bh = rng.standard_normal((N, N)).astype(np.float16)
    af, bf = ah.astype(np.float32), bh.astype(np.float32)
    a, b, c = arc.to_device(ah), arc.to_device(bh), arc.zeros((N, N), np.float32)
    launch = k[24]
    dims = (np.uint32(N), np.uint32(N), np.uint32(N))

    def run():
        launch(a, b, c, *dims)
        arc.synchronize()
    run()
    assert np.allclose(c.get(), af @ bf, rtol=1e-3, atol=1e-3)
    out = np.empty((N, N), np.float32)
    run_api = matmul_api(a, b, af @ bf)
    t = interleaved({"cube": run, "api": run_api, "numpy": lambda: np.matmul(af, bf, out=out)}, reps, min_batch)
    flop = 2.0 * N ** 3 / 1e9
    ref = [flop / s for s in t["numpy"]]
    return [("matmul 1024^3 half->float, basic cube API, 24 cube cores (GFLOP/s)",
             [flop / s for s in t["cube"]], "numpy.matmul float32", ref, 0.5, "GFLOP/s"),
            ("matmul 1024^3 half->float, Matmul API, %d cube cores (GFLOP/s)" % run_api.cores,
             [flop / s for s in t["api"]], "numpy.matmul float32", ref, 0.5, "GFLOP/s")]


if __name__ == "__main__":
    for r in rows(quick="--quick" in sys.argv):
        print(r[0], np.median(r[1]), r[2], np.median(r[3]), np.median(r[1]) / np.median(r[3]))
