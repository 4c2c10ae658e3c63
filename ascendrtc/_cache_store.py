"""The on-disk cache of compiled binaries: directory policy, per-key locks
and size-capped LRU eviction.  One entry (``_cache_entry``'s format) is
one file ``<root>/v1/<key>.arcc``; compile records live in
``<root>/v1/origins/``.  Writers write a temp file in the same directory
and rename it in, so a reader sees the old entry, the new one, or none.

The directory holds native code that ascendrtc loads and runs, so it must
be private: created 0700, and refused when another user owns it or can
write into it.  Everything below the root is reached through directory
descriptors without following links (``_cache_jail``): a planted link is
reported and left alone.
"""
from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import logging
import os
import stat
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ._cache_entry import (_MAX_META, _PREFIX, FORMAT_VERSION, MAGIC, MAX_ENTRY_BYTES, CorruptEntry,  # noqa: F401
                           decode_entry, encode_entry, parse_size, read_regular)
from ._cache_jail import LinkRefused, is_link, open_dir, open_file, opened, report, unlink
from ._errors import CacheDirError

log = logging.getLogger("ascendrtc.cache")

ENTRY_SUFFIX = ".arcc"
LOCK_SUFFIX = ".lock"
TMP_PREFIX = ".tmp-"
_MAX_ORIGIN = 4 << 20


class CacheFull(OSError):
    """The cache's file system has no free inodes (or quota) for a lock
    file: the compile goes on uncached."""


def default_root() -> str:
    """``$ASCENDRTC_CACHE_DIR``, else ``$XDG_CACHE_HOME/ascendrtc``, else
    ``~/.cache/ascendrtc``."""
    env = os.environ.get("ASCENDRTC_CACHE_DIR")
    if env:
        return os.path.abspath(os.path.expanduser(env))
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = xdg if xdg and os.path.isabs(xdg) else os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ascendrtc")


def _check_private_fd(fd: int, path: str) -> None:
    st = os.fstat(fd)
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


