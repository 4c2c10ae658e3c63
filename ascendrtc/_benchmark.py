"""``ascendrtc.benchmark``: time a function that launches kernels, like
``cupyx.profiler.benchmark``: host (wall) time per call, measured, and
device time per call, *estimated* by the simulated NPU's cost model
(:func:`ascendrtc.profile`; there is no device clock to read)."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Optional, Sequence

import numpy as np

from . import _C
from ._profile import profile

__all__ = ["benchmark", "BenchmarkResult"]


@dataclass
class BenchmarkResult:
    """What :func:`benchmark` measured.  ``cpu_times``: seconds of each
    timed call on the host, the device's work included (each call is
    followed by a synchronize); ``device_times``: the estimated device
    seconds of each profiled call (the sum of its launches' estimates);
    ``launches``: kernel launches per call."""
    name: str
    cpu_times: np.ndarray
    device_times: np.ndarray
    launches: int
    kernels: Sequence[str] = field(default_factory=tuple)

    @staticmethod
    def _fmt(label: str, t: np.ndarray) -> str:
        us = t * 1e6
        if us.size == 0:
            return f"{label}: n/a"
        return (f"{label}: {us.mean():9.3f} us +/- {us.std():7.3f} "
                f"(min: {us.min():9.3f} / max: {us.max():9.3f}) us")

    def __str__(self) -> str:
        return (f"{self.name:<20s}: {self._fmt('    CPU', self.cpu_times)}    "
                f"{self._fmt('NPU (estimated)', self.device_times)}")

    def __repr__(self) -> str:
        return f"<ascendrtc.BenchmarkResult {self}>"


def benchmark(func: Callable, args: tuple = (), kwargs: Optional[Dict[str, Any]] = None, *, n_repeat: int = 100,
              n_warmup: int = 10, n_device: Optional[int] = None, max_duration: float = float("inf"),
              name: Optional[str] = None) -> BenchmarkResult:
    """Call ``func(*args, **kwargs)`` ``n_warmup`` times, then ``n_repeat``
    times timed on the host (each followed by ``synchronize()``, stopping
    early after ``max_duration`` seconds), then ``n_device`` times (default
    ``min(n_repeat, 5)``) under :func:`ascendrtc.profile` for the device
    time the cost model estimates (profiled calls are not host-timed: the
    model slows them).  Returns a :class:`BenchmarkResult`; ``print`` it."""
    kwargs = kwargs or {}
    if not callable(func):
        raise TypeError(f"benchmark() needs a callable, not {type(func).__name__}")
    for what, v in (("n_repeat", n_repeat), ("n_warmup", n_warmup)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"benchmark({what}={v!r}): expected an int >= 0")
    if n_repeat < 1:
        raise ValueError("benchmark(n_repeat=0): at least one timed call")
    n_device = min(n_repeat, 5) if n_device is None else n_device
    for _ in range(n_warmup):
        func(*args, **kwargs)
    _C.synchronize()
    cpu = []
    start = time.perf_counter()
    for _ in range(n_repeat):
        t0 = time.perf_counter()
        func(*args, **kwargs)
        _C.synchronize()
        t1 = time.perf_counter()
        cpu.append(t1 - t0)
        if t1 - start > max_duration:
            break
    dev, launches, kernels = [], 0, ()
    for _ in range(n_device):
        with profile() as prof:
            func(*args, **kwargs)
        dev.append(prof.time_us * 1e-6)
        launches = len(prof.launches)
        kernels = tuple(r.kernel for r in prof.launches)
    return BenchmarkResult(name or getattr(func, "__name__", repr(func)), np.array(cpu), np.array(dev), launches,
                           kernels)
