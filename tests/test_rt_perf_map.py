"""ASCENDRTC_PERF_MAP=1: the loader writes /tmp/perf-<pid>.map (perf's
format for JIT code: hex start, hex size, symbol) so perf names kernel
functions; without it nothing is written."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = r'''
import os, numpy as np, ascendrtc as arc
src = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void perf_map_probe(GM_ADDR z)
{
    ((__gm__ int32_t *)z)[AscendC::GetBlockIdx()] = 7;
}
"""
k = arc.Program(src, "probe.asc").compile().load().get_kernel("perf_map_probe")
z = arc.zeros(4, np.int32)
k[4](z)
arc.synchronize()
assert (z.get() == 7).all()
print(os.getpid())
'''


def run_probe(env_value):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("ASCENDRTC_PERF_MAP", None)
    if env_value is not None:
        env["ASCENDRTC_PERF_MAP"] = env_value
    r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return "/tmp/perf-%s.map" % r.stdout.split()[-1]


def test_perf_map_names_the_kernel():
    path = run_probe("1")
    try:
        with open(path) as f:
            lines = f.read().splitlines()
        hits = [ln for ln in lines if ln.endswith(" perf_map_probe")]
        assert len(hits) == 1, lines
        start, size, _ = hits[0].split(" ", 2)
        assert re.fullmatch(r"[0-9a-f]+", start) and int(start, 16) > 0
        assert re.fullmatch(r"[0-9a-f]+", size) and 0 < int(size, 16) < 1 << 20
    finally:
        if os.path.exists(path):
            os.unlink(path)


def test_no_map_unless_asked():
    path = run_probe(None)
    assert not os.path.exists(path)
