"""The on-disk cache of compiled binaries: directory policy, entry file
format, per-key locks and size-capped LRU eviction.

One entry is one self-describing file ``<root>/v1/<key>.arcc``::

    offset  size  field
    0       8     magic b"ARCCACH1"
    8       4     format version (u32, little endian)
    12      4     meta_len: bytes of the JSON metadata (u32)
    16      32    the key (sha256, raw)
    48      8     payload_len: bytes of the binary (u64)
    56      32    sha256 over (metadata JSON || payload)
    88      ...   metadata JSON (utf-8; no pickle), then the payload

A reader checks the magic, the version, that the key is the one asked for,
that the lengths add up to the file size exactly, and the digest; anything
else is a torn or corrupt entry, which is ignored and replaced.  Writers
write a temp file in the same directory and ``os.replace`` it in, so a
reader sees the old entry, the new one, or none.

The directory holds native code that ascendrtc loads and runs, so it must
be private: created 0700, and refused when another user owns it or can
write into it.
"""
from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import logging
import os
import stat
import struct
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ._errors import CacheDirError

log = logging.getLogger("ascendrtc.cache")

MAGIC = b"ARCCACH1"
FORMAT_VERSION = 1  # bump whenever the layout above or the key's recipe changes
_PREFIX = struct.Struct("<8sII32sQ32s")
ENTRY_SUFFIX = ".arcc"
LOCK_SUFFIX = ".lock"
TMP_PREFIX = ".tmp-"
_MAX_META = 16 << 20


MAX_ENTRY_BYTES = 1 << 30  # an entry (a kernel binary and its metadata) is never near this


def _read_regular(path: str) -> bytes:
    """The bytes of a cache file, opened as a regular file only: a FIFO
    would block the compile, a device or /proc file never end.  Raises
    CorruptEntry for anything else (a symlink, a FIFO, an oversized file),
    FileNotFoundError when it is gone."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0))
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise CorruptEntry(path, "is a symbolic link, not a regular file") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise CorruptEntry(path, "is not a regular file")
        if st.st_size > MAX_ENTRY_BYTES:
            raise CorruptEntry(path, f"is {st.st_size} bytes, more than an entry may have ({MAX_ENTRY_BYTES})")
        chunks, left = [], MAX_ENTRY_BYTES + 1
        while left > 0:
            b = os.read(fd, min(left, 1 << 20))
            if not b:
                break
            chunks.append(b)
            left -= len(b)
        data = b"".join(chunks)
        if len(data) > MAX_ENTRY_BYTES:
            raise CorruptEntry(path, f"grew past {MAX_ENTRY_BYTES} bytes while being read")
        return data
    finally:
        os.close(fd)


class CorruptEntry(ValueError):
    """An entry file failed verification; ``reason`` says how."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


def default_root() -> str:
    """``$ASCENDRTC_CACHE_DIR``, else ``$XDG_CACHE_HOME/ascendrtc``, else
    ``~/.cache/ascendrtc``."""
    env = os.environ.get("ASCENDRTC_CACHE_DIR")
    if env:
        return os.path.abspath(os.path.expanduser(env))
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = xdg if xdg and os.path.isabs(xdg) else os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ascendrtc")


