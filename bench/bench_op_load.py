"""What loading an op of CANN's libraries costs (issue 28 item 7), for
ops-nn's BNLL on opbase (its host code includes opbase's op_common and the
C++ standard library; opbase's tiling_util.cpp and the op's tiling are
compiled in process), against the test op project AddSplit (a few host
lines, no opbase) measured the same way in the same run:

  first load    op_project(dir) in a fresh process with an empty compile
                cache (host compile + load, and the build of the host
                headers' PCH, csrc/rtc/host_pch.h), timed inside that
                process (interpreter start excluded)
  new op        the same with the host PCH kept (built by a load of the
                other op before, in its own process): an op not loaded
                before, as every one after the first is
  cached load   op_project(dir) again in that process, sources unchanged
  kept load     op_project(dir) in a second fresh process sharing that
                cache: the host code compiled before is loaded from disk
                (csrc/rtc/host_cache.h)

Targets (absolute, from the issue; the notes in BENCHMARKS.md say met or
not): a first load <= 3 s, a load of host code compiled before (cached or
kept) <= 50 ms.
Needs $OPS_NN_SRC and $OPBASE_SRC (rows unavailable without them)."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import ascendrtc as arc
path, opbase = sys.argv[2], sys.argv[3] or None
t0 = time.perf_counter(); arc.op_project(path, opbase=opbase); t1 = time.perf_counter()
arc.op_project(path, opbase=opbase); t2 = time.perf_counter()
print("TIMES " + json.dumps([t1 - t0, t2 - t1]))
"""


def _child(path, opbase, soc, cache_dir):
    env = dict(os.environ, ASCENDRTC_SIM_SOC=soc, ASCENDRTC_CACHE_DIR=cache_dir, ASCENDRTC_CACHE="on")
    r = subprocess.run([sys.executable, "-c", CHILD, ROOT, path, opbase or ""], env=env, capture_output=True,
                       text=True, timeout=300)
    line = [x for x in r.stdout.splitlines() if x.startswith("TIMES ")]
    if not line:
        raise RuntimeError("op load failed: " + r.stderr[-2000:])
    return json.loads(line[-1][6:])


def load_times(path, opbase, soc, other):
    """(first, cached, kept, new op) seconds of op_project(path): in a
    fresh process with an empty cache, again in it, then in a second fresh
    process; and in a fresh process after `other` (path, opbase, soc) was
    loaded in one with the same cache."""
    with tempfile.TemporaryDirectory() as cache_dir:
        first, cached = _child(path, opbase, soc, cache_dir)
        kept, _ = _child(path, opbase, soc, cache_dir)
    with tempfile.TemporaryDirectory() as cache_dir:
        _child(*other, cache_dir)
        new_op, _ = _child(path, opbase, soc, cache_dir)
    return first, cached, kept, new_op


def rows(quick=False):
    nn, opbase = os.environ.get("OPS_NN_SRC"), os.environ.get("OPBASE_SRC")
    small = os.path.join(ROOT, "tests", "op_projects", "AddSplit")
    name_first = "op_project first load: ops-nn BNLL on opbase (fresh process)"
    name_cached = "op_project cached load: ops-nn BNLL, same sources again"
    name_kept = "op_project kept load: ops-nn BNLL in a new process, compiled before"
    name_new = "op_project new op: ops-nn BNLL in a fresh process, host PCH kept"
    names = [(name_first, "AddSplit first load"), (name_cached, "AddSplit cached load"),
             (name_kept, "AddSplit kept load"), (name_new, "AddSplit new op")]
    if not nn or not opbase:
        why = ": OPS_NN_SRC and OPBASE_SRC are not set to the mirrors' work trees"
        return [(n + why, [], b, [], None) for n, b in names]
    reps = 1 if quick else 3
    bnll = (os.path.join(nn, "activation", "bnll"), opbase, "Ascend950PR_9599")
    add = (small, None, "Ascend910B1")
    big = [load_times(*bnll, add) for _ in range(reps)]
    base = [load_times(*add, bnll) for _ in range(reps)]
    return [(n, [r[i] for r in big], b, [r[i] for r in base], None) for i, (n, b) in enumerate(names)]


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from run import print_rows
    print_rows(rows(quick="--quick" in sys.argv))
