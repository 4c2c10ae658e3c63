"""The remote tier of the compile cache: entries shared across machines
through a Redis server (``ASCENDRTC_CACHE_REMOTE=redis://host:port/db``).

The tier stores exactly the bytes of a disk entry (``_cache_store``'s
self-describing format: magic, key, lengths, sha256), under
``ascendrtc:v<format>:<key>``, so a remote entry is verified the same way
as a local one: a damaged or foreign value is a miss that is logged, deleted
and replaced by the next compile.  :mod:`ascendrtc.cache` consults it after
the local disk and fills it after a compile.

Talking to the server never blocks a compile for long: every socket
operation has a timeout (``ASCENDRTC_CACHE_REMOTE_TIMEOUT`` seconds, default
1), and a server that fails is skipped for ``_RETRY_AFTER`` seconds, with one
warning, while compiles fall back to the local cache and the compiler.

The client speaks the Redis protocol (RESP2) itself: the six commands used
here do not justify a dependency.
"""
from __future__ import annotations

import logging
import os
import socket
import threading
import time
from typing import Dict, Iterator, List, Optional, Tuple
from urllib.parse import unquote, urlsplit

from ._cache_store import _PREFIX, FORMAT_VERSION, CorruptEntry, decode_entry
from ._errors import Error

log = logging.getLogger("ascendrtc.cache")

ENV_URL = "ASCENDRTC_CACHE_REMOTE"
ENV_TIMEOUT = "ASCENDRTC_CACHE_REMOTE_TIMEOUT"
MAX_VALUE = 256 << 20  # an entry larger than this is not ours (or is damaged): refuse to read it
_RETRY_AFTER = 30.0


class RemoteError(Error, OSError):
    """The server could not be reached or answered with an error."""


class RemoteConfigError(Error, ValueError):
    """``ASCENDRTC_CACHE_REMOTE`` or its timeout cannot be read."""


def parse_url(url: str) -> Tuple[str, int, int, Optional[str], Optional[str]]:
    """(host, port, db, username, password) of a ``redis://`` URL."""
    try:
        u = urlsplit(url)
        port = u.port or 6379
    except ValueError as e:
        raise RemoteConfigError(f"{ENV_URL}={url!r}: {e}") from None
    if u.scheme != "redis":
        raise RemoteConfigError(f"{ENV_URL}={url!r}: expected redis://[[user]:password@]host[:port][/db]")
    if not u.hostname:
        raise RemoteConfigError(f"{ENV_URL}={url!r}: no host (expected redis://host[:port][/db])")
    path = u.path.strip("/")
    if path and not path.isdigit():
        raise RemoteConfigError(f"{ENV_URL}={url!r}: the database {path!r} is not a number")
    return (u.hostname, port, int(path or 0), unquote(u.username) if u.username else None,
            unquote(u.password) if u.password is not None else None)


def _timeout() -> float:
    raw = os.environ.get(ENV_TIMEOUT, "")
    if not raw:
        return 1.0
    try:
        t = float(raw)
    except ValueError:
        t = -1.0
    if not (0 < t <= 3600):
        raise RemoteConfigError(f"{ENV_TIMEOUT}={raw!r}: expected seconds, more than 0")
    return t


def _bulk(parts) -> bytes:
    out = [b"*%d\r\n" % len(parts)]
    for p in parts:
        b = p if isinstance(p, bytes) else str(p).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(b), b))
    return b"".join(out)


class _Conn:
    """One socket to the server with buffered RESP2 replies."""

    def __init__(self, host: str, port: int, timeout: float):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.settimeout(timeout)
        self.buf = b""

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def _fill(self) -> None:
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise RemoteError("the server closed the connection")
        self.buf += chunk

    def _line(self) -> bytes:
        while True:
            i = self.buf.find(b"\r\n")
            if i >= 0:
                line, self.buf = self.buf[:i], self.buf[i + 2:]
                return line
            if len(self.buf) > 1 << 16:
                raise RemoteError("protocol error: an over-long reply line")
            self._fill()

    def _exact(self, n: int) -> bytes:
        while len(self.buf) < n + 2:
            self._fill()
        data, self.buf = self.buf[:n], self.buf[n + 2:]
        return data

    def reply(self):
        line = self._line()
        kind, rest = line[:1], line[1:]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            raise RemoteError(f"server error: {rest.decode(errors='replace')}")
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            if n < 0:
                return None
            if n > MAX_VALUE:
                raise RemoteError(f"a value of {n} bytes is larger than any cache entry ({MAX_VALUE})")
            return self._exact(n)
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self.reply() for _ in range(n)]
        raise RemoteError(f"protocol error: unexpected reply {line[:40]!r}")

    def call(self, *parts):
        self.sock.sendall(_bulk(parts))
        return self.reply()


