"""ascendrtc's compile cache: source -> key -> load or compile -> save.

:func:`compile` is the one place that turns a :class:`~ascendrtc.Program`
and its options into a :class:`~ascendrtc.Binary`, going through the disk
cache.  The key (``_cache_key``) covers the source, every option, the
arch, every header the compile can read, the compiler and device-API
fingerprint and the ascendrtc version.  Each entry also records every
file the compiler actually read (its own dependency list, with a hash of
the bytes compiled) and every path it looked for in vain (a false
``__has_include``, include directories searched before the right one),
re-checked on each hit: a header that changed, vanished or appeared
where the compiler looked, however the source reached it, is a miss that
recompiles.
Entries (``_cache_store``) verify themselves, are written atomically, and
a per-key lock makes concurrent processes compile one key once.

Settings, read at each use (not frozen at import):

``ASCENDRTC_CACHE``
    ``on`` (default): read and write;  ``read``: use entries, never write;
    ``off``: no disk cache;  ``require``: raise :class:`CacheMissError`
    instead of compiling (for production runs that must not compile).
``ASCENDRTC_CACHE_DIR``
    the directory (default ``$XDG_CACHE_HOME/ascendrtc`` or
    ``~/.cache/ascendrtc``), created 0700.  It must be owned by this user
    (or root) and writable by no one else; one this user cannot write (a
    shared, pre-filled cache) is used as in ``read`` mode.
``ASCENDRTC_CACHE_MAX_SIZE``
    size cap (e.g. ``2G``, default 1 GiB); least recently used entries go
    first.
``ASCENDRTC_CACHE_LOCK_TIMEOUT``
    seconds to wait for another process compiling the same key (default
    600); after that, compile anyway.

``ASCENDRTC_CACHE_REMOTE``
    a Redis server shared by many machines (``redis[s]://[[user]:password@]host[:port][/db]``),
    consulted after a local miss and filled after a compile.  Entries there
    carry a MAC under the team's key (``ASCENDRTC_CACHE_REMOTE_KEY`` or
    ``ASCENDRTC_CACHE_REMOTE_KEY_FILE``); one without a valid MAC is never
    loaded, and a hit is re-checked against the local key.  Without a key
    the server is unused unless ``ASCENDRTC_CACHE_REMOTE_TRUST=unauthenticated``
    (see :mod:`ascendrtc._cache_auth`).  ``read`` and ``require`` apply to it too.
``ASCENDRTC_CACHE_REMOTE_TIMEOUT``, ``ASCENDRTC_CACHE_REMOTE_MAX_VALUE``
    seconds any one request to it may take (default 1), and the largest
    value read from it (default 64M); a server that fails is skipped for a
    while, with one warning, and compiles go on.

``ascendrtc cache list|stats|verify|prune|clear`` inspects and
maintains the directory (``--remote`` for the server).

The compiler's precompiled device API (one per compile configuration,
built on a process's first compile) is an entry here too, labelled
``precompiled device API``: the compiler asks :func:`_pch_load` and
:func:`_pch_save` (through the store the extension lends it,
``csrc/ext/pch_store.c``), so every mode, the cap, eviction and the CLI
apply to it.  It stays local: the remote tier holds kernels only.
"""
from __future__ import annotations

import argparse
import contextlib
import errno
import hashlib
import logging
import os
import sys
import time
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Union

from ._cache_key import CacheKey, KeyTooCostly, NoCompiler, compute_key, explain, fingerprint, stale_dependency
from ._errors import CacheMissError
from ._cache_remote import RemoteError, get_tier
from ._cache_store import CacheDirError, CacheFull, DiskCache, default_max_size, default_root, encode_entry, parse_size

__all__ = ["compile", "CompileResult", "CacheMissError", "CacheDirError", "DiskCache", "CacheKey",
           "compute_key", "program_key", "mode", "get_cache", "fingerprint", "main"]

log = logging.getLogger("ascendrtc.cache")

MODES = ("on", "read", "off", "require")
_full_warned: set = set()   # cache directories reported full, keys too costly (one warning each)
_MODE_ALIASES = {"": "on", "1": "on", "rw": "on", "readwrite": "on", "true": "on", "yes": "on",
                 "0": "off", "false": "off", "no": "off", "none": "off", "readonly": "read"}


