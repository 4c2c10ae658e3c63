"""Who may put code into the remote cache tier, against a real redis-server
on loopback: entries are sealed with a MAC under the team's key; a planted
binary of another kernel with the same name and recomputed hashes, a value
replayed from another key, an unsigned value or a sealed one whose contents
disagree with the local key are all refused (never loaded, never copied to
disk) and the right result is computed; without a key the tier is unused
unless the user opts in; Redis AUTH and TLS (rediss://) work."""
import logging
import os

import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc import _cache_auth, _cache_remote
from ascendrtc import cache as C
from ascendrtc._cache_store import decode_entry, encode_entry
from helpers.acl import SEED_KERNEL
from helpers.redis_server import RedisServer

OPTS = ["--npu-arch=dav-2201"]
KEY = "team-secret-0123456789abcdef"
# Another kernel with the seed's name and signature: it writes 42, not x + y.
EVIL = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    __gm__ float *out = (__gm__ float *)z + 32 * AscendC::GetBlockIdx();
    for (int i = 0; i < 32; i++)
        out[i] = 42.0f;
}
"""


def prog(n=256):
    return arc.Program(SEED_KERNEL.replace("8 * 32;", f"{n};"), "add_custom.asc")


def computes_add(binary, n=256):
    k = binary.load().get_kernel("add_custom")
    x = np.arange(n, dtype=np.float32)
    z = arc.zeros_like(x)
    k[8](x, x, z)
    return np.array_equal(z.get(), x + x)


def _env(monkeypatch, tmp_path, url, local="local", key=KEY):
    monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(tmp_path / local))
    monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE", url)
    for v in ("ASCENDRTC_CACHE", "ASCENDRTC_CACHE_REMOTE_TIMEOUT", "ASCENDRTC_CACHE_REMOTE_KEY_FILE",
              "ASCENDRTC_CACHE_REMOTE_TRUST", "ASCENDRTC_CACHE_REMOTE_CA", "ASCENDRTC_CACHE_REMOTE_MAX_VALUE"):
        monkeypatch.delenv(v, raising=False)
    if key is None:
        monkeypatch.delenv("ASCENDRTC_CACHE_REMOTE_KEY", raising=False)
    else:
        monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE_KEY", key)
    _cache_remote._tiers.clear()
    _cache_remote._refused.clear()


@pytest.fixture
def server(tmp_path):
    s = RedisServer(tmp_path)
    yield s
    s.stop()


def _value(server, name):
    return server.cli("GET", name)[:-1]   # redis-cli ends the value with a newline


def _plant(server, name, value):
    server.cli("-x", "SET", name, stdin=value)


def _evil_entry(legit_entry, digest):
    """The legitimate entry's metadata around the foreign kernel's binary,
    under the legitimate key, with the entry's sha256 recomputed."""
    meta, _ = decode_entry(legit_entry, digest)
    evil = arc.Program(EVIL, "add_custom.asc").compile(OPTS)
    assert not computes_add(evil)                     # it really is a different kernel
    return encode_entry(digest, evil.data, {k: v for k, v in meta.items() if k != "key"})


@pytest.mark.parametrize("how", ["raw entry", "unsigned envelope", "sealed with another key"])
def test_planted_foreign_kernel_is_refused(server, tmp_path, monkeypatch, caplog, how):
    _env(monkeypatch, tmp_path, server.url)
    r = C.compile(prog(), OPTS)
    (name,) = server.keys()
    legit = _cache_auth.unseal(KEY.encode(), name, _value(server, name))
    bad = _evil_entry(legit, r.key.digest)
    planted = {"raw entry": bad, "unsigned envelope": _cache_auth.seal(None, name, bad),
               "sealed with another key": _cache_auth.seal(b"attacker-key-0123456789", name, bad)}[how]
    _plant(server, name, planted)
    _env(monkeypatch, tmp_path, server.url, local="fresh")   # a machine with an empty local cache
    with caplog.at_level(logging.WARNING, logger="ascendrtc.cache"):
        r2 = C.compile(prog(), OPTS)
    assert r2.how == "compiled" and computes_add(r2.binary)
    refusals = [m for m in caplog.messages if "ignoring the remote entry" in m]
    assert len(refusals) == 1 and r.key.digest in refusals[0]
    # What reached the disk is the legitimate compile, never the planted binary.
    meta, payload = C.get_cache().load(r.key.digest)
    assert payload == r2.binary.data and computes_add(arc.Binary(payload))
    # And the server holds a good sealed entry again.
    _env(monkeypatch, tmp_path, server.url, local="third")
    r3 = C.compile(prog(), OPTS)
    assert r3.how == "remote" and computes_add(r3.binary)


