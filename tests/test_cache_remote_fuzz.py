"""The remote tier's bounds and a fuzzer for its protocol and entry format.

Bounds against a real redis-server: a 200 MiB value under a cache key is
refused from its length, without reading it (RSS stays flat); a server
dripping a reply byte by byte is cut off at the request's time budget.
The fuzzer runs a fake server on 127.0.0.1 written here that answers with
malformed, truncated, oversized or wrongly typed RESP, and serves entries
with every field corrupted (sealed with the right key, as an insider or a
bug could): every case is a miss or a clean RemoteError, never another
exception, a hang or a loaded binary that disagrees with the key.
Seeded and bounded (a fixed number of cases, each within its budget).
"""
import logging
import os
import random
import socket
import struct
import subprocess
import sys
import threading
import time

import pytest

import ascendrtc as arc
from ascendrtc import _cache_auth, _cache_remote
from ascendrtc import cache as C
from ascendrtc._cache_store import _PREFIX, CorruptEntry, decode_entry, encode_entry
from helpers.acl import SEED_KERNEL
from helpers.redis_server import RedisServer

OPTS = ["--npu-arch=dav-2201"]
KEY = b"fuzz-team-key-0123456789"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def prog(n=256):
    return arc.Program(SEED_KERNEL.replace("8 * 32;", f"{n};"), "add_custom.asc")


class FakeServer:
    """Answers every command on each connection with ``reply(n)`` (the
    n-th command seen), written by ``send`` (default: all at once, then
    hang up, so a truncated reply ends at once rather than at the budget)."""

    def __init__(self, reply, send=None):
        self.reply, self.send = reply, send or self._send_and_close
        self.lsock = socket.socket()
        self.lsock.bind(("127.0.0.1", 0))
        self.lsock.listen(16)
        self.lsock.settimeout(0.05)
        self.port = self.lsock.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.stop = threading.Event()
        self.seen = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @staticmethod
    def _send_and_close(c, data):
        c.sendall(data)
        return True   # hang up

    def _serve(self):
        while not self.stop.is_set():
            try:
                c, _ = self.lsock.accept()
            except OSError:
                continue
            c.settimeout(0.2)
            try:
                while not self.stop.is_set():
                    if not c.recv(1 << 16):
                        break
                    self.seen += 1
                    if self.send(c, self.reply(self.seen)):
                        break
            except OSError:
                pass
            finally:
                c.close()

    def close(self):
        self.stop.set()
        self.thread.join()
        self.lsock.close()


def tier(url, timeout=0.3, max_value=1 << 20, secret=KEY):
    return _cache_remote.RedisTier(url, settings=(timeout, max_value, secret, False))


def test_oversized_value_is_refused_unread(tmp_path):
    """A 200 MiB value under the key (redis SETRANGE makes it without
    sending it): refused from its length header, RSS does not grow."""
    server = RedisServer(tmp_path)
    try:
        key = C.program_key(prog(256), OPTS).digest
        server.cli("SETRANGE", f"ascendrtc:v1:{key}", str((200 << 20) - 1), "x")
        child = r"""
import resource, sys, time, logging
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/tests"]
logging.basicConfig(level=logging.WARNING)
import ascendrtc as arc
from ascendrtc import cache as C
from helpers.acl import SEED_KERNEL
C.compile(arc.Program(SEED_KERNEL.replace("8 * 32;", "512;"), "add_custom.asc"), ["--npu-arch=dav-2201"])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
r = C.compile(arc.Program(SEED_KERNEL.replace("8 * 32;", "256;"), "add_custom.asc"), ["--npu-arch=dav-2201"])
print(r.how, (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
"""
        env = dict(os.environ, ASCENDRTC_CACHE_DIR=str(tmp_path / "local"), ASCENDRTC_CACHE_REMOTE=server.url,
                   ASCENDRTC_CACHE_REMOTE_KEY=KEY.decode(),
                   ASCENDRTC_CACHE_REMOTE_TIMEOUT="20")   # a loaded machine must not turn the refusal into a timeout
        p = subprocess.run([sys.executable, "-c", child, ROOT], capture_output=True, text=True, env=env,
                           timeout=300)
        assert p.returncode == 0, p.stderr
        how, grew_mb = p.stdout.split()
        assert how == "compiled"
        assert "209715200 bytes is larger than the cap" in p.stderr and key in p.stderr
        assert int(grew_mb) < 64, p.stdout          # was +263 MB reading it in full
    finally:
        server.stop()


def test_every_request_honours_its_time_budget(caplog):
    """A server that answers a GET one byte every 20 ms: the request ends
    at its 0.3 s budget, not after the whole (2 s) reply."""
    def drip(c, data):
        for i in range(len(data)):
            c.sendall(data[i:i + 1])
            time.sleep(0.02)
    fake = FakeServer(lambda n: b"$90\r\n" + b"x" * 90 + b"\r\n", drip)
    try:
        t = tier(fake.url)
        t0 = time.monotonic()
        with caplog.at_level(logging.WARNING, logger="ascendrtc.cache"):
            assert t.load("ab" * 32) is None
        assert time.monotonic() - t0 < 1.5
        assert "timed out" in caplog.text and "0.3 s budget" in caplog.text
    finally:
        fake.close()


