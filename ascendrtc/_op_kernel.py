"""The kernel side of a CANN op project, compiled with no op build.

An op project keeps its kernel in ``op_kernel/<op>.cpp`` and its tiling
struct in ``op_host/<op>_tiling.h`` (``BEGIN_TILING_DATA_DEF`` ...); the op
build generates what the kernel needs from them.  :func:`op_kernel` does
the same at run time::

    ok = ascendrtc.op_kernel("path/to/AddCustom", params=["x", "y", "z"])
    k = ok.kernel({"x": np.float16, "y": np.float16, "z": np.float16})   # a Kernel
    ok(x, y, z, block_dim=8, tiling=tiling_bytes)      # jit-style: dtypes from x, y, z

What the compile gets (an in-memory prelude ahead of the kernel source):

- ``DTYPE_<NAME>`` (the C type: ``half``, ``float``, ``bfloat16_t``,
  ``int32_t`` ...), ``ORIG_DTYPE_<NAME>`` (the ``ge::DataType`` number,
  e.g. 1 for DT_FLOAT16) and ``FORMAT_<NAME>`` (the ``ge::Format`` number,
  2 for ND) for every parameter named in ``dtypes``;
- ``ASCENDRTC_OP_TYPE`` (the op type, default the kernel file's stem), which
  picks the struct ``REGISTER_TILING_DATA_CLASS`` registered for this op as
  the one ``GET_TILING_DATA`` reads;
- the op's tiling header(s), included with the DSL in kernel mode (plain
  structs, csrc/device/arc/tiling_dsl.h), then ``using namespace optiling``;
- with ``tiling_key=K``: ``TILING_KEY_VAR`` is ``K`` (one compile per key,
  as the op build does); a templated ``__global__`` entry (tiling template
  programming, ``ASCENDC_TPL_*``) is instantiated for the template
  arguments the key encodes;
- ``ASSERT(...)`` is empty, as in the op build's NPU compile (samples rely on
  it); ``options=["-DASCENDRTC_KEEP_ASSERT"]`` keeps the CPU-twin check.

Compiles go through the disk cache (ascendrtc.cache) and an in-memory cache
per (dtypes, formats, key, options); nothing is cached from a failed one.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import tempfile
import threading
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _C
from ._errors import CompileError, OpProjectError
from ._program import Program

__all__ = ["op_kernel", "OpKernel", "OpProjectError", "DTYPES", "FORMATS"]

# name -> (C type, ge::DataType number) of the types kernels have
# (csrc/common/ge_dtypes.h, the one table).
DTYPES: Dict[str, Tuple[str, int]] = {dtype: (ctype, value) for _, value, _, dtype, ctype in _C.GE_DTYPES
                                      if ctype and dtype}
# NumPy dtypes that are ge::DataTypes with no AI Core kernel type (complex128: CANN's AI CPU kernels)
_NO_KERNEL_TYPE = {dtype for _, _, _, dtype, ctype in _C.GE_DTYPES if dtype and not ctype}
_DT_ALIASES = {
    "float": "float32", "fp32": "float32", "half": "float16", "fp16": "float16", "bf16": "bfloat16",
    "double": "float64", "int": "int32", "bfloat16_t": "bfloat16",
    "dt_float": "float32", "dt_float16": "float16", "dt_bf16": "bfloat16", "dt_bfloat16": "bfloat16",
    "dt_int8": "int8", "dt_uint8": "uint8", "dt_int16": "int16", "dt_uint16": "uint16", "dt_int32": "int32",
    "dt_uint32": "uint32", "dt_int64": "int64", "dt_uint64": "uint64", "dt_double": "float64", "dt_bool": "bool",
}
# public ge::Format values
FORMATS: Dict[str, int] = {"NCHW": 0, "NHWC": 1, "ND": 2, "NC1HWC0": 3, "FRACTAL_Z": 4, "HWCN": 16,
                           "FRACTAL_NZ": 29, "NCDHW": 30, "NDHWC": 27}

_KERNEL_EXT = (".cpp", ".cc", ".cxx", ".asc")
_HEADER_EXT = (".h", ".hpp", ".hh", ".hxx", ".inc")
_PRELUDE = "__arc_op_prelude.h"
_NOT_INSTANTIATED = re.compile(r"template kernel '([^']+)' is not instantiated")


def dtype_name(dt: Any) -> str:
    """The canonical name (``"float16"``, ``"bfloat16"`` ...) of a NumPy
    dtype, a type, or a name such as ``"half"`` / ``"DT_FLOAT16"``."""
    if isinstance(dt, str):
        key = dt.strip().lower().replace("ge::", "").replace("datatype::", "")
        key = _DT_ALIASES.get(key, key)
        if key in DTYPES:
            return key
    try:
        name = np.dtype(dt).name
    except TypeError:
        name = None
    if name in DTYPES:
        return name
    if name in _NO_KERNEL_TYPE:
        raise OpProjectError(f"dtype {name} has no AI Core kernel type (CANN runs {name} ops on the AI CPU, which "
                             "the simulated NPU does not model)")
    raise OpProjectError(f"unknown dtype {name or dt!r} (known: {', '.join(sorted(DTYPES))}, or ge names like DT_FLOAT16)")


def _format_number(fmt: Any) -> int:
    if isinstance(fmt, int):
        return fmt
    key = str(fmt).strip().upper().replace("GE::", "")
    key = key[len("FORMAT_"):] if key.startswith("FORMAT_") else key
    if key not in FORMATS:
        raise OpProjectError(f"unknown format {fmt!r} (known: {', '.join(sorted(FORMATS))}, or a ge::Format number)")
    return FORMATS[key]


def _norm(name: str) -> str:
    """An op or kernel name as the tiling registry compares them (case and
    '_' ignored): ThreeNN and three_nn are the same op."""
    return name.replace("_", "").lower()


def _private_base() -> str:
    """This user's directory for op sources (``$TMPDIR/ascendrtc-<uid>``),
    created 0700; one that is a symlink, another user's, or open to others
    is refused (its files would be compiled)."""
    base = os.path.join(tempfile.gettempdir(), f"ascendrtc-{os.getuid()}")
    try:
        os.mkdir(base, 0o700)
    except FileExistsError:
        pass
    st = os.lstat(base)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise OpProjectError(f"{base}: not a private directory of this user (a symlink, another user's, or "
                             f"writable by others); remove it, or set TMPDIR to a private directory")
    return base


def _content_root(files: Mapping[str, str]) -> str:
    """A directory holding ``files`` whose path is derived from their content
    only (``$TMPDIR/ascendrtc-<uid>/op-src/<sha256>``), so the compile
    cache's key -- which names the -I directories and the headers under
    them -- is the same in every process for the same project.  Written
    once (a private temporary directory renamed into place); reused after a
    byte-for-byte check, rewritten when that fails."""
    h = hashlib.sha256()
    for k in sorted(files):
        h.update(k.encode() + b"\0" + files[k].encode("utf-8", "surrogatepass") + b"\0")
    top = os.path.join(_private_base(), "op-src")
    os.makedirs(top, 0o700, exist_ok=True)
    root = os.path.join(top, h.hexdigest()[:40])
    if os.path.isdir(root) and not os.path.islink(root) and _same_files(root, files):
        return root
    tmp = tempfile.mkdtemp(prefix=".tmp-", dir=top)
    for rel, text in files.items():
        os.makedirs(os.path.join(tmp, os.path.dirname(rel)), exist_ok=True)
        with open(os.path.join(tmp, rel), "w", encoding="utf-8", newline="") as f:
            f.write(text)
    try:
        os.rename(tmp, root)
    except OSError:  # there already (another process, or a damaged copy)
        if not (os.path.isdir(root) and _same_files(root, files)):
            shutil.rmtree(root, ignore_errors=True)
            os.rename(tmp, root)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return root


def _same_files(root: str, files: Mapping[str, str]) -> bool:
    try:
        for rel, text in files.items():
            with open(os.path.join(root, rel), encoding="utf-8", newline="") as f:
                if f.read() != text:
                    return False
    except (OSError, UnicodeDecodeError):
        return False
    return True


class _Files:
    """The project's files: a directory on disk, or {relative path: text}
    (written to a directory named by their content, see
    :func:`_content_root`, so that includes such as "../op_host/x.h"
    resolve as on disk and the compile cache's key depends on the content
    only)."""

    def __init__(self, project: Union[str, os.PathLike, Mapping[str, str]]):
        self.in_memory = isinstance(project, Mapping)
        if self.in_memory:
            texts = {}
            for k, v in project.items():
                rel = os.path.normpath(str(k))
                if not isinstance(v, str):
                    raise TypeError(f"op project file {k!r}: text must be str, not {type(v).__name__}")
                if os.path.isabs(rel) or rel.split(os.sep)[0] == ".." or rel == ".":
                    raise OpProjectError(f"op project file {k!r}: must be a path inside the project")
                texts[rel] = v
            self.root = _content_root(texts)
        else:
            self.root = os.path.abspath(os.fspath(project))
            if not os.path.isdir(self.root):
                raise OpProjectError(f"op project {self.root!r}: not a directory")

    def list(self, sub: str) -> List[str]:
        """Relative paths of the files directly in sub/."""
        d = os.path.join(self.root, sub)
        if not os.path.isdir(d):
            return []
        return sorted(f"{sub}/{n}" if sub else n for n in os.listdir(d) if os.path.isfile(os.path.join(d, n)))

    def exists(self, rel: str) -> bool:
        return os.path.isfile(os.path.join(self.root, rel))

    def text(self, rel: str) -> str:
        with open(os.path.join(self.root, rel), encoding="utf-8", errors="replace") as f:
            return f.read()

    def where(self) -> str:
        return "<files in memory>" if self.in_memory else self.root


class OpKernel:
    """The kernel of one op project; see :func:`op_kernel`."""

    def __init__(self, project: Union[str, os.PathLike, Mapping[str, str]], kernel: Optional[str] = None, *,
                 op_type: Optional[str] = None, params: Optional[Sequence[str]] = None,
                 tiling_headers: Optional[Sequence[str]] = None, options: Optional[Sequence[str]] = None,
                 arch: str = "dav-2201"):
        self.files = _Files(project)
        self.kernel_file = self._find_kernel(kernel, op_type)
        self.stem = os.path.splitext(os.path.basename(self.kernel_file))[0]
        self.op_type = op_type or self.stem
        self.params = list(params) if params is not None else None
        self.options = list(options or [])
        self.arch = arch
        self.tiling_headers = self._find_tiling_headers(tiling_headers)
        self.source = self.files.text(self.kernel_file)
        self._lock = threading.Lock()
        self._kernels: Dict[tuple, Any] = {}
        self._template: Optional[str] = None      # a templated entry, once seen

    # ---- project layout
    def _find_kernel(self, kernel: Optional[str], op_type: Optional[str]) -> str:
        f = self.files
        if kernel is not None:
            rel = os.path.normpath(str(kernel)).replace(os.sep, "/")
            if os.path.isabs(rel):
                rel = os.path.relpath(rel, f.root).replace(os.sep, "/")
            if not f.exists(rel) and f.exists("op_kernel/" + rel):
                rel = "op_kernel/" + rel
            if not f.exists(rel):
                raise OpProjectError(f"op project {f.where()}: kernel file {kernel!r} not found")
            return rel
        cands = [p for p in f.list("op_kernel") if p.endswith(_KERNEL_EXT)]
        if not cands:
            raise OpProjectError(f"op project {f.where()}: no kernel source in op_kernel/ (expected "
                                 f"op_kernel/<op>.cpp); pass kernel= to name it")
        if len(cands) == 1:
            return cands[0]
        if op_type:
            want = [p for p in cands if _norm(os.path.splitext(os.path.basename(p))[0]) == _norm(op_type)]
            if len(want) == 1:
                return want[0]
        raise OpProjectError(f"op project {f.where()}: several kernel sources in op_kernel/ "
                             f"({', '.join(cands)}); pass kernel= (or op_type=) to choose")

    def _find_tiling_headers(self, given: Optional[Sequence[str]]) -> List[str]:
        f = self.files
        if given is not None:
            out = []
            for h in given:
                rel = os.path.normpath(str(h)).replace(os.sep, "/")
                if os.path.isabs(rel):
                    rel = os.path.relpath(rel, f.root).replace(os.sep, "/")
                if not f.exists(rel):
                    raise OpProjectError(f"op {self.op_type}: tiling header {h!r} not found in {f.where()}")
                out.append(rel)
            return out
        kdir = os.path.dirname(self.kernel_file)
        own = {os.path.basename(p) for p in f.list(kdir)}
        hosts = [p for p in f.list("op_host") if p.endswith(_HEADER_EXT)]
        # The kernel's own header of the same name is its tiling header (the
        # plain-struct flow); including both would clash on the include guard.
        hosts = [p for p in hosts if os.path.basename(p) not in own]
        named = [p for p in hosts if os.path.basename(p) == self.stem + "_tiling.h"]
        if named:
            return named
        return [p for p in hosts if "BEGIN_TILING_DATA_DEF" in f.text(p) or "REGISTER_TILING_DATA_CLASS" in f.text(p)]

    # ---- compile
    def prelude(self, dtypes: Optional[Mapping[str, Any]] = None, *, orig_dtypes: Optional[Mapping[str, Any]] = None,
                formats: Optional[Mapping[str, Any]] = None, tiling_key: Optional[int] = None) -> str:
        """The generated header the kernel is compiled after.  Macros the
        device API reads are redefined after kernel_operator.h: they expand
        where the kernel uses them."""
        lines = [f"/* generated by ascendrtc for op {self.op_type}: what the op build defines for "
                 f"{self.kernel_file} */",
                 '#include "kernel_operator.h"',
                 "#undef ASCENDRTC_OP_TYPE",
                 f'#define ASCENDRTC_OP_TYPE "{self.op_type}"']
        if tiling_key is not None:
            lines += ["#undef TILING_KEY_VAR", f"#define TILING_KEY_VAR {tiling_key}ull"]
        # The op build compiles for the NPU, where ASSERT is empty (samples
        # rely on it: `x = a ASSERT(c);`); -DASCENDRTC_KEEP_ASSERT keeps the check.
        lines += ["#ifndef ASCENDRTC_KEEP_ASSERT", "#undef ASSERT", "#define ASSERT(...)", "#endif"]
        for name, dt in (dtypes or {}).items():
            up = str(name).upper()
            ctype, _ = DTYPES[dtype_name(dt)]
            orig = (orig_dtypes or {}).get(name, dt)
            lines.append(f"#define DTYPE_{up} {ctype}")
            lines.append(f"#define ORIG_DTYPE_{up} {DTYPES[dtype_name(orig)][1]}")
            lines.append(f"#define FORMAT_{up} {_format_number((formats or {}).get(name, 'ND'))}")
        for name, fmt in (formats or {}).items():
            if name not in (dtypes or {}):
                lines.append(f"#define FORMAT_{str(name).upper()} {_format_number(fmt)}")
        lines.append("namespace optiling {}")
        for h in self.tiling_headers:
            lines.append(f'#include "{self._include_name(h)}"')
        lines.append("using namespace optiling;")
        return "\n".join(lines) + "\n"

    def _include_name(self, rel: str) -> str:
        return os.path.join(self.files.root, rel)

    def _epilogue(self, name: str, key: Union[int, str]) -> Tuple[str, str]:
        """Source that instantiates the templated entry `name` for `key`
        ("first": ASCENDC_TPL_SEL's first combination), and its name expression."""
        tag = re.sub(r"\W", "_", name)
        if key == "first":
            label, kexpr, checks = "its first selected template arguments", "__arc_tpl_first_key(0, __arc_tpl_decl)", ""
        else:
            label, kexpr = f"tiling key {key}", f"{key}ull"
            checks = (f"static_assert(::__arc_tpl::key_ok(__arc_tpl_decl, {kexpr}), \"tiling key {key} does not "
                      f"decode with the op's ASCENDC_TPL_ARGS_DECL (a value outside a declared list)\");\n"
                      f"static_assert(__arc_tpl_selected(0, __arc_tpl_decl, {kexpr}), \"tiling key {key} is not one of the op's "
                      f"ASCENDC_TPL_SEL combinations\");\n")
        var = f"{tag}__tiling_key_{key}"
        kinds = _template_kinds(self.source, name.split("::")[-1])
        # ASCENDC_TPL_ARGS_DECL inside a namespace (ops-math's AtanOp): seen
        # through a using-directive (an empty declaration makes it exist)
        spaces = "".join(f"namespace {ns} {{}}\n" for ns in self._tpl_namespaces())
        uses = "".join(f"using namespace ::{ns};\n" for ns in self._tpl_namespaces())
        text = f'\n#line 1 "<ascendrtc: {name} for {label}>"\n{spaces}namespace __arc_tpl_inst {{\n{uses}{checks}' \
               f"constexpr unsigned long long {var}_k = {kexpr};\n"
        if kinds is not None and "type" in kinds:
            # a native-DataType parameter (ASCENDC_TPL_DATATYPE_DECL) is a
            # typename: the kernel C type of the ge::DataType number decoded
            text += _CTYPE_OF + (f'static_assert(::__arc_tpl::count(__arc_tpl_decl) == {len(kinds)}, "{name} has '
                                 f'{len(kinds)} template parameters; ASCENDC_TPL_ARGS_DECL declares a different '
                                 f'number");\n')
            args = ", ".join(f"typename __arc_ctype_of<::__arc_tpl::decode(__arc_tpl_decl, {var}_k, {i})>::type"
                             if k == "type" else f"::__arc_tpl::tval{{::__arc_tpl::decode(__arc_tpl_decl, {var}_k, {i})}}"
                             for i, k in enumerate(kinds))
            text += f"constexpr auto {var} = &::{name}<{args}>;\n}}\n"
        else:
            text += (f"template <unsigned... I> constexpr auto {tag}_at(::__arc::seq<I...>)\n"
                     f"{{ return &::{name}<::__arc_tpl::tval{{::__arc_tpl::decode(__arc_tpl_decl, {var}_k, I)}}...>; }}\n"
                     f"constexpr auto {var} = {tag}_at(__make_integer_seq<::__arc::make_seq_helper, unsigned, "
                     f"::__arc_tpl::count(__arc_tpl_decl)>{{}});\n"
                     f"}}\n")
        return text, f"__arc_tpl_inst::{var}"

    def _tpl_namespaces(self) -> List[str]:
        """The namespaces (``A::B``) enclosing ASCENDC_TPL_ARGS_DECL in the
        files under op_kernel/ (sorted, each once)."""
        if not hasattr(self, "_tpl_ns"):
            found = set()
            for d, _, names in os.walk(os.path.join(self.files.root, "op_kernel")):
                for n in names:
                    if n.endswith((".h", ".hpp", ".cpp")):
                        with open(os.path.join(d, n), encoding="utf-8", errors="replace") as f:
                            found.update(_decl_namespaces(f.read()))
            self._tpl_ns = sorted(found)
        return self._tpl_ns

    def _compile(self, prelude: str, key: Optional[int], template: Optional[str], options: List[str]):
        from . import cache
        headers = {_PRELUDE: prelude}
        includes = ["-I" + os.path.join(self.files.root, os.path.dirname(self.kernel_file))]
        body = f'#include "{_PRELUDE}"\n#line 1 "{os.path.basename(self.kernel_file)}"\n{self.source}'
        exprs = []
        shown = dict(headers)          # what a CompileError can show lines of
        if template is not None:
            if key is None:
                raise OpProjectError(f"op {self.op_type}: the kernel {template} in {self.kernel_file} is a template "
                                     f"(tiling template programming); give tiling_key= to pick its instance")
            text, expr = self._epilogue(template, key)
            body += text
            first, rest = text.lstrip("\n").split("\n", 1)
            shown[first.split('"')[1]] = rest
            exprs.append(expr)
        opts = [f"--npu-arch={self.arch}"] + includes + self.options + options
        prog = Program(body, os.path.basename(self.kernel_file), headers=headers, name_expressions=exprs)
        try:
            res = cache.compile(prog, opts, origin=f"op:{self.op_type}")
        except CompileError as e:
            # show the kernel file's lines, not the prelude-shifted text
            raise CompileError(e.code, e.name, e.log, self.source, opts, os.path.basename(self.kernel_file),
                               e.message, shown) from None
        return res.binary, exprs

    def kernel(self, dtypes: Optional[Mapping[str, Any]] = None, *, orig_dtypes: Optional[Mapping[str, Any]] = None,
               formats: Optional[Mapping[str, Any]] = None, tiling_key: Optional[int] = None,
               options: Optional[Sequence[str]] = None):
        """The compiled, loaded :class:`~ascendrtc.Kernel` for these
        parameter dtypes (``{name: dtype}``), formats and compile-time tiling
        key; cached.  ``tiling_key="first"`` compiles a templated entry for
        the first combination ASCENDC_TPL_SEL lists (a compile check).
        Raises :class:`CompileError` or :class:`OpProjectError`."""
        if tiling_key is not None and tiling_key != "first" and (
                not isinstance(tiling_key, int) or isinstance(tiling_key, bool) or not 0 <= tiling_key < 2 ** 64):
            raise OpProjectError(f"op {self.op_type}: tiling_key must be an int in [0, 2**64), not {tiling_key!r}")
        try:
            dts = {str(k): dtype_name(v) for k, v in (dtypes or {}).items()}
            odt = {str(k): dtype_name(v) for k, v in (orig_dtypes or {}).items()}
            fmt = {str(k): _format_number(v) for k, v in (formats or {}).items()}
        except OpProjectError as e:
            raise OpProjectError(f"op {self.op_type}: {e}") from None
        extra = list(options or [])
        ck = (tuple(sorted(dts.items())), tuple(sorted(odt.items())), tuple(sorted(fmt.items())), tiling_key,
              tuple(extra))
        with self._lock:
            k = self._kernels.get(ck)
        if k is not None:
            return k
        prelude = self.prelude(dts, orig_dtypes=odt, formats=fmt,
                               tiling_key=tiling_key if tiling_key != "first" else None)
        binary, exprs = self._compile(prelude, tiling_key, self._template, extra)
        if not binary.kernel_names:
            found = _NOT_INSTANTIATED.findall(binary.log or "")
            if not found:
                raise OpProjectError(f"op {self.op_type}: {self.kernel_file} has no __global__ kernel")
            # the entry named for the op, not a templated __global__ helper it calls (ExpKernel in exp_apt.cpp)
            named = [t for t in found if _norm(t.split("::")[-1]) in (_norm(self.op_type), _norm(self.stem))]
            self._template = (named or found)[0]
            binary, exprs = self._compile(prelude, tiling_key, self._template, extra)
        name = exprs[0] if exprs else self._pick(binary.kernel_names)
        k = binary.load().get_kernel(name)
        with self._lock:
            k = self._kernels.setdefault(ck, k)
        return k

    def _pick(self, names: List[str]) -> str:
        if len(names) == 1:
            return names[0]
        for n in names:
            if _norm(n.split("::")[-1]) in (_norm(self.op_type), _norm(self.stem)):
                return n
        raise OpProjectError(f"op {self.op_type}: {self.kernel_file} has several kernels ({', '.join(names)}) "
                             f"and none is named for the op")

    # ---- jit-style call
    def __call__(self, *args, block_dim: int, tiling: Any = None, tiling_key: Optional[int] = None,
                 key_at: str = "launch", workspace: int = 0, stream: Any = None,
                 formats: Optional[Mapping[str, Any]] = None):
        """Launch with arrays for the op's parameters (``params`` order); the
        dtypes come from the arrays.  Appends the workspace (``workspace``
        bytes, zeroed) and the tiling (bytes, a NumPy array or a ctypes
        structure) when the kernel takes them.  ``key_at="launch"`` sets
        ``tiling_key`` at launch; ``"compile"`` compiles for it."""
        if self.params is None:
            raise OpProjectError(f"op {self.op_type}: name the parameters (op_kernel(..., params=[...])) to "
                                 f"call it with arrays")
        if len(args) != len(self.params):
            raise TypeError(f"op {self.op_type} takes {len(self.params)} arrays ({', '.join(self.params)}), "
                            f"got {len(args)}")
        if key_at not in ("launch", "compile"):
            raise ValueError(f"key_at must be 'launch' or 'compile', not {key_at!r}")
        dts = {}
        for n, a in zip(self.params, args):
            dt = getattr(a, "dtype", None)
            if dt is None:
                raise TypeError(f"op {self.op_type}: argument {n} must be an array, not {type(a).__name__}")
            dts[n] = dt
        k = self.kernel(dts, formats=formats, tiling_key=tiling_key if key_at == "compile" else None)
        extra = len(k.params) - len(args)
        tail = []
        if extra >= 2:
            tail.append(np.zeros(max(int(workspace), 32), np.uint8))
        if extra >= 1:
            tail.append(_tiling_bytes(tiling))
        launch_key = tiling_key if key_at == "launch" else None
        return k(*args, *tail, block_dim=block_dim, stream=stream, tiling_key=launch_key)

    def __repr__(self) -> str:
        return f"<ascendrtc.OpKernel {self.op_type} ({self.kernel_file} in {self.files.where()})>"


# ge::DataType number -> the kernel's C type (DTYPES, from the one table),
# for a typename template parameter decoded from a tiling key.
_CTYPE_OF = ("template <unsigned long long V> struct __arc_ctype_of { static_assert(V != V, \"a tiling key's "
             "DataType template argument is a ge::DataType number kernels have no C type for\"); };\n" +
             "".join(f"template <> struct __arc_ctype_of<{v}> {{ typedef {c} type; }};\n"
                     for c, v in sorted(set(DTYPES.values()), key=lambda cv: cv[1])))
_TEMPLATE_HEAD = r"template\s*<((?:[^<>]|<[^<>]*>)*)>\s*(?:__global__|__aicore__|extern\s+\"C\"|\s)*\s*void\s+{}\s*\("


def _template_kinds(source: str, name: str) -> Optional[List[str]]:
    """The kinds ("type" or "value") of the template parameters of kernel
    ``name``'s definition in ``source``, or None when no head is found."""
    m = re.search(_TEMPLATE_HEAD.format(re.escape(name)), source)
    if m is None:
        return None
    parts, depth, cur = [], 0, ""
    for ch in m.group(1):
        depth += 1 if ch in "<(" else -1 if ch in ">)" else 0
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return ["type" if re.match(r"\s*(typename|class)\b", p) else "value" for p in parts if p.strip()]


def _decl_namespaces(text: str) -> List[str]:
    """The namespace paths enclosing each ASCENDC_TPL_ARGS_DECL in ``text``
    (braces counted outside comments; at file scope none)."""
    out = []
    for m in re.finditer(r"\bASCENDC_TPL_ARGS_DECL\s*\(", text):
        pre = re.sub(r"//[^\n]*|/\*.*?\*/", "", text[:m.start()], flags=re.S)
        stack: List[Tuple[str, int]] = []
        depth = 0
        for b in re.finditer(r"namespace\s+([\w:]+)\s*\{|[{}]", pre):
            if b.group(0) == "}":
                if stack and stack[-1][1] == depth:
                    stack.pop()
                depth -= 1
            else:
                depth += 1
                if b.group(1):
                    stack.append((b.group(1), depth))
        if stack:
            out.append("::".join(n for n, _ in stack))
    return out


def _tiling_bytes(tiling: Any) -> np.ndarray:
    """The tiling argument as a uint8 array (at least 8 bytes)."""
    if tiling is None:
        data = b""
    elif isinstance(tiling, (bytes, bytearray, memoryview)):
        data = bytes(tiling)
    elif isinstance(tiling, np.ndarray):
        data = tiling.tobytes()
    else:
        try:
            data = bytes(memoryview(tiling))      # ctypes structures, array.array, ...
        except TypeError:
            raise TypeError(f"tiling must be bytes, a NumPy array or a ctypes structure, "
                            f"not {type(tiling).__name__}") from None
    pad = -len(data) % 8 if data else 8
    return np.frombuffer(data + bytes(pad), np.uint8).copy()


def op_kernel(project: Union[str, os.PathLike, Mapping[str, str]], kernel: Optional[str] = None, *,
              op_type: Optional[str] = None, params: Optional[Sequence[str]] = None,
              tiling_headers: Optional[Sequence[str]] = None, options: Optional[Sequence[str]] = None,
              arch: str = "dav-2201") -> OpKernel:
    """The kernel side of the op project ``project`` (its directory, or
    ``{relative path: text}`` for files in memory).

    ``kernel``: the kernel file (default: the one in ``op_kernel/``);
    ``op_type``: the op's type (default the file's stem; it picks the struct
    ``REGISTER_TILING_DATA_CLASS`` registered for the op);
    ``params``: the op's inputs and outputs in the kernel's order, for the
    jit-style call; ``tiling_headers``: default ``op_host/<stem>_tiling.h``,
    else the op_host headers that define tiling data; ``options``: extra
    compile options.  Compile with :meth:`OpKernel.kernel` or call it.
    """
    return OpKernel(project, kernel, op_type=op_type, params=params, tiling_headers=tiling_headers,
                    options=options, arch=arch)
