"""The autotuner on the cost model: ``ascendrtc.autotune`` and ``ascendrtc.sweep``.

Each configuration of a kernel runs on the simulated NPU under
``ascendrtc.profile(soc)``; configurations whose outputs differ from the
first one's are rejected (the differing elements named), failing ones are
reported and skipped, and the lowest estimated NPU time wins.  The choice
is cached per kernel binary, key and SoC in the binary cache (and its
remote tier).  Configurations run in parallel across processes, or on Ray
when a cluster is given or a Ray session is on::

    tuned = arc.autotune(configs=[{"tile": t, "bufs": b} for t in (512, 2048) for b in (1, 2)],
                         key=["n"])(add_tiles)
    tuned[8](x, y, z, n)        # tunes once per n, then launches the best
    print(tuned.best_config, tuned.table())
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ._errors import Error

_BLOCKS = "blocks"  # a config key that sets the launch's block count
_kernels: Dict[str, Any] = {}  # binary sha256 + name -> Kernel, per process


@dataclass
class Trial:
    """One configuration's outcome: ``status`` is ``"ok"``, ``"failed"`` (it
    did not compile, launch or run: ``error`` says why), ``"mismatch"`` (its
    outputs differ from the first configuration's: ``error`` names the
    elements) or ``"lost"`` (its Ray worker died twice)."""
    config: Dict[str, Any]
    status: str
    time_us: Optional[float] = None
    roofline_us: Optional[float] = None
    bound: str = ""
    error: str = ""


def _kernel_of(binary: bytes, name: str):
    key = hashlib.sha256(binary).hexdigest() + ":" + name
    k = _kernels.get(key)
    if k is None:
        from ._program import Binary
        k = _kernels[key] = Binary.from_bytes(binary).load().get_kernel(name)
    return k


class _Ref:
    """An array argument shipped once per worker: the index in its list."""
    __slots__ = ("i",)

    def __init__(self, i: int):
        self.i = i


def _split(args: list, arrays: List[np.ndarray]) -> list:
    """args with each array replaced by a _Ref into `arrays` (appended once)."""
    out = []
    for a in args:
        if isinstance(a, np.ndarray):
            for i, b in enumerate(arrays):
                if b is a:
                    break
            else:
                arrays.append(a)
                i = len(arrays) - 1
            out.append(_Ref(i))
        else:
            out.append(a)
    return out


def _same_bytes(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether two arrays hold the same bytes (NaN equals itself here)."""
    a = np.ascontiguousarray(x).reshape(-1).view(np.uint8)
    b = np.ascontiguousarray(y).reshape(-1).view(np.uint8)
    if a.size != b.size:
        return False
    w = np.uint64 if a.size % 8 == 0 else np.uint8  # compare 8 bytes at a time where they divide
    return bool(np.array_equal(a.view(w), b.view(w)))


def _digest(out: np.ndarray, given: np.ndarray) -> str:
    """What a worker reports of an output array: "unchanged" when the launch
    left it as given (the inputs, mostly: a comparison costs a fiftieth of
    hashing), else the SHA-256 of its bytes."""
    if _same_bytes(out, given):
        return "unchanged"
    return hashlib.sha256(np.ascontiguousarray(out).reshape(-1).view(np.uint8)).hexdigest()


def _evaluate(binary: bytes, name: str, blocks: int, args: list, soc: Optional[str], arrays=None,
              digest: bool = False) -> dict:
    """Run one launch under the cost model (in this process): its estimate
    and the arrays after it (digest: their SHA-256s), or the error.  Top
    level: workers call it."""
    from ._profile import profile
    try:
        k = _kernel_of(binary, name)
        given = [arrays[a.i] if isinstance(a, _Ref) else a for a in args]
        args = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in given]
        with profile(soc) as prof:
            k[blocks](*args)
        if len(prof) != 1:
            return {"error": f"{len(prof)} launches were priced, not 1"}
        r = prof[0]
        outs = [a for a in args if isinstance(a, np.ndarray)]
        res = {"time_us": r.time_us, "roofline_us": r.roofline_us, "bound": r.bound}
        if digest:
            res["digests"] = [_digest(a, g) for a, g in zip(args, given) if isinstance(a, np.ndarray)]
        else:
            res["outputs"] = outs
        return res
    except Exception as e:  # reported in the table, never raised from a worker
        return {"error": f"{type(e).__name__}: {e}"}


