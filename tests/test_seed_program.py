"""The seed article's C++ host program builds with the article's own command
against the CANN-shaped home and prints 32 threes (the integers 1 and 2 are
written into float buffers, so the sum relies on IEEE subnormal arithmetic)."""
import os
import re
import subprocess

from helpers.acl import ROOT, sim_home


def test_home_layout():
    home = sim_home()
    for rel in ("include/acl/acl.h", "include/acl/acl_rt.h", "include/acl/acl_rt_compile.h",
                "include/acl/acl_base.h", "lib64/libascendcl.so", "lib64/libacl_rtc.so", "set_env.sh"):
        assert os.path.exists(os.path.join(home, rel)), rel


def test_seed_program_builds_and_prints_threes(tmp_path):
    src = os.path.join(ROOT, "examples", "add_custom.cpp")
    script = (
        'set -e; source "{home}/set_env.sh"; '
        'g++ {src} -I${{ASCEND_HOME_PATH}}/include -L${{ASCEND_HOME_PATH}}/lib64 -lascendcl -lacl_rtc -o main; '
        './main'
    ).format(home=sim_home(), src=src)
    env = {k: v for k, v in os.environ.items() if k not in ("ASCEND_HOME_PATH", "LD_LIBRARY_PATH")}
    out = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = dict(line.split(":", 1) for line in out.stdout.splitlines() if ":" in line)
    assert lines["x"].split() == ["1"] * 32
    assert lines["y"].split() == ["2"] * 32
    assert lines["z"].split() == ["3"] * 32
    # CHECK_ACL prints "<file>:<line> aclError:<code>" for any failing call
    assert not re.search(r"aclError:\d", out.stderr), out.stderr


def test_set_env_exports_home_and_loader_path():
    out = subprocess.run(["bash", "-c", 'source "%s/set_env.sh"; echo "$ASCEND_HOME_PATH|$LD_LIBRARY_PATH"'
                          % sim_home()], capture_output=True, text=True, check=True)
    home, ld = out.stdout.strip().split("|")
    assert os.path.samefile(home, sim_home())
    assert os.path.join(home, "lib64") in ld.split(":")


def test_c_flow_example_builds_warning_free_and_runs(tmp_path):
    """examples/c_flow.c: the project's own C example (templates, in-memory
    header, args array, events, error texts) in plain C11."""
    src = os.path.join(ROOT, "examples", "c_flow.c")
    script = ('set -e; source "{home}/set_env.sh"; '
              'cc -std=c11 -Wall -Wextra -Werror {src} -I$ASCEND_HOME_PATH/include -L$ASCEND_HOME_PATH/lib64 '
              '-lascendcl -lacl_rtc -o c_flow; ./c_flow').format(home=sim_home(), src=src)
    out = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "mismatches: 0" in out.stdout
    assert re.search(r"compiled scale<float, 64> -> _Z5scaleIfLi64EE\S+", out.stdout)
    assert "unknown kernel -> 107000: aclrtBinaryGetFunction: no kernel named 'no_such_kernel'" in out.stdout
    assert "broken.asc:4:35: error: expected ';'" in out.stdout
