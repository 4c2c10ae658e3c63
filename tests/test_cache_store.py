"""The disk cache's storage layer: entry file format and verification,
atomic replacement, per-key locks, directory policy, LRU eviction.
No compiler needed: payloads are plain bytes."""
import hashlib
import os
import stat
import struct
import threading

import pytest

from ascendrtc import _cache_store as store
from ascendrtc._cache_store import CacheDirError, CorruptEntry, DiskCache, decode_entry, encode_entry

KEY = hashlib.sha256(b"k1").hexdigest()
KEY2 = hashlib.sha256(b"k2").hexdigest()


@pytest.fixture
def cache(tmp_path):
    c = DiskCache(str(tmp_path / "cache"))
    c.ensure()
    return c


def test_entry_roundtrip_and_layout():
    payload = os.urandom(1000)
    blob = encode_entry(KEY, payload, {"log": "ok", "kernels": ["k"]})
    # The documented header: magic, version, meta_len, key, payload_len, digest.
    magic, ver, mlen, rawkey, plen, digest = struct.unpack_from("<8sII32sQ32s", blob)
    assert magic == b"ARCCACH1" and ver == store.FORMAT_VERSION
    assert rawkey.hex() == KEY and plen == len(payload) and len(blob) == 88 + mlen + plen
    assert digest == hashlib.sha256(blob[88:]).digest()
    assert b"pickle" not in blob[88:88 + mlen]
    meta, out = decode_entry(blob, KEY)
    assert out == payload and meta["kernels"] == ["k"] and meta["key"] == KEY


@pytest.mark.parametrize("damage", ["truncate", "truncate-header", "flip-payload", "flip-meta", "flip-digest",
                                    "flip-magic", "append", "other-key"])
def test_damaged_entries_are_detected(damage):
    blob = bytearray(encode_entry(KEY, b"\x7fELF" + bytes(range(200)), {"log": ""}))
    if damage == "truncate":
        blob = blob[:-7]
    elif damage == "truncate-header":
        blob = blob[:40]
    elif damage == "flip-payload":
        blob[-3] ^= 0x10
    elif damage == "flip-meta":
        blob[90] ^= 0x01
    elif damage == "flip-digest":
        blob[60] ^= 0x80
    elif damage == "flip-magic":
        blob[0] ^= 0x01
    elif damage == "append":
        blob += b"x"
    elif damage == "other-key":
        blob = bytearray(encode_entry(KEY2, b"payload", {}))
    with pytest.raises(CorruptEntry):
        decode_entry(bytes(blob), KEY)


def test_corrupt_file_is_a_miss_and_removed_then_replaced(cache):
    cache.store(KEY, b"good payload", {"n": 1})
    path = cache.path_for(KEY)
    data = bytearray(open(path, "rb").read())
    data[-1] ^= 0xFF
    open(path, "wb").write(bytes(data))
    assert cache.load(KEY) is None            # ignored ...
    assert not os.path.exists(path)           # ... and out of the way
    cache.store(KEY, b"good payload", {"n": 2})  # replaced
    meta, payload = cache.load(KEY)
    assert payload == b"good payload" and meta["n"] == 2


def test_store_is_atomic_replace(cache, monkeypatch):
    cache.store(KEY, b"old", {})
    calls = []
    real = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b, **kw: (calls.append((a, b, kw)), real(a, b, **kw)))
    cache.store(KEY, b"new", {})
    (src, dst, kw), = calls
    assert kw["src_dir_fd"] == kw["dst_dir_fd"] and "/" not in src + dst   # same directory: rename is atomic
    assert src.startswith(store.TMP_PREFIX)
    assert cache.load(KEY)[1] == b"new"
    assert [n for n in os.listdir(cache.dir) if n.startswith(store.TMP_PREFIX)] == []


def test_failed_write_leaves_old_entry_and_no_temp(cache, monkeypatch):
    cache.store(KEY, b"old", {})

    def boom(fd):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(OSError):
        cache.store(KEY, b"new", {})
    assert cache.load(KEY)[1] == b"old"
    assert [n for n in os.listdir(cache.dir) if n.startswith(store.TMP_PREFIX)] == []