def _ray(cluster: Optional[str]):
    """The Ray module, connected when a cluster is given or a session is on; else None."""
    if cluster is None:
        try:
            import ray
        except ImportError:
            return None
        return ray if ray.is_initialized() else None
    import ray
    if not ray.is_initialized():
        ray.init(address=cluster, ignore_reinit_error=True, log_to_driver=False)
    return ray


def _ray_evaluate(binary, name, blocks, args, soc, *arrays):
    return _evaluate(binary, name, blocks, args, soc, arrays, True)


def run_all(binary: bytes, name: str, jobs: Sequence[tuple], soc: Optional[str], cluster: Optional[str],
            processes: Optional[int]) -> List[dict]:
    """Evaluate (blocks, args) jobs: on Ray, across processes, or here.  The
    arrays go to each worker once; workers return their outputs' digests,
    this process the outputs themselves."""
    arrays: List[np.ndarray] = []
    split = [(b, _split(list(a), arrays)) for b, a in jobs]
    ray = _ray(cluster)
    if ray is not None:
        remote = ray.remote(max_retries=1)(_ray_evaluate)  # a lost worker is retried once
        refs_a = [ray.put(a) for a in arrays]
        refs = [remote.remote(binary, name, b, a, soc, *refs_a) for b, a in split]
        out = []
        for ref in refs:
            try:
                out.append(ray.get(ref))
            except ray.exceptions.RayError as e:
                out.append({"error": f"lost: its Ray worker died twice ({type(e).__name__})", "lost": True})
        return out
    if processes == 1 or len(jobs) == 1:
        return [_evaluate(binary, name, b, a, soc, arrays) for b, a in split]
    from ._autotune_pool import in_processes
    return in_processes((binary, name, soc, arrays), split, processes)


def _differences(names: List[str], ref: list, got: list, limit: int = 5) -> str:
    parts, total = [], 0
    for n, a, b in zip(names, ref, got):
        if a.shape != b.shape:
            parts.append(f"{n}: shape {b.shape} vs {a.shape}")
            total += 1
            continue
        bad = np.argwhere(~((a == b) | (np.isnan(a) & np.isnan(b)) if a.dtype.kind in "fc" else (a == b)))
        total += len(bad)
        for idx in bad[:max(0, limit - len(parts))]:
            i = tuple(int(x) for x in idx)
            parts.append(f"{n}[{', '.join(map(str, i))}] = {b[i].item()!r}, not {a[i].item()!r}")
    return f"{total} elements differ from the first config's: " + "; ".join(parts) if total else ""


