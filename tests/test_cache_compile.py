"""ascendrtc.cache.compile with the real compiler: hits and misses,
damaged entries rebuilt, modes, explanations, locks across processes, and
the `python -m ascendrtc cache` commands on a real cache."""
import multiprocessing as mp
import os
import subprocess
import sys

import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc import _cache_key
from ascendrtc import cache as C
from ascendrtc._cache_store import decode_entry
from helpers.acl import SEED_KERNEL

OPTS = ["--npu-arch=dav-2201"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def cdir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(d))
    monkeypatch.delenv("ASCENDRTC_CACHE", raising=False)
    monkeypatch.delenv("ASCENDRTC_CACHE_MAX_SIZE", raising=False)
    return d


def add_source(dtype, n):
    """The seed's add kernel for n float32 elements."""
    assert dtype is np.float32
    return SEED_KERNEL.replace("8 * 32;", f"{n};")


def prog(n=256, headers=None):
    return arc.Program(add_source(np.float32, n), "add_custom.asc", headers=headers)


def runs_add(binary, n=256):
    k = binary.load().get_kernel("add_custom")
    x = np.arange(n, dtype=np.float32)
    y = np.full(n, 0.5, np.float32)
    z = arc.zeros_like(x)
    k[8](x, y, z)
    return np.array_equal(z.get(), x + y)


def test_miss_then_hit(cdir):
    r1 = C.compile(prog(), OPTS)
    assert r1.how == "compiled" and r1.key is not None
    assert os.path.exists(C.get_cache().path_for(r1.key.digest))
    r2 = C.compile(prog(), OPTS)
    assert r2.how == "disk" and r2.key.digest == r1.key.digest
    assert r2.binary.data == r1.binary.data and r2.binary.kernel_names == ["add_custom"]
    assert runs_add(r2.binary)


