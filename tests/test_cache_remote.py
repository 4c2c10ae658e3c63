"""The remote tier of the compile cache, against a real redis-server on
loopback: two processes with separate local caches sharing one server, a
server killed mid-run or never answering, damaged remote entries, the
cache modes, bad settings, and the `ascendrtc cache` commands."""
import logging
import os
import socket
import subprocess
import sys
import threading

import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc import cache as C
from ascendrtc import _cache_auth, _cache_remote
from ascendrtc._cache_store import decode_entry
from helpers.acl import SEED_KERNEL
from helpers.redis_server import RedisServer

OPTS = ["--npu-arch=dav-2201"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEY = "test-team-key-0123456789"


def prog(n=256):
    return arc.Program(SEED_KERNEL.replace("8 * 32;", f"{n};"), "add_custom.asc")


def runs_add(binary, n=256):
    k = binary.load().get_kernel("add_custom")
    x = np.arange(n, dtype=np.float32)
    z = arc.zeros_like(x)
    k[8](x, x, z)
    return np.array_equal(z.get(), x + x)


@pytest.fixture
def redis_server(tmp_path):
    server = RedisServer(tmp_path)
    yield server
    server.stop()


@pytest.fixture
def remote(redis_server, tmp_path, monkeypatch):
    """A fresh local cache directory and ASCENDRTC_CACHE_REMOTE at the server."""
    monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(tmp_path / "local"))
    monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE", redis_server.url)
    monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE_KEY", KEY)
    monkeypatch.delenv("ASCENDRTC_CACHE", raising=False)
    monkeypatch.delenv("ASCENDRTC_CACHE_REMOTE_TIMEOUT", raising=False)
    _cache_remote._tiers.clear()
    _cache_remote._refused.clear()
    yield redis_server
    _cache_remote._tiers.clear()


_CHILD = r"""
import sys, numpy as np
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/tests"]
import ascendrtc as arc
from ascendrtc import cache as C
from helpers.acl import SEED_KERNEL
r = C.compile(arc.Program(SEED_KERNEL.replace("8 * 32;", "512;"), "add_custom.asc"), ["--npu-arch=dav-2201"])
k = r.binary.load().get_kernel("add_custom")
x = np.arange(512, dtype=np.float32); z = arc.zeros_like(x); k[8](x, x, z)
print(r.how, bool(np.array_equal(z.get(), 2 * x)))
"""


