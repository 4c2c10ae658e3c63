"""Which backend of CANN's ACL C API ascendrtc uses, and where it lives.

``sim`` (the default) is the simulated NPU built from this repository, laid
out like a CANN home (``include/acl``, ``lib64``, ``set_env.sh``) in
``ascendrtc/_home``, or in ``$ASCENDRTC_SIM_HOME``.  ``cann`` is a CANN
toolkit at ``$ASCEND_HOME_PATH``.  The choice is made once per process, before
the first compile, allocation or launch: ``$ASCENDRTC_BACKEND`` or
:func:`set_backend`.
"""
from __future__ import annotations

import math
import os
from typing import Optional

from . import _C

__all__ = ["set_backend", "get_backend", "sim_home", "set_launch_timeout"]

_BACKENDS = ("sim", "cann")


def sim_home() -> str:
    """The simulated NPU's home: ``$ASCENDRTC_SIM_HOME`` or ``ascendrtc/_home``."""
    env = os.environ.get("ASCENDRTC_SIM_HOME")
    if env:
        return os.path.abspath(env)
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "_home")


def _home_for(backend: str, home: Optional[str]) -> str:
    if home:
        return os.path.abspath(home)
    if backend == "sim":
        return sim_home()
    env = os.environ.get("ASCEND_HOME_PATH")
    if not env:
        raise RuntimeError("the 'cann' backend needs ASCEND_HOME_PATH (source <CANN home>/set_env.sh) "
                           "or set_backend('cann', home=...)")
    return os.path.abspath(env)


def set_backend(backend: str, home: Optional[str] = None) -> None:
    """Choose the backend: ``"sim"`` (default) or ``"cann"``.

    ``home`` overrides the backend's directory (the one holding ``lib64``).
    Call it before the first compile, allocation or launch; choosing a
    different backend afterwards raises RuntimeError.
    """
    if backend not in _BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected one of {_BACKENDS}")
    _C.configure(backend, _home_for(backend, home))


def get_backend() -> dict:
    """``{"backend", "home", "loaded", "libraries"}`` of the current backend."""
    return _C.backend_info()


def set_launch_timeout(seconds: Optional[float]) -> None:
    """Time limit for launches that set no TIMEOUT launch attribute.

    A launch still running after ``seconds`` fails at the next synchronize
    with ``LaunchError`` (ACL_ERROR_RT_AICORE_TIMEOUT, 507014), naming where
    each core was (running, waiting in SyncAll, finished); the device stays
    usable.  ``0`` means no limit; ``None`` goes back to
    ``$ASCENDRTC_LAUNCH_TIMEOUT`` (no limit when unset), which any number
    overrides.  Simulated NPU only.
    """
    if seconds is None:
        seconds = -1.0  # the runtime's "not set": the env var rules again
    elif isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or math.isnan(seconds) or seconds < 0:
        raise ValueError(f"set_launch_timeout: seconds must be None or a number >= 0, got {seconds!r}")
    info = get_backend()
    if info["backend"] != "sim":
        raise RuntimeError(f"set_launch_timeout: the {info['backend']!r} backend has no launch timeout setting; "
                           "pass a TIMEOUT launch attribute instead")
    if not _C.set_launch_timeout(float(seconds)):  # negative: not set
        raise RuntimeError(f"set_launch_timeout: the backend at {info['home']} has no launch timeout setting")


def _configure_from_env() -> None:
    backend = os.environ.get("ASCENDRTC_BACKEND", "sim").strip().lower() or "sim"
    if backend not in _BACKENDS:
        raise ImportError(f"ASCENDRTC_BACKEND={backend!r}: expected one of {_BACKENDS}")
    try:
        home = _home_for(backend, None)
    except RuntimeError:
        home = ""  # reported on first use, naming ASCEND_HOME_PATH
    if backend == "sim":
        from ._llvm_check import missing
        why = missing(home)
        if why:  # say it now, naming the package, not at the first compile as a loader error
            raise ImportError(why)
    _C.configure(backend, home)
    if backend == "sim" and home:
        _C.prewarm(home)  # csrc/ext/prewarm.c: the first compile then costs what later ones do
