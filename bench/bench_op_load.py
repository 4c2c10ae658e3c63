"""What loading an op of CANN's libraries costs (issue 28 item 7), for
ops-nn's BNLL on opbase (its host code includes opbase's op_common and the
C++ standard library; opbase's tiling_util.cpp and the op's tiling are
compiled in process), against the test op project AddSplit (a few host
lines, no opbase) measured the same way in the same run:

  first load    op_project(dir) in a fresh process (host compile + load),
                timed inside that process (interpreter start excluded)
  cached load   op_project(dir) again in that process, sources unchanged

Targets (absolute, from the issue; the notes in BENCHMARKS.md say met or
not): a first load <= 3 s, a load of host code compiled before <= 50 ms.
Needs $OPS_NN_SRC and $OPBASE_SRC (rows unavailable without them)."""
import json
import os
import subprocess
import sys

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


def load_times(path, opbase, soc):
    """(first, cached) seconds of op_project(path) in a fresh process."""
    env = dict(os.environ, ASCENDRTC_SIM_SOC=soc)
    r = subprocess.run([sys.executable, "-c", CHILD, ROOT, path, opbase or ""], env=env, capture_output=True,
                       text=True, timeout=300)
    line = [x for x in r.stdout.splitlines() if x.startswith("TIMES ")]
    if not line:
        raise RuntimeError("op load failed: " + r.stderr[-2000:])
    return json.loads(line[-1][6:])


def rows(quick=False):
    nn, opbase = os.environ.get("OPS_NN_SRC"), os.environ.get("OPBASE_SRC")
    small = os.path.join(ROOT, "tests", "op_projects", "AddSplit")
    name_first = "op_project first load: ops-nn BNLL on opbase (fresh process)"
    name_cached = "op_project cached load: ops-nn BNLL, same sources again"
    if not nn or not opbase:
        why = ": OPS_NN_SRC and OPBASE_SRC are not set to the mirrors' work trees"
        return [(name_first + why, [], "AddSplit first load", [], None),
                (name_cached + why, [], "AddSplit cached load", [], None)]
    reps = 1 if quick else 3
    big = [load_times(os.path.join(nn, "activation", "bnll"), opbase, "Ascend950PR_9599") for _ in range(reps)]
    base = [load_times(small, None, "Ascend910B1") for _ in range(reps)]
    return [(name_first, [b[0] for b in big], "AddSplit first load", [b[0] for b in base], None),
            (name_cached, [b[1] for b in big], "AddSplit cached load", [b[1] for b in base], None)]


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from run import print_rows
    print_rows(rows(quick="--quick" in sys.argv))
