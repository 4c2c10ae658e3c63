"""A minimal Redis client (RESP2) for the remote cache tier, bounded in
every direction: each request has one deadline (not a per-read timeout,
so a server dripping bytes cannot hold a compile), a bulk value larger
than the caller's cap is refused from its length header without reading
it, reply lines and array lengths are capped, and reads are linear in the
reply size (one preallocated buffer per value, no repeated concatenation).

``redis://`` is plain TCP; ``rediss://`` is TLS, verified against the
system's CAs or ``ASCENDRTC_CACHE_REMOTE_CA`` (a PEM file).
"""
from __future__ import annotations

import os
import socket
import time
from typing import Optional, Tuple
from urllib.parse import unquote, urlsplit

from ._errors import Error

ENV_URL = "ASCENDRTC_CACHE_REMOTE"
ENV_CA = "ASCENDRTC_CACHE_REMOTE_CA"
MAX_LINE = 1 << 16      # a status, error or length line is never near this
MAX_ARRAY = 1 << 16     # SCAN batches of COUNT 500; nothing here asks for more


class RemoteError(Error, OSError):
    """The server could not be reached, answered with an error, broke the
    protocol or took longer than the request's time budget."""


class RemoteConfigError(Error, ValueError):
    """``ASCENDRTC_CACHE_REMOTE`` or a setting of the remote tier cannot be read."""


def parse_url(url: str) -> Tuple[bool, str, int, int, Optional[str], Optional[str]]:
    """(tls, host, port, db, username, password) of a ``redis://`` or ``rediss://`` URL."""
    try:
        u = urlsplit(url)
        port = u.port or 6379
    except ValueError as e:
        raise RemoteConfigError(f"{ENV_URL}={url!r}: {e}") from None
    if u.scheme not in ("redis", "rediss"):
        raise RemoteConfigError(f"{ENV_URL}={url!r}: expected redis://[[user]:password@]host[:port][/db] "
                                f"(or rediss:// for TLS)")
    if not u.hostname:
        raise RemoteConfigError(f"{ENV_URL}={url!r}: no host (expected redis://host[:port][/db])")
    path = u.path.strip("/")
    if path and not path.isdigit():
        raise RemoteConfigError(f"{ENV_URL}={url!r}: the database {path!r} is not a number")
    return (u.scheme == "rediss", u.hostname, port, int(path or 0),
            unquote(u.username) if u.username else None,
            unquote(u.password) if u.password is not None else None)


def _tls_context():
    import ssl
    ca = os.environ.get(ENV_CA, "").strip()
    try:
        ctx = ssl.create_default_context(cafile=ca or None)
    except (OSError, ssl.SSLError) as e:
        raise RemoteConfigError(f"{ENV_CA}={ca!r}: cannot read the CA certificates: {e}") from None
    return ctx


def _bulk(parts) -> bytes:
    out = [b"*%d\r\n" % len(parts)]
    for p in parts:
        b = p if isinstance(p, bytes) else str(p).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(b), b))
    return b"".join(out)


def _int(rest: bytes, what: str) -> int:
    try:
        if not rest or len(rest) > 20:
            raise ValueError
        return int(rest)
    except ValueError:
        raise RemoteError(f"protocol error: {what} {rest[:40]!r} is not a number") from None


class Conn:
    """One connection; :meth:`call` sends a command and reads its reply
    within ``timeout`` seconds in all."""

    def __init__(self, host: str, port: int, timeout: float, tls: bool = False):
        self.timeout = timeout
        self.sock = socket.create_connection((host, port), timeout=timeout)
        if tls:
            try:
                self.sock = _tls_context().wrap_socket(self.sock, server_hostname=host)
            except BaseException:
                self.sock.close()
                raise
        self.buf = bytearray()
        self.pos = 0
        self.deadline = 0.0

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def _remaining(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise RemoteError(f"timed out: the request took more than its {self.timeout:g} s budget")
        return left

    def _fill(self) -> None:
        self.sock.settimeout(self._remaining())
        try:
            chunk = self.sock.recv(1 << 16)
        except socket.timeout:
            raise RemoteError(f"timed out: the request took more than its {self.timeout:g} s budget") from None
        if not chunk:
            raise RemoteError("the server closed the connection")
        if self.pos:
            del self.buf[:self.pos]
            self.pos = 0
        self.buf += chunk

    def _line(self) -> bytes:
        while True:
            i = self.buf.find(b"\r\n", self.pos)
            if i >= 0:
                line = bytes(self.buf[self.pos:i])
                self.pos = i + 2
                return line
            if len(self.buf) - self.pos > MAX_LINE:
                raise RemoteError("protocol error: an over-long reply line")
            self._fill()

    def _exact(self, n: int) -> bytes:
        """``n`` bytes and the CRLF after them, read into one buffer."""
        out = bytearray(n + 2)
        view = memoryview(out)
        have = min(len(self.buf) - self.pos, n + 2)
        view[:have] = self.buf[self.pos:self.pos + have]
        self.pos += have
        while have < n + 2:
            self.sock.settimeout(self._remaining())
            try:
                got = self.sock.recv_into(view[have:], min(n + 2 - have, 1 << 20))
            except socket.timeout:
                raise RemoteError(f"timed out: the request took more than its {self.timeout:g} s budget") from None
            if not got:
                raise RemoteError("the server closed the connection in the middle of a value")
            have += got
        view.release()
        if out[n:] != b"\r\n":
            raise RemoteError("protocol error: a value not followed by CRLF")
        del out[n:]
        return bytes(out)

    def reply(self, max_value: int, depth: int = 0):
        line = self._line()
        kind, rest = line[:1], line[1:]
        if kind == b"+":
            return rest.decode(errors="replace")
        if kind == b"-":
            raise RemoteError(f"server error: {rest.decode(errors='replace')[:200]}")
        if kind == b":":
            return _int(rest, "an integer reply")
        if kind == b"$":
            n = _int(rest, "a value length")
            if n < 0:
                return None
            if n > max_value:
                raise ValueTooLarge(n, max_value)
            return self._exact(n)
        if kind == b"*":
            n = _int(rest, "an array length")
            if n < 0:
                return None
            if n > MAX_ARRAY or depth > 4:
                raise RemoteError(f"protocol error: an array of {n} elements at depth {depth}")
            return [self.reply(max_value, depth + 1) for _ in range(n)]
        raise RemoteError(f"protocol error: unexpected reply {line[:40]!r}")

    def call(self, *parts, max_value: int = MAX_LINE):
        """Send one command; its reply.  Any error leaves the connection in
        an unknown state: the caller closes it."""
        self.deadline = time.monotonic() + self.timeout
        self.sock.settimeout(self._remaining())
        try:
            self.sock.sendall(_bulk(parts))
        except socket.timeout:
            raise RemoteError(f"timed out: the request took more than its {self.timeout:g} s budget") from None
        return self.reply(max_value)


class ValueTooLarge(RemoteError):
    """A value's length header says more than the cap; it was not read."""

    def __init__(self, n: int, cap: int):
        super().__init__(f"a value of {n} bytes is larger than the cap of {cap} bytes "
                         f"(ASCENDRTC_CACHE_REMOTE_MAX_VALUE); not read")
        self.size, self.cap = n, cap
