"""The compiler's precompiled device API (PCH) kept by the compile cache:
one entry kind among the others, under every mode, the size cap, damage
checks and the `ascendrtc cache` commands.  Each compile runs in a fresh
process: a process builds its PCH once and then holds it in memory."""
import json
import os
import subprocess
import sys

import pytest

from ascendrtc import cache as C
from ascendrtc._cache_store import decode_entry
from helpers.acl import ROOT

# A fresh process compiles the seed kernel with ascendrtc and reports what
# the compiler asked the cache owner for the PCH and what it got.
_CHILD = r"""
import json, sys
sys.path.insert(0, {root!r}); sys.path.insert(0, {tests!r})
import ascendrtc as arc
from ascendrtc import cache as C
from helpers.acl import SEED_KERNEL
seen = {{"loads": [], "saves": 0}}
load, save = C._pch_load, C._pch_save
def _load(config):
    got = load(config)
    seen["loads"].append(got is not None)
    return got
def _save(config, data):
    seen["saves"] += 1
    save(config, data)
C._pch_load, C._pch_save = _load, _save
b = arc.Program(SEED_KERNEL, "add_custom.asc").compile(["--npu-arch=dav-2201"], cache=False)  # the PCH, not the kernel
assert b.kernel_names == ["add_custom"]
print(json.dumps(seen))
"""


def compile_in_new_process(cache_dir, mode=None, **env):
    e = dict(os.environ, ASCENDRTC_CACHE_DIR=str(cache_dir), **env)
    e.pop("ASCENDRTC_NO_PCH", None)
    e.pop("ASCENDRTC_CACHE", None)
    if mode is not None:
        e["ASCENDRTC_CACHE"] = mode
    code = _CHILD.format(root=ROOT, tests=os.path.join(ROOT, "tests"))
    out = subprocess.run([sys.executable, "-c", code], env=e, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def pch_entries(cache_dir):
    return [e for e in C.DiskCache(str(cache_dir)).entries() if e.meta.get("kind") == "pch"]


def cli(cache_dir, *args):
    env = dict(os.environ, ASCENDRTC_CACHE_DIR=str(cache_dir),
               PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-m", "ascendrtc", "cache", *args], capture_output=True, text=True,
                       env=env, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    return p.stdout


@pytest.fixture
def filled(tmp_path):
    """A cache holding the PCH of the seed kernel's configuration."""
    d = tmp_path / "cache"
    assert compile_in_new_process(d) == {"loads": [False], "saves": 1}
    (e,) = pch_entries(d)
    return d, e


def test_the_pch_is_an_entry_of_the_cache_and_is_read_back(filled):
    d, e = filled
    assert e.meta["label"] == C.PCH_LABEL and e.meta["arch"] == "dav-2201" and e.size > 100000
    assert os.path.dirname(e.path) == C.DiskCache(str(d)).dir
    assert not (d / "pch").exists()                       # no second store beside the owner's
    inode = os.stat(e.path).st_ino
    assert compile_in_new_process(d) == {"loads": [True], "saves": 0}
    assert os.stat(e.path).st_ino == inode                 # read, not rewritten


@pytest.mark.parametrize("damage", ["bitflip", "torn"])
def test_a_damaged_pch_is_rebuilt_and_replaced(filled, damage):
    d, e = filled
    good = open(e.path, "rb").read()
    bad = bytearray(good)
    if damage == "torn":
        bad = bad[:1000]
    else:
        bad[len(bad) // 2] ^= 0xFF
    open(e.path, "wb").write(bytes(bad))
    assert compile_in_new_process(d) == {"loads": [False], "saves": 1}
    assert decode_entry(open(e.path, "rb").read(), e.key)[1] == decode_entry(good, e.key)[1]


@pytest.mark.parametrize("mode", ["read", "require", "readonly"])
def test_read_and_require_use_the_pch_and_never_write(tmp_path, filled, mode):
    d, e = filled
    inode = os.stat(e.path).st_ino
    assert compile_in_new_process(d, mode) == {"loads": [True], "saves": 0}
    assert os.stat(e.path).st_ino == inode
    empty = tmp_path / "empty"
    assert compile_in_new_process(empty, mode) == {"loads": [False], "saves": 1}   # offered, not kept
    assert pch_entries(empty) == []


@pytest.mark.parametrize("mode", ["off", "0"])
def test_off_neither_reads_nor_writes_the_pch(filled, mode):
    d, e = filled
    assert compile_in_new_process(d, mode) == {"loads": [False], "saves": 1}   # built in memory
    fresh = d.parent / "never"
    compile_in_new_process(fresh, mode)
    assert not fresh.exists()


def test_the_size_cap_counts_the_pch(tmp_path):
    d = tmp_path / "cache"
    compile_in_new_process(d, ASCENDRTC_CACHE_MAX_SIZE="64K")   # the PCH alone is over the cap
    assert pch_entries(d) == []


def test_cache_commands_show_prune_and_clear_the_pch(filled):
    d, e = filled
    assert f"{e.key[:16]}  {C.PCH_LABEL}  arch=dav-2201" in cli(d, "list")
    assert f"0 entries and 1 {C.PCH_LABEL} in" in cli(d, "list")
    assert f"{C.PCH_LABEL}: 1 (" in cli(d, "stats")
    assert f"; {C.PCH_LABEL}: 1 ok" in cli(d, "verify")
    assert f"removed 0 entries and 1 {C.PCH_LABEL}" in cli(d, "prune", "--max-size", "1")
    assert pch_entries(d) == []
    compile_in_new_process(d)
    assert f"removed 0 entries and 1 {C.PCH_LABEL} from" in cli(d, "clear")
    assert pch_entries(d) == []


def test_a_cache_dir_others_can_write_gets_no_pch(tmp_path):
    d = tmp_path / "shared"
    d.mkdir()
    d.chmod(0o777)
    assert compile_in_new_process(d) == {"loads": [False], "saves": 1}     # compiles all the same
    assert os.listdir(d) == []


def test_the_old_layouts_pch_files_are_removed(tmp_path):
    # Releases before the PCH joined the cache kept it in <root>/pch/, never
    # evicted: a PCH build and `cache clear` remove those files (only those).
    d = tmp_path / "cache"
    old = d / "pch"
    old.mkdir(parents=True, mode=0o700)
    d.chmod(0o700)
    (old / "0123456789abcdef.pch").write_bytes(b"x" * 1000)
    (old / "notes.txt").write_text("not ours")
    assert compile_in_new_process(d)["saves"] == 1
    assert sorted(os.listdir(old)) == ["notes.txt"]
    (old / "fedcba9876543210.pch").write_bytes(b"x")
    cli(d, "clear")
    assert sorted(os.listdir(old)) == ["notes.txt"]
