"""The host side of an op project, in process: op_host sources compiled by
the simulated NPU's clang against the clean-room host tiling API
(csrc/host_api), loaded by its host JIT (csrc/rtc/host_op.cpp), and driven
through the C entry points of csrc/host_api/arc/host_driver.h.

Requests are lines of text, replies JSON; :class:`HostCode` hides both.
"""
from __future__ import annotations

import ctypes
import json
import os
import threading
from typing import Dict, Mapping, Optional, Sequence

from ._backend import sim_home

__all__ = ["HostCode", "HostCompileError", "GE_DTYPES", "ge_dtype_of", "ge_dtype_name"]

# ge::DataType values (csrc/host_api/graph/types.h) of the NumPy dtypes.
GE_DTYPES: Dict[str, int] = {
    "float32": 0, "float16": 1, "int8": 2, "int32": 3, "uint8": 4, "int16": 6, "uint16": 7,
    "uint32": 8, "int64": 9, "uint64": 10, "float64": 11, "bool": 12,
}
_GE_NAMES = {0: "DT_FLOAT", 1: "DT_FLOAT16", 2: "DT_INT8", 3: "DT_INT32", 4: "DT_UINT8", 6: "DT_INT16",
             7: "DT_UINT16", 8: "DT_UINT32", 9: "DT_INT64", 10: "DT_UINT64", 11: "DT_DOUBLE", 12: "DT_BOOL",
             27: "DT_BF16", 28: "DT_UNDEFINED"}
_NP_OF_GE = {v: k for k, v in GE_DTYPES.items()}


def ge_dtype_of(dtype) -> Optional[int]:
    """The ge::DataType value of a NumPy dtype, or None."""
    import numpy as np
    return GE_DTYPES.get(np.dtype(dtype).name)


def numpy_dtype_of(ge: int):
    """The NumPy dtype of a ge::DataType value, or None."""
    import numpy as np
    name = _NP_OF_GE.get(ge)
    return np.dtype(name) if name else None


def ge_dtype_name(ge: int) -> str:
    """``DT_FLOAT16 (float16)`` for messages."""
    np_name = _NP_OF_GE.get(ge)
    base = _GE_NAMES.get(ge, f"ge::DataType {ge}")
    return f"{base} ({np_name})" if np_name else base


class HostCompileError(RuntimeError):
    """The op_host sources did not compile or load; ``log`` holds clang's diagnostics."""

    def __init__(self, message: str, log: str = ""):
        super().__init__(message)
        self.log = log


_lib = None
_lib_lock = threading.Lock()


def _library():
    global _lib
    with _lib_lock:
        if _lib is None:
            lib = ctypes.CDLL(os.path.join(sim_home(), "lib64", "libacl_rtc.so"))
            vp, cp = ctypes.c_void_p, ctypes.c_char_p
            lib.arcHostOpCompile.restype = ctypes.c_int
            lib.arcHostOpCompile.argtypes = [ctypes.c_int, ctypes.POINTER(cp), ctypes.POINTER(cp), ctypes.c_int,
                                             ctypes.POINTER(cp), ctypes.c_int, ctypes.POINTER(cp),
                                             ctypes.POINTER(vp), ctypes.POINTER(vp)]
            lib.arcHostOpSymbol.restype = vp
            lib.arcHostOpSymbol.argtypes = [vp, cp, ctypes.POINTER(vp)]
            lib.arcHostOpFree.restype = None
            lib.arcHostOpFree.argtypes = [vp]
            lib.arcHostFreeString.restype = None
            lib.arcHostFreeString.argtypes = [vp]
            _lib = lib
        return _lib


def _strings(items: Sequence[str]):
    arr = (ctypes.c_char_p * max(1, len(items)))()
    for i, s in enumerate(items):
        arr[i] = s.encode()
    return arr


def _take(lib, p) -> str:
    if not p:
        return ""
    try:
        return ctypes.string_at(p).decode("utf-8", "replace")
    finally:
        lib.arcHostFreeString(p)


class HostCode:
    """An op project's host code, compiled and loaded in this process."""

    def __init__(self, files: Mapping[str, str], mains: Sequence[str], options: Sequence[str] = ()):
        lib = _library()
        paths = list(files)
        handle, log = ctypes.c_void_p(), ctypes.c_void_p()
        rc = lib.arcHostOpCompile(len(paths), _strings(paths), _strings([files[p] for p in paths]),
                                  len(mains), _strings(list(mains)), len(options), _strings(list(options)),
                                  ctypes.byref(handle), ctypes.byref(log))
        self.log = _take(lib, log.value)
        if rc != 0:
            raise HostCompileError("the op_host sources did not compile", self.log)
        self._lib = lib
        self._handle = handle.value
        self._describe = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)(self._symbol("arc_host_describe"))
        self._call = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
            self._symbol("arc_host_call"))
        self._free = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(self._symbol("arc_host_free"))

    def _symbol(self, name: str, missing_ok: bool = False) -> Optional[int]:
        err = ctypes.c_void_p()
        addr = self._lib.arcHostOpSymbol(self._handle, name.encode(), ctypes.byref(err))
        msg = _take(self._lib, err.value)
        if not addr:
            if missing_ok:
                return None
            raise HostCompileError(f"the loaded host code has no symbol {name!r}: {msg}")
        return addr

    def factory(self, op_type: str) -> Optional[int]:
        """The address of OP_ADD(op_type)'s factory, or None."""
        return self._symbol("arc_op_new_" + op_type, missing_ok=True)

    def _reply(self, p) -> dict:
        try:
            return json.loads(ctypes.string_at(p).decode("utf-8", "replace"))
        finally:
            self._free(p)

    def describe(self, factory: int) -> dict:
        """The op definition as a dict (inputs, outputs, attrs, configs, ...)."""
        return self._reply(self._describe(factory))

    def call(self, factory: int, request: str) -> dict:
        """Runs one request (``mode infer`` or ``mode tiling`` ...)."""
        return self._reply(self._call(factory, request.encode()))

    def __del__(self):
        h, self._handle = getattr(self, "_handle", None), None
        if h and self._lib is not None:
            self._lib.arcHostOpFree(h)
