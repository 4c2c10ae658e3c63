"""No dead C/C++ functions in the built libraries (issue 31's slips: dead
sim_kind_name / sim_mem_nearest survived because -Wunused-function only sees
`static` ones).  tools/unused_functions.py reads the objects `make all` built."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "tools", "unused_functions.py")


def _built() -> bool:
    return os.path.isdir(os.path.join(ROOT, "build", "obj", "csrc", "rt"))


@pytest.mark.skipif(not _built(), reason="needs the objects of `make all` (build/obj)")
def test_no_hidden_function_is_unused():
    r = subprocess.run([sys.executable, TOOL], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, "functions nothing calls (delete them, or make them static):\n" + r.stdout + r.stderr


@pytest.mark.skipif(not _built(), reason="needs the objects of `make all` (build/obj)")
def test_the_check_finds_a_dead_function(tmp_path):
    # The same reading on a library of two objects, one function called by neither.
    a, b = tmp_path / "a.c", tmp_path / "b.c"
    a.write_text('__attribute__((visibility("hidden"))) int used(int x) { return x + 1; }\n'
                 '__attribute__((visibility("hidden"))) int dead(int x) { return x * 3; }\n')
    b.write_text('__attribute__((visibility("hidden"))) int used(int);\n'
                 'int api(int x) { return used(x); }\n')
    for s in (a, b):
        subprocess.run(["cc", "-O2", "-fPIC", "-c", str(s), "-o", str(s) + ".o"], check=True)
    sys.path.insert(0, os.path.dirname(TOOL))
    try:
        import unused_functions as uf
    finally:
        sys.path.pop(0)
    found = uf.dead_in([str(a) + ".o", str(b) + ".o"])
    assert found == {str(a) + ".o": ["dead"]}