class Autotuned:
    """A kernel with tuning configurations (``ascendrtc.autotune``):
    ``tuned[blocks](*args)`` tunes once per key (and SoC), then launches the
    best configuration with ``args``; the configuration's names are kernel
    parameters the call leaves out (``"blocks"`` sets the block count)."""

    def __init__(self, kernel, configs: Sequence[Dict[str, Any]], key: Sequence[str] = (), soc: Optional[str] = None,
                 cluster: Optional[str] = None, processes: Optional[int] = None):
        from ._program import kernel_origin
        if not configs:
            raise ValueError("autotune: configs is empty")
        self.kernel = kernel
        self.configs = [dict(c) for c in configs]
        self.key = list(key)
        self.soc, self.cluster, self.processes = soc, cluster, processes
        self._binary, self._name = kernel_origin(kernel)
        self._params = [p[0] for p in kernel.params]
        for c in self.configs:
            bad = [n for n in c if n != _BLOCKS and n not in self._params]
            if bad:
                raise ValueError(f"autotune: config {c} names {bad}, not parameters of {kernel.signature}")
        self._chosen: Dict[str, Dict[str, Any]] = {}
        self.trials: List[Trial] = []
        self.best_config: Optional[Dict[str, Any]] = None

    def __getitem__(self, blocks: int):
        return lambda *args, **kw: self._launch(blocks, args, kw)

    def _bind(self, blocks: int, config: Dict[str, Any], args, kw) -> tuple:
        free = [p for p in self._params if p not in config and p not in kw]
        if len(args) != len(free):
            raise TypeError(f"{self.kernel.signature} with config {config}: {len(free)} arguments expected "
                            f"({', '.join(free)}), got {len(args)}")
        vals = dict(zip(free, args), **kw, **{k: v for k, v in config.items() if k != _BLOCKS})
        return int(config.get(_BLOCKS, blocks)), [vals[p] for p in self._params]

    def _cache_key(self, blocks: int, args, kw) -> str:
        vals = dict(zip([p for p in self._params if p not in self.configs[0] and p not in kw], args), **kw)
        keyed = {}
        for n in self.key:
            if n not in vals:
                raise ValueError(f"autotune: key {n!r} is not an argument of the call")
            v = vals[n]
            keyed[n] = [list(v.shape), str(v.dtype)] if hasattr(v, "shape") else v
        text = json.dumps([hashlib.sha256(self._binary).hexdigest(), self._name, blocks, keyed, self.soc or "",
                           self.configs], sort_keys=True, default=str)
        return hashlib.sha256(b"ascendrtc autotune\0" + text.encode()).hexdigest()

    def _launch(self, blocks: int, args, kw):
        ck = self._cache_key(blocks, args, kw)
        best = self._chosen.get(ck) or _cache_load(ck)
        if best is None:
            best = self.tune(blocks, *args, **kw)
            _cache_store(ck, best, self._name)
        self._chosen[ck] = best
        self.best_config = best
        b, full = self._bind(blocks, best, args, kw)
        return self.kernel[b](*full)

    def tune(self, blocks: int, *args, **kw) -> Dict[str, Any]:
        """Evaluate every configuration now (no cache) and return the best."""
        jobs = [self._bind(blocks, c, args, kw) for c in self.configs]
        results = run_all(self._binary, self._name, jobs, self.soc, self.cluster, self.processes)
        names = [p for p, v in zip(self._params, jobs[0][1]) if isinstance(v, np.ndarray)]
        trials, ref = [], None
        for c, r in zip(self.configs, results):
            if "error" in r:
                trials.append(Trial(c, "lost" if r.get("lost") else "failed", error=r["error"]))
                continue
            t = Trial(c, "ok", r["time_us"], r["roofline_us"], r["bound"])
            if ref is None:
                ref = (c, r)
            elif r.get("digests", 0) != ref[1].get("digests", 1):  # differ, or outputs to compare
                diff = _differences(names, self._outputs(blocks, ref, args, kw), self._outputs(blocks, (c, r), args, kw))
                if diff:
                    t.status, t.error = "mismatch", diff
            trials.append(t)
        self.trials = trials
        ok = [t for t in trials if t.status == "ok"]
        if not ok:
            raise Error("autotune: every configuration failed:\n" + self.table())
        best = min(ok, key=lambda t: t.time_us)
        self.best_config = dict(best.config)
        return self.best_config

    def _outputs(self, blocks: int, cr: tuple, args, kw) -> list:
        """A config's output arrays: its result's, or rerun here (a worker
        returned their digests only)."""
        c, r = cr
        if "outputs" not in r:
            b, full = self._bind(blocks, c, args, kw)
            r["outputs"] = _evaluate(self._binary, self._name, b, full, self.soc).get("outputs", [])
        return r["outputs"]

    def table(self) -> str:
        """Every configuration of the last tuning: estimate, roofline, bound, status."""
        rows = [f"{'config':<36} {'time(us)':>10} {'roofline':>9} {'bound':>7}  status"]
        best = self.best_config
        for t in self.trials:
            mark = " <- best" if t.config == best and t.status == "ok" else ""
            tt = f"{t.time_us:10.2f}" if t.time_us is not None else f"{'-':>10}"
            rf = f"{t.roofline_us:9.2f}" if t.roofline_us is not None else f"{'-':>9}"
            rows.append(f"{json.dumps(t.config):<36} {tt} {rf} {t.bound:>7}  {t.status}{mark}"
                        + (f": {t.error}" if t.error else ""))
        return "\n".join(rows)