def check_private(path: str) -> None:
    """Raise CacheDirError unless ``path`` is a directory owned by this user
    (or root) that no other user can write into."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as e:
        raise CacheDirError(f"ascendrtc cache directory {path}: "
                            f"{'not a directory' if e.errno == errno.ENOTDIR else e.strerror}") from e
    try:
        _check_private_fd(fd, path)
    finally:
        os.close(fd)


def default_max_size() -> int:
    """``$ASCENDRTC_CACHE_MAX_SIZE`` (e.g. ``2G``), default 1 GiB."""
    env = os.environ.get("ASCENDRTC_CACHE_MAX_SIZE")
    if env:
        try:
            return parse_size(env)
        except ValueError as e:
            raise ValueError(f"ASCENDRTC_CACHE_MAX_SIZE: {e}") from None
    return 1 << 30


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
    directory.  Each method opens the root and ``v1`` as directory fds and
    works below them (see ``_cache_jail``)."""

    def __init__(self, root: Optional[str] = None):
        self.root = os.path.abspath(root) if root else default_root()
        self.sub = f"v{FORMAT_VERSION}"
        self.dir = os.path.join(self.root, self.sub)

    def __repr__(self) -> str:
        return f"<ascendrtc DiskCache {self.dir}>"

    # -- directory policy --
    def ensure(self) -> None:
        """Create the directory 0700 if missing; refuse an unsafe one, or a
        ``v1`` that is a link."""
        try:
            os.makedirs(self.root, mode=0o700, exist_ok=True)
            with opened(self.root, None, self.root) as rfd:
                _check_private_fd(rfd, self.root)
                with opened(self.sub, rfd, self.dir, create=True) as vfd:
                    _check_private_fd(vfd, self.dir)
        except LinkRefused as e:
            raise CacheDirError(f"refusing to use the ascendrtc cache directory: {e.strerror}") from None
        except CacheDirError:
            raise
        except OSError as e:
            raise CacheDirError(f"cannot create the ascendrtc cache directory {self.dir}: {e.strerror} "
                                f"(set ASCENDRTC_CACHE_DIR, or ASCENDRTC_CACHE=off)") from e

    @contextmanager
    def _v1(self, create: bool = False) -> Iterator[Optional[int]]:
        """The fd of ``<root>/v1`` (made, and the root checked, when
        ``create``), or None when there is none yet."""
        if create:
            self.ensure()
        try:
            rfd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except FileNotFoundError:
            yield None
            return
        try:
            try:
                fd = open_dir(self.sub, rfd, self.dir)
            except LinkRefused as e:
                raise CacheDirError(f"refusing to use the ascendrtc cache directory: {e.strerror}") from None
            try:
                yield fd
            finally:
                if fd is not None:
                    os.close(fd)
        finally:
            os.close(rfd)

    def exists(self) -> bool:
        with self._v1() as fd:
            return fd is not None

    def path_for(self, key: str) -> str:
        return os.path.join(self.dir, key + ENTRY_SUFFIX)

    # -- entries --
    def load(self, key: str) -> Optional[Tuple[Dict[str, Any], bytes]]:
        """(meta, payload) of ``key``, or None on a miss.  A corrupt entry is
        logged and removed (it is a miss), so the next store replaces it; a
        link in its place is reported and removed (the link, never what it
        points to)."""
        name, path = key + ENTRY_SUFFIX, self.path_for(key)
        with self._v1() as fd:
            if fd is None:
                return None
            try:
                blob = read_regular(name, fd, path)
            except FileNotFoundError:
                return None
            except CorruptEntry as e:
                if is_link(name, fd):  # remove the link itself (unlinkat never follows it), so it is rebuilt
                    report(LinkRefused(path, "is a symbolic link"))
                    try:
                        os.unlink(name, dir_fd=fd)
                    except OSError:
                        pass
                    return None
                log.warning("ignoring an ascendrtc cache entry that %s; it will be rebuilt", e)
                unlink(name, fd, path)
                return None
            try:
                meta, payload = decode_entry(blob, key, path)
            except CorruptEntry as e:
                log.warning("ignoring a corrupt ascendrtc cache entry: %s; it will be rebuilt", e)
                self._remove_if_same(name, fd, blob)
                return None
            try:
                os.utime(name, dir_fd=fd, follow_symlinks=False)  # the mtime is the last use, for LRU eviction
            except OSError:
                pass
            return meta, payload

    def _remove_if_same(self, name: str, fd: int, blob: bytes) -> None:
        # Another process may have replaced the corrupt file meanwhile; only
        # remove what we read.
        try:
            if read_regular(name, fd) == blob:
                os.unlink(name, dir_fd=fd)
        except (OSError, CorruptEntry):
            pass

    def store(self, key: str, payload: bytes, meta: Dict[str, Any]) -> str:
        """Write the entry atomically (temp file + rename); its path."""
        return self.store_blob(key, encode_entry(key, payload, meta))

    def store_blob(self, key: str, data: bytes) -> str:
        """Write an already encoded entry (``encode_entry``) atomically; its path."""
        with self._v1(create=True) as fd:
            return self._atomic_write(fd, key + ENTRY_SUFFIX, self.path_for(key), data, key[:16])

    def _atomic_write(self, fd: int, name: str, path: str, data: bytes, tag: str) -> str:
        # renameat replaces a link at ``name`` rather than following it.
        tmp = f"{TMP_PREFIX}{tag}-{os.getpid()}-{os.urandom(4).hex()}"
        wfd = open_file(tmp, fd, tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        try:
            with os.fdopen(wfd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, name, src_dir_fd=fd, dst_dir_fd=fd)
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=fd)
            except OSError:
                pass
            raise
        return path

    def remove(self, key: str) -> bool:
        with self._v1() as fd:
            return fd is not None and unlink(key + ENTRY_SUFFIX, fd, self.path_for(key))

    # -- per-key locks --
    @contextmanager
    def lock(self, key: str, timeout: float) -> Iterator[Optional[bool]]:
        """Hold the lock of ``key`` (a ``flock`` on ``<key>.lock``); yields
        True when held, False when ``timeout`` seconds passed first (the
        caller then goes on without it: entries are written atomically, so
        the worst case is a duplicate compile), None when a link planted
        there was reported and left alone.  Raises CacheFull when the file
        system has no room for the lock file.  Different keys use different
        files and never wait for each other."""
        name = key + LOCK_SUFFIX
        with self._v1(create=True) as dfd:
            try:
                fd = _acquire(name, dfd, timeout, display=os.path.join(self.dir, name))
            except LinkRefused as e:
                report(e)
                yield None
                return
            except OSError as e:
                if e.errno in (errno.ENOSPC, errno.EDQUOT):
                    raise CacheFull(e.errno, f"no room for a lock file in {self.dir}: {e.strerror}") from None
                raise
            try:
                yield fd is not None
            finally:
                if fd is not None:
                    # Unlink while holding it: waiters see the inode change and
                    # retry on a fresh file, so lock files do not pile up.
                    try:
                        os.unlink(name, dir_fd=dfd)
                    except OSError:
                        pass
                    os.close(fd)

    # -- records of earlier compiles, for explanations --
    @staticmethod
    def _origin_name(origin: str) -> str:
        return hashlib.sha256(origin.encode()).hexdigest()[:24] + ".json"

    def origin_path(self, origin: str) -> str:
        return os.path.join(self.dir, "origins", self._origin_name(origin))

    def read_origin(self, origin: str) -> List[Dict[str, Any]]:
        try:
            with self._v1() as fd:
                if fd is None:
                    return []
                with opened("origins", fd, os.path.join(self.dir, "origins")) as ofd:
                    if ofd is None:
                        return []
                    doc = json.loads(read_regular(self._origin_name(origin), ofd, self.origin_path(origin),
                                                  _MAX_ORIGIN).decode())
            if doc.get("origin") == origin and isinstance(doc.get("records"), list):
                return [r for r in doc["records"] if isinstance(r, dict)]
        except LinkRefused as e:
            report(e)
        except (OSError, ValueError, AttributeError, CacheDirError):
            pass
        return []

    def add_origin_record(self, origin: str, record: Dict[str, Any], keep: int = 32) -> None:
        """Remember a compile under ``origin`` (advisory: last writer wins)."""
        records = [r for r in self.read_origin(origin) if r.get("label") != record.get("label")]
        records.append(record)
        data = json.dumps({"origin": origin, "records": records[-keep:]}, sort_keys=True).encode()
        try:
            with self._v1(create=True) as fd:
                with opened("origins", fd, os.path.join(self.dir, "origins"), create=True) as ofd:
                    self._atomic_write(ofd, self._origin_name(origin), self.origin_path(origin), data, "origin")
        except LinkRefused as e:
            report(e)
        except (OSError, CacheDirError) as e:
            log.debug("could not record the compile of %s: %s", origin, e)

    # -- listing and maintenance --
    def entries(self, read_meta: bool = True) -> List[EntryInfo]:
        """Every entry, oldest use first.  ``read_meta`` verifies each file
        and fills ``meta`` (or ``error``).  Links are reported, not listed."""
        out = []
        with self._v1() as fd:
            if fd is None:
                return out
            for name in os.listdir(fd):
                if not name.endswith(ENTRY_SUFFIX):
                    continue
                path = os.path.join(self.dir, name)
                try:
                    st = os.stat(name, dir_fd=fd, follow_symlinks=False)
                except FileNotFoundError:
                    continue
                if stat.S_ISLNK(st.st_mode):
                    report(LinkRefused(path, "is a symbolic link"))
                    continue
                info = EntryInfo(name[: -len(ENTRY_SUFFIX)], path, st.st_size, st.st_mtime)
                if read_meta:
                    try:
                        info.meta, _ = decode_entry(read_regular(name, fd, path), info.key, path)
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
        with self._v1() as fd:
            for e in entries:
                if total <= goal or fd is None:
                    break
                if unlink(e.key + ENTRY_SUFFIX, fd, e.path):
                    removed.append(e.key)
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
        with self._v1() as fd:
            if fd is None:
                return 0
            for name in os.listdir(fd):
                path = os.path.join(self.dir, name)
                try:
                    if name.startswith(TMP_PREFIX):
                        st = os.stat(name, dir_fd=fd, follow_symlinks=False)
                        if now - st.st_mtime > older_than and unlink(name, fd, path):
                            n += 1
                    elif name.endswith(LOCK_SUFFIX):
                        lfd = _acquire(name, fd, 0.0, create=False, display=path)
                        if lfd is not None:
                            try:
                                os.unlink(name, dir_fd=fd)
                                n += 1
                            except OSError:
                                pass
                            os.close(lfd)
                except LinkRefused as e:
                    report(e)
                except OSError:
                    pass
        return n

    def _clear_dir(self, parent_fd: int, sub: str, display: str, keep=lambda name: False) -> int:
        """Remove the files of ``parent/sub`` (links reported and kept), then
        the directory if empty; files removed."""
        n = 0
        try:
            with opened(sub, parent_fd, display) as fd:
                if fd is None:
                    return 0
                for name in os.listdir(fd):
                    if not keep(name) and unlink(name, fd, os.path.join(display, name)):
                        n += 1
            os.rmdir(sub, dir_fd=parent_fd)
        except LinkRefused as e:
            report(e)
        except OSError:
            pass
        return n

    def remove_legacy_pch(self) -> int:
        """Remove the precompiled device APIs that releases before the PCH
        joined the cache kept beside it (``<root>/pch/<16 hex>.pch``, about
        1.5 MB per configuration, never evicted); files removed.  Anything
        else in that directory is left alone, and so is a ``pch`` link."""
        def keep(name):
            stem, ext = os.path.splitext(name)
            return not (ext == ".pch" and len(stem) == 16 and all(c in "0123456789abcdef" for c in stem))
        try:
            rfd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            return 0
        try:
            return self._clear_dir(rfd, "pch", os.path.join(self.root, "pch"), keep)
        finally:
            os.close(rfd)

    def clear(self) -> int:
        """Remove every entry, record, lock and temp file (and the old
        layout's PCH files); entries removed.  Links are reported and kept."""
        n = 0
        self.remove_legacy_pch()
        with self._v1() as fd:
            if fd is None:
                return 0
            for e in self.entries(read_meta=False):
                if unlink(e.key + ENTRY_SUFFIX, fd, e.path):
                    n += 1
            self.clean_stale(older_than=-1)
            self._clear_dir(fd, "origins", os.path.join(self.dir, "origins"))
        return n


def _acquire(name: str, dir_fd: int, timeout: float, create: bool = True,
             display: Optional[str] = None) -> Optional[int]:
    """An fd holding an exclusive flock on ``name`` under ``dir_fd``, or None
    on timeout (or when ``create`` is False and the file is gone).
    LinkRefused for a link.  Polls with a short backoff: Python has no
    timed flock."""
    deadline = time.monotonic() + max(timeout, 0.0)
    delay = 0.001
    while True:
        try:
            fd = open_file(name, dir_fd, display or name, os.O_RDWR | (os.O_CREAT if create else 0) | os.O_NONBLOCK)
        except FileNotFoundError:
            if not create:
                return None
            raise
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise LinkRefused(display or name, "is not a regular file")
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
            same = os.fstat(fd).st_ino == os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)
        if not create:
            return None
