"""The cache directory as a jail: every path below the cache root is opened
relative to a directory descriptor, one component at a time, with no
symbolic link followed (``O_NOFOLLOW``/``O_DIRECTORY`` on each ``openat``;
``unlinkat``, ``renameat`` and ``utimensat`` never follow the last
component).  A link planted anywhere below the root -- a ``<key>.lock``,
``v1/origins``, ``pch/``, an entry -- is reported once and left alone:
nothing outside the root is created, written, read or deleted through it.

The root itself is the user's choice (``ASCENDRTC_CACHE_DIR`` may well be
a link to a bigger disk) and is resolved once, when it is opened.
"""
from __future__ import annotations

import errno
import logging
import os
import stat
from contextlib import contextmanager
from typing import Iterator, Optional, Set

log = logging.getLogger("ascendrtc.cache")

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_reported: Set[str] = set()


class LinkRefused(OSError):
    """A path below the cache root is a symbolic link (or not what it
    should be); it was reported and left alone."""

    def __init__(self, path: str, what: str):
        super().__init__(errno.ELOOP, f"{path} {what}; ascendrtc leaves it alone (remove it to use the cache fully)")
        self.path = path


def report(e: LinkRefused) -> None:
    """Warn once per path about a planted link."""
    if e.path not in _reported:
        _reported.add(e.path)
        log.warning("ascendrtc cache: %s", e.strerror)


def is_link(name: str, dir_fd: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except FileNotFoundError:
        return False


def open_dir(name: str, dir_fd: Optional[int], display: str, create: bool = False) -> Optional[int]:
    """An fd of the directory ``name`` under ``dir_fd`` (None: ``name`` is
    the root, opened as given); None when it is missing and not
    ``create``d (mode 0700).  LinkRefused when it is a link or not a directory."""
    flags = _DIR_FLAGS if dir_fd is not None else (_DIR_FLAGS & ~os.O_NOFOLLOW)
    try:
        return os.open(name, flags, dir_fd=dir_fd)
    except FileNotFoundError:
        if not create:
            return None
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.ENOTDIR) and dir_fd is not None:
            raise LinkRefused(display, "is a symbolic link" if is_link(name, dir_fd) else "is not a directory") \
                from None
        raise
    try:
        os.mkdir(name, 0o700, dir_fd=dir_fd)
    except FileExistsError:
        pass
    return open_dir(name, dir_fd, display)


@contextmanager
def opened(name: str, dir_fd: Optional[int], display: str, create: bool = False) -> Iterator[Optional[int]]:
    """:func:`open_dir` as a context that closes the fd."""
    fd = open_dir(name, dir_fd, display, create)
    try:
        yield fd
    finally:
        if fd is not None:
            os.close(fd)


def open_file(name: str, dir_fd: int, display: str, flags: int, mode: int = 0o600) -> int:
    """``openat(dir_fd, name, flags | O_NOFOLLOW)``; LinkRefused for a link."""
    try:
        return os.open(name, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=dir_fd)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise LinkRefused(display, "is a symbolic link") from None
        raise


def unlink(name: str, dir_fd: int, display: str) -> bool:
    """Remove a file (never a link: that is reported and kept); whether it existed."""
    try:
        if is_link(name, dir_fd):
            report(LinkRefused(display, "is a symbolic link"))
            return False
        os.unlink(name, dir_fd=dir_fd)
        return True
    except OSError:  # gone, a directory in its place, no permission: nothing removed
        return False
