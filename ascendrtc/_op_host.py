"""The host side of an op project, in process: op_host sources compiled by
the simulated NPU's clang against the clean-room host tiling API
(csrc/host_api), loaded by its host ORC loader (csrc/rtc/host_op.cpp), and driven
through the C entry points of csrc/host_api/arc/host_driver.h, all of it
through the extension (csrc/ext/op_host_code.c), contained: a fault, a timeout
or Ctrl-C in op host code is an answer (csrc/ext/host_run.c).

The definition is read once (JSON); each call is one request (lines of
text) answered with a tuple.  The protocol's codes (param types, attribute
kinds, stages, modes) come from csrc/host_api/arc/op_protocol.h through
``_C``: :data:`PARAM`, :data:`ATTR`, :data:`STAGES`, :data:`MODES`.
"""
from __future__ import annotations

import json
from typing import Dict, Mapping, Optional, Sequence

from . import _C
from ._env import env_number
from ._errors import HostCompileError

__all__ = ["OpHostCode", "HostCompileError", "GE_DTYPES", "ge_dtype_of", "ge_dtype_name", "PARAM", "ATTR", "STAGES",
           "MODES", "host_timeout"]

PARAM: Dict[str, int] = dict(_C.OP_PARAM_TYPES)        # "REQUIRED" -> ops::Option value
ATTR: Dict[str, int] = {k: v[0] for k, v in _C.OP_ATTR_KINDS.items()}  # "LIST_INT" -> ops::AttrKind value
ATTR_WORD: Dict[int, str] = {v[0]: v[1] for v in _C.OP_ATTR_KINDS.values()}  # 5 -> "ListInt"
STAGES: Dict[int, str] = dict(_C.OP_STAGES)            # stage -> "the tiling function (SetTiling)"
MODES: Dict[str, int] = dict(_C.OP_MODES)
SHAPE_UNKNOWN: int = _C.OP_SHAPE_UNKNOWN
STAGE_OUTPUTS = next(v for v, w in STAGES.items() if w == "the output shapes")

# Seconds an op host function may run (ASCENDRTC_HOST_TIMEOUT overrides).
DEFAULT_HOST_TIMEOUT = 60.0


def host_timeout(given: Optional[float] = None) -> float:
    """The limit for one op host call: ``given``, else
    ``$ASCENDRTC_HOST_TIMEOUT``, else 60 s (0: none)."""
    if given is not None:
        return float(given)
    return env_number("ASCENDRTC_HOST_TIMEOUT", DEFAULT_HOST_TIMEOUT, float, "seconds (0: no limit)", 0.0,
                      "seconds >= 0")


# ge::DataType values of the NumPy dtypes, and the enumerators' names
# (csrc/common/ge_dtypes.h, the one table).
GE_DTYPES: Dict[str, int] = {dtype: value for _, value, _, dtype, _ in _C.GE_DTYPES if dtype}
_GE_NAMES = {value: name for name, value, _, _, _ in _C.GE_DTYPES}
DT_UNDEFINED = next(v for v, n in _GE_NAMES.items() if n == "DT_UNDEFINED")
_NP_OF_GE = {v: k for k, v in GE_DTYPES.items()}


def ge_dtype_of(dtype) -> Optional[int]:
    """The ge::DataType value of a NumPy dtype, or None."""
    import numpy as np
    return GE_DTYPES.get(np.dtype(dtype).name)


def numpy_dtype_of(ge: int):
    """The NumPy dtype of a ge::DataType value, or None."""
    import numpy as np
    try:
        return np.dtype(_NP_OF_GE[ge])
    except (KeyError, TypeError):  # no such dtype, or NumPy lacks it (bfloat16)
        return None


def ge_dtype_name(ge: int) -> str:
    """``DT_FLOAT16 (float16)`` for messages."""
    np_name = _NP_OF_GE.get(ge) if numpy_dtype_of(ge) is not None else None
    base = _GE_NAMES.get(ge, f"ge::DataType {ge}")
    return f"{base} ({np_name})" if np_name else base


class OpHostCode:
    """An op project's host code, compiled and loaded in this process
    (``_C.OpHostCode``: the backend's host ORC loader through the extension);
    its static initialisers run contained too, bounded by ``timeout`` seconds
    (0: none).  Calls answer ``(False, stage, message)`` when op code failed, faulted or
    ran past ``timeout`` seconds; Ctrl-C raises KeyboardInterrupt."""

    def __init__(self, files: Mapping[str, str], mains: Sequence[str], options: Sequence[str] = (),
                 timeout: float = 0.0):
        paths = list(files)
        self._code = _C.OpHostCode(paths, [files[p] for p in paths], list(mains), list(options), timeout)
        self.log = self._code.log

    def close(self) -> None:
        """Runs the code's destructors now (contained) and unloads it; see ``_C.OpHostCode.close``."""
        self._code.close()

    def factory(self, op_type: str) -> Optional[int]:
        """The address of OP_ADD(op_type)'s factory, or None."""
        return self._code.factory(op_type)

    def describe(self, factory: int, timeout: float) -> dict:
        """The op definition as a dict (inputs, outputs, attrs, configs, ...),
        or ``{"ok": False, "stage": ..., "error": ...}``."""
        r = self._code.describe(factory, timeout)
        if isinstance(r, tuple):
            return {"ok": False, "stage": r[1], "error": r[2]}
        return json.loads(r)

    def plan(self, factory: int, mode: str, request: str, timeout: float) -> tuple:
        """One call (``mode`` "INFER" or "TILING"); see ``_C.OpHostCode.plan``."""
        return self._code.plan(factory, MODES[mode], request, timeout)


def __getattr__(name: str):
    """``HostCode``, OpHostCode's old name (one word per concept: "op host
    code" is an op project's, "program host code" a single-source
    program's), kept for one release with a DeprecationWarning."""
    if name == "HostCode":
        import warnings
        warnings.warn("ascendrtc._op_host.HostCode is renamed OpHostCode (op host code; a single-source program's "
                      "is program host code); the old name goes in the next release", DeprecationWarning, stacklevel=2)
        return OpHostCode
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