def test_an_unverified_value_is_logged_once_never_kept_and_overwritten(server, tmp_path, monkeypatch, caplog):
    """All of the rule for a value without a valid MAC: ignored (the right
    result is computed), logged once per process naming its key however
    often it is met, never copied into any file of a local cache, left as
    it is by a read-only cache, and overwritten by the next compile that
    writes.  Replaced rather than deleted: whoever can write to the server
    can delete it anyway, and the replacement makes the entry useful again."""
    _env(monkeypatch, tmp_path, server.url)
    r = C.compile(prog(), OPTS)
    (name,) = server.keys()
    bad = _evil_entry(_cache_auth.unseal(KEY.encode(), name, _value(server, name)), r.key.digest)
    evil_binary = decode_entry(bad, r.key.digest)[1]
    _plant(server, name, bad)
    _env(monkeypatch, tmp_path, server.url, local="ro0")
    monkeypatch.setenv("ASCENDRTC_CACHE", "read")
    locals_ = [tmp_path / d for d in ("ro0", "ro1", "ro2", "rw")]
    with caplog.at_level(logging.WARNING, logger="ascendrtc.cache"):
        for d in locals_[:3]:
            monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(d))
            r2 = C.compile(prog(), OPTS)
            assert r2.how == "compiled" and computes_add(r2.binary)
        assert _value(server, name) == bad                    # a read-only cache leaves it as it is
        monkeypatch.setenv("ASCENDRTC_CACHE", "on")
        monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(locals_[3]))
        r3 = C.compile(prog(), OPTS)
        assert r3.how == "compiled" and computes_add(r3.binary)
    refusals = [m for m in caplog.messages if "ignoring the remote entry" in m]
    assert len(refusals) == 1 and r.key.digest in refusals[0], refusals
    for d in locals_:
        for root, _, names in os.walk(d):
            for n in names:
                with open(os.path.join(root, n), "rb") as f:
                    assert evil_binary not in f.read(), os.path.join(root, n)
    _, payload = decode_entry(_cache_auth.unseal(KEY.encode(), name, _value(server, name)), r.key.digest)
    assert payload == r3.binary.data                          # overwritten by a sealed, good entry


def test_the_plant_would_run_if_trusted_unauthenticated(server, tmp_path, monkeypatch):
    """What the opt-in trusts (and that the test above can fail): without a
    key, ASCENDRTC_CACHE_REMOTE_TRUST=unauthenticated loads whatever anyone
    who can write to the server put there."""
    _env(monkeypatch, tmp_path, server.url, key=None)
    monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE_TRUST", "unauthenticated")
    r = C.compile(prog(), OPTS)
    (name,) = server.keys()
    legit = _cache_auth.unseal(None, name, _value(server, name))
    _plant(server, name, _cache_auth.seal(None, name, _evil_entry(legit, r.key.digest)))
    _env(monkeypatch, tmp_path, server.url, local="fresh", key=None)
    monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE_TRUST", "unauthenticated")
    r2 = C.compile(prog(), OPTS)
    assert r2.how == "remote" and not computes_add(r2.binary)


def test_entry_replayed_from_another_key_is_refused(server, tmp_path, monkeypatch, caplog):
    _env(monkeypatch, tmp_path, server.url)
    a = C.compile(prog(256), OPTS)
    b = C.compile(prog(512), OPTS)
    name_a = next(k for k in server.keys() if k.endswith(a.key.digest))
    name_b = next(k for k in server.keys() if k.endswith(b.key.digest))
    _plant(server, name_a, _value(server, name_b))     # a valid sealed entry, under the wrong key
    _env(monkeypatch, tmp_path, server.url, local="fresh")
    with caplog.at_level(logging.WARNING, logger="ascendrtc.cache"):
        r = C.compile(prog(256), OPTS)
    assert r.how == "compiled" and computes_add(r.binary, 256)
    assert any("MAC does not verify" in m and a.key.digest in m for m in caplog.messages)


@pytest.mark.parametrize("change", ["options", "kernels"])
def test_sealed_entry_that_disagrees_with_the_local_key_is_refused(server, tmp_path, monkeypatch, caplog, change):
    """Even a holder of the key cannot make a hit that contradicts the key
    computed here: its metadata and its binary are re-checked first."""
    _env(monkeypatch, tmp_path, server.url)
    r = C.compile(prog(), OPTS)
    (name,) = server.keys()
    meta, payload = decode_entry(_cache_auth.unseal(KEY.encode(), name, _value(server, name)), r.key.digest)
    meta.pop("key")
    if change == "options":
        meta["options"] = OPTS + ["-DX=1"]
    else:   # a binary whose kernel has another name
        payload = arc.Program(EVIL.replace("add_custom", "other"), "k.asc").compile(OPTS).data
    _plant(server, name, _cache_auth.seal(KEY.encode(), name, encode_entry(r.key.digest, payload, meta)))
    _env(monkeypatch, tmp_path, server.url, local="fresh")
    with caplog.at_level(logging.WARNING, logger="ascendrtc.cache"):
        r2 = C.compile(prog(), OPTS)
    assert r2.how == "compiled" and computes_add(r2.binary)
    assert any("ignoring the remote entry" in m for m in caplog.messages)


