"""What a compiled binary depends on, as a cache key.

The key is the sha256 of named *components*, each a short string: the cache
format, the ascendrtc version, the compiler fingerprint (clang version,
target CPU, kernel ABI and a hash of every embedded device-API header), the
backend, the resolved ``--npu-arch``, every option, the program name and
name expressions, the source, and the content of every header the compile
can read: in-memory headers, and every header file under each ``-I``
directory (conservatively: all of them, not only those the source
includes), plus any file the source includes by absolute path.  Keeping the
components, not only their hash, lets a miss say what changed.

That key is what can be known before compiling.  What the compiler really
read is known after: its own dependency list (every file an ``#include``
reached however it was spelled -- through a macro, with comments, ``%:``,
line continuations, ``../`` out of an ``-I`` directory -- and every
``#embed``), with the hash of the bytes it compiled, and every path it looked
for and did not find (a false ``__has_include``, ``-I`` directories searched
before the one holding a header), as "absent".  The cache records that list
in the entry and :func:`stale_dependency` re-checks it on every hit: a
changed or vanished file, or one that appeared where the compiler looked, is
a miss that recompiles.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import sys
import threading
import time
from dataclasses import dataclass
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from ._cache_store import FORMAT_VERSION

HEADER_EXTS = (".h", ".hh", ".hpp", ".hxx", ".h++", ".inc", ".inl", ".ipp", ".tcc", ".def", ".cuh")
_MAX_INCLUDE_FILES = 20000

_ABS_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*[<"](/[^>"\n]+)[>"]', re.M)


def sha256(data) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()


# ---- the compiler fingerprint -----------------------------------------------

class NoCompiler(RuntimeError):
    """The backend's compiler library is not there to fingerprint."""


class KeyTooCostly(RuntimeError):
    """An -I directory holds more headers than the key may hash."""


_fp_lock = threading.Lock()
_fp_memo: Dict[Tuple, str] = {}


def _backend() -> Tuple[str, str]:
    from ._C import backend_info
    info = backend_info()
    return info["backend"], info["home"]


