"""``msopprof``: CANN's single-operator profiler, on the simulated NPU.

``msopprof [simulator] [--output=DIR] [--soc-version=SOC] APP [ARGS...]``
runs a program (a single-source program, or any process using the
simulated libascendcl) with a profiling session of the cost model on for
its whole life, then writes what CANN's tool writes for each run, an
``OPPROF_{timestamp}_{XXXXXX}`` folder, with the estimates in its CSVs:

- ``OpBasicInfo.csv``: each launch's kernel, core type, block dim and
  estimated duration;
- ``PipeUtilization.csv``: each pipe's busy time and ratio per launch
  (``aiv_vec_time(us)``, ``aiv_vec_ratio``, ... as msprof names them);
- ``README.txt``: that these are estimates (docs/performance_model.md).

The times are the cost model's, from published rates: orderings and
ratios are meaningful, absolute times are not measurements.  The exit
status is the program's.
"""
from __future__ import annotations

import csv
import json
import os
import random
import signal
import string
import subprocess
import sys
import tempfile
import time
from typing import List, Optional, Tuple

from ._profile import PIPES, LaunchReport, Profile

USAGE = ("usage: msopprof [simulator] [--output=DIR] [--soc-version=SOC] APP [ARGS...]\n"
         "Runs APP with the simulated NPU's cost model on and writes OPPROF_<time>_<id>/ (OpBasicInfo.csv, "
         "PipeUtilization.csv) with the estimated times of its kernel launches.")

#: msprof's prefix of each pipe's columns: AIV pipes, then the AIC's.
_SIDE = {"vec": "aiv", "mte2": "aiv", "mte3": "aiv", "scalar": "aiv", "cube": "aic", "mte1": "aic",
         "fixpipe": "aic"}


class UsageError(Exception):
    """A bad command line."""


def parse(argv: List[str]) -> Tuple[Optional[str], Optional[str], List[str]]:
    """(output dir, soc, the program's command) from msopprof's command line."""
    out = soc = None
    i = 0
    if argv[:1] == ["simulator"]:  # CANN's simulator mode: the simulated NPU is one
        i = 1
    while i < len(argv) and argv[i].startswith("--"):
        opt, _, val = argv[i].partition("=")
        if opt == "--output":
            out = val
        elif opt == "--soc-version":
            soc = val
        elif opt == "--application":  # CANN's older spelling: --application="./demo args"
            return out, soc, val.split() + argv[i + 1:]
        elif opt in ("--help", "-h"):
            raise UsageError(USAGE)
        else:
            raise UsageError(f"msopprof: unknown option {argv[i]!r}\n{USAGE}")
        i += 1
    if i >= len(argv):
        raise UsageError(f"msopprof: no program to run\n{USAGE}")
    return out, soc, argv[i:]


def write_report(prof: Profile, out_dir: str) -> str:
    """The OPPROF folder for prof under out_dir; returns its path."""
    tag = "".join(random.choice(string.ascii_uppercase + string.digits) for _ in range(6))
    d = os.path.join(out_dir, f"OPPROF_{time.strftime('%Y%m%d%H%M%S')}_{tag}")
    os.makedirs(d)
    with open(os.path.join(d, "OpBasicInfo.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Op Name", "Op Type", "Task Duration(us)", "Block Dim", "Cores", "SoC", "Current Freq",
                    "Priced"])
        for r in prof.launches:
            priced = ("no (SIMT)" if r.simt_unpriced else "no (MIX sub-blocks)" if r.mix_unpriced else "yes")
            w.writerow([r.kernel, r.core_type, f"{r.time_us:.3f}", r.blocks, r.cores, r.soc, f"{r.clock_mhz:.0f}",
                        priced])
    with open(os.path.join(d, "PipeUtilization.csv"), "w", newline="") as f:
        w = csv.writer(f)
        head = ["Op Name", "Task Duration(us)"]
        for p in PIPES:
            head += [f"{_SIDE[p]}_{p}_time(us)", f"{_SIDE[p]}_{p}_ratio"]
        w.writerow(head)
        for r in prof.launches:
            row = [r.kernel, f"{r.time_us:.3f}"]
            busy, ratios = r.busy_us, r.ratios
            for p in PIPES:
                row += [f"{busy.get(p, 0.0):.3f}", f"{ratios.get(p, 0.0):.4f}"]
            w.writerow(row)
    with open(os.path.join(d, "README.txt"), "w") as f:
        f.write("Written by ascendrtc's msopprof on the simulated NPU.  Every time here is the cost model's "
                "estimate from published rates (docs/performance_model.md in ascendrtc): orderings and ratios "
                "are meaningful, absolute times are not measurements.\n")
    return d


def main(argv: List[str]) -> int:
    """msopprof's command line; the exit status is the program's (2: a bad command line)."""
    try:
        out, soc, cmd = parse(argv)
    except UsageError as e:
        print(e, file=sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    fd, path = tempfile.mkstemp(prefix="arc-opprof-", suffix=".json")
    os.close(fd)
    env = dict(os.environ, ASCENDRTC_PROFILE_OUT=path)
    if soc:
        env["ASCENDRTC_PROFILE_SOC"] = soc
    try:
        sys.stdout.flush()
        try:
            rc = subprocess.call(cmd, env=env)
        except OSError as e:
            print(f"msopprof: cannot run {cmd[0]}: {e}", file=sys.stderr)
            return 1
        if rc < 0:  # killed: no exit handler wrote the profile
            print(f"msopprof: {cmd[0]}: the program ended by signal {-rc} ({signal.Signals(-rc).name}) before "
                  f"writing its profile", file=sys.stderr)
            return 128 - rc
        try:
            with open(path) as f:
                data = json.load(f) if os.path.getsize(path) else None
        except (OSError, ValueError) as e:
            data, why = None, str(e)
        else:
            why = "it wrote no profile (is it linked against the simulated NPU's libascendcl?)"
        if data is None:
            print(f"msopprof: {cmd[0]}: {why}", file=sys.stderr)
            return rc or 1
        prof = Profile(soc)
        prof.launches = [LaunchReport._from_json(x) for x in data]
        d = write_report(prof, out or os.getcwd())
        print(str(prof))
        print(f"msopprof: {len(prof.launches)} launch(es) profiled (cost-model estimates); results in {d}")
        return rc
    finally:
        os.unlink(path)
