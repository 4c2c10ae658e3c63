"""The public Ascend samples, read at test time from a local mirror.

$ASCEND_SAMPLES_SRC names either a work tree or a (bare) git repository of the
samples (the public mirror `By-gitee/opDev`).  A git repository is exported
once per test session into a temporary directory.  Tests that need it call
`samples_root()`, which skips them when no mirror is given.  Nothing from the
samples is ever copied into this repository.
"""
import os
import subprocess
import tempfile

import pytest

_cache = {}


def samples_root():
    """Return the samples work tree as a path, or skip the calling test."""
    src = os.environ.get("ASCEND_SAMPLES_SRC")
    if not src:
        pytest.skip("no samples mirror: set ASCEND_SAMPLES_SRC to a work tree or git dir of the Ascend samples")
    if not os.path.isdir(src):
        pytest.skip(f"ASCEND_SAMPLES_SRC={src!r} is not a directory")
    if "root" in _cache:
        return _cache["root"]
    is_git = os.path.isfile(os.path.join(src, "HEAD")) and os.path.isdir(os.path.join(src, "objects"))
    if not is_git:
        _cache["root"] = src
        return src
    rev = os.environ.get("ASCEND_SAMPLES_REV", "HEAD")
    out = tempfile.mkdtemp(prefix="ascend-samples-")
    whole = subprocess.run(["git", "--git-dir", src, "archive", rev], capture_output=True)
    if whole.returncode == 0:
        subprocess.run(["tar", "-x", "-C", out], input=whole.stdout, check=True)
    else:  # a partial mirror (blobs missing): export each top-level entry that is complete
        names = subprocess.run(["git", "--git-dir", src, "ls-tree", "--name-only", rev], check=True,
                               capture_output=True, text=True).stdout.split()
        for name in names:
            part = subprocess.run(["git", "--git-dir", src, "archive", rev, "--", name], capture_output=True)
            if part.returncode == 0:
                subprocess.run(["tar", "-x", "-C", out], input=part.stdout, check=True)
    _cache["root"] = out
    return out


def sample_path(rel):
    """Absolute path of `rel` inside the samples; skips when the mirror or the file is missing."""
    path = os.path.join(samples_root(), rel)
    if not os.path.exists(path):
        pytest.skip(f"{rel} is not in this samples revision")
    return path
