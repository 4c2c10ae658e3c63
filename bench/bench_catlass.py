"""CATLASS on the simulated cube (issue 27 items 4 and 5), with CATLASS's
include/ from $CATLASS_SRC (bench/catlass_matmul.asc, built once per run
with `ascendrtc cc`):

  simulation speed  CATLASS's basic matmul (example 00's kernel) at 1024^3
                    half, launch + synchronize, against the Matmul API
                    kernel (examples/kernels/matmul_api.asc, 1024^3 half ->
                    float) in the same run (target: within 1.5x);
  calibration       the cost model's estimate of CATLASS's optimized matmul
                    (example 06's kernel for aligned shapes) at 4096^3 fp16
                    on an Ascend910B2 against the measured torch fp16 time
                    on a 910B2 (314 TFLOPS, 437.7 us; docs/performance_model.md):
                    target 1.0x-1.6x.  The estimate is deterministic; the
                    launch takes about 40 s to simulate.

Without $CATLASS_SRC the rows say so."""
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)
import ascendrtc as arc  # noqa: E402
from ascendrtc._profile import LaunchReport  # noqa: E402

N = 1024
BIG = 4096
TORCH_910B2_4096_US = 2 * BIG ** 3 / 314e12 * 1e6   # 437.7 us (docs/performance_model.md)
SPEED = "CATLASS basic matmul 1024^3 half, 24 cube cores, launch + synchronize"
CALIB = "cost model: CATLASS optimized matmul 4096^3 fp16 on Ascend910B2, estimate (target band 1.0x-1.6x)"
TORCH = "measured torch fp16 matmul on a 910B2 (314 TFLOPS)"


def build(src, out):
    """ascendrtc cc bench/catlass_matmul.asc as CATLASS's CMake builds its examples."""
    cmd = [sys.executable, "-m", "ascendrtc", "cc", "-x", "asc", os.path.join(HERE, "catlass_matmul.asc"), "-o", out,
           "--npu-arch=dav-2201", "-DCATLASS_ARCH=2201", "-I" + os.path.join(src, "include"),
           "-I" + os.path.join(src, "examples", "common"), "-Wno-macro-redefined", "-Wno-ignored-attributes",
           "-Wno-unused-value"]
    subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def catlass_times(exe, reps):
    """Seconds per launch + synchronize of the basic kernel (the first, warm-up, dropped)."""
    out = subprocess.run([exe, "time", "basic", str(N), str(N), str(N), str(reps + 1)], check=True,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    assert "checked" in out, out
    return [float(line.split()[1]) * 1e-6 for line in out.splitlines() if line.startswith("time_us")][1:]


def matmul_api():
    """The Matmul API launch of bench/bench_cube.py (checked), as a callable."""
    from bench_cube import matmul_api as api_run
    rng = np.random.default_rng(0)
    ah, bh = (rng.standard_normal((N, N)).astype(np.float16) for _ in range(2))
    return api_run(arc.to_device(ah), arc.to_device(bh), ah.astype(np.float32) @ bh.astype(np.float32))


def estimate(exe, work):
    """The cost model's report of one optimized launch at BIG^3 on Ascend910B2."""
    path = os.path.join(work, "profile.json")
    subprocess.run([exe, "profile", "optimized", str(BIG), str(BIG), str(BIG), "Ascend910B2", path], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(path) as f:
        (r,) = [LaunchReport._from_json(d) for d in json.load(f)]
    return r


def rows(quick=False):
    """Rows for bench/run.py."""
    src = os.environ.get("CATLASS_SRC")
    if not src or not os.path.isdir(os.path.join(src, "include", "catlass")):
        why = ": CATLASS_SRC is not set to a CATLASS work tree"
        return [(SPEED + why, [], "Matmul API", [], None), (CALIB + why, [], TORCH, [], None)]
    reps, rounds = (2, 2) if quick else (3, 3)
    with tempfile.TemporaryDirectory(prefix="arc-bench-catlass-") as work:
        exe = os.path.join(work, "catlass_matmul")
        build(src, exe)
        api = matmul_api()
        cat, ref = [], []
        for _ in range(rounds):   # alternate the two, as interleaved() does in process
            cat += catlass_times(exe, reps)
            for _ in range(reps):
                t0 = time.perf_counter()
                api()
                ref.append(time.perf_counter() - t0)
        r = estimate(exe, work)
    assert r.time_us >= r.roofline_us, (r.time_us, r.roofline_us)
    return [(SPEED, cat, "Matmul API 1024^3 half->float, same run", ref, 1.5),
            (CALIB + ", %.0f us roofline, %s-bound" % (r.roofline_us, r.bound), [r.time_us * 1e-6], TORCH,
             [TORCH_910B2_4096_US * 1e-6], 1.6)]


if __name__ == "__main__":
    for row in rows(quick="--quick" in sys.argv):
        m, b = (float(np.median(v)) if v else float("nan") for v in (row[1], row[3]))
        print("%s: %.4g s; %s: %.4g s; ratio %.2f" % (row[0], m, row[2], b, m / b))
