"""The options of :func:`ascendrtc.jit`, in one object: checked here once,
documented here once, kept by the :class:`~ascendrtc.jit.JitKernel` they
configure."""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import Any, Callable, List, Mapping, Optional, Sequence, Union

from ._env import env_number
from ._jit_policy import Policy
from ._jit_template import Template
from ._program import _as_options

__all__ = ["JitOptions"]


@dataclass
class JitOptions:
    """What ``jit(source, **options)`` takes, besides the source.

    ``block_dim`` (required): the number of cores to launch, an int or a
    function of the parameters (as the source sees them) evaluated once per
    variant.  ``template``: a template whose values the decorated function
    returns.  ``params``: the parameter names of a template alone
    (``"x, y, z"``).  ``stream``: the stream to launch on (default: the
    default stream).  ``options``/``headers``: as for :class:`Program`.
    ``name``: the kernel's name (default: the function's, or the kernel
    function a template defines).  ``kernel``: which kernel of the source to
    launch (default: the only one, or the function's name).
    ``specialize``: per parameter :data:`exact`, :data:`runtime` or
    :func:`bucket`.  ``kernel_args``: which parameters to pass, in the
    kernel's order (default: matched by name).  ``intents``: In/Out/InOut
    per pointer parameter.  ``max_variants`` (default
    ``$ASCENDRTC_RECOMPILE_BUDGET`` or 16) and ``on_budget`` (``"warn"`` or
    ``"raise"``, default ``$ASCENDRTC_RECOMPILE_ACTION`` or ``"warn"``): the
    recompile budget.  ``origin``: the name this kernel's disk entries are
    grouped under, for explanations (default module.qualname).
    """
    block_dim: Union[int, Callable, None] = None
    template: Union[None, str, Template] = None
    params: Any = None
    stream: Any = None
    options: Any = None
    headers: Optional[Mapping[str, str]] = None
    name: Optional[str] = None
    kernel: Optional[str] = None
    specialize: Optional[Mapping[str, Policy]] = None
    kernel_args: Optional[Sequence[str]] = None
    intents: Optional[Mapping[str, str]] = None
    max_variants: Optional[int] = None
    on_budget: Optional[str] = None
    origin: Optional[str] = None

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> "JitOptions":
        """The options from ``jit()``'s keywords; TypeError naming any
        unknown one."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise TypeError(f"jit() got an unexpected option {unknown[0]!r}; the options are "
                            f"{', '.join(f.name for f in dataclasses.fields(cls))}")
        return cls(**options)

    def __post_init__(self) -> None:
        bd = self.block_dim
        if bd is None:
            raise TypeError("jit(...) needs block_dim=: the number of cores to launch (an int, or a function of the "
                            "arguments)")
        if not callable(bd) and (isinstance(bd, bool) or not isinstance(bd, int) or bd < 1):
            raise TypeError(f"jit(block_dim=...) must be a positive int or a function of the arguments, got {bd!r}")
        self.options: List[str] = _as_options(self.options)
        self.headers = dict(self.headers or {})
        self.specialize = dict(self.specialize or {})
        for k, v in self.specialize.items():
            if not isinstance(v, Policy):
                raise TypeError(f"jit(specialize={{'{k}': ...}}): expected ascendrtc.exact, ascendrtc.runtime or "
                                f"ascendrtc.bucket(...), got {v!r}")
        self.kernel_args = None if self.kernel_args is None else list(self.kernel_args)
        self.intents = dict(self.intents) if self.intents else None
        if self.max_variants is None:
            self.max_variants = env_number("ASCENDRTC_RECOMPILE_BUDGET", 16, int, "an int")
        self.on_budget = self.on_budget or os.environ.get("ASCENDRTC_RECOMPILE_ACTION", "warn")
        if self.on_budget not in ("warn", "raise"):
            raise ValueError(f"jit(on_budget={self.on_budget!r}): expected 'warn' or 'raise'")
