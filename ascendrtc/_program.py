"""Program -> Binary -> Module -> Kernel: compiling Ascend C source at run
time (aclrtc), keeping the result as bytes or a file, and loading it."""
from __future__ import annotations

import os
import secrets
import stat
import threading
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Union

from . import _C
from ._C import Kernel
from ._errors import CompileError

__all__ = ["Program", "Binary", "Module", "CompileError"]


def _as_options(options: Union[None, str, Iterable[str]]) -> List[str]:
    if options is None:
        return []
    if isinstance(options, str):
        return [options]
    opts = list(options)
    for i, o in enumerate(opts):
        if not isinstance(o, str):
            raise TypeError(f"options[{i}] must be str, not {type(o).__name__}")
    return opts


class Program:
    """Ascend C source to compile at run time (an ``aclrtcProg``).

    ``name`` names the source in diagnostics; ``headers`` maps include names
    to their text, reachable with ``#include "name.h"``.  Templates need
    their instantiations registered with :meth:`add_name_expression` (or
    ``name_expressions=``) before :meth:`compile`.
    """

    def __init__(self, source: str, name: str = "kernel.asc", headers: Optional[Mapping[str, str]] = None,
                 name_expressions: Iterable[str] = ()):
        if not isinstance(source, str):
            raise TypeError(f"source must be str, not {type(source).__name__}")
        self.source = source
        self.name = name
        self.headers: Dict[str, str] = dict(headers or {})
        for k, v in self.headers.items():
            if not isinstance(k, str) or not isinstance(v, str):
                raise TypeError("headers must map include names (str) to header text (str)")
        self.name_expressions: List[str] = []
        for e in name_expressions:
            self.add_name_expression(e)

    def add_name_expression(self, expr: str) -> "Program":
        """Register a ``__global__`` name expression such as ``"add<float>"``."""
        if not isinstance(expr, str) or not expr:
            raise TypeError("a name expression must be a non-empty str")
        if expr not in self.name_expressions:
            self.name_expressions.append(expr)
        return self

    def compile(self, options: Union[None, str, Iterable[str]] = None, *, cache: bool = True) -> "Binary":
        """Compile with BiSheng-style options (e.g. ``["--npu-arch=dav-2201"]``).

        Goes through the disk compile cache (:mod:`ascendrtc.cache`, the key
        rules jit uses: source, headers, options, arch, compiler), so the
        same program compiled again -- in this process or another -- is
        loaded, not recompiled; ``binary.cache_how`` says which (``"disk"``,
        ``"remote"``, ``"compiled"``...).  ``cache=False`` (or
        ``ASCENDRTC_CACHE=off``) always compiles.  The GIL is released while
        the compiler runs.  Raises :class:`CompileError` when the source
        does not compile.
        """
        if cache:
            from .cache import compile as cached_compile
            r = cached_compile(self, options)
            r.binary.cache_how = r.how
            return r.binary
        return self._compile_now(_as_options(options))

    def _compile_now(self, opts: List[str]) -> "Binary":
        """The compiler, without the cache."""
        code, data, log, lowered, detail, deps = _C.compile(
            self.source, self.name, list(self.headers), list(self.headers.values()), self.name_expressions, opts)
        if code != 0:
            raise CompileError(code, _C.error_name(code), log, self.source, opts, self.name, detail, self.headers)
        b = Binary(data, log=log, lowered=lowered, options=opts)
        b.dependencies = _parse_deps(deps)
        return b

    def __repr__(self) -> str:
        return f"<ascendrtc.Program {self.name!r}, {len(self.source)} chars>"


def _parse_deps(text: Optional[str]) -> Optional[Dict[str, str]]:
    """``{absolute path: sha256 of the bytes compiled, or "absent"}`` from the
    compiler's "sha256<TAB>path" lines; None when it did not say or could
    not list them."""
    if text is None:
        return None
    out: Dict[str, str] = {}
    for line in text.splitlines():
        h, _, path = line.partition("\t")
        if h == "!" or not path:
            return None
        out[path] = h
    return out