def test_same_key_lock_excludes_and_times_out(cache):
    with cache.lock(KEY, timeout=5) as held:
        assert held
        # flock locks belong to open file descriptions: a second open in this
        # process conflicts exactly like another process would.
        with cache.lock(KEY, timeout=0.0) as held2:
            assert held2 is False
    with cache.lock(KEY, timeout=0.0) as held3:
        assert held3


def test_different_keys_do_not_wait(cache):
    with cache.lock(KEY, timeout=5) as held:
        assert held
        with cache.lock(KEY2, timeout=0.0) as held2:
            assert held2


def test_lock_handoff_between_threads(cache):
    order = []

    def other():
        with cache.lock(KEY, timeout=10) as held:
            order.append(("other", held))

    with cache.lock(KEY, timeout=5):
        t = threading.Thread(target=other)
        t.start()
        order.append(("main", True))
    t.join()
    assert order == [("main", True), ("other", True)]
    assert not [n for n in os.listdir(cache.dir) if n.endswith(store.LOCK_SUFFIX)]


def test_directory_created_private(tmp_path):
    c = DiskCache(str(tmp_path / "a" / "b"))
    c.ensure()
    for d in (c.root, c.dir):
        assert stat.S_IMODE(os.stat(d).st_mode) == 0o700


@pytest.mark.parametrize("mode, word", [(0o777, "all users"), (0o770, "its group"), (0o722, "all users")])
def test_writable_by_others_is_refused(tmp_path, mode, word):
    root = tmp_path / "shared"
    root.mkdir()
    os.chmod(root, mode)
    with pytest.raises(CacheDirError) as ei:
        DiskCache(str(root)).ensure()
    msg = str(ei.value)
    assert str(root) in msg and word in msg and f"{mode:04o}" in msg and "ASCENDRTC_CACHE_DIR" in msg


def test_other_owner_is_refused(tmp_path):
    root = tmp_path / "theirs"
    root.mkdir(mode=0o700)
    try:
        os.chown(root, os.geteuid() + 4242, -1)
    except PermissionError:
        pytest.skip("cannot chown here (not root)")
    with pytest.raises(CacheDirError, match="owned by uid"):
        DiskCache(str(root)).ensure()


def test_default_root_env(monkeypatch, tmp_path):
    monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(tmp_path / "x"))
    assert store.default_root() == str(tmp_path / "x")
    monkeypatch.delenv("ASCENDRTC_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert store.default_root() == str(tmp_path / "xdg" / "ascendrtc")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert store.default_root() == os.path.join(os.path.expanduser("~"), ".cache", "ascendrtc")


def test_lru_eviction(cache):
    keys = [hashlib.sha256(bytes([i])).hexdigest() for i in range(5)]
    for i, k in enumerate(keys):
        cache.store(k, bytes(1000), {})
        os.utime(cache.path_for(k), (1000 + i, 1000 + i))
    cache.load(keys[0])                       # a use makes it the most recent
    size = os.path.getsize(cache.path_for(keys[0]))
    removed = cache.evict(3 * size)
    assert removed == keys[1:3]
    assert sorted(e.key for e in cache.entries()) == sorted([keys[0], keys[3], keys[4]])


def test_parse_size():
    assert store.parse_size("500M") == 500 << 20
    assert store.parse_size("2G") == 2 << 30
    assert store.parse_size("1.5GiB") == int(1.5 * (1 << 30))
    assert store.parse_size("123") == 123
    with pytest.raises(ValueError, match="size"):
        store.parse_size("lots")


def test_clean_stale_and_clear(cache):
    cache.store(KEY, b"p", {})
    tmp = os.path.join(cache.dir, store.TMP_PREFIX + "dead-1-abcd")
    open(tmp, "wb").write(b"partial")
    os.utime(tmp, (0, 0))
    lock = os.path.join(cache.dir, KEY2 + store.LOCK_SUFFIX)
    open(lock, "wb").close()
    assert cache.clean_stale() == 2
    assert not os.path.exists(tmp) and not os.path.exists(lock)
    cache.add_origin_record("o", {"label": "l", "key": KEY, "components": {}})
    assert cache.read_origin("o")[0]["label"] == "l"
    assert cache.clear() == 1
    assert cache.entries() == [] and cache.read_origin("o") == []