def test_without_a_key_the_tier_is_unused_with_one_warning(server, tmp_path, monkeypatch, caplog):
    _env(monkeypatch, tmp_path, server.url, key=None)
    with caplog.at_level(logging.WARNING, logger="ascendrtc.cache"):
        C.compile(prog(256), OPTS)
        C.compile(prog(512), OPTS)
    assert server.keys() == []
    msgs = [m for m in caplog.messages if "no key to authenticate" in m]
    assert len(msgs) == 1 and "ASCENDRTC_CACHE_REMOTE_KEY" in msgs[0]


def test_key_file(server, tmp_path, monkeypatch):
    kf = tmp_path / "remote.key"
    kf.write_text(KEY + "\n")
    kf.chmod(0o600)
    _env(monkeypatch, tmp_path, server.url, key=None)
    monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE_KEY_FILE", str(kf))
    C.compile(prog(), OPTS)
    (name,) = server.keys()
    assert _cache_auth.unseal(KEY.encode(), name, _value(server, name))   # the same key as the variable
    _env(monkeypatch, tmp_path, server.url, local="fresh", key=None)
    monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE_KEY_FILE", str(kf))
    assert C.compile(prog(), OPTS).how == "remote"
    kf.chmod(0o644)
    with pytest.raises(ValueError, match="other users can read or write it"):
        C.compile(prog(512), OPTS)                     # a miss: the remote tier is asked


@pytest.mark.parametrize("env, why", [({"ASCENDRTC_CACHE_REMOTE_KEY": "short"}, "fewer than 16"),
                                      ({"ASCENDRTC_CACHE_REMOTE_KEY_FILE": "/nonexistent/key"}, "No such file"),
                                      ({"ASCENDRTC_CACHE_REMOTE_TRUST": "yes"}, "expected 'unauthenticated'")])
def test_bad_key_settings_name_the_variable(server, tmp_path, monkeypatch, env, why):
    _env(monkeypatch, tmp_path, server.url, key=None)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    with pytest.raises(ValueError, match=why) as e:
        C.compile(prog(), OPTS)
    assert next(iter(env)) in str(e.value)
    for k in env:
        monkeypatch.delenv(k)
    assert computes_add(C.compile(prog(), OPTS).binary)   # and the next compile works


def test_redis_auth(tmp_path, monkeypatch, caplog):
    s = RedisServer(tmp_path, password="p4ss-word")
    try:
        _env(monkeypatch, tmp_path, s.url)
        assert C.compile(prog(), OPTS).how == "compiled" and len(s.keys()) == 1
        _env(monkeypatch, tmp_path, s.url, local="fresh")
        assert C.compile(prog(), OPTS).how == "remote"
        _env(monkeypatch, tmp_path, s.url.replace("p4ss-word", "wrong"), local="third")
        with caplog.at_level(logging.WARNING, logger="ascendrtc.cache"):
            r = C.compile(prog(), OPTS)
        assert r.how == "compiled" and computes_add(r.binary)
        assert "WRONGPASS" in caplog.text and ":wrong@" not in caplog.text
    finally:
        s.stop()


def test_redis_tls(tmp_path, monkeypatch, caplog):
    s = RedisServer(tmp_path, tls=True)
    try:
        _env(monkeypatch, tmp_path, s.url)
        monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE_CA", s.ca)
        assert C.compile(prog(), OPTS).how == "compiled" and len(s.keys()) == 1
        _env(monkeypatch, tmp_path, s.url, local="fresh")
        monkeypatch.setenv("ASCENDRTC_CACHE_REMOTE_CA", s.ca)
        r = C.compile(prog(), OPTS)
        assert r.how == "remote" and computes_add(r.binary)
        # Without the CA the self-signed server is not trusted: no remote hit, a warning, a compile.
        _env(monkeypatch, tmp_path, s.url, local="third")
        with caplog.at_level(logging.WARNING, logger="ascendrtc.cache"):
            r = C.compile(prog(), OPTS)
        assert r.how == "compiled" and "CERTIFICATE_VERIFY_FAILED" in caplog.text
    finally:
        s.stop()
