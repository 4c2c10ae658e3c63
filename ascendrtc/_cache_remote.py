"""The remote tier of the compile cache: entries shared across machines
through a Redis server (``ASCENDRTC_CACHE_REMOTE=redis://host:port/db``, or
``rediss://`` for TLS; ``user:password@`` for Redis AUTH).

The tier stores a disk entry (``_cache_store``'s self-describing format)
sealed with a MAC under the team's key (``_cache_auth``), under
``ascendrtc:v<format>:<key>``.  A value whose MAC does not verify -- a
planted binary, a value copied from another key, one written without the
key -- is ignored and logged once naming the key; it is never loaded nor
copied to disk.  Without a key the tier is not used unless
``ASCENDRTC_CACHE_REMOTE_TRUST=unauthenticated`` says to trust whoever can
write to the server.  :mod:`ascendrtc.cache` consults it after the local
disk, re-checks a hit against the local key, and fills it after a compile.

Talking to the server never blocks a compile for long: every request has
one time budget (``ASCENDRTC_CACHE_REMOTE_TIMEOUT`` seconds, default 1), a
value over ``ASCENDRTC_CACHE_REMOTE_MAX_VALUE`` (default 64M) is refused
from its length without being read, and a server that fails is skipped for
``_RETRY_AFTER`` seconds, with one warning, while compiles fall back to the
local cache and the compiler.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from typing import Dict, Iterator, List, Optional, Set, Tuple

from . import _cache_auth
from ._cache_auth import BadSeal
from ._cache_resp import Conn, RemoteConfigError, RemoteError, ValueTooLarge, parse_url
from ._cache_entry import _MAX_META, _PREFIX, FORMAT_VERSION, CorruptEntry, decode_entry, parse_size

__all__ = ["RedisTier", "RemoteError", "RemoteConfigError", "get_tier", "parse_url"]

log = logging.getLogger("ascendrtc.cache")

ENV_URL = "ASCENDRTC_CACHE_REMOTE"
ENV_TIMEOUT = "ASCENDRTC_CACHE_REMOTE_TIMEOUT"
ENV_MAX_VALUE = "ASCENDRTC_CACHE_REMOTE_MAX_VALUE"
DEFAULT_MAX_VALUE = 64 << 20  # kernel binaries are well under 10 MB; a value past this is not ours
_RETRY_AFTER = 30.0
_refused: Set[str] = set()    # remote keys already reported this process (one warning each)


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


def _max_value() -> int:
    raw = os.environ.get(ENV_MAX_VALUE, "").strip()
    if not raw:
        return DEFAULT_MAX_VALUE
    try:
        n = parse_size(raw)
    except ValueError as e:
        raise RemoteConfigError(f"{ENV_MAX_VALUE}: {e}") from None
    if n < 1024:
        raise RemoteConfigError(f"{ENV_MAX_VALUE}={raw!r}: at least 1K (an entry's header alone is 128 bytes)")
    return n


def _settings() -> Tuple:
    return (_timeout(), _max_value()) + _cache_auth.settings()


def _warn_once(name: str, msg: str, *args) -> None:
    if name not in _refused:
        _refused.add(name)
        log.warning(msg, *args)


class RedisTier:
    """The remote tier at one URL, with the settings read when it was made.
    Thread-safe; reconnects after errors and after a fork."""

    def __init__(self, url: str, timeout: Optional[float] = None, settings: Optional[Tuple] = None):
        self.url = url
        self.tls, self.host, self.port, self.db, self.user, self.password = parse_url(url)
        self.settings = _settings() if settings is None else settings
        self.timeout, self.max_value, self.secret, self.trust_unauthenticated = self.settings
        if timeout is not None:
            self.timeout = timeout
        self.prefix = f"ascendrtc:v{FORMAT_VERSION}:"
        self._lock = threading.Lock()
        self._conn: Optional[Conn] = None
        self._pid = os.getpid()
        self._down_until = 0.0
        self._warned = False

    def __repr__(self) -> str:
        return f"<ascendrtc RedisTier {self.display_url}>"

    @property
    def display_url(self) -> str:
        """The URL without its password."""
        auth = f"{self.user or ''}:***@" if self.password is not None else ""
        return f"{'rediss' if self.tls else 'redis'}://{auth}{self.host}:{self.port}/{self.db}"

    @property
    def usable(self) -> bool:
        """Whether entries are loaded and stored: a key is set, or the user
        opted in to unauthenticated entries."""
        return self.secret is not None or self.trust_unauthenticated

    # -- connection --
    def _connect(self) -> Conn:
        c = Conn(self.host, self.port, self.timeout, self.tls)
        try:
            if self.password is not None:
                c.call(*(["AUTH", self.user, self.password] if self.user else ["AUTH", self.password]))
            if self.db:
                c.call("SELECT", self.db)
        except BaseException:
            c.close()
            raise
        return c

    def _call(self, *parts, max_value: int = 1 << 16):
        """One command; RemoteError (after closing the connection) on failure."""
        if self._pid != os.getpid():  # a forked child must not share the parent's socket
            self._conn, self._pid = None, os.getpid()
        try:
            if self._conn is None:
                self._conn = self._connect()
            return self._conn.call(*parts, max_value=max_value)
        except (OSError, ValueError) as e:
            if self._conn is not None:
                self._conn.close()  # whatever is left of the reply is dropped with it
                self._conn = None
            if isinstance(e, RemoteError):
                raise
            raise RemoteError(f"{self.display_url}: {e}") from None

    def _guarded(self, what: str, *parts, max_value: int = 1 << 16):
        """A command for the compile path: None instead of an exception when the
        server is down (warned once per outage; skipped for a while after)."""
        with self._lock:
            if time.monotonic() < self._down_until:
                return None
            try:
                r = self._call(*parts, max_value=max_value)
            except ValueTooLarge:
                raise
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
        """(meta, payload) of ``key`` from the server, or None: a miss, the
        server down, no key configured, or a value that does not verify
        (too large, no valid MAC, damaged), which is logged once and left
        for the next compile to overwrite."""
        name = self.prefix + key
        if not self.usable:
            _warn_once("<no key>", "ascendrtc cache: not using the remote cache %s: no key to authenticate its "
                       "entries (set %s or %s, shared by the team; or %s=unauthenticated to trust everyone who "
                       "can write to the server)", self.display_url, _cache_auth.ENV_KEY, _cache_auth.ENV_KEY_FILE,
                       _cache_auth.ENV_TRUST)
            return None
        try:
            value = self._guarded("a lookup", "GET", name, max_value=self.max_value + _cache_auth.HEADER)
        except ValueTooLarge as e:
            _warn_once(name, "ascendrtc cache: ignoring the remote entry %s on %s: %s", key, self.display_url, e)
            return None
        if not isinstance(value, bytes):
            return None
        try:
            entry = _cache_auth.unseal(self.secret, name, value)
        except BadSeal as e:
            _warn_once(name, "ascendrtc cache: ignoring the remote entry %s on %s: %s; not loaded", key,
                       self.display_url, e)
            return None
        try:
            return decode_entry(entry, key, f"{self.display_url} {key[:16]}")
        except CorruptEntry as e:
            _warn_once(name, "ascendrtc cache: ignoring a corrupt remote entry %s: %s; it will be rebuilt", key, e)
            return None

    def store_blob(self, key: str, blob: bytes) -> bool:
        """Store an encoded entry, sealed; whether the server took it."""
        if not self.usable:
            return False
        name = self.prefix + key
        return self._guarded("a store", "SET", name, _cache_auth.seal(self.secret, name, blob)) == "OK"

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
                r = self._call("SCAN", cursor, "MATCH", self.prefix + "*", "COUNT", 500)
            if not (isinstance(r, list) and len(r) == 2 and isinstance(r[0], bytes) and isinstance(r[1], list)):
                raise RemoteError(f"protocol error: SCAN answered {str(r)[:80]}")
            cursor, batch = r
            for k in batch:
                if isinstance(k, bytes):
                    yield k.decode(errors="replace")[len(self.prefix):]
            if cursor == b"0":
                return

    def entry_info(self, key: str) -> Tuple[int, Optional[Dict]]:
        """(size, meta or None) of one entry, reading only its header and
        metadata (unverified: for listing, never for loading)."""
        import json
        import struct
        off = _cache_auth.HEADER
        with self._lock:
            size = self._call("STRLEN", self.prefix + key)
            head = self._call("GETRANGE", self.prefix + key, 0, off + _PREFIX.size - 1)
            if not isinstance(head, bytes) or len(head) < off + _PREFIX.size:
                return size, None
            try:
                mlen = _PREFIX.unpack_from(head, off)[2]
                if mlen > _MAX_META:
                    return size, None
                mj = self._call("GETRANGE", self.prefix + key, off + _PREFIX.size, off + _PREFIX.size + mlen - 1,
                                max_value=_MAX_META)
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
    """The remote tier of ``url`` or ``$ASCENDRTC_CACHE_REMOTE`` (one per URL,
    settings and process), or None when none is configured.  A malformed
    setting raises RemoteConfigError naming the variable."""
    url = os.environ.get(ENV_URL, "") if url is None else url
    url = url.strip()
    if not url:
        return None
    settings = _settings()
    with _tiers_lock:
        t = _tiers.get(url)
        if t is None or t.settings != settings:
            t = _tiers[url] = RedisTier(url, settings=settings)
        return t