@pytest.mark.parametrize("damage", ["truncate", "bitflip"])
def test_damaged_entry_is_rebuilt(cdir, damage):
    r1 = C.compile(prog(), OPTS)
    path = C.get_cache().path_for(r1.key.digest)
    data = bytearray(open(path, "rb").read())
    if damage == "truncate":
        data = data[: len(data) // 2]
    else:
        data[len(data) - 100] ^= 0x04      # inside the ELF payload
    open(path, "wb").write(bytes(data))
    r2 = C.compile(prog(), OPTS)
    assert r2.how == "compiled"             # not served from the damaged file
    assert runs_add(r2.binary)
    meta, payload = decode_entry(open(path, "rb").read(), r1.key.digest)   # whole again ...
    assert payload == r1.binary.data
    assert C.compile(prog(), OPTS).how == "disk"                             # ... and served


def test_require_mode_raises_on_miss(cdir, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_CACHE", "require")
    with pytest.raises(C.CacheMissError, match="ASCENDRTC_CACHE=require"):
        C.compile(prog(), OPTS)
    monkeypatch.setenv("ASCENDRTC_CACHE", "on")
    C.compile(prog(), OPTS)
    monkeypatch.setenv("ASCENDRTC_CACHE", "require")
    assert C.compile(prog(), OPTS).how == "disk"


def test_read_and_off_modes(cdir, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_CACHE", "off")
    assert C.compile(prog(), OPTS).how == "compiled-uncached"
    assert not cdir.exists()
    monkeypatch.setenv("ASCENDRTC_CACHE", "read")
    r = C.compile(prog(), OPTS)
    assert r.how == "compiled" and C.get_cache().entries() == []
    monkeypatch.setenv("ASCENDRTC_CACHE", "sometimes")
    with pytest.raises(ValueError, match="on, read, off, require"):
        C.compile(prog(), OPTS)


@pytest.mark.parametrize("change, expect", [
    ("header", "header 'extra.h' changed"),
    ("option", "options changed"),
    ("arch", "arch (--npu-arch) changed: dav-2201 -> dav-3510"),
    ("device-api", "device-API headers changed"),
])
def test_changed_input_recompiles_and_is_named(cdir, monkeypatch, change, expect):
    hdr = {"extra.h": "#define EXTRA 1\n"}
    first = C.compile(prog(headers=hdr), OPTS, origin="t.add", label="add[256]")
    assert first.how == "compiled"
    opts, h2 = OPTS, hdr
    if change == "header":
        h2 = {"extra.h": "#define EXTRA 2\n"}
    elif change == "option":
        opts = OPTS + ["-O3"]
    elif change == "arch":
        opts = ["--npu-arch=dav-3510"]
    else:
        real = _cache_key.fingerprint
        monkeypatch.setattr(_cache_key, "fingerprint",
                            lambda *a: real(*a).rsplit("=", 1)[0] + "=0123456789abcdef")
    r = C.compile(prog(headers=h2), opts, origin="t.add", label="add[256]")
    assert r.how == "compiled" and r.key.digest != first.key.digest
    assert expect in r.reason
    assert C.compile(prog(headers=h2), opts, origin="t.add", label="add[256]").how == "disk"


def test_different_keys_never_wait(cdir):
    a, b = prog(256), prog(512)
    cache = C.get_cache()
    cache.ensure()
    ka = C.program_key(a, OPTS).digest
    with cache.lock(ka, timeout=1) as held:     # as if another process were compiling `a`
        assert held
        rb = C.compile(b, OPTS, lock_timeout=0.0)
        assert rb.how == "compiled" and not rb.lock_timed_out
        ra = C.compile(a, OPTS, lock_timeout=0.0)   # the same key does wait (here: times out) ...
        assert ra.lock_timed_out and ra.how == "compiled"   # ... and then compiles anyway
    assert runs_add(ra.binary) and runs_add(rb.binary, 512)


def _compile_worker(barrier, queue, sizes):
    import ascendrtc as arc_
    from ascendrtc import cache as C_
    barrier.wait()
    out = []
    for n in sizes:
        r = C_.compile(arc_.Program(add_source(np.float32, n), "add_custom.asc"), OPTS)
        out.append((n, r.how, runs_add(r.binary, n)))
    queue.put(out)


def test_eight_processes_compile_each_key_once(cdir):
    ctx = mp.get_context("spawn")
    barrier, queue = ctx.Barrier(8), ctx.Queue()
    procs = [ctx.Process(target=_compile_worker, args=(barrier, queue, [256, 512] if i % 2 else [512, 256]))
             for i in range(8)]
    for p in procs:
        p.start()
    results = [queue.get(timeout=240) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    flat = [r for res in results for r in res]
    assert len(flat) == 16 and all(ok for _, _, ok in flat)
    for n in (256, 512):
        hows = [how for m, how, _ in flat if m == n]
        assert hows.count("compiled") == 1 and hows.count("disk") == 7, (n, hows)


def test_size_cap_evicts_least_recently_used(cdir, monkeypatch):
    r1 = C.compile(prog(256), OPTS)
    size = os.path.getsize(C.get_cache().path_for(r1.key.digest))
    monkeypatch.setenv("ASCENDRTC_CACHE_MAX_SIZE", str(int(size * 1.5)))
    r2 = C.compile(prog(512), OPTS)
    keys = [e.key for e in C.get_cache().entries()]
    assert keys == [r2.key.digest]


def test_cli_on_a_real_cache(cdir, capsys):
    r1 = C.compile(prog(256), OPTS, label="add[256]")
    r2 = C.compile(prog(512), OPTS, label="add[512]")
    assert C.main(["list"]) == 0
    out = capsys.readouterr().out
    assert r1.key.digest[:16] in out and r2.key.digest[:16] in out and "add[512]" in out and "2 entries" in out
    assert C.main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "entries:    2 (0 corrupt)" in out and str(cdir) in out
    assert C.main(["verify"]) == 0
    assert "2 ok, 0 corrupt" in capsys.readouterr().out
    path = C.get_cache().path_for(r1.key.digest)
    data = bytearray(open(path, "rb").read())
    data[-10] ^= 1
    open(path, "wb").write(bytes(data))
    assert C.main(["verify"]) == 1
    assert "1 ok, 1 corrupt" in capsys.readouterr().out
    assert C.main(["verify", "--delete"]) == 0
    capsys.readouterr()
    assert not os.path.exists(path)
    C.compile(prog(256), OPTS, label="add[256]")
    assert C.main(["prune", "--max-size", "1"]) == 0
    assert "removed 2 entries" in capsys.readouterr().out
    C.compile(prog(256), OPTS)
    # the documented spelling, in a fresh process
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-m", "ascendrtc", "cache", "clear"], capture_output=True, text=True,
                       env=env, cwd=ROOT, timeout=120)
    assert p.returncode == 0 and "removed 1 entries" in p.stdout, p.stderr
    assert C.get_cache().entries() == []


def test_world_writable_cache_dir_is_refused(cdir):
    cdir.mkdir()
    os.chmod(cdir, 0o777)
    with pytest.raises(C.CacheDirError, match="writable by"):
        C.compile(prog(), OPTS)
    assert C.main(["stats"]) == 2