def _malformed(rng):
    """One malformed / truncated / oversized / wrongly typed RESP reply."""
    body = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 64)))
    n = rng.randrange(0, 2000)
    return rng.choice([
        body,                                                    # noise
        b"$" + str(n).encode() + b"\r\n" + body,                 # a bulk cut short (then the server hangs up)
        b"$" + str(len(body)).encode() + b"\r\n" + body + b"XX",  # no CRLF after the value
        b"$-7\r\n", b"$\r\n", b"$1e3\r\n", b"$ 12\r\n", b"$99999999999999999999999\r\n",
        b"$" + str(1 << 40).encode() + b"\r\n",                  # oversized: refused from the header
        b":" + str(n).encode() + b"\r\n", b":nan\r\n",           # an integer where a value belongs
        b"+OK\r\n", b"-ERR fuzz " + body.hex().encode() + b"\r\n",
        b"*2\r\n$1\r\na\r\n:1\r\n",                              # an array where a value belongs
        b"*99999999\r\n", b"*-1\r\n", b"*1\r\n" * 40,            # huge count, null, deep nesting
        b"+" + b"A" * 70000,                                      # an endless status line
        b"%1\r\n", b"_\r\n", b"\r\n",                            # RESP3 types, empty lines
    ])


def test_fuzz_malformed_replies():
    rng = random.Random(29)
    cases = [_malformed(rng) for _ in range(150)]
    fake = FakeServer(lambda n: cases[(n - 1) % len(cases)])
    t_start = time.monotonic()
    try:
        for i in range(len(cases)):
            t = tier(fake.url, timeout=0.2)
            t0 = time.monotonic()
            assert t.load("cd" * 32) is None, cases[i]          # a miss, never an exception
            assert time.monotonic() - t0 < 1.5, cases[i]
            t2 = tier(fake.url, timeout=0.2)
            try:                                                 # the CLI's calls: RemoteError only
                list(t2.keys())
                t2.entry_info("cd" * 32)
            except _cache_remote.RemoteError:
                pass
    finally:
        fake.close()
    assert time.monotonic() - t_start < 120


def _fields(entry):
    """(name, offset, size) of every field of an entry (see _cache_store)."""
    mlen = _PREFIX.unpack_from(entry)[2]
    return [("magic", 0, 8), ("version", 8, 4), ("meta_len", 12, 4), ("key", 16, 32), ("payload_len", 48, 8),
            ("digest", 56, 32), ("meta", 88, mlen), ("payload", 88 + mlen, len(entry) - 88 - mlen)]


@pytest.fixture(scope="module")
def good():
    """A good compile's key, entry and binary."""
    p = prog()
    b = p.compile(OPTS)
    k = C.program_key(p, OPTS)
    meta = {"origin": "x", "label": "x", "program": p.name, "kernels": b.kernel_names, "lowered": dict(b._lowered),
            "options": OPTS, "arch": k.components["arch"], "log": b.log, "compiler": k.components["compiler"]}
    return k, encode_entry(k.digest, b.data, meta), meta, b


def test_fuzz_every_entry_field(good, tmp_path, monkeypatch):
    """Every field corrupted, with the MAC recomputed over the damage (as a
    key holder or a bug would): decode_entry raises CorruptEntry only, and
    a compile served such values computes the right thing or is a miss."""
    k, entry, meta, b = good
    rng = random.Random(290)
    variants = []
    for name, off, size in _fields(entry):
        for _ in range(6):
            bad = bytearray(entry)
            if size:
                i = off + rng.randrange(size)
                bad[i] = rng.choice([0, 0xff, bad[i] ^ (1 << rng.randrange(8))])
            variants.append(bytes(bad))
        variants.append(entry[:off])                                        # truncated at the field
        if name in ("meta_len", "payload_len"):
            bad = bytearray(entry)
            bad[off:off + size] = b"\xff" * size
            variants.append(bytes(bad))
    for v in variants:
        try:
            decode_entry(v, k.digest)
        except CorruptEntry:
            pass
    # Well-formed entries with wrongly typed or lying metadata.
    for field, value in [("kernels", "add_custom"), ("kernels", [1]), ("kernels", ["nope"]), ("lowered", [1]),
                         ("lowered", {"a": 1}), ("options", None), ("arch", "dav-9999"), ("deps", "x"),
                         ("deps", {"/nonexistent.h": "absent", "x": 3}), ("log", 7), ("compiler", "")]:
        variants.append(encode_entry(k.digest, b.data, dict(meta, **{field: value})))
    variants.append(encode_entry(k.digest, b.data[:len(b.data) // 2], meta))   # a torn binary
    name = f"ascendrtc:v1:{k.digest}"
    sealed = [_cache_auth.seal(KEY, name, v) for v in variants]
    served = []
    fake = FakeServer(lambda n: b"$%d\r\n%s\r\n" % (len(served[-1]), served[-1]))
    monkeypatch.setenv("ASCENDRTC_CACHE", "read")          # never stores; each compile asks the server
    monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE", fake.url)
    monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE_KEY", KEY.decode())
    monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(tmp_path / "local"))
    _cache_remote._tiers.clear()
    try:
        for v in sealed:
            served.append(v)
            _cache_remote._refused.clear()
            r = C.compile(prog(), OPTS)
            assert r.how in ("compiled", "remote")
            if r.how == "remote":   # only a value that verifies, matches the key and holds this kernel
                assert r.binary.data == b.data
    finally:
        fake.close()
        _cache_remote._tiers.clear()


def test_max_value_setting(monkeypatch):
    monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE_MAX_VALUE", "12 parsecs")
    with pytest.raises(ValueError, match="ASCENDRTC_CACHE_REMOTE_MAX_VALUE"):
        _cache_remote.get_tier("redis://127.0.0.1:1/0")
    monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE_MAX_VALUE", "2M")
    assert _cache_remote.get_tier("redis://127.0.0.1:1/0").max_value == 2 << 20