def mode(value: Optional[str] = None) -> str:
    """The cache mode: ``value`` or ``$ASCENDRTC_CACHE``, normalised."""
    raw = os.environ.get("ASCENDRTC_CACHE", "on") if value is None else value
    m = raw.strip().lower()
    m = _MODE_ALIASES.get(m, m)
    if m not in MODES:
        raise ValueError(f"ASCENDRTC_CACHE={raw!r}: expected one of {', '.join(MODES)}")
    return m


def get_cache(directory: Optional[str] = None) -> DiskCache:
    """The disk cache at ``directory`` (default: see the module doc)."""
    return DiskCache(directory or default_root())


def _lock_timeout() -> float:
    env = os.environ.get("ASCENDRTC_CACHE_LOCK_TIMEOUT")
    if not env:
        return 600.0
    try:
        return float(env)
    except ValueError:
        raise ValueError(f"ASCENDRTC_CACHE_LOCK_TIMEOUT={env!r}: expected seconds") from None


@dataclass
class CompileResult:
    """What :func:`compile` did.  ``how`` is ``"disk"`` (a verified entry),
    ``"remote"`` (a verified entry from the remote tier, now also on disk),
    ``"compiled"`` (and stored, unless the mode is ``read``) or
    ``"compiled-uncached"`` (mode ``off``)."""
    binary: Any
    how: str
    key: Optional[CacheKey]
    seconds: float
    reason: str = ""
    lock_waited: float = 0.0
    lock_timed_out: bool = False


def _compile_now(program, opts: List[str]):
    """Run the compiler (a Program's own compile goes through this cache)."""
    now = getattr(program, "_compile_now", None)
    return now(opts) if now is not None else program.compile(opts)


def _warn_full(cache: DiskCache, why: str) -> None:
    """One warning per directory and process that it is full (no inodes or quota)."""
    if cache.dir not in _full_warned:
        _full_warned.add(cache.dir)
        log.warning("ascendrtc cache: %s; compiling without the disk cache", why)


def program_key(program, options: Iterable[str] = ()) -> CacheKey:
    """The cache key of ``program.compile(options)``."""
    return compute_key(program.source, list(options), name=program.name, headers=program.headers,
                       name_expressions=program.name_expressions)


def _binary_from_entry(meta: Dict[str, Any], payload: bytes):
    from ._program import Binary
    b = Binary(payload, log=meta.get("log", ""), lowered=meta.get("lowered") or {},
               options=meta.get("options") or [])
    deps = meta.get("deps")
    b.dependencies = dict(deps) if isinstance(deps, dict) else None
    return b


def _fresh(hit, stale: List[str]):
    """``hit`` when every file its compile read is unchanged; else None,
    with the reason appended to ``stale``."""
    if hit is None:
        return None
    why = stale_dependency(hit[0].get("deps"))
    if why is None:
        return hit
    stale.append(why)
    return None


def _strs(v) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _str_map(v) -> bool:
    return isinstance(v, dict) and all(isinstance(x, str) for x in (*v, *v.values()))


def _matches_key(hit, key: CacheKey, opts: List[str], where: str):
    """``hit`` (an authenticated remote entry) when what it says and what
    its binary says agree with the key computed here -- the options, the
    arch, the compiler, and the kernels its metadata names -- before it is
    loaded or kept on disk; else None, logged."""
    if hit is None:
        return None
    meta, payload = hit
    from ._C import read_meta
    try:
        bm = read_meta(payload)
    except (ValueError, TypeError) as e:
        bm, why = None, str(e)
    else:
        why = "its payload has no ascendrtc kernel metadata"
    checks = [(_strs(meta.get("kernels")) and _str_map(meta.get("lowered") or {}) and
               isinstance(meta.get("log", ""), str) and (meta.get("deps") is None or _str_map(meta["deps"])),
               "its metadata is malformed"),
              (meta.get("options") == opts, f"options {str(meta.get('options'))[:200]} differ from {opts}"),
              (meta.get("arch") == key.components.get("arch"), f"arch {str(meta.get('arch'))[:40]!r} differs"),
              (meta.get("compiler") == key.components.get("compiler"), "it was built by another compiler"),
              # a real CANN binary carries no ascendrtc metadata; the simulated NPU's always does
              (bm is not None or key.components.get("backend") != "sim", why)]
    if bm is not None:
        checks += [(bm.arch == key.components.get("arch"), f"the binary is for {bm.arch!r}"),
                   (_strs(meta.get("kernels")) and sorted(k.name for k in bm.kernels) == sorted(meta["kernels"]),
                    "the binary's kernels are not the ones its metadata names")]
    bad = [w for ok, w in checks if not ok]
    if bad:
        log.warning("ascendrtc cache: ignoring the remote entry %s on %s: %s", key.digest, where, "; ".join(bad))
        return None
    return hit


