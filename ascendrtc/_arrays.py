"""Device arrays from NumPy, and the In/Out/InOut argument wrappers."""
from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import numpy as np

from ._C import DeviceArray, Intent
from ._poison import poison as fill_poison
from ._poison import poisoning

__all__ = ["to_device", "empty", "zeros", "empty_like", "zeros_like", "In", "Out", "InOut"]

Shape = Union[int, Sequence[int]]


def to_device(a: Any, dtype: Any = None) -> DeviceArray:
    """Copy an array (anything ``numpy.asarray`` takes) to the device.

    Non-contiguous inputs are made contiguous on the way.
    """
    if isinstance(a, DeviceArray) and dtype is None:
        return a
    host = np.ascontiguousarray(np.asarray(a, dtype=dtype))
    return DeviceArray.from_host(host)


def empty(shape: Shape, dtype: Any = np.float32, poison: Optional[bool] = None) -> DeviceArray:
    """An uninitialised device array.

    ``poison=True`` (or ``ASCENDRTC_POISON=1`` when ``poison`` is None)
    fills it with a pattern no kernel computes, so that
    :func:`check_written` can tell which part a kernel never wrote.
    """
    d = DeviceArray(shape, np.dtype(dtype))
    if poison or (poison is None and poisoning()):
        fill_poison(d)
    return d


def zeros(shape: Shape, dtype: Any = np.float32) -> DeviceArray:
    """A device array filled with zeros."""
    d = DeviceArray(shape, np.dtype(dtype))
    d._fill_zero()
    return d


def empty_like(a: Any, dtype: Any = None, shape: Optional[Shape] = None, poison: Optional[bool] = None) -> DeviceArray:
    """An uninitialised device array with the shape and dtype of ``a``
    (``poison`` as for :func:`empty`)."""
    return empty(a.shape if shape is None else shape, a.dtype if dtype is None else dtype, poison)


def zeros_like(a: Any, dtype: Any = None, shape: Optional[Shape] = None) -> DeviceArray:
    """A zero-filled device array with the shape and dtype of ``a``."""
    return zeros(a.shape if shape is None else shape, a.dtype if dtype is None else dtype)


def In(a: Any) -> Intent:
    """Pass a NumPy array that the kernel only reads: copied in, never back."""
    return Intent(a, "in")


def Out(a: Any) -> Intent:
    """Pass a NumPy array that the kernel only writes: zeroed on the device
    (under ``ASCENDRTC_POISON=1`` filled with the poison pattern instead, so
    :func:`check_written` on the array afterwards names what the kernel left
    unwritten), copied back after the kernel finishes."""
    return Intent(a, "out")


def InOut(a: Any) -> Intent:
    """Pass a NumPy array copied in and back (the default for writeable arrays)."""
    return Intent(a, "inout")
