"""The compiler's prewarm at import (csrc/ext/prewarm.c): a background
thread loads the simulated NPU's libraries and runs one throwaway compile so
that a new process's first compile is not the slow one.  What must hold
whatever its timing: compiles and launches right after import are correct,
a process may exit or fork at once, it runs once, it is off unless
ASCENDRTC_PREWARM=1, and changing the backend after import still works."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ADD = r'''
import sys, numpy as np
sys.path.insert(0, {tests!r})
import ascendrtc as arc
from helpers.py_kernels import add_source

def add_ok():
    k = arc.Program(add_source(np.float32), "add.asc").compile().load().get_kernel("add_custom")
    x = np.arange(256, dtype=np.float32)
    z = arc.empty_like(x)
    k[8](x, x, z)
    return bool((z.get() == 2 * x).all())
'''


def run(code, **env):
    e = dict(os.environ, ASCENDRTC_PREWARM="1")
    e.update(env)
    return subprocess.run([sys.executable, "-c", ADD.format(tests=os.path.join(ROOT, "tests")) + code], cwd=ROOT,
                          env=e, capture_output=True, text=True, timeout=300)


def test_compile_right_after_import_and_once_only():
    # The prewarm started at import; a second request starts nothing.
    r = run("print(add_ok(), arc._C.prewarm(arc.sim_home()))")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "False"]


@pytest.mark.parametrize("value", [None, "0", "yes"])
def test_off_unless_asked_for(value):
    env = dict(os.environ)
    env.pop("ASCENDRTC_PREWARM", None)
    if value is not None:
        env["ASCENDRTC_PREWARM"] = value
    code = ADD.format(tests=os.path.join(ROOT, "tests")) + "print(arc._C.prewarm(arc.sim_home()), add_ok())"
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    # Off: a request is refused, and compiles work as before.
    assert r.stdout.split() == ["False", "True"]


def test_exit_at_once_is_clean():
    # The process ends while the throwaway compile may still run: it is stopped, not crashed into.
    r = subprocess.run([sys.executable, "-c", "import ascendrtc"], cwd=ROOT, capture_output=True, text=True,
                       timeout=120, env=dict(os.environ, ASCENDRTC_PREWARM="1"))
    assert r.returncode == 0 and r.stderr == ""


def test_fork_right_after_import():
    # fork() waits for the thread: the child inherits no compiler lock and runs kernels as before.
    r = run("import os\npid = os.fork()\nif pid == 0:\n    os._exit(0 if add_ok() else 3)\n"
            "print(os.waitpid(pid, 0)[1], add_ok())")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["0", "True"]


def test_other_backend_after_import():
    # The prewarm's libraries are dropped when another backend is chosen (here the sim's home as CANN's).
    r = run("arc.set_backend('cann')\nprint(add_ok(), arc.get_backend()['backend'])",
            ASCEND_HOME_PATH=os.path.join(ROOT, "ascendrtc", "_home"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "cann"]