def _reason(cache: DiskCache, origin: str, label: str, key: CacheKey) -> str:
    """Why ``key`` missed: what changed since the last compile of the same
    specialisation, else that it is new."""
    records = cache.read_origin(origin)
    same = [r for r in records if r.get("label") == label]
    if same:
        return f"{explain(same[-1].get('components', {}), key.components)} since the last compile of it"
    if records:
        return "a specialisation not compiled before"
    return f"the first compile of {origin} in this cache"


def compile(program, options: Union[None, str, Iterable[str]] = None, *, origin: Optional[str] = None,
            label: Optional[str] = None, cache_mode: Optional[str] = None, directory: Optional[str] = None,
            lock_timeout: Optional[float] = None) -> CompileResult:
    """Compile ``program`` with ``options`` through the disk cache.

    ``origin`` names what is being compiled across runs (a jit kernel's
    qualified name; default the program name) and ``label`` the
    specialisation (default: ``origin``): a miss is explained against the
    last compile with the same origin and label.  ``cache_mode`` and
    ``directory`` override ``$ASCENDRTC_CACHE`` / ``$ASCENDRTC_CACHE_DIR``.
    """
    from ._program import _as_options
    opts = _as_options(options)
    m = mode(cache_mode)
    t0 = time.perf_counter()
    if m == "off":
        b = _compile_now(program, opts)
        return CompileResult(b, "compiled-uncached", None, time.perf_counter() - t0, "disk cache off")
    origin = origin or program.name
    label = label or origin
    cache = get_cache(directory)
    cache.ensure()
    try:
        key = program_key(program, opts)
    except NoCompiler as e:
        # No compiler to fingerprint: compiling says why in the backend's
        # own words; if it somehow works, the result is not cached.
        b = _compile_now(program, opts)
        return CompileResult(b, "compiled-uncached", None, time.perf_counter() - t0, str(e))
    except KeyTooCostly as e:
        # e.g. `ascendrtc cc` of a file in /tmp (its directory is an -I): the
        # compile goes on, uncached, and says why once per directory
        if str(e) not in _full_warned:  # one warning per cause and process
            _full_warned.add(str(e))
            log.warning("ascendrtc cache: compiling without the disk cache: %s", e)
        b = _compile_now(program, opts)
        return CompileResult(b, "compiled-uncached", None, time.perf_counter() - t0, str(e))
    stale: List[str] = []
    hit = _fresh(cache.load(key.digest), stale)
    if hit is not None:
        return CompileResult(_binary_from_entry(*hit), "disk", key, time.perf_counter() - t0)
    writable = m == "on" and os.access(cache.dir, os.W_OK)  # not: a shared cache this user may only read
    remote = get_tier()
    if remote is not None:
        rhit = _fresh(_matches_key(remote.load(key.digest), key, opts, remote.display_url), stale)
        if rhit is not None:
            if writable:  # the next process on this machine finds it locally
                try:
                    cache.store(key.digest, rhit[1], {k: v for k, v in rhit[0].items() if k != "key"})
                except OSError as e:
                    log.warning("ascendrtc cache: could not store %s in %s: %s", label, cache.dir, e)
            return CompileResult(_binary_from_entry(*rhit), "remote", key, time.perf_counter() - t0)
    reason = f"{stale[0]} (the cached binary was built from the old one)" if stale else _reason(
        cache, origin, label, key)
    if m == "require":
        where = cache.dir + (f" nor on {remote.display_url}" if remote is not None else "")
        raise CacheMissError(f"ASCENDRTC_CACHE=require: {label} is not in the cache {where} "
                             f"(key {key.digest[:16]}; {reason}); run once with ASCENDRTC_CACHE=on to fill it")
    if not writable:
        b = _compile_now(program, opts)
        return CompileResult(b, "compiled", key, time.perf_counter() - t0, reason)
    tl = time.perf_counter()
    timeout = _lock_timeout() if lock_timeout is None else lock_timeout
    with contextlib.ExitStack() as stack:
        try:
            held = stack.enter_context(cache.lock(key.digest, timeout))
        except CacheFull as e:   # no inode for a lock file: nor for an entry; compile without the cache
            _warn_full(cache, e.strerror)
            return CompileResult(_compile_now(program, opts), "compiled-uncached", key, time.perf_counter() - t0,
                                 e.strerror)
        waited = time.perf_counter() - tl
        if held is False:
            log.warning("ascendrtc cache: waited %.0f s for another process compiling %s (key %s); "
                        "compiling it here too", waited, label, key.digest[:16])
        # Whoever held the lock before us may have stored it.
        hit = _fresh(cache.load(key.digest), [])
        if hit is not None:
            return CompileResult(_binary_from_entry(*hit), "disk", key, time.perf_counter() - t0,
                                 lock_waited=waited)
        tc = time.perf_counter()
        b = _compile_now(program, opts)
        compile_s = time.perf_counter() - tc
        meta = {"origin": origin, "label": label, "program": program.name, "kernels": b.kernel_names,
                "lowered": dict(b._lowered), "options": opts, "arch": key.components.get("arch"),
                "log": b.log, "compile_seconds": round(compile_s, 4), "created": time.time(),
                "compiler": key.components.get("compiler")}
        if b.dependencies is not None:
            meta["deps"] = b.dependencies  # what the compiler read, re-checked on each hit
        blob = encode_entry(key.digest, b.data, meta)
        try:
            cache.store_blob(key.digest, blob)
        except OSError as e:
            log.warning("ascendrtc cache: could not store %s in %s: %s", label, cache.dir, e)
        if remote is not None:
            remote.store_blob(key.digest, blob)
    cache.add_origin_record(origin, {"label": label, "key": key.digest, "components": key.components,
                                     "t": time.time()})
    try:
        cache.evict(default_max_size(), target=0.9)
    except OSError as e:
        log.debug("eviction failed: %s", e)
    return CompileResult(b, "compiled", key, time.perf_counter() - t0, reason, lock_waited=waited,
                         lock_timed_out=held is False)


