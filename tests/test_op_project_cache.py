"""The op path's compile cache across processes (issue 31 item 1): an op
project's files reach the compiler under a directory named by their
content, so the same project compiles once and every later process takes
its kernel from the disk cache."""
import os
import subprocess
import sys

import numpy as np

import ascendrtc as arc

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECTS = os.path.join(HERE, "op_projects")

CHILD = r'''
import sys
import numpy as np
import ascendrtc as arc
from ascendrtc import cache
how = []
compile_ = cache.compile
def spy(*a, **k):
    r = compile_(*a, **k)
    how.append(f"{r.how}:{r.key.digest}")
    return r
cache.compile = spy
x, y = np.arange(4096, dtype=np.float32), np.ones(4096, np.float32)
z = arc.op_project(sys.argv[1])(x, y)
assert np.array_equal(z, x + y), z
print(" ".join(how))
'''


def _child(project, cache_dir):
    env = dict(os.environ, ASCENDRTC_CACHE_DIR=str(cache_dir), ASCENDRTC_CACHE="on")
    env.pop("ASCENDRTC_CACHE_REMOTE", None)
    p = subprocess.run([sys.executable, "-c", CHILD, project], capture_output=True, text=True, env=env, timeout=300,
                       cwd=os.path.dirname(HERE))
    assert p.returncode == 0, p.stderr
    return p.stdout.split()


def test_the_same_project_hits_the_disk_cache_in_the_next_process(tmp_path):
    first = _child(os.path.join(PROJECTS, "AddSplit"), tmp_path)
    second = _child(os.path.join(PROJECTS, "AddSplit"), tmp_path)
    assert [h.split(":")[0] for h in first] == ["compiled"]
    assert second == ["disk:" + first[0].split(":")[1]]  # the same key, found on disk


def test_the_key_follows_the_content_not_the_path(tmp_path):
    import shutil
    a = tmp_path / "a" / "AddSplit"
    shutil.copytree(os.path.join(PROJECTS, "AddSplit"), a)
    b = tmp_path / "b" / "Elsewhere"
    shutil.copytree(a, b)
    first = _child(str(a), tmp_path / "cache")
    assert _child(str(b), tmp_path / "cache") == ["disk:" + first[0].split(":")[1]]
    k = b / "op_kernel" / "add_split.cpp"
    k.write_text(k.read_text() + "\n// an edit\n")
    assert [h.split(":")[0] for h in _child(str(b), tmp_path / "cache")] == ["compiled"]


def test_in_memory_files_are_written_once_under_their_content(tmp_path):
    from ascendrtc._op_kernel import _Files
    files = {"op_kernel/k.cpp": "// k\n", "op_host/k_tiling.h": "// t\n"}
    a, b = _Files(files), _Files(dict(files))
    assert a.root == b.root and os.path.basename(a.root) != ""
    assert open(os.path.join(a.root, "op_host/k_tiling.h")).read() == "// t\n"
    # a damaged copy is noticed and rewritten, not compiled
    with open(os.path.join(a.root, "op_kernel/k.cpp"), "w") as f:
        f.write("// planted\n")
    c = _Files(files)
    assert c.root == a.root and open(os.path.join(c.root, "op_kernel/k.cpp")).read() == "// k\n"
    other = _Files({"op_kernel/k.cpp": "// other\n"})
    assert other.root != a.root
    x = np.arange(4096, dtype=np.float32)
    assert np.array_equal(arc.op_project(os.path.join(PROJECTS, "AddSplit"))(x, x), 2 * x)  # still usable


def test_a_warm_call_crosses_into_c_twice_and_reads_no_json(monkeypatch):
    # Issue 31: a warm op(x, y) makes at most 3 Python<->C crossings and no
    # JSON.  Here: the host plan (InferShape + tiling) and the launch.
    import json
    op = arc.op_project(os.path.join(PROJECTS, "MinMax"))
    a, b = np.arange(2048, dtype=np.int32), np.full(2048, 1000, np.int32)
    op(a, b)

    class Counted:
        def __init__(self, k):
            self.k, self.calls = k, 0

        def __getattr__(self, name):
            return getattr(self.k, name)

        def __call__(self, *args, **kw):
            self.calls += 1
            return self.k(*args, **kw)

    for key in list(op._kernels):
        op._kernels[key] = Counted(op._kernels[key])

    def no_json(*_a, **_k):
        raise AssertionError("a warm call parsed or wrote JSON")
    monkeypatch.setattr(json, "loads", no_json)
    monkeypatch.setattr(json, "dumps", no_json)
    c_calls = []

    def prof(frame, event, arg):
        if event == "c_call":
            owner = getattr(arg, "__self__", None)
            mod = getattr(arg, "__module__", None) or type(owner).__module__
            if mod in ("ascendrtc._C", "ascendrtc") or type(owner).__module__ in ("ascendrtc._C", "ascendrtc"):
                c_calls.append(getattr(arg, "__qualname__", repr(arg)))
    sys.setprofile(prof)
    try:
        lo, hi = op(a, b)
    finally:
        sys.setprofile(None)
    launches = sum(k.calls for k in op._kernels.values())
    assert launches == 1 and np.array_equal(lo, np.minimum(a, b)) and np.array_equal(hi, np.maximum(a, b))
    assert len(c_calls) + launches <= 3, c_calls
    assert c_calls == ["OpHostCode.plan"], c_calls
