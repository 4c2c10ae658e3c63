"""Public repositories the tests read at run time, never copied here.

Each mirror is named by an environment variable holding either a work tree or
a (bare) git repository; a git repository is exported once per test session
into a temporary directory (a partial mirror, with blobs missing, one
top-level entry at a time).  `mirror_root(var)` skips the calling test when
the variable is unset.

| variable           | repository (public mirror)   |
|--------------------|------------------------------|
| ASCEND_SAMPLES_SRC | By-gitee/opDev (samples)     |
| ASC_DEVKIT_SRC     | mirror-cann/asc-devkit       |
| CATLASS_SRC        | hicann/catlass               |
| OPS_NN_SRC         | hicann/ops-nn                |
| OPS_MATH_SRC       | hicann/ops-math              |
| OPBASE_SRC         | hicann/opbase                |
"""
import os
import subprocess
import tempfile

import pytest

MIRRORS = {
    "ASCEND_SAMPLES_SRC": "the Ascend samples (By-gitee/opDev)",
    "ASC_DEVKIT_SRC": "CANN's asc-devkit (mirror-cann/asc-devkit)",
    "CATLASS_SRC": "CATLASS (hicann/catlass)",
    "OPS_NN_SRC": "CANN's ops-nn (hicann/ops-nn)",
    "OPS_MATH_SRC": "CANN's ops-math (hicann/ops-math)",
    "OPBASE_SRC": "CANN's opbase (hicann/opbase)",
}
_roots = {}


def _export(src, rev):
    out = tempfile.mkdtemp(prefix="arc-mirror-")
    whole = subprocess.run(["git", "--git-dir", src, "archive", rev], capture_output=True)
    if whole.returncode == 0:
        subprocess.run(["tar", "-x", "-C", out], input=whole.stdout, check=True)
        return out
    names = subprocess.run(["git", "--git-dir", src, "ls-tree", "--name-only", rev], check=True,
                           capture_output=True, text=True).stdout.split()
    for name in names:
        part = subprocess.run(["git", "--git-dir", src, "archive", rev, "--", name], capture_output=True)
        if part.returncode == 0:
            subprocess.run(["tar", "-x", "-C", out], input=part.stdout, check=True)
    return out


def mirror_root(var):
    """The work tree of the mirror named by $var (a key of MIRRORS), or skip."""
    what = MIRRORS[var]
    src = os.environ.get(var)
    if not src:
        pytest.skip(f"no mirror of {what}: set {var} to a work tree or git dir of it")
    if not os.path.isdir(src):
        pytest.skip(f"{var}={src!r} is not a directory")
    if var not in _roots:
        is_git = os.path.isfile(os.path.join(src, "HEAD")) and os.path.isdir(os.path.join(src, "objects"))
        rev = os.environ.get(var.replace("_SRC", "_REV"), "HEAD")
        _roots[var] = _export(src, rev) if is_git else src
    return _roots[var]


def mirror_path(var, rel):
    """Absolute path of `rel` inside the mirror named by $var; skips when absent."""
    path = os.path.join(mirror_root(var), rel)
    if not os.path.exists(path):
        pytest.skip(f"{rel} is not in this revision of {MIRRORS[var]}")
    return path