def _cache_load(key: str) -> Optional[Dict[str, Any]]:
    from .cache import get_cache, mode
    from ._cache_remote import get_tier
    if mode() == "off":
        return None
    try:
        hit = get_cache().load(key)
        if hit is None and get_tier() is not None:
            hit = get_tier().load(key)
        return json.loads(hit[1]) if hit is not None else None
    except (OSError, ValueError):
        return None


def _cache_store(key: str, best: Dict[str, Any], name: str) -> None:
    from .cache import get_cache, mode
    from ._cache_remote import get_tier
    from ._cache_store import encode_entry
    if mode() != "on":
        return
    blob = encode_entry(key, json.dumps(best, sort_keys=True).encode(), {"origin": "autotune:" + name,
                                                                        "label": "autotune " + name})
    try:
        cache = get_cache()
        cache.ensure()
        cache.store_blob(key, blob)
        if get_tier() is not None:
            get_tier().store_blob(key, blob)
    except OSError:
        pass


def autotune(configs: Sequence[Dict[str, Any]], key: Sequence[str] = (), soc: Optional[str] = None,
             cluster: Optional[str] = None, processes: Optional[int] = None):
    """Tune a kernel on the cost model: ``autotune(configs=[{...}, ...],
    key=["n"])(kernel)`` (or as a decorator on a function returning the
    kernel) gives an :class:`Autotuned`.  Each config names kernel
    parameters (and optionally ``"blocks"``); ``tuned[blocks](*rest)``
    runs every config once per distinct ``key`` argument values (arrays by
    shape and dtype) and ``soc``, keeps those whose outputs match the first
    config's, picks the lowest estimated time (``ascendrtc.profile(soc)``),
    caches the choice with the binaries (and the remote tier), and launches
    it.  Configs run in parallel across ``processes`` (default: the CPU
    count), or as Ray tasks when ``cluster`` (a Ray address) is given or a
    Ray session is on.  ``best_config`` and ``table()`` explain the choice."""
    def wrap(kernel):
        if callable(kernel) and not hasattr(kernel, "params"):
            kernel = kernel()
        return Autotuned(kernel, configs, key, soc, cluster, processes)
    return wrap


def sweep(kernel, points: Sequence[Dict[str, Any]], blocks: int = 1, soc: Optional[str] = None,
          cluster: Optional[str] = None, processes: Optional[int] = None) -> List[Trial]:
    """Estimate ``kernel`` at every point (a dict of all its arguments by
    name, optionally ``"blocks"``), in parallel as :func:`autotune` does:
    one :class:`Trial` per point, failures reported in it."""
    from ._program import kernel_origin
    binary, name = kernel_origin(kernel)
    params = [p[0] for p in kernel.params]
    jobs = []
    for p in points:
        missing = [n for n in params if n not in p]
        if missing:
            raise ValueError(f"sweep: point {sorted(p)} lacks {missing} of {kernel.signature}")
        jobs.append((int(p.get(_BLOCKS, blocks)), [p[n] for n in params]))
    out = []
    for p, r in zip(points, run_all(binary, name, jobs, soc, cluster, processes)):
        cfg = {k: (f"array{list(v.shape)}" if hasattr(v, "shape") else v) for k, v in p.items()}
        if "error" in r:
            out.append(Trial(cfg, "lost" if r.get("lost") else "failed", error=r["error"]))
        else:
            out.append(Trial(cfg, "ok", r["time_us"], r["roofline_us"], r["bound"]))
    return out
