"""ascendrtc: Ascend C runtime compilation for Python.

Compile Ascend C kernel source at run time, load it, and launch it over N AI
cores with NumPy arrays -- on a real NPU through CANN, or anywhere on the
simulated NPU built into this package::

    import numpy as np, ascendrtc as arc
    add = arc.Program(SRC, "add_custom.asc").compile(["--npu-arch=dav-2201"]).load().get_kernel("add_custom")
    x, y = np.ones(256, np.float32), np.full(256, 2, np.float32)
    z = arc.empty_like(x)
    add[8](x, y, z)           # asynchronous; arguments checked against the kernel's signature
    print(z.get())
"""
from . import _C
from ._errors import AclError, CompileError, Error, LaunchError, UnwrittenOutputError
from ._C import DeviceArray, Event, Kernel, Stream
from ._arrays import In, InOut, Out, empty, empty_like, to_device, zeros, zeros_like
from ._poison import check_written, poison
from ._backend import get_backend, set_backend, set_launch_timeout, sim_home
from ._backend import _configure_from_env

# Early, so that the compiler's prewarm (a background thread) overlaps the rest of the import.
_configure_from_env()
del _configure_from_env

from ._program import Binary, Module, Program  # noqa: E402
from ._op_kernel import OpKernel, OpProjectError, op_kernel  # noqa: E402
from ._profile import LaunchReport, Profile, profile  # noqa: E402
from ._autotune import Autotuned, Trial, autotune, sweep  # noqa: E402
from ._benchmark import BenchmarkResult, benchmark  # noqa: E402
from ._version import __version__  # noqa: E402

__all__ = [
    "Error", "AclError", "CompileError", "LaunchError",
    "Program", "Binary", "Module", "Kernel",
    "Stream", "Event", "synchronize", "device_info", "default_stream", "current_stream",
    "DeviceArray", "to_device", "empty", "zeros", "empty_like", "zeros_like", "In", "Out", "InOut",
    "poison", "check_written", "UnwrittenOutputError",
    "set_backend", "get_backend", "sim_home", "set_launch_timeout",
    "op_kernel", "OpKernel", "OpProjectError",
    "profile", "Profile", "LaunchReport", "autotune", "Autotuned", "sweep", "Trial",
    "benchmark", "BenchmarkResult",
]


def synchronize() -> None:
    """Wait until all work on the device has finished (GIL released)."""
    _C.synchronize()


def device_info() -> dict:
    """Device 0: ``soc_name``, ``aicore_num``, ``cube_core_num``,
    ``vector_core_num``, ``ub_size`` (bytes per vector core), memory sizes
    and ``npu_arch``; None for what the backend does not report."""
    return _C.device_info()


def default_stream() -> Stream:
    """The stream launches and events use when none is given and no
    ``with stream:`` is active."""
    return _C.default_stream()


def current_stream() -> Stream:
    """This thread's current stream: the innermost ``with stream:`` block's,
    else the default stream.  Launches and events given no stream use it."""
    return _C.current_stream()


# The jit decorator and the compile cache (ascendrtc/jit.py, ascendrtc/cache.py).
from . import cache  # noqa: E402
from ._jit_policy import ArraySpec, bucket, exact, runtime, spec  # noqa: E402
from ._jit_template import Template, TemplateError, ctype  # noqa: E402
from .cache import CacheDirError, CacheMissError  # noqa: E402
from .jit import JitCompileError, JitKernel, JitOptions, RecompileBudgetError, RecompileWarning, jit  # noqa: E402

# CANN custom-op projects (op_host + op_kernel), run unbuilt (ascendrtc/_op_project.py).
from ._op_project import OpProject, Tiling  # noqa: E402
from ._op_loader import op_project  # noqa: E402

__all__ += [
    "jit", "JitKernel", "JitOptions", "exact", "runtime", "bucket", "spec", "ArraySpec", "Template", "TemplateError",
    "ctype",
    "JitCompileError", "RecompileBudgetError", "RecompileWarning", "CacheMissError", "CacheDirError", "cache",
    "op_project", "OpProject", "Tiling",
]
