"""No tracked source file (C, C++, headers, Python, tests) over 600 lines:
a file that grows past it is split by job (csrc/README.md says which file
owns what)."""
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
LIMIT = 600
SOURCE = (".c", ".h", ".cpp", ".hpp", ".cc", ".py", ".pyi")


def _tracked():
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    return [p for p in out.decode().split("\0") if p.endswith(SOURCE)]


def test_no_source_file_over_600_lines():
    files = _tracked()
    assert len(files) > 100, files  # the listing worked
    over = []
    for rel in files:
        p = ROOT / rel
        if p.is_file():
            n = p.read_bytes().count(b"\n")
            if n > LIMIT:
                over.append(f"{rel}: {n} lines")
    assert not over, f"split these by job (at most {LIMIT} lines each): " + "; ".join(over)