def check_private(path: str) -> None:
    """Raise CacheDirError unless ``path`` is a directory owned by this user
    (or root) that no other user can write into."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise CacheDirError(f"ascendrtc cache directory {path}: {e.strerror}") from e
    if not stat.S_ISDIR(st.st_mode):
        raise CacheDirError(f"ascendrtc cache directory {path} is not a directory")
    problems = []
    if st.st_uid not in (os.geteuid(), 0):  # root may own a shared read-only cache
        problems.append(f"it is owned by uid {st.st_uid}, not by this user (uid {os.geteuid()}) or root")
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        who = " and ".join(w for w, bit in (("its group", stat.S_IWGRP), ("all users", stat.S_IWOTH))
                           if st.st_mode & bit)
        problems.append(f"it is writable by {who} (mode {stat.S_IMODE(st.st_mode):04o})")
    if problems:
        raise CacheDirError(
            f"refusing to use the ascendrtc cache directory {path}: {'; '.join(problems)}. Cache entries are "
            f"native code that ascendrtc loads and runs, so another user able to write there could run code "
            f"as you. Use a private directory: `chmod 700 {path}` (if it is yours), or set ASCENDRTC_CACHE_DIR "
            f"to a directory only you can write, or ASCENDRTC_CACHE=off.")


def parse_size(text: str) -> int:
    """``"500M"``, ``"2G"``, ``"1.5GiB"``, ``"123456"`` -> bytes."""
    s = str(text).strip().upper().replace("IB", "").rstrip("B")
    mult = 1
    for suffix, m in (("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30), ("T", 1 << 40)):
        if s.endswith(suffix):
            s, mult = s[:-1], m
            break
    try:
        v = float(s)
    except ValueError:
        raise ValueError(f"cannot read {text!r} as a size (examples: 500M, 2G, 1048576)") from None
    if v < 0:
        raise ValueError(f"size {text!r} is negative")
    return int(v * mult)


def default_max_size() -> int:
    """``$ASCENDRTC_CACHE_MAX_SIZE`` (e.g. ``2G``), default 1 GiB."""
    env = os.environ.get("ASCENDRTC_CACHE_MAX_SIZE")
    if env:
        try:
            return parse_size(env)
        except ValueError as e:
            raise ValueError(f"ASCENDRTC_CACHE_MAX_SIZE: {e}") from None
    return 1 << 30


# ---- entry encoding -------------------------------------------------------

def encode_entry(key: str, payload: bytes, meta: Dict[str, Any]) -> bytes:
    """The bytes of one entry file for ``key`` (64 hex digits)."""
    mj = json.dumps(meta, sort_keys=True, separators=(",", ":")).encode()
    digest = hashlib.sha256(mj + payload).digest()
    return _PREFIX.pack(MAGIC, FORMAT_VERSION, len(mj), bytes.fromhex(key), len(payload), digest) + mj + payload


def decode_entry(blob: bytes, key: Optional[str], path: str = "<entry>") -> Tuple[Dict[str, Any], bytes]:
    """(meta, payload) of an entry file's bytes; CorruptEntry when it does
    not verify.  ``key`` None accepts any key (for listing)."""
    if len(blob) < _PREFIX.size:
        raise CorruptEntry(path, f"truncated: {len(blob)} bytes, shorter than the {_PREFIX.size}-byte header")
    magic, ver, mlen, rawkey, plen, digest = _PREFIX.unpack_from(blob)
    if magic != MAGIC:
        raise CorruptEntry(path, f"bad magic {magic!r}")
    if ver != FORMAT_VERSION:
        raise CorruptEntry(path, f"format version {ver}, expected {FORMAT_VERSION}")
    if key is not None and rawkey.hex() != key:
        raise CorruptEntry(path, "the key in the header is not the one its name says")
    if mlen > _MAX_META or _PREFIX.size + mlen + plen != len(blob):
        raise CorruptEntry(path, f"torn: header says {_PREFIX.size + mlen + plen} bytes, file has {len(blob)}")
    body = blob[_PREFIX.size:]
    if hashlib.sha256(body).digest() != digest:
        raise CorruptEntry(path, "checksum mismatch (the file was modified or damaged)")
    try:
        meta = json.loads(body[:mlen].decode())
    except ValueError as e:
        raise CorruptEntry(path, f"unreadable metadata: {e}") from None
    if not isinstance(meta, dict):
        raise CorruptEntry(path, "metadata is not an object")
    meta["key"] = rawkey.hex()
    return meta, bytes(body[mlen:])


@dataclass
class EntryInfo:
    """One entry as ``list`` shows it."""
    key: str
    path: str
    size: int
    last_used: float
    meta: Dict[str, Any] = field(default_factory=dict)
    error: Optional[str] = None


class DiskCache:
    """The entries under one cache root.  Nothing touches the file system
    until a method is called; :meth:`ensure` creates and checks the
    directory."""

    def __init__(self, root: Optional[str] = None):
        self.root = os.path.abspath(root) if root else default_root()
        self.dir = os.path.join(self.root, f"v{FORMAT_VERSION}")
        self._checked = False

    def __repr__(self) -> str:
        return f"<ascendrtc DiskCache {self.dir}>"

    # -- directory policy --
    def ensure(self) -> None:
        """Create the directory 0700 if missing; refuse an unsafe one."""
        for d in (self.root, self.dir):
            try:
                os.makedirs(d, mode=0o700, exist_ok=True)
            except OSError as e:
                raise CacheDirError(f"cannot create the ascendrtc cache directory {d}: {e.strerror} "
                                    f"(set ASCENDRTC_CACHE_DIR, or ASCENDRTC_CACHE=off)") from e
            check_private(d)
        self._checked = True

    def exists(self) -> bool:
        return os.path.isdir(self.dir)

    def path_for(self, key: str) -> str:
        return os.path.join(self.dir, key + ENTRY_SUFFIX)

    # -- entries --
    def load(self, key: str) -> Optional[Tuple[Dict[str, Any], bytes]]:
        """(meta, payload) of ``key``, or None on a miss.  A corrupt entry is
        logged and removed (it is a miss), so the next store replaces it."""
        path = self.path_for(key)
        try:
            blob = _read_regular(path)
        except FileNotFoundError:
            return None
        except CorruptEntry as e:
            log.warning("ignoring an ascendrtc cache entry that %s; it will be rebuilt", e)
            try:
                os.unlink(path)
            except OSError:
                pass
            return None
        try:
            meta, payload = decode_entry(blob, key, path)
        except CorruptEntry as e:
            log.warning("ignoring a corrupt ascendrtc cache entry: %s; it will be rebuilt", e)
            self._remove_if_same(path, blob)
            return None
        try:
            os.utime(path)  # the mtime is the last use, for LRU eviction
        except OSError:
            pass
        return meta, payload

    def _remove_if_same(self, path: str, blob: bytes) -> None:
        # Another process may have replaced the corrupt file meanwhile; only
        # remove what we read.
        try:
            if _read_regular(path) != blob:
                return
            os.unlink(path)
        except (OSError, CorruptEntry):
            pass

    def store(self, key: str, payload: bytes, meta: Dict[str, Any]) -> str:
        """Write the entry atomically (temp file + os.replace); its path."""
        return self.store_blob(key, encode_entry(key, payload, meta))

    def store_blob(self, key: str, data: bytes) -> str:
        """Write an already encoded entry (``encode_entry``) atomically; its path."""
        return self._atomic_write(self.path_for(key), data, key[:16])

    def _atomic_write(self, path: str, data: bytes, tag: str) -> str:
        tmp = os.path.join(self.dir, f"{TMP_PREFIX}{tag}-{os.getpid()}-{os.urandom(4).hex()}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        return path

    def remove(self, key: str) -> bool:
        try:
            os.unlink(self.path_for(key))
            return True
        except FileNotFoundError:
            return False

    # -- per-key locks --
    @contextmanager
    def lock(self, key: str, timeout: float) -> Iterator[bool]:
        """Hold the lock of ``key`` (a ``flock`` on ``<key>.lock``); yields
        True when held, False when ``timeout`` seconds passed first (the
        caller then goes on without it: entries are written atomically, so
        the worst case is a duplicate compile).  Different keys use
        different files and never wait for each other."""
        path = os.path.join(self.dir, key + LOCK_SUFFIX)
        fd = _acquire(path, timeout)
        try:
            yield fd is not None
        finally:
            if fd is not None:
                # Unlink while holding it: waiters see the inode change and
                # retry on a fresh file, so lock files do not pile up.
                try:
                    os.unlink(path)
                except OSError:
                    pass
                os.close(fd)

    # -- records of earlier compiles, for explanations --
    def origin_path(self, origin: str) -> str:
        h = hashlib.sha256(origin.encode()).hexdigest()[:24]
        return os.path.join(self.dir, "origins", h + ".json")

    def read_origin(self, origin: str) -> List[Dict[str, Any]]:
        try:
            with open(self.origin_path(origin), "rb") as f:
                doc = json.loads(f.read().decode())
            if doc.get("origin") == origin and isinstance(doc.get("records"), list):
                return [r for r in doc["records"] if isinstance(r, dict)]
        except (OSError, ValueError, AttributeError):
            pass
        return []

    def add_origin_record(self, origin: str, record: Dict[str, Any], keep: int = 32) -> None:
        """Remember a compile under ``origin`` (advisory: last writer wins)."""
        records = [r for r in self.read_origin(origin) if r.get("label") != record.get("label")]
        records.append(record)
        os.makedirs(os.path.dirname(self.origin_path(origin)), mode=0o700, exist_ok=True)
        data = json.dumps({"origin": origin, "records": records[-keep:]}, sort_keys=True).encode()
        try:
            self._atomic_write(self.origin_path(origin), data, "origin")
        except OSError as e:
            log.debug("could not record the compile of %s: %s", origin, e)

    # -- listing and maintenance --
    def entries(self, read_meta: bool = True) -> List[EntryInfo]:
        """Every entry, oldest use first.  ``read_meta`` verifies each file
        and fills ``meta`` (or ``error``)."""
        out = []
        try:
            names = os.listdir(self.dir)
        except FileNotFoundError:
            return out
        for name in names:
            if not name.endswith(ENTRY_SUFFIX):
                continue
            path = os.path.join(self.dir, name)
            try:
                st = os.stat(path)
            except FileNotFoundError:
                continue
            info = EntryInfo(name[: -len(ENTRY_SUFFIX)], path, st.st_size, st.st_mtime)
            if read_meta:
                try:
                    info.meta, _ = decode_entry(_read_regular(path), info.key, path)
                except CorruptEntry as e:
                    info.error = e.reason
                except OSError as e:
                    info.error = e.strerror
            out.append(info)
        out.sort(key=lambda e: e.last_used)
        return out

    def total_size(self) -> int:
        return sum(e.size for e in self.entries(read_meta=False))

    def evict(self, max_size: int, target: float = 1.0) -> List[str]:
        """Remove least recently used entries until the total is at most
        ``max_size * target`` bytes; the removed keys."""
        entries = self.entries(read_meta=False)
        total = sum(e.size for e in entries)
        removed = []
        if total <= max_size:
            return removed
        goal = int(max_size * target)
        for e in entries:
            if total <= goal:
                break
            try:
                os.unlink(e.path)
                removed.append(e.key)
            except FileNotFoundError:
                pass
            total -= e.size
        if removed:
            log.info("ascendrtc cache: evicted %d least recently used entries to stay under %d bytes",
                     len(removed), max_size)
        return removed

    def clean_stale(self, older_than: float = 3600.0) -> int:
        """Remove temp files left by crashed writers (older than
        ``older_than`` seconds) and unheld lock files; how many."""
        n = 0
        now = time.time()
        try:
            names = os.listdir(self.dir)
        except FileNotFoundError:
            return 0
        for name in names:
            path = os.path.join(self.dir, name)
            if name.startswith(TMP_PREFIX):
                try:
                    if now - os.stat(path).st_mtime > older_than:
                        os.unlink(path)
                        n += 1
                except OSError:
                    pass
            elif name.endswith(LOCK_SUFFIX):
                fd = _acquire(path, 0.0, create=False)
                if fd is not None:
                    try:
                        os.unlink(path)
                        n += 1
                    except OSError:
                        pass
                    os.close(fd)
        return n

    def remove_legacy_pch(self) -> int:
        """Remove the precompiled device APIs that releases before the PCH
        joined the cache kept beside it (``<root>/pch/<16 hex>.pch``, about
        1.5 MB per configuration, never evicted); files removed.  Anything
        else in that directory is left alone."""
        d = os.path.join(self.root, "pch")
        try:
            names = os.listdir(d)
        except OSError:
            return 0
        n = 0
        for name in names:
            stem, ext = os.path.splitext(name)
            if ext == ".pch" and len(stem) == 16 and all(c in "0123456789abcdef" for c in stem):
                try:
                    os.unlink(os.path.join(d, name))
                    n += 1
                except OSError:
                    pass
        try:
            os.rmdir(d)
        except OSError:
            pass
        return n

    def clear(self) -> int:
        """Remove every entry, record, lock and temp file (and the old
        layout's PCH files); entries removed."""
        n = 0
        self.remove_legacy_pch()
        for e in self.entries(read_meta=False):
            try:
                os.unlink(e.path)
                n += 1
            except FileNotFoundError:
                pass
        self.clean_stale(older_than=-1)
        od = os.path.join(self.dir, "origins")
        try:
            for name in os.listdir(od):
                try:
                    os.unlink(os.path.join(od, name))
                except OSError:
                    pass
        except FileNotFoundError:
            pass
        return n


def _acquire(path: str, timeout: float, create: bool = True) -> Optional[int]:
    """An fd holding an exclusive flock on ``path``, or None on timeout (or
    when ``create`` is False and the file is gone).  Polls with a short
    backoff: Python has no timed flock."""
    deadline = time.monotonic() + max(timeout, 0.0)
    delay = 0.001
    while True:
        try:
            fd = os.open(path, os.O_RDWR | (os.O_CREAT if create else 0), 0o600)
        except FileNotFoundError:
            if not create:
                return None
            raise
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            os.close(fd)
            if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise
            if time.monotonic() >= deadline:
                return None
            time.sleep(delay)
            delay = min(delay * 2, 0.05)
            continue
        # The holder before us may have unlinked the file after we opened
        # it: then we locked an orphan inode, so start over.
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)
        if not create:
            return None
