"""The public Ascend samples, read at test time from a local mirror.

$ASCEND_SAMPLES_SRC names either a work tree or a (bare) git repository of the
samples (the public mirror `By-gitee/opDev`).  A git repository is exported
once per test session into a temporary directory.  Tests that need it call
`samples_root()`, which skips them when no mirror is given.  Nothing from the
samples is ever copied into this repository.
"""
import os

import pytest

from helpers.mirrors import mirror_root


def samples_root():
    """Return the samples work tree as a path, or skip the calling test."""
    return mirror_root("ASCEND_SAMPLES_SRC")


def sample_path(rel):
    """Absolute path of `rel` inside the samples; skips when the mirror or the file is missing."""
    path = os.path.join(samples_root(), rel)
    if not os.path.exists(path):
        pytest.skip(f"{rel} is not in this samples revision")
    return path
