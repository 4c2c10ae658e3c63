"""One compile-cache entry: its self-describing byte format, shared by the
disk (``_cache_store``) and the remote tier (``_cache_remote``)::

    offset  size  field
    0       8     magic b"ARCCACH1"
    8       4     format version (u32, little endian)
    12      4     meta_len: bytes of the JSON metadata (u32)
    16      32    the key (sha256, raw)
    48      8     payload_len: bytes of the binary (u64)
    56      32    sha256 over (metadata JSON || payload)
    88      ...   metadata JSON (utf-8; no pickle), then the payload

A reader checks the magic, the version, that the key is the one asked for,
that the lengths add up to the size exactly, and the digest; anything else
is a torn or corrupt entry.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import struct
from typing import Any, Dict, Optional, Tuple

MAGIC = b"ARCCACH1"
FORMAT_VERSION = 1  # bump whenever the layout above or the key's recipe changes
_PREFIX = struct.Struct("<8sII32sQ32s")
_MAX_META = 16 << 20
MAX_ENTRY_BYTES = 1 << 30  # an entry (a kernel binary and its metadata) is never near this


def read_regular(name: str, dir_fd: Optional[int] = None, display: Optional[str] = None,
                 cap: int = MAX_ENTRY_BYTES) -> bytes:
    """The bytes of a cache file ``name`` (under ``dir_fd``), opened as a
    regular file only, never through a link: a FIFO would block the
    compile, a device or /proc file never end.  Raises CorruptEntry for
    anything else (a link, a FIFO, a file over ``cap``), FileNotFoundError
    when it is gone."""
    display = display or name
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOFOLLOW, dir_fd=dir_fd)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise CorruptEntry(display, "is a symbolic link, not a regular file") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise CorruptEntry(display, "is not a regular file")
        if st.st_size > cap:
            raise CorruptEntry(display, f"is {st.st_size} bytes, more than an entry may have ({cap})")
        chunks, left = [], cap + 1
        while left > 0:
            b = os.read(fd, min(left, 1 << 20))
            if not b:
                break
            chunks.append(b)
            left -= len(b)
        data = b"".join(chunks)
        if len(data) > cap:
            raise CorruptEntry(display, f"grew past {cap} bytes while being read")
        return data
    finally:
        os.close(fd)


class CorruptEntry(ValueError):
    """An entry file failed verification; ``reason`` says how."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


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
