"""A remote-cache hit against a local disk hit, each in a fresh process:
the seed's add kernel, compiled once into a redis-server on loopback (its
entry also on the local disk), then ``cache.compile`` timed inside new
processes that find it (a) on their local disk, (b) only on the server
(an empty local directory each time).  Target: a remote hit costs at most
5x a local disk hit.  Needs redis-server (``make deps`` installs it)."""
import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_CHILD = r"""
import sys, time
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/tests"]
import ascendrtc as arc
from ascendrtc import cache as C
from helpers.acl import SEED_KERNEL
p = arc.Program(SEED_KERNEL, "add_custom.asc")
t0 = time.perf_counter()
r = C.compile(p, ["--npu-arch=dav-2201"])
dt = time.perf_counter() - t0
print(r.how, dt)
"""


def _run(env):
    out = subprocess.run([sys.executable, "-c", _CHILD, ROOT], env=env, capture_output=True, text=True,
                         check=True, timeout=300).stdout.split()
    return out[0], float(out[1])


def _start_server(workdir):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([shutil.which("redis-server") or "redis-server", "--port", str(port), "--bind",
                             "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", workdir],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc, f"redis://127.0.0.1:{port}/0"
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.02)


def measure(reps=7, quick=False):
    """Seconds of cache.compile in fresh processes: {"disk": [...], "remote": [...]}."""
    if quick:
        reps = 3
    with tempfile.TemporaryDirectory() as d:
        proc, url = _start_server(d)
        try:
            base = {k: v for k, v in os.environ.items() if k != "ASCENDRTC_CACHE"}
            filled = dict(base, ASCENDRTC_CACHE_DIR=os.path.join(d, "filled"), ASCENDRTC_CACHE_REMOTE=url,
                          ASCENDRTC_CACHE_REMOTE_KEY="bench-team-key-0123456789")   # entries sealed and checked
            how, _ = _run(filled)                        # compile: fills the local dir and the server
            assert how in ("compiled", "disk", "remote"), how
            out = {"disk": [], "remote": []}
            for i in range(reps):                        # interleaved, so drift affects both alike
                how, t = _run(filled)
                assert how == "disk", how
                out["disk"].append(t)
                empty = dict(filled, ASCENDRTC_CACHE_DIR=os.path.join(d, f"empty{i}"))
                how, t = _run(empty)
                assert how == "remote", how
                out["remote"].append(t)
        finally:
            proc.kill()
            proc.wait()
    return out


def rows(quick=False):
    """For bench/run.py: (name, times, baseline name, baseline times, target ratio)."""
    m = measure(quick=quick)
    return [("remote cache hit, fresh process (redis, loopback)", m["remote"],
             "local disk hit, fresh process", m["disk"], 5.0)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=7)
    a = ap.parse_args(argv)
    m = measure(a.reps)
    med = statistics.median
    for name in ("disk", "remote"):
        print(f"{name:8s} hit: median {med(m[name]) * 1e3:8.2f} ms  min {min(m[name]) * 1e3:8.2f} ms")
    ratio = med(m["remote"]) / med(m["disk"])
    print(f"remote / disk: {ratio:.2f}x (target <= 5x) -> {'met' if ratio <= 5 else 'NOT met'}")


if __name__ == "__main__":
    main()
