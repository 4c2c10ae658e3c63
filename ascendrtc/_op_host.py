"""The host side of an op project, in process: op_host sources compiled by
the simulated NPU's clang against the clean-room host tiling API
(csrc/host_api), loaded by its host ORC loader (csrc/rtc/host_op.cpp), and driven
through the C entry points of csrc/host_api/arc/host_driver.h, all of it
through the extension (csrc/ext/host_code.c).

Requests are lines of text, replies JSON; :class:`HostCode` hides both.
"""
from __future__ import annotations

import json
from typing import Dict, Mapping, Optional, Sequence

from . import _C

__all__ = ["HostCode", "HostCompileError", "GE_DTYPES", "ge_dtype_of", "ge_dtype_name"]

# ge::DataType values of the NumPy dtypes, and the enumerators' names
# (csrc/common/ge_dtypes.h, the one table).
GE_DTYPES: Dict[str, int] = {dtype: value for _, value, _, dtype, _ in _C.GE_DTYPES if dtype}
_GE_NAMES = {value: name for name, value, _, _, _ in _C.GE_DTYPES}
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


class HostCompileError(RuntimeError):
    """The op_host sources did not compile or load; ``log`` holds clang's diagnostics."""

    def __init__(self, message: str, log: str = ""):
        super().__init__(message)
        self.log = log


class HostCode:
    """An op project's host code, compiled and loaded in this process
    (``_C.HostCode``: the provider's host ORC loader through the extension)."""

    def __init__(self, files: Mapping[str, str], mains: Sequence[str], options: Sequence[str] = ()):
        paths = list(files)
        try:
            self._code = _C.HostCode(paths, [files[p] for p in paths], list(mains), list(options))
        except RuntimeError as e:
            raise HostCompileError(str(e), getattr(e, "log", "")) from None
        self.log = self._code.log

    def factory(self, op_type: str) -> Optional[int]:
        """The address of OP_ADD(op_type)'s factory, or None."""
        return self._code.factory(op_type)

    def describe(self, factory: int) -> dict:
        """The op definition as a dict (inputs, outputs, attrs, configs, ...)."""
        return json.loads(self._code.describe(factory))

    def call(self, factory: int, request: str) -> dict:
        """Runs one request (``mode infer`` or ``mode tiling`` ...)."""
        return json.loads(self._code.call(factory, request))