# ---- the compiler's precompiled device API (csrc/ext/pch_store.c) ---------

PCH_LABEL = "precompiled device API"
OP_HOST_LABEL = "ascendrtc op host code"  # compiled op host code the compiler keeps (csrc/rtc/host_cache.h)


def pch_key(config: str) -> str:
    """The entry key of the PCH for ``config`` (the compiler's fingerprint
    and cc1 arguments, as the compiler names them)."""
    return hashlib.sha256(b"ascendrtc-pch\0" + config.encode()).hexdigest()


def _pch_cache(writing: bool) -> Optional[DiskCache]:
    """The disk cache when the mode lets a PCH be read (or, ``writing``,
    stored) now; None otherwise.  A directory that is unusable or unsafe
    means no PCH on disk, quietly: the compile that asked goes on (and
    :func:`compile` reports the directory itself)."""
    try:
        m = mode()
    except ValueError:
        return None
    if m == "off" or (writing and m != "on"):
        return None
    cache = get_cache()
    try:
        cache.ensure()
    except CacheDirError as e:
        log.debug("no precompiled device API on disk: %s", e)
        return None
    if writing and not os.access(cache.dir, os.W_OK):
        return None
    return cache


def _pch_load(config: str) -> Optional[bytes]:
    """The kept PCH for ``config``, or None (miss, mode ``off``, no usable
    directory).  Called by the compiler."""
    cache = _pch_cache(writing=False)
    hit = cache.load(pch_key(config)) if cache is not None else None
    return hit[1] if hit is not None else None