def _child(tmp_path, name, url):
    env = dict(os.environ, ASCENDRTC_CACHE_DIR=str(tmp_path / name), ASCENDRTC_CACHE_REMOTE=url,
               ASCENDRTC_CACHE_REMOTE_KEY=KEY)
    env.pop("ASCENDRTC_CACHE", None)
    p = subprocess.run([sys.executable, "-c", _CHILD, ROOT], capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout.split()


def test_two_processes_share_one_server(redis_server, tmp_path):
    assert _child(tmp_path, "machine-a", redis_server.url) == ["compiled", "True"]
    assert len(redis_server.keys()) == 1
    # Another machine: its own empty local cache, the same server.
    assert _child(tmp_path, "machine-b", redis_server.url) == ["remote", "True"]
    # The remote hit was kept locally: the next process there hits its disk.
    assert _child(tmp_path, "machine-b", redis_server.url) == ["disk", "True"]


def test_remote_entry_is_the_disk_entry(remote):
    r = C.compile(prog(), OPTS)
    assert r.how == "compiled"
    (key,) = remote.keys()
    assert key.endswith(r.key.digest)
    with open(C.get_cache().path_for(r.key.digest), "rb") as f:   # redis-cli ends the value with a newline
        assert _cache_auth.unseal(KEY.encode(), key, remote.cli("GET", key)[:-1]) == f.read()


@pytest.mark.parametrize("damage", ["garbage", "bitflip", "truncate"])
def test_damaged_remote_entry_is_rebuilt(remote, tmp_path, monkeypatch, caplog, damage):
    r = C.compile(prog(), OPTS)
    (key,) = remote.keys()
    blob = remote.cli("GET", key)[:-1]
    assert decode_entry(blob[_cache_auth.HEADER:], r.key.digest)[1] == r.binary.data
    bad = {"garbage": b"not an entry at all",
           "bitflip": blob[:-7] + bytes([blob[-7] ^ 0x10]) + blob[-6:],
           "truncate": blob[: len(blob) // 2]}[damage]
    remote.cli("-x", "SET", key, stdin=bad)
    monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(tmp_path / "other-local"))   # a machine without it locally
    with caplog.at_level(logging.WARNING, logger="ascendrtc.cache"):
        r2 = C.compile(prog(), OPTS)
    assert r2.how == "compiled"                          # never served from the damaged value
    assert "ignoring the remote entry" in caplog.text
    assert runs_add(r2.binary)
    meta, payload = decode_entry(_cache_auth.unseal(KEY.encode(), key, remote.cli("GET", key)[:-1]),
                                 r.key.digest)   # replaced by a good entry
    assert payload == r2.binary.data and meta["kernels"] == ["add_custom"]
    monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(tmp_path / "third-local"))
    assert C.compile(prog(), OPTS).how == "remote"


def test_server_killed_mid_run_falls_back_with_one_warning(remote, caplog):
    assert C.compile(prog(256), OPTS).how == "compiled"
    remote.stop()
    with caplog.at_level(logging.WARNING, logger="ascendrtc.cache"):
        r1 = C.compile(prog(512), OPTS)
        r2 = C.compile(prog(768), OPTS)
    assert r1.how == r2.how == "compiled"
    assert runs_add(r1.binary, 512) and runs_add(r2.binary, 768)
    warnings = [m for m in caplog.messages if "remote cache" in m]
    assert len(warnings) == 1 and "compiling without it" in warnings[0]
    assert C.compile(prog(256), OPTS).how == "disk"      # the local tier still serves


def test_server_that_never_answers_does_not_block(remote, monkeypatch, caplog):
    """A server that accepts connections and then says nothing: the timeout
    ends the request and the compile goes on."""
    lsock = socket.socket()
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(8)
    held = []
    stop = threading.Event()

    def accept():
        lsock.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(lsock.accept()[0])
            except OSError:
                pass
    t = threading.Thread(target=accept, daemon=True)
    t.start()
    try:
        monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE", f"redis://127.0.0.1:{lsock.getsockname()[1]}")
        monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE_TIMEOUT", "0.2")
        with caplog.at_level(logging.WARNING, logger="ascendrtc.cache"):
            r = C.compile(prog(1024), OPTS)
        assert r.how == "compiled" and runs_add(r.binary, 1024)
        assert "timed out" in caplog.text
    finally:
        stop.set()
        t.join()
        for s in held:
            s.close()
        lsock.close()


def test_read_mode_never_writes_the_server(remote, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_CACHE", "read")
    assert C.compile(prog(), OPTS).how == "compiled"
    assert remote.keys() == []


def test_require_mode_takes_remote_hits_and_names_the_server_on_a_miss(remote, tmp_path, monkeypatch):
    C.compile(prog(256), OPTS)
    monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(tmp_path / "empty-local"))
    monkeypatch.setenv("ASCENDRTC_CACHE", "require")
    assert C.compile(prog(256), OPTS).how == "remote"
    with pytest.raises(C.CacheMissError, match=f"nor on redis://127.0.0.1:{remote.port}/0"):
        C.compile(prog(1280), OPTS)


@pytest.mark.parametrize("url, why", [("http://localhost:6379", "expected redis://"),
                                      ("redis://", "no host"),
                                      ("redis://localhost:6379/zero", "not a number"),
                                      ("redis://localhost:99999", "ASCENDRTC_CACHE_REMOTE")])
def test_bad_url_names_the_variable(remote, monkeypatch, url, why):
    monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE", url)
    with pytest.raises(ValueError, match="ASCENDRTC_CACHE_REMOTE") as e:
        C.compile(prog(), OPTS)
    assert why in str(e.value)
    monkeypatch.delenv("ASCENDRTC_CACHE_REMOTE")
    assert runs_add(C.compile(prog(), OPTS).binary)       # and the next compile works


def test_bad_timeout_names_the_variable(remote, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE_TIMEOUT", "soon")
    with pytest.raises(ValueError, match="ASCENDRTC_CACHE_REMOTE_TIMEOUT"):
        C.compile(prog(), OPTS)


def test_password_is_not_shown(remote):
    tier = _cache_remote.RedisTier("redis://:s3cret@127.0.0.1:1/2")
    assert "s3cret" not in tier.display_url and "s3cret" not in repr(tier)


def _cli(*args):
    p = subprocess.run([sys.executable, "-m", "ascendrtc", "cache", *args], capture_output=True, text=True,
                       cwd=ROOT, env=dict(os.environ), timeout=120)
    return p.returncode, p.stdout + p.stderr


def test_cli_shows_lists_and_clears_the_server(remote):
    C.compile(prog(256), OPTS)
    C.compile(prog(1024), OPTS)
    rc, out = _cli("stats")
    assert rc == 0 and f"remote:     redis://127.0.0.1:{remote.port}/0: 2 entries" in out
    rc, out = _cli("list", "--remote")
    assert rc == 0 and "2 entries" in out and out.count("kernels=add_custom") == 2 and "arch=" in out
    rc, out = _cli("clear", "--remote")
    assert rc == 0 and "removed 2 entries" in out
    assert remote.keys() == []
    remote.stop()
    rc, out = _cli("list", "--remote")
    assert rc == 1 and "error: the remote cache" in out
    rc, out = _cli("stats")
    assert rc == 0 and "unreachable" in out
