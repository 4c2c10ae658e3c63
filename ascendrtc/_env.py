"""Numbers read from environment variables, with one error form."""
from __future__ import annotations

import os
from typing import Callable, Optional, TypeVar

N = TypeVar("N", int, float)


def env_number(name: str, default: N, cast: Callable[[str], N], expected: str, minimum: Optional[N] = None,
               below: Optional[str] = None) -> N:
    """``$name`` read with ``cast`` (``default`` when unset or empty); a value
    that does not parse, or is under ``minimum``, is a ValueError
    ``NAME='value': expected <expected>`` (``below`` for the second, when given)."""
    v = os.environ.get(name)
    if not v:
        return default
    try:
        n = cast(v)
    except ValueError:
        raise ValueError(f"{name}={v!r}: expected {expected}") from None
    if minimum is not None and n < minimum:
        raise ValueError(f"{name}={v!r}: expected {below or expected}")
    return n