def _pch_save(config: str, data: bytes) -> None:
    """Keep a PCH the compiler just built (mode ``on`` only), then hold the
    cache to its cap.  Called by the compiler."""
    cache = _pch_cache(writing=True)
    if cache is None:
        return
    arch = next((f"dav-{a.split('=', 1)[1]}" for a in config.splitlines() if a.startswith("-D__NPU_ARCH__=")), None)
    # the compiler keeps op host code here too (csrc/rtc/host_cache.h), its kind on the key's first line
    host = config.startswith(OP_HOST_LABEL)
    try:
        cache.store(pch_key(config), data, {"kind": "op-host" if host else "pch",
                                            "label": config.split("\n", 1)[0] if host else PCH_LABEL,
                                            "kernels": [], "arch": arch, "created": time.time()})
        cache.evict(default_max_size(), target=0.9)
        cache.remove_legacy_pch()  # a new PCH is built once per configuration: the old layout's go with it
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EDQUOT):
            _warn_full(cache, f"no room for the {PCH_LABEL} in {cache.dir}: {e.strerror}")
        else:
            log.warning("ascendrtc cache: could not store the %s in %s: %s", PCH_LABEL, cache.dir, e)


# ---- python -m ascendrtc cache ... -------------------------------------------

def _fmt_size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


def _fmt_age(seconds: float) -> str:
    for unit, s in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= s:
            return f"{seconds / s:.0f}{unit} ago"
    return f"{seconds:.0f}s ago"


def main(argv: Optional[List[str]] = None, prog: str = "python -m ascendrtc.cache") -> int:
    """``ascendrtc cache <command>`` (``prog`` names the program in help and usage)."""
    p = argparse.ArgumentParser(prog=prog,
                                description="Inspect and maintain ascendrtc's compile cache.")
    p.add_argument("--dir", help="the cache directory (default: $ASCENDRTC_CACHE_DIR or ~/.cache/ascendrtc)")
    p.add_argument("--remote-url", metavar="URL", help="the remote cache (default: $ASCENDRTC_CACHE_REMOTE)")
    sub = p.add_subparsers(dest="cmd", required=True)
    ls = sub.add_parser("list", help="one line per entry: key, kernels, arch, size, last use")
    ls.add_argument("--remote", action="store_true", help="list the remote cache's entries instead")
    sub.add_parser("stats", help="directory, entry count, total size, cap, mode; the remote cache if one is set")
    v = sub.add_parser("verify", help="check every entry's checksum; exit 1 if any is corrupt")
    v.add_argument("--delete", action="store_true", help="remove corrupt entries")
    pr = sub.add_parser("prune", help="evict least recently used entries down to a size; remove stale temp files")
    pr.add_argument("--max-size", help="target size, e.g. 500M (default: $ASCENDRTC_CACHE_MAX_SIZE or 1G)")
    cl = sub.add_parser("clear", help="remove every entry")
    cl.add_argument("--remote", action="store_true", help="remove every entry of the remote cache instead")
    a = p.parse_args(argv)
    if getattr(a, "remote", False):
        return _remote_main(a)
    cache = get_cache(a.dir)
    if not os.path.isdir(cache.root):
        print(f"{cache.root}: no cache yet")
        return 0
    try:
        cache.ensure()
    except CacheDirError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    out = sys.stdout
    if a.cmd == "list":
        now = time.time()
        entries = cache.entries()
        for e in entries:
            if e.error:
                print(f"{e.key[:16]}  CORRUPT ({e.error})  {_fmt_size(e.size)}", file=out)
                continue
            m = e.meta
            what = "" if _is_pch(e) else f"  kernels={','.join(m.get('kernels', []))}"
            tail = "" if _is_pch(e) else f"  compile {m.get('compile_seconds', 0):.2f}s"
            print(f"{e.key[:16]}  {m.get('label') or m.get('program', '?')}{what}"
                  f"  arch={m.get('arch', '?')}  {_fmt_size(e.size)}  used {_fmt_age(now - e.last_used)}{tail}",
                  file=out)
        print(f"{_counted(entries)} in {cache.dir}", file=out)
    elif a.cmd == "stats":
        try:
            m = mode()
        except ValueError as e:
            m = f"invalid: {e}"
        entries = cache.entries()
        total = sum(e.size for e in entries)
        kernels = [e for e in entries if not _is_pch(e) and e.meta.get("kind") != "op-host"]
        bad = sum(1 for e in kernels if e.error)
        saved = sum(e.meta.get("compile_seconds", 0) for e in kernels if not e.error)
        pchs = [e for e in entries if _is_pch(e)]
        print(f"directory:  {cache.dir}", file=out)
        print(f"mode:       {m} (ASCENDRTC_CACHE)", file=out)
        print(f"entries:    {len(kernels)} ({bad} corrupt)", file=out)
        print(f"{PCH_LABEL}: {len(pchs)} ({_fmt_size(sum(e.size for e in pchs))})", file=out)
        hosts = [e for e in entries if e.meta.get("kind") == "op-host"]
        print(f"op host code: {len(hosts)} ({_fmt_size(sum(e.size for e in hosts))})", file=out)
        print(f"size:       {_fmt_size(total)} of {_fmt_size(default_max_size())} cap", file=out)
        print(f"compile time held: {saved:.1f}s", file=out)
        if entries:
            now = time.time()
            print(f"oldest use: {_fmt_age(now - entries[0].last_used)}; newest: {_fmt_age(now - entries[-1].last_used)}",
                  file=out)
        print(f"remote:     {_remote_summary(a.remote_url)}", file=out)
    elif a.cmd == "verify":
        entries = cache.entries()
        bad = [e for e in entries if e.error]
        for e in bad:
            print(f"CORRUPT {e.path}: {e.error}", file=out)
            if a.delete:
                cache.remove(e.key)
        pchs = sum(1 for e in entries if _is_pch(e))
        print(f"{len(entries) - len(bad) - pchs} ok, {len(bad)} corrupt{' (deleted)' if bad and a.delete else ''}"
              f"{f'; {PCH_LABEL}: {pchs} ok' if pchs else ''}", file=out)
        return 1 if bad and not a.delete else 0
    elif a.cmd == "prune":
        try:
            cap = parse_size(a.max_size) if a.max_size else default_max_size()
        except ValueError as e:
            print(f"error: --max-size: {e}", file=sys.stderr)
            return 2
        kinds = {e.key: e for e in cache.entries()}
        removed = [kinds[k] for k in cache.evict(cap) if k in kinds]
        stale = cache.clean_stale()
        print(f"removed {_counted(removed)} (now {_fmt_size(cache.total_size())}, cap {_fmt_size(cap)}) "
              f"and {stale} stale temp/lock files", file=out)
    elif a.cmd == "clear":
        entries = cache.entries()
        cache.clear()
        print(f"removed {_counted(entries)} from {cache.dir}", file=out)
    return 0


