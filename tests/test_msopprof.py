"""``msopprof`` (CANN's single-operator profiler) on the simulated NPU: it
runs a program with the cost model on for the program's whole life and
writes an OPPROF_* folder of estimated times; the exit status is the
program's.  Built with tests/cc_programs/profile_add.asc (two launches)."""
import csv
import glob
import os
import subprocess
import sys

import pytest

from test_cc import HOME, PROGS, cc, env, pytestmark  # noqa: F401  (the same skip)


@pytest.fixture(scope="module")
def exe(tmp_path_factory):
    d = tmp_path_factory.mktemp("prog")
    r = cc(d, os.path.join(PROGS, "profile_add.asc"), "-o", str(d / "profile_add"), "--npu-arch=dav-2201")
    assert r.returncode == 0, r.stderr
    return d / "profile_add"


def msopprof(tmp_path, *args, via_home=False):
    cmd = [os.path.join(HOME, "bin", "msopprof")] if via_home else [sys.executable, "-m", "ascendrtc", "msopprof"]
    return subprocess.run(cmd + list(args), capture_output=True, text=True, cwd=tmp_path, env=env(tmp_path))


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("via_home", [False, True])
def test_profiles_each_launch_of_a_program(tmp_path, exe, via_home):
    p = msopprof(tmp_path, f"--output={tmp_path}", str(exe), "5", via_home=via_home)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "PASS: 5 blocks, 0 wrong" in p.stdout  # the program's own output
    assert "msopprof: 2 launch(es) profiled (cost-model estimates); results in" in p.stdout
    (d,) = glob.glob(str(tmp_path / "OPPROF_*_*"))
    ops = rows(os.path.join(d, "OpBasicInfo.csv"))
    assert [(o["Op Name"], o["Op Type"], o["Block Dim"], o["Priced"]) for o in ops] == [("vadd", "vector", "5", "yes")] * 2
    assert all(float(o["Task Duration(us)"]) > 0 and o["SoC"] == "Ascend910B1" for o in ops)
    pipes = rows(os.path.join(d, "PipeUtilization.csv"))
    assert len(pipes) == 2 and "aic_cube_ratio" in pipes[0] and "aiv_mte2_time(us)" in pipes[0]
    assert all(float(r["aiv_mte2_time(us)"]) > 0 and float(r["aiv_vec_time(us)"]) > 0 for r in pipes), pipes
    assert "estimate" in open(os.path.join(d, "README.txt")).read()


def test_soc_version_prices_for_that_soc(tmp_path, exe):
    p = msopprof(tmp_path, "simulator", "--soc-version=Ascend910B4", str(exe), "1")
    assert p.returncode == 0, p.stderr
    (d,) = glob.glob(str(tmp_path / "OPPROF_*_*"))
    assert {o["SoC"] for o in rows(os.path.join(d, "OpBasicInfo.csv"))} == {"Ascend910B4"}


def test_exit_status_is_the_programs_and_bad_input_is_named(tmp_path, exe):
    # the host's assert aborts the program: msopprof exits as a shell would (128 + SIGABRT) and
    # says why there is no profile
    p = msopprof(tmp_path, str(exe), "1", "fail")
    assert p.returncode == 134, p.stderr
    assert "the program ended by signal 6 (SIGABRT) before writing its profile" in p.stderr
    p = msopprof(tmp_path, "--frobnicate", str(exe))
    assert p.returncode == 2 and "msopprof: unknown option '--frobnicate'" in p.stderr
    p = msopprof(tmp_path)
    assert p.returncode == 2 and "msopprof: no program to run" in p.stderr
    p = msopprof(tmp_path, "true")
    assert p.returncode == 1 and "it wrote no profile" in p.stderr
    p = msopprof(tmp_path, str(tmp_path / "missing"))
    assert p.returncode == 1 and "msopprof: cannot run" in p.stderr
    assert not glob.glob(str(tmp_path / "OPPROF_*_*"))