def _file_identity(path: str) -> Tuple:
    st = os.stat(path)
    return (path, st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def fingerprint(backend: Optional[str] = None, home: Optional[str] = None) -> str:
    """The compiler's fingerprint for the backend in use.

    With the simulated NPU (or any backend whose ``libacl_rtc.so`` exports
    ``ascendrtc_rtc_fingerprint``, reached through the extension's function
    table; ``backend``/``home`` must then be the backend in use) it is that
    string.  Otherwise (a real
    CANN home) it names the home, the content of its version files and the
    identity of ``libacl_rtc.so``.  Memoised per library file identity.
    """
    if backend is None or home is None:
        backend, home = _backend()
    lib = os.path.join(home, "lib64", "libacl_rtc.so")
    try:
        ident = _file_identity(lib)
    except OSError:
        raise NoCompiler(f"cannot fingerprint the compiler: {lib} does not exist (backend {backend!r}; "
                           f"build the simulated NPU home with `make home`, or check ASCEND_HOME_PATH)") from None
    with _fp_lock:
        fp = _fp_memo.get(ident)
        if fp is None:
            fp = _fingerprint_of(lib, home)
            _fp_memo[ident] = fp
    return fp


def _fingerprint_of(lib: str, home: str) -> str:
    from . import _C
    if _C.backend_info()["home"] != home:
        raise NoCompiler(f"cannot fingerprint the compiler at {home}: the backend in use is "
                         f"{_C.backend_info()['home']}")
    fp = _C.compiler_fingerprint()
    if fp is not None:
        return fp
    parts = [f"cann home={home}"]
    for rel in ("version.cfg", "version.info", "compiler/version.info", "../version.cfg"):
        p = os.path.join(home, rel)
        if os.path.isfile(p):
            with open(p, "rb") as f:
                parts.append(f"{rel}={sha256(f.read())[:16]}")
    st = os.stat(lib)
    parts.append(f"libacl_rtc.so size={st.st_size} mtime={st.st_mtime_ns}")
    return " ".join(parts)


# ---- options ----------------------------------------------------------------

def resolve_arch(options: Sequence[str], default: str = "dav-2201") -> str:
    """The ``--npu-arch`` the compiler will use, as the backend's own option
    parser resolves ``--npu-arch=``/``--npu-soc=`` (csrc/rtc/options.c);
    ``default`` when the options do not parse or the backend does not say."""
    from . import _C
    return _C.resolve_arch(list(options)) or default


def include_dirs(options: Sequence[str]) -> List[str]:
    """The ``-I`` directories of ``options`` (``-Idir`` or ``-I dir``),
    absolute (relative ones resolve against the current directory, as the
    compiler resolves them)."""
    out, i = [], 0
    while i < len(options):
        o = options[i]
        if o == "-I" and i + 1 < len(options):
            out.append(os.path.abspath(options[i + 1]))
            i += 1
        elif o.startswith("-I") and len(o) > 2:
            out.append(os.path.abspath(o[2:]))
        i += 1
    return out


# ---- header files -----------------------------------------------------------

_hash_lock = threading.Lock()
_hash_memo: Dict[str, Tuple[Tuple, str]] = {}
_RACY_S = 2.0  # coarser than any file system's timestamp granularity


def file_hash(path: str) -> str:
    """sha256 of a file's content, re-read only when its stat changed.  As
    git does for racy-clean files, a file modified within a few seconds of
    being hashed is hashed again, since an edit in the same timestamp tick
    that keeps the size would not show in its stat."""
    ident = _file_identity(path)
    with _hash_lock:
        hit = _hash_memo.get(path)
    if hit is not None and hit[0] == ident:
        return hit[1]
    h = _content_hash(path)
    if time.time() - os.stat(path).st_mtime > _RACY_S:
        with _hash_lock:
            _hash_memo[path] = (ident, h)
    return h


_MAX_HASHED = 1 << 30  # no header is near this; a file past it is not read


def _content_hash(path: str) -> str:
    """sha256 of a regular file's bytes.  Anything else (a FIFO would block,
    /dev/zero never ends) and an oversized file hash to a marker naming what
    it is, without being read: a key changes when a header turns into one,
    and a recorded dependency no longer matches."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return f"not-a-regular-file:{stat.S_IFMT(st.st_mode):o}"
        if st.st_size > _MAX_HASHED:
            return f"oversized:{st.st_size}"
        h = hashlib.sha256()
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                return h.hexdigest()
            h.update(b)
    finally:
        os.close(fd)


def stale_dependency(deps: Optional[Mapping[str, str]]) -> Optional[str]:
    """Why an entry compiled from the files ``deps`` (path -> sha256 of what
    the compiler read, or "absent" for a path it looked for and did not
    find) is stale now, or None when every file still has that content and
    every absent one is still absent.  One ``stat`` per file while it is unchanged (see
    :func:`file_hash`); ``None`` deps (not recorded) are not checked."""
    if not deps:
        return None
    if not isinstance(deps, Mapping):
        return "its dependency list is unreadable"
    for path, h in deps.items():
        if h == "absent":  # looked for and not found: a file there now would be read instead
            if os.path.exists(path):
                return (f"{path} exists now; the compile looked for it there and found nothing (a false "
                        f"__has_include, or an include search path before the file's)")
            continue
        try:
            now = file_hash(path)
        except OSError:
            return f"included file {path} is gone"
        if now != h:
            return f"included file {path} changed since it was compiled"
    return None


def _headers_under(d: str) -> Iterable[str]:
    n = 0
    for dirpath, dirnames, filenames in os.walk(d, followlinks=True):
        dirnames[:] = sorted(x for x in dirnames if not x.startswith("."))
        for fn in sorted(filenames):
            if fn.lower().endswith(HEADER_EXTS):
                n += 1
                if n > _MAX_INCLUDE_FILES:
                    raise KeyTooCostly(f"-I {d}: more than {_MAX_INCLUDE_FILES} header files under it; the cache "
                                       f"key hashes every header under each -I directory, so point -I at a "
                                       f"smaller directory (or set ASCENDRTC_CACHE=off)")
                yield os.path.join(dirpath, fn)


def _abs_includes(text: bytes) -> List[str]:
    return [m.decode("utf-8", "replace") for m in _ABS_INCLUDE.findall(text)]


def header_components(source: str, headers: Mapping[str, str], options: Sequence[str]) -> Dict[str, str]:
    """``header:<name>`` for in-memory headers, ``include:<path>`` for every
    header under each ``-I`` directory (``missing`` for a directory that
    does not exist), and files included by absolute path, transitively."""
    comp: Dict[str, str] = {}
    for name in sorted(headers):
        comp[f"header:{name}"] = sha256(headers[name])
    todo = _abs_includes(source.encode("utf-8", "surrogatepass"))
    for text in headers.values():
        todo += _abs_includes(text.encode("utf-8", "surrogatepass"))
    for d in include_dirs(options):
        if not os.path.isdir(d):
            comp[f"include:{d}/"] = "missing"
            continue
        for p in _headers_under(d):
            comp[f"include:{p}"] = file_hash(p)
    seen = set()
    while todo:
        p = os.path.normpath(todo.pop())
        if p in seen:
            continue
        seen.add(p)
        try:
            comp[f"include:{p}"] = h = file_hash(p)
            if h.startswith(("not-a-regular-file", "oversized")):
                continue  # never read (a FIFO would block): the marker is its component
            with open(p, "rb") as f:
                todo += _abs_includes(f.read())
        except OSError:
            comp[f"include:{p}"] = "missing"
    return comp


# ---- the key ----------------------------------------------------------------

@dataclass(frozen=True)
class CacheKey:
    """``digest`` (64 hex digits) names the entry; ``components`` are what
    it was computed from."""
    digest: str
    components: Dict[str, str]

    def __str__(self) -> str:
        return self.digest


def compute_key(source: str, options: Sequence[str] = (), *, name: str = "kernel.asc",
                headers: Optional[Mapping[str, str]] = None, name_expressions: Sequence[str] = (),
                fingerprint_text: Optional[str] = None, backend: Optional[str] = None) -> CacheKey:
    """The cache key of compiling ``source`` with ``options``.

    ``fingerprint_text`` and ``backend`` default to the compiler and backend
    in use (tests pass them to stay independent of the build)."""
    options = list(options)
    headers = dict(headers or {})
    if fingerprint_text is None or backend is None:
        b, home = _backend()
        backend = backend if backend is not None else b
        fingerprint_text = fingerprint_text if fingerprint_text is not None else fingerprint(b, home)
    asc = sys.modules.get("ascendrtc")
    comp = {
        "format": str(FORMAT_VERSION),
        "ascendrtc": getattr(asc, "__version__", "unknown"),
        "compiler": fingerprint_text,
        "backend": backend,
        "arch": resolve_arch(options, "dav-2201" if backend == "sim" else "default"),
        "options": json.dumps(options),
        "program": name,
        "name_expressions": json.dumps(list(name_expressions)),
        "source": sha256(source),
    }
    comp.update(header_components(source, headers, options))
    digest = sha256(json.dumps(comp, sort_keys=True, separators=(",", ":")))
    return CacheKey(digest, comp)


# ---- explanations -----------------------------------------------------------

def _short(v: str, n: int = 12) -> str:
    return v if len(v) <= n else v[:n]


def explain(old: Mapping[str, str], new: Mapping[str, str]) -> str:
    """One line naming what differs between two component sets."""
    parts = []
    for k in sorted(set(old) | set(new)):
        a, b = old.get(k), new.get(k)
        if a == b:
            continue
        if k == "source":
            parts.append("the source changed")
        elif k == "options":
            parts.append(f"options changed: {' '.join(json.loads(a or '[]')) or '(none)'} -> "
                         f"{' '.join(json.loads(b or '[]')) or '(none)'}")
        elif k == "compiler":
            ta, tb = (a or "").split(), (b or "").split()
            diff = [f"{x} -> {y}" for x, y in zip(ta, tb) if x != y] or [f"{a} -> {b}"]
            what = "device-API headers" if any(t.startswith("device-api=") for t in ta if t not in tb) else "compiler"
            parts.append(f"{what} changed ({'; '.join(diff)})")
        elif k.startswith("header:"):
            state = "added" if a is None else "removed" if b is None else "changed"
            parts.append(f"header '{k[7:]}' {state}")
        elif k.startswith("include:"):
            state = ("added" if a is None or a == "missing" else "removed" if b is None or b == "missing"
                     else "changed")
            parts.append(f"included file {k[8:]} {state}")
        elif k in ("arch", "ascendrtc", "backend", "program", "format", "name_expressions"):
            label = {"arch": "arch (--npu-arch)", "ascendrtc": "ascendrtc version", "format": "cache format",
                     "program": "program name"}.get(k, k)
            parts.append(f"{label} changed: {a} -> {b}")
        else:
            parts.append(f"{k} changed: {_short(a or '-')} -> {_short(b or '-')}")
    if not parts:
        return "nothing in the key changed"
    if len(parts) > 4:
        parts = parts[:4] + [f"and {len(parts) - 4} more"]
    return "; ".join(parts)