def _is_pch(e) -> bool:
    return e.meta.get("kind") == "pch"


def _counted(entries) -> str:
    """"3 entries" (compiled kernels, corrupt ones included), then the
    precompiled device APIs among them when there are any."""
    pchs = sum(1 for e in entries if _is_pch(e))
    return f"{len(entries) - pchs} entries" + (f" and {pchs} {PCH_LABEL}" if pchs else "")


def _remote_summary(url: Optional[str]) -> str:
    try:
        tier = get_tier(url)
    except ValueError as e:
        return f"invalid: {e}"
    if tier is None:
        return "none (set ASCENDRTC_CACHE_REMOTE=redis://host:port/db to share entries across machines)"
    try:
        rtt = tier.ping()
        keys = list(tier.keys())
    except RemoteError as e:
        return f"{tier.display_url}: unreachable ({e})"
    return f"{tier.display_url}: {len(keys)} entries (ping {rtt * 1e3:.2f} ms)"


def _remote_main(a) -> int:
    """``cache list --remote`` and ``cache clear --remote``."""
    try:
        tier = get_tier(a.remote_url)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if tier is None:
        print("error: no remote cache: set ASCENDRTC_CACHE_REMOTE=redis://host:port/db or pass --remote-url",
              file=sys.stderr)
        return 2
    try:
        keys = list(tier.keys())
        if a.cmd == "clear":
            n = tier.remove(keys)
            print(f"removed {n} entries from {tier.display_url}")
            return 0
        total = 0
        for k in keys:
            size, m = tier.entry_info(k)
            total += size or 0
            if m is None:
                print(f"{k[:16]}  CORRUPT (unreadable header)  {_fmt_size(size or 0)}")
                continue
            print(f"{k[:16]}  {m.get('label') or m.get('program', '?')}  kernels={','.join(m.get('kernels', []))}"
                  f"  arch={m.get('arch', '?')}  {_fmt_size(size)}  compile {m.get('compile_seconds', 0):.2f}s")
        print(f"{len(keys)} entries ({_fmt_size(total)}) in {tier.display_url}")
    except RemoteError as e:
        print(f"error: the remote cache {tier.display_url}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