class Binary:
    """A compiled binary: ``data`` (bytes), the compile ``log``, and the
    kernels it holds.  Save it with :meth:`save` / ``bytes(binary)`` and
    bring it back with :meth:`from_file` / :meth:`from_bytes`.
    ``dependencies`` maps every file on disk the compiler read (headers,
    ``#embed`` data) to the sha256 of what it read, and every path it looked
    for and did not find (a false ``__has_include``, include directories
    searched before the one holding a header) to ``"absent"``; None when
    unknown (a binary from bytes, or a compiler that does not say)."""

    dependencies: Optional[Dict[str, str]] = None
    cache_how: Optional[str] = None  # how Program.compile got it: "disk", "remote", "compiled"...

    def __init__(self, data: bytes, log: str = "", lowered: Optional[Mapping[str, str]] = None,
                 options: Sequence[str] = ()):
        self.data = bytes(data)
        self.log = log
        self.options = list(options)
        self._lowered = dict(lowered or {})
        # The .arc_meta metadata (parsed in C by the runtime's reader), or None.
        self.meta = _C.read_meta(self.data)

    @classmethod
    def from_bytes(cls, data: bytes) -> "Binary":
        """A Binary from bytes earlier taken from ``.data``."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"from_bytes() expects bytes, not {type(data).__name__}")
        b = cls(bytes(data))
        if b.meta is not None:
            b._lowered = {k.name: k.lowered for k in b.meta.kernels}
        return b

    @classmethod
    def from_file(cls, path: Union[str, os.PathLike]) -> "Binary":
        """A Binary read from a file written by :meth:`save`.  Like the
        runtime's ``aclrtBinaryLoadFromFile``, only a regular file of at most
        ``_C.MAX_BINARY_BYTES`` (1 GiB) is read: a FIFO, a device or
        ``/dev/zero`` raises ValueError instead of blocking or exhausting memory."""
        path = os.fspath(path)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise ValueError(f"Binary.from_file({path!r}): not a regular file (a kernel binary must be one)")
            cap = _C.MAX_BINARY_BYTES
            if st.st_size > cap:
                raise ValueError(f"Binary.from_file({path!r}): {st.st_size} bytes, larger than the {cap} bytes "
                                 f"a kernel binary may have")
            with os.fdopen(os.dup(fd), "rb") as f:
                data = f.read(cap + 1)
            if len(data) > cap:
                raise ValueError(f"Binary.from_file({path!r}): grew past {cap} bytes while being read")
            return cls.from_bytes(data)
        finally:
            os.close(fd)

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Write the binary to ``path`` atomically (temp file, then rename)."""
        path = os.fspath(path)
        d = os.path.dirname(os.path.abspath(path))
        # Mode 0666 less the umask, as any written file (mkstemp's 0600 would ignore the umask).
        while True:
            tmp = os.path.join(d, f".arcbin-{secrets.token_hex(6)}")
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
                break
            except FileExistsError:
                continue
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(self.data)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise

    def __bytes__(self) -> bytes:
        return self.data

    def __len__(self) -> int:
        return len(self.data)

    @property
    def kernel_names(self) -> List[str]:
        """Names of the kernels in the binary (name expressions for templates)."""
        if self.meta is not None:
            return [k.name for k in self.meta.kernels]
        return list(self._lowered)

    def lowered_name(self, expr: str) -> str:
        """The symbol of a name expression (or kernel name)."""
        if expr in self._lowered:
            return self._lowered[expr]
        if self.meta is not None:
            k = self.meta.find(expr)
            if k is not None:
                return k.lowered
        raise KeyError(f"{expr!r} is not a kernel or registered name expression of this binary "
                       f"(kernels: {', '.join(self.kernel_names) or 'none'})")

    def load(self) -> "Module":
        """Load the binary on the device (aclrtBinaryLoadFromData)."""
        return Module(self, _C.load_module(self.data))

    def __repr__(self) -> str:
        return f"<ascendrtc.Binary {len(self.data)} bytes, kernels {self.kernel_names}>"


# Kernel -> (its binary's bytes, its name), for tools that rebuild a kernel
# in another process (ascendrtc.autotune); kernels are kept alive here.
_origins: Dict[int, tuple] = {}


def kernel_origin(kernel) -> tuple:
    """(binary bytes, name) of a kernel from :meth:`Module.get_kernel`."""
    o = _origins.get(id(kernel))
    if o is None or o[0] is not kernel:
        raise TypeError(f"{kernel!r} did not come from Module.get_kernel (autotune needs its binary)")
    return o[1], o[2]


class Module:
    """A loaded :class:`Binary`; :meth:`get_kernel` looks kernels up by name."""

    def __init__(self, binary: Binary, handle):
        self.binary = binary
        self._handle = handle
        self._lock = threading.Lock()
        self._kernels: Dict[str, Kernel] = {}

    def get_kernel(self, name: str, intents: Optional[Mapping[str, str]] = None,
                   dtypes: Optional[Mapping[str, object]] = None) -> Kernel:
        """The kernel ``name`` (a kernel name, name expression or symbol).

        ``intents`` maps pointer parameters to ``'in'``, ``'out'`` or
        ``'inout'``: how NumPy arrays passed for them are copied.
        ``dtypes`` maps pointer parameters to the element dtype their arrays
        must have (None: any), overriding what the compiler inferred for a
        ``GM_ADDR`` from the kernel's casts (see ``Kernel.dtypes``).
        """
        if intents is None and dtypes is None:
            with self._lock:
                k = self._kernels.get(name)
            if k is not None:
                return k
        b = self.binary
        km = b.meta.find(name) if b.meta is not None else None
        if km is None and name in b._lowered and b.meta is not None:
            km = b.meta.find(b._lowered[name])
        symbol = km.lowered if km is not None else b._lowered.get(name, name)
        k = self._handle.get_function(symbol, name, b.meta)
        if intents is not None or dtypes is not None:
            if intents is not None:
                k.intents = dict(intents)
            if dtypes is not None:
                k.dtypes = dict(dtypes)
        else:
            with self._lock:
                k = self._kernels.setdefault(name, k)
        _origins.setdefault(id(k), (k, b.data, name))
        return k

    def __getitem__(self, name: str) -> Kernel:
        return self.get_kernel(name)

    def __repr__(self) -> str:
        return f"<ascendrtc.Module kernels {self.binary.kernel_names}>"
