"""The cache directory is a jail: symbolic links planted below the cache
root -- a dangling ``<key>.lock``, ``v1/origins``, ``pch/``, ``v1`` itself --
are reported and left alone (an entry that is a link is reported and the
link removed, so the entry is rebuilt), and nothing outside the root is
created, written, read or deleted through them (by compiles, jit calls,
the PCH's housekeeping, ``ascendrtc cache clear`` / ``prune``)."""
import logging
import os
import subprocess
import sys

import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc import _cache_jail
from ascendrtc import cache as C
from helpers.acl import ADD_TEMPLATE, ROOT, SEED_KERNEL

OPTS = ["--npu-arch=dav-2201"]


def prog(n=256):
    return arc.Program(SEED_KERNEL.replace("8 * 32;", f"{n};"), "add_custom.asc")


def computes_add(binary, n=256):
    x = np.arange(n, dtype=np.float32)
    z = arc.zeros_like(x)
    binary.load().get_kernel("add_custom")[8](x, x, z)
    return np.array_equal(z.get(), x + x)


@pytest.fixture
def jail(tmp_path, monkeypatch):
    """(cache root, an outside directory holding a precious file)."""
    root = tmp_path / "cache"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.txt").write_text("keep me")
    monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(root))
    monkeypatch.delenv("ASCENDRTC_CACHE", raising=False)
    monkeypatch.delenv("ASCENDRTC_CACHE_REMOTE", raising=False)
    _cache_jail._reported.clear()
    C.get_cache().ensure()
    return root, outside


def untouched(outside, *extra):
    """The outside directory holds exactly its precious file (and ``extra``)."""
    return (sorted(os.listdir(outside)) == sorted(["precious.txt", *extra])
            and (outside / "precious.txt").read_text() == "keep me")


def compile_past_link(jail, caplog, suffix, target):
    """Plant ``<key><suffix>`` -> ``outside/target``, compile; (root, key).
    The compile computes the right thing and touches nothing outside."""
    root, outside = jail
    key = C.program_key(prog(), OPTS).digest
    os.symlink(outside / target, root / "v1" / f"{key}{suffix}")
    with caplog.at_level(logging.WARNING, logger="ascendrtc.cache"):
        r = C.compile(prog(), OPTS)
    assert r.how == "compiled" and computes_add(r.binary)
    assert untouched(outside)
    return root, key


def test_dangling_lock_link_creates_nothing(jail, caplog):
    root, key = compile_past_link(jail, caplog, ".lock", "created-through-lock")
    assert os.path.islink(root / "v1" / f"{key}.lock")                 # left alone
    assert f"{key}.lock is a symbolic link" in caplog.text
    assert C.compile(prog(), OPTS).how == "disk"                       # the entry itself was stored


def test_lock_that_is_a_fifo_does_not_hang(jail):
    root, _ = jail
    key = C.program_key(prog(), OPTS).digest
    os.mkfifo(root / "v1" / f"{key}.lock")
    r = C.compile(prog(), OPTS)
    assert r.how == "compiled" and computes_add(r.binary)


def test_origins_link_is_not_written_by_compiles_or_jit(jail, caplog):
    root, outside = jail
    os.symlink(outside, root / "v1" / "origins")
    with caplog.at_level(logging.WARNING, logger="ascendrtc.cache"):
        r = C.compile(prog(), OPTS)

        @arc.jit(block_dim=8)
        def vadd(x, y, z):
            return ADD_TEMPLATE.replace("{N}", str(x.size)).replace("{T}", arc.ctype(x.dtype))
        x = np.arange(512, dtype=np.float32)
        z = arc.zeros_like(x)
        vadd(x, x, z)
    assert computes_add(r.binary) and np.array_equal(z.get(), x + x)
    assert untouched(outside)
    assert os.path.islink(root / "v1" / "origins")
    assert "origins is a symbolic link" in caplog.text


def test_entry_link_is_not_read_and_is_replaced_by_the_entry(jail, caplog):
    """The link itself goes (unlinkat never follows it) and the entry is
    rebuilt in its place; what it pointed to is untouched."""
    root, key = compile_past_link(jail, caplog, ".arcc", "precious.txt")
    assert not os.path.islink(root / "v1" / f"{key}.arcc")
    assert C.compile(prog(), OPTS).how == "disk"
    assert f"{key}.arcc is a symbolic link" in caplog.text


def test_v1_link_is_refused(jail):
    root, outside = jail
    os.rename(root / "v1", root / "old")
    os.symlink(outside, root / "v1")
    with pytest.raises(arc.CacheDirError, match="v1 is a symbolic link"):
        C.compile(prog(), OPTS)
    assert untouched(outside)


_PCH_CHILD = r"""
import sys
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/tests"]
import ascendrtc as arc
from helpers.acl import SEED_KERNEL
print(arc.Program(SEED_KERNEL, "add_custom.asc").compile(["--npu-arch=dav-2201"]).kernel_names)
"""


def test_pch_link_deletes_nothing(jail):
    """The first compile of a process builds and keeps its PCH, then removes
    the old layout's ``<root>/pch/<16 hex>.pch``: not through a link."""
    root, outside = jail
    legacy = "0123456789abcdef.pch"
    (outside / legacy).write_bytes(b"not yours")
    os.symlink(outside, root / "pch")
    p = subprocess.run([sys.executable, "-c", _PCH_CHILD, ROOT], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, ASCENDRTC_CACHE_DIR=str(root)))
    assert p.returncode == 0 and "add_custom" in p.stdout, p.stderr
    assert untouched(outside, legacy) and os.path.islink(root / "pch")
    assert "pch is a symbolic link" in p.stderr
    assert any(e.meta.get("kind") == "pch" for e in C.get_cache().entries())   # the PCH itself was kept
    # A real pch/ directory of the old layout is still cleaned.
    os.unlink(root / "pch")
    (root / "pch").mkdir()
    (root / "pch" / legacy).write_bytes(b"old")
    assert C.get_cache().remove_legacy_pch() == 1 and not (root / "pch").exists()


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "ascendrtc", "cache", *args], capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ), timeout=120)


def test_cache_clear_and_prune_delete_nothing_through_links(jail):
    root, outside = jail
    C.compile(prog(), OPTS)
    os.rename(root / "v1" / "origins", root / "v1" / "origins-real")
    os.symlink(outside, root / "v1" / "origins")
    os.symlink(outside / "precious.txt", root / "v1" / ("ab" * 32 + ".arcc"))
    os.symlink(outside / "precious.txt", root / "v1" / ".tmp-planted")
    os.utime(root / "v1" / ".tmp-planted", (0, 0), follow_symlinks=False)
    p = _cli("prune", "--max-size", "0")
    assert p.returncode == 0, p.stderr
    p = _cli("clear")
    assert p.returncode == 0, p.stderr
    assert "origins is a symbolic link" in p.stderr
    assert untouched(outside)
    for link in ("origins", "ab" * 32 + ".arcc", ".tmp-planted"):
        assert os.path.islink(root / "v1" / link), link
    assert not any(n.endswith(".arcc") and not os.path.islink(root / "v1" / n) for n in os.listdir(root / "v1"))
