"""Who may write the remote cache tier: entries sealed with a MAC.

A remote value is an *envelope* around a disk entry (``_cache_store``)::

    offset  size  field
    0       8     magic b"ARCRMAC1"
    8       32    HMAC-SHA256(secret, DOMAIN || redis key name || NUL || entry)
    40      ...   the entry, exactly as a disk entry file holds it

The MAC covers the Redis key name (which holds the format version and the
cache key), the entry's header (its key, lengths, digest), metadata and
payload: a value copied under another key, or any byte changed, fails.
The secret is shared by the team that shares the server: whoever holds it
can put native code into every member's processes, so keep it like a
deploy key.  ``ASCENDRTC_CACHE_REMOTE_KEY`` holds it, or
``ASCENDRTC_CACHE_REMOTE_KEY_FILE`` names a file holding it (not readable
by other users).

Without a secret nothing is loaded from (or written to) the server unless
``ASCENDRTC_CACHE_REMOTE_TRUST=unauthenticated`` opts in; entries are then
written with an all-zero MAC and read without checking one, which trusts
every client that can write to the server.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import stat
from typing import Optional, Tuple

from ._cache_resp import RemoteConfigError

ENV_KEY = "ASCENDRTC_CACHE_REMOTE_KEY"
ENV_KEY_FILE = "ASCENDRTC_CACHE_REMOTE_KEY_FILE"
ENV_TRUST = "ASCENDRTC_CACHE_REMOTE_TRUST"
MAGIC = b"ARCRMAC1"
DOMAIN = b"ascendrtc remote cache entry\0"
HEADER = len(MAGIC) + 32
MIN_SECRET = 16
_NO_MAC = bytes(32)


class BadSeal(ValueError):
    """A remote value whose envelope does not verify; ``reason`` says how."""


def _read_key_file(path: str) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise RemoteConfigError(f"{ENV_KEY_FILE}={path!r}: {e.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > 4096:
            raise RemoteConfigError(f"{ENV_KEY_FILE}={path!r}: not a regular file of at most 4096 bytes")
        if st.st_mode & (stat.S_IROTH | stat.S_IWOTH | stat.S_IWGRP):
            raise RemoteConfigError(
                f"{ENV_KEY_FILE}={path!r}: other users can read or write it (mode {stat.S_IMODE(st.st_mode):04o}); "
                f"whoever reads the key can put native code into your processes: `chmod 600 {path}`")
        return os.read(fd, 4097).strip()
    finally:
        os.close(fd)


def settings() -> Tuple[Optional[bytes], bool]:
    """(secret or None, whether unauthenticated entries are trusted), read
    from the environment now.  RemoteConfigError names a bad setting."""
    raw, path = os.environ.get(ENV_KEY, ""), os.environ.get(ENV_KEY_FILE, "").strip()
    if raw and path:
        raise RemoteConfigError(f"both {ENV_KEY} and {ENV_KEY_FILE} are set: set one")
    secret = _read_key_file(path) if path else raw.strip().encode() if raw else None
    where = ENV_KEY_FILE if path else ENV_KEY
    if secret is not None and len(secret) < MIN_SECRET:
        raise RemoteConfigError(f"{where}: the key has {len(secret)} bytes, fewer than {MIN_SECRET}; "
                                f"make one with `python3 -c 'import secrets; print(secrets.token_hex(32))'`")
    trust = os.environ.get(ENV_TRUST, "").strip().lower()
    if trust not in ("", "authenticated", "unauthenticated"):
        raise RemoteConfigError(f"{ENV_TRUST}={trust!r}: expected 'unauthenticated' (or unset)")
    return secret, trust == "unauthenticated"


def _mac(secret: bytes, name: str, entry: bytes) -> bytes:
    h = hmac.new(secret, DOMAIN, hashlib.sha256)
    h.update(name.encode())
    h.update(b"\0")
    h.update(entry)
    return h.digest()


def seal(secret: Optional[bytes], name: str, entry: bytes) -> bytes:
    """The envelope of ``entry`` stored under the Redis key ``name``; with
    no secret (the unauthenticated opt-in) the MAC is all zeros."""
    return MAGIC + (_mac(secret, name, entry) if secret is not None else _NO_MAC) + entry


def unseal(secret: Optional[bytes], name: str, value: bytes) -> bytes:
    """The entry inside ``value`` read from ``name``; BadSeal unless its MAC
    verifies (not checked when ``secret`` is None: the caller opted in)."""
    if len(value) < HEADER or value[:len(MAGIC)] != MAGIC:
        raise BadSeal("it is not a sealed ascendrtc entry (no MAC envelope)")
    mac, entry = value[len(MAGIC):HEADER], value[HEADER:]
    if secret is not None:
        if mac == _NO_MAC:
            raise BadSeal("it was written without a key (unauthenticated)")
        if not hmac.compare_digest(mac, _mac(secret, name, entry)):
            raise BadSeal("its MAC does not verify with this key (written by someone without the team's key, "
                          "modified, or copied from another key)")
    return entry
