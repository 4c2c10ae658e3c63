"""Output poisoning: buffers ascendrtc allocates for a launch start out as a
pattern no kernel computes, so a kernel that leaves part of an output
unwritten is visible (:func:`check_written` names the part)."""
from __future__ import annotations

import os
from typing import Any, List, Optional, Tuple

import numpy as np

from ._errors import UnwrittenOutputError

__all__ = ["poison", "poisoning", "check_written", "POISON_BITS"]

# The pattern, by dtype: a signalling NaN with an 0xA5 payload for floats
# (arithmetic never makes one: a NaN a kernel computes is quiet), 0xA5 in
# every byte for integers and bools.
POISON_BITS = {"float16": 0x7DA5, "bfloat16": 0x7FA5, "float32": 0x7FA5A5A5, "float64": 0x7FF4A5A5A5A5A5A5}


def poisoning() -> bool:
    """Whether ``ASCENDRTC_POISON=1`` asks for every buffer ascendrtc
    allocates for a launch (``empty``, ``empty_like``, op outputs) to be
    poisoned."""
    return os.environ.get("ASCENDRTC_POISON", "") not in ("", "0")


def _pattern(dtype: np.dtype) -> np.ndarray:
    """One element of the pattern as unsigned integers of the dtype's size."""
    u = np.dtype(f"u{dtype.itemsize}")
    bits = POISON_BITS.get(dtype.name, int.from_bytes(b"\xa5" * dtype.itemsize, "little"))
    return np.array(bits, u)


def poison(a: Any) -> Any:
    """Fill ``a`` (a :class:`DeviceArray` or a writeable NumPy array) with
    the poison pattern of its dtype; returns ``a``."""
    dt = np.dtype(a.dtype)
    host = np.empty(a.shape, np.dtype(f"u{dt.itemsize}"))
    host[...] = _pattern(dt)
    if isinstance(a, np.ndarray):
        a.view(host.dtype)[...] = host
    else:
        a.set(host.view(dt))
    return a


def _runs(idx: np.ndarray) -> List[Tuple[int, int]]:
    """Sorted indices as inclusive runs."""
    if idx.size == 0:
        return []
    breaks = np.nonzero(np.diff(idx) != 1)[0]
    starts = np.concatenate(([idx[0]], idx[breaks + 1]))
    ends = np.concatenate((idx[breaks], [idx[-1]]))
    return list(zip(starts.tolist(), ends.tolist()))


def _ranges(runs: List[Tuple[int, int]], limit: int = 4) -> str:
    s = ", ".join(f"{a}" if a == b else f"{a}..{b}" for a, b in runs[:limit])
    return s + (f" and {len(runs) - limit} more ranges" if len(runs) > limit else "")


# Under ASCENDRTC_POISON=1 each block's UB also starts poisoned, as 0xFF
# bytes (csrc/rt/cores/arena.c): all-ones is a NaN in every float type at
# any alignment, and no arithmetic makes it (a computed NaN is the default
# quiet NaN), so a float output holding it was copied out of UB the kernel
# never wrote (or computed from such bytes).
_FLOATS = ("float16", "bfloat16", "float32", "float64")


def _where(left: np.ndarray, shape: Tuple[int, ...], what: str, verb: str) -> str:
    """Where ``left`` is set: "rows a..b of what (shape) <verb>" when whole
    rows are, else the flat elements."""
    n, size = int(left.sum()), left.size
    if left.ndim >= 2:
        rows_all = left.reshape(left.shape[0], -1).all(axis=1)
        rows_any = left.reshape(left.shape[0], -1).any(axis=1)
        if (rows_all == rows_any).all():
            runs = _runs(np.nonzero(rows_all)[0])
            return f"rows {_ranges(runs)} of {what} (shape {shape}) {verb} ({n} of {size} elements)"
    flat = np.nonzero(left.reshape(-1))[0]
    first = np.unravel_index(int(flat[0]), shape)
    return (f"{n} of {size} elements of {what} (shape {shape}) {verb}: flat elements {_ranges(_runs(flat))} "
            f"(the first at index {tuple(map(int, first))})")


def check_written(a: Any, name: Optional[str] = None) -> None:
    """Raise :class:`UnwrittenOutputError` when ``a`` (poisoned by
    :func:`poison`, ``ASCENDRTC_POISON=1`` or ``empty(..., poison=True)``)
    still holds the poison pattern anywhere, naming where: "rows
    512..1023 of c were never written by the kernel" when whole rows are,
    else the elements.  Elements the kernel wrote with the very pattern's
    bits count as unwritten (no computation makes a signalling NaN).  A
    float output holding all-ones bits (the poisoned UB's, under
    ``ASCENDRTC_POISON=1``) is named as copied from UB the kernel never
    wrote."""
    host = a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)
    dt = host.dtype
    bits = host.view(np.dtype(f"u{dt.itemsize}"))
    what = name or "the output"
    left = bits == _pattern(dt)
    if left.any():
        raise UnwrittenOutputError(_where(left, host.shape, what, "were never written by the kernel"))
    if dt.name in _FLOATS and poisoning():
        stale = bits == np.iinfo(bits.dtype).max
        if stale.any():
            raise UnwrittenOutputError(_where(stale, host.shape, what, "hold unwritten UB (the kernel copied out, "
                                              "or computed from, UB bytes it never wrote: ASCENDRTC_POISON=1 "
                                              "starts each block's UB as 0xFF bytes)"))