class RedisTier:
    """The remote tier at one URL.  Thread-safe; reconnects after errors and
    after a fork."""

    def __init__(self, url: str, timeout: Optional[float] = None):
        self.url = url
        self.host, self.port, self.db, self.user, self.password = parse_url(url)
        self.timeout = _timeout() if timeout is None else timeout
        self.prefix = f"ascendrtc:v{FORMAT_VERSION}:"
        self._lock = threading.Lock()
        self._conn: Optional[_Conn] = None
        self._pid = os.getpid()
        self._down_until = 0.0
        self._warned = False

    def __repr__(self) -> str:
        return f"<ascendrtc RedisTier {self.display_url}>"

    @property
    def display_url(self) -> str:
        """The URL without its password."""
        auth = f"{self.user or ''}:***@" if self.password is not None else ""
        return f"redis://{auth}{self.host}:{self.port}/{self.db}"

    # -- connection --
    def _connect(self) -> _Conn:
        c = _Conn(self.host, self.port, self.timeout)
        try:
            if self.password is not None:
                c.call(*(["AUTH", self.user, self.password] if self.user else ["AUTH", self.password]))
            if self.db:
                c.call("SELECT", self.db)
        except BaseException:
            c.close()
            raise
        return c

    def _call(self, *parts):
        """One command; RemoteError (after closing the connection) on failure."""
        if self._pid != os.getpid():  # a forked child must not share the parent's socket
            self._conn, self._pid = None, os.getpid()
        try:
            if self._conn is None:
                self._conn = self._connect()
            return self._conn.call(*parts)
        except (OSError, ValueError) as e:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            if isinstance(e, RemoteError):
                raise
            raise RemoteError(f"{self.display_url}: {e}") from None

    def _guarded(self, what: str, *parts):
        """A command for the compile path: None instead of an exception when the
        server is down (warned once per outage; skipped for a while after)."""
        with self._lock:
            if time.monotonic() < self._down_until:
                return None
            try:
                r = self._call(*parts)
            except RemoteError as e:
                self._down_until = time.monotonic() + _RETRY_AFTER
                if not self._warned:
                    log.warning("ascendrtc cache: the remote cache %s failed (%s) during %s; compiling without it "
                                "(retried after %.0f s)", self.display_url, e, what, _RETRY_AFTER)
                    self._warned = True
                return None
            self._warned = False
            return r

    # -- entries, for the compile path (never raise on server trouble) --
    def load(self, key: str) -> Optional[Tuple[Dict, bytes]]:
        """(meta, payload) of ``key`` from the server, or None (miss, server
        down, or a damaged value, which is deleted)."""
        blob = self._guarded("a lookup", "GET", self.prefix + key)
        if not isinstance(blob, bytes):
            return None
        try:
            return decode_entry(blob, key, f"{self.display_url} {key[:16]}")
        except CorruptEntry as e:
            log.warning("ascendrtc cache: ignoring a corrupt remote entry: %s; it will be rebuilt", e)
            self._guarded("removing a corrupt entry", "DEL", self.prefix + key)
            return None

    def store_blob(self, key: str, blob: bytes) -> bool:
        """Store an encoded entry; whether the server took it."""
        return self._guarded("a store", "SET", self.prefix + key, blob) == "OK"

    # -- inspection, for the CLI (raises RemoteError) --
    def ping(self) -> float:
        """Round-trip seconds of a PING."""
        with self._lock:
            t0 = time.perf_counter()
            self._call("PING")
            return time.perf_counter() - t0

    def keys(self) -> Iterator[str]:
        """Every entry key on the server (SCAN, so a big server is not blocked)."""
        cursor = b"0"
        while True:
            with self._lock:
                cursor, batch = self._call("SCAN", cursor, "MATCH", self.prefix + "*", "COUNT", 500)
            for k in batch:
                yield k.decode()[len(self.prefix):]
            if cursor in (b"0", "0"):
                return

    def entry_info(self, key: str) -> Tuple[int, Optional[Dict]]:
        """(size, meta or None) of one entry, reading only its header and metadata."""
        import json
        import struct
        with self._lock:
            size = self._call("STRLEN", self.prefix + key)
            head = self._call("GETRANGE", self.prefix + key, 0, _PREFIX.size - 1)
            if not isinstance(head, bytes) or len(head) < _PREFIX.size:
                return size, None
            try:
                mlen = _PREFIX.unpack_from(head)[2]
                mj = self._call("GETRANGE", self.prefix + key, _PREFIX.size, _PREFIX.size + mlen - 1)
                meta = json.loads(mj.decode())
            except (ValueError, struct.error, AttributeError):
                return size, None
        return size, meta if isinstance(meta, dict) else None

    def remove(self, keys: List[str]) -> int:
        """Delete entries; how many existed."""
        n = 0
        with self._lock:
            for i in range(0, len(keys), 256):
                n += self._call("DEL", *[self.prefix + k for k in keys[i:i + 256]])
        return n


_tiers: Dict[str, RedisTier] = {}
_tiers_lock = threading.Lock()


def get_tier(url: Optional[str] = None) -> Optional[RedisTier]:
    """The remote tier of ``url`` or ``$ASCENDRTC_CACHE_REMOTE`` (one per URL
    and process), or None when none is configured.  A malformed URL raises
    RemoteConfigError naming the variable."""
    url = os.environ.get(ENV_URL, "") if url is None else url
    url = url.strip()
    if not url:
        return None
    with _tiers_lock:
        t = _tiers.get(url)
        if t is None or t.timeout != _timeout():
            t = _tiers[url] = RedisTier(url)
        return t
