"""Kernel source templates: ``${expr}`` placeholders, rendered with a line
map so compile errors point back at the template line the user wrote.

``${N}``, ``${x.size}``, ``${ctype(x.dtype)}``, ``${BLOCK * 2}``: any Python
expression over the values given to :meth:`Template.render` (plus
``ctype`` and a few builtins).  ``$$`` is a literal ``$``.  C++'s own
braces need no escaping.
"""
from __future__ import annotations

import builtins
import re
import threading
from typing import Any, Dict, List, Mapping, Optional, Tuple

import numpy as np

from . import _C
from ._errors import TemplateError

__all__ = ["Template", "Rendered", "TemplateError", "ctype", "format_value"]

_PLACEHOLDER = re.compile(r"\$\$|\$\{([^{}\n]*)\}")

# dtype name -> its Ascend C spelling, from the runtime's one table of scalar
# types (csrc/common/meta.h ARC_SCALAR_TYPES; the first row of a dtype wins).
_CTYPES: Dict[str, str] = {}
for _c, _d, _typed in _C.SCALAR_TYPES:
    _CTYPES.setdefault(_d, _c)


def ctype(dtype: Any) -> str:
    """The Ascend C type of a NumPy dtype (``float32`` -> ``float``,
    ``float16`` -> ``half``, ``int32`` -> ``int32_t``, ...)."""
    # A scalar type (np.float32) is a type whose class attribute ``dtype``
    # is a descriptor, not a dtype: np.dtype() reads it; arrays and
    # tensors (``.dtype`` an instance attribute) give theirs.
    dt = dtype if isinstance(dtype, (type, str, np.dtype)) else getattr(dtype, "dtype", dtype)
    try:
        name = np.dtype(dt).name
    except TypeError:
        name = getattr(dt, "name", None)
        if not isinstance(name, str):
            raise TypeError(f"{dtype!r} is not a dtype (supported: {', '.join(_CTYPES)})") from None
    try:
        return _CTYPES[name]
    except KeyError:
        raise TypeError(f"dtype {name} has no Ascend C scalar type (supported: {', '.join(_CTYPES)})") from None


def format_value(v: Any) -> str:
    """How a value is spelled in C++ source: bools as ``true``/``false``,
    dtypes as their C type, NumPy scalars as Python ones."""
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, np.dtype) or (isinstance(v, type) and issubclass(v, np.generic)):
        return ctype(v)
    if isinstance(v, np.integer):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        r = repr(float(v))
        if r in ("inf", "-inf", "nan"):
            raise ValueError(f"{r} has no C++ literal; pass it to the kernel at run time")
        return r
    return str(v)


_SAFE = {n: getattr(builtins, n) for n in ("abs", "min", "max", "len", "int", "float", "bool", "str", "round",
                                            "range", "sum", "tuple", "list", "divmod", "pow", "repr", "hex")}


class Rendered(str):
    """Rendered source (a ``str``) that remembers its template: for each
    rendered line the template line it came from, and the value each
    placeholder took."""
    template: "Template"
    line_map: List[int]
    values: Dict[str, str]

    def template_line(self, line: int) -> Optional[int]:
        """The template line (1-based) that rendered ``line`` (1-based)."""
        if 0 < line <= len(self.line_map):
            return self.line_map[line - 1]
        return None

    def values_on(self, template_line: int) -> Dict[str, str]:
        """The placeholders of one template line and their values."""
        exprs = self.template.exprs_on(template_line)
        return {e: self.values[e] for e in exprs if e in self.values}


class Template:
    """Ascend C source with ``${expr}`` placeholders."""

    def __init__(self, text: str, name: str = "<template>"):
        if not isinstance(text, str):
            raise TypeError(f"a template is a str, not {type(text).__name__}")
        self.text, self.name = text, name
        # parts: literal str, or (expr text, code, template line)
        self._parts: List[Any] = []
        self._by_line: Dict[int, List[str]] = {}
        pos = 0
        for m in _PLACEHOLDER.finditer(text):
            self._parts.append(text[pos:m.start()])
            pos = m.end()
            if m.group(0) == "$$":
                self._parts.append("$")
                continue
            expr = m.group(1).strip()
            line = text.count("\n", 0, m.start()) + 1
            if not expr:
                raise TemplateError(f"{name}: line {line}: empty placeholder ${{}}")
            try:
                code = compile(expr, f"<{name} line {line}>", "eval")
            except SyntaxError as e:
                raise TemplateError(f"{name}: line {line}: placeholder ${{{expr}}} is not a Python expression "
                                    f"({e.msg})") from None
            self._parts.append((expr, code, line))
            self._by_line.setdefault(line, []).append(expr)
        self._parts.append(text[pos:])

    @property
    def placeholders(self) -> List[str]:
        """The placeholder expressions, in order of appearance."""
        return [p[0] for p in self._parts if isinstance(p, tuple)]

    def exprs_on(self, line: int) -> List[str]:
        return list(self._by_line.get(line, []))

    def line(self, n: int) -> str:
        lines = self.text.splitlines()
        return lines[n - 1] if 0 < n <= len(lines) else ""

    def render(self, values: Optional[Mapping[str, Any]] = None, **kw: Any) -> Rendered:
        """Substitute every placeholder, evaluated over ``values`` and
        ``kw``; raises TemplateError naming the line and expression."""
        ns: Dict[str, Any] = {"ctype": ctype}
        if values:
            ns.update(values)
        ns.update(kw)
        glb = {"__builtins__": _SAFE}
        out: List[str] = []
        line_map: List[int] = []
        vals: Dict[str, str] = {}
        tline = 1  # template line at the current position
        for p in self._parts:
            if isinstance(p, str):
                out.append(p)
                n = p.count("\n")
                line_map.extend(range(tline, tline + n))  # each literal line is its own template line
                tline += n
                continue
            expr, code, line = p
            try:
                v = eval(code, glb, ns)  # noqa: S307 - the user's own template expression
                s = format_value(v)
            except Exception as e:  # the user's expression failed: say where
                raise TemplateError(f"{self.name}: line {line}: ${{{expr}}}: {type(e).__name__}: {e}\n"
                                    f"  {line} | {self.line(line).strip()}") from e
            vals[expr] = s
            out.append(s)
            line_map.extend([line] * s.count("\n"))  # a multi-line value: all from the placeholder's line
        line_map.append(tline)
        r = Rendered("".join(out))
        r.template, r.line_map, r.values = self, line_map, vals
        return r

    def __repr__(self) -> str:
        return f"<ascendrtc.Template {self.name!r}, {len(self.placeholders)} placeholders>"


# Rendered sources whose lines differ from their template's (a multi-line
# value moved the lines below it), by program name: launch errors report
# the rendered line (the kernel's debug lines), and LaunchError maps it back
# with launch_line().  A few per name: the variants of one jit function.
_LAUNCH_MAPS: Dict[str, List[Tuple["Template", Tuple[int, ...]]]] = {}
_LAUNCH_LOCK = threading.Lock()


def remember(program_name: str, source: str) -> None:
    """Note a jit variant's rendered source for launch_line()."""
    if not isinstance(source, Rendered):
        return
    lm = tuple(source.line_map)
    with _LAUNCH_LOCK:
        maps = _LAUNCH_MAPS.setdefault(program_name, [])
        if all(m != lm or t is not source.template for t, m in maps):
            maps.append((source.template, lm))
            del maps[:-8]


def launch_line(file: str, line: int) -> Optional[Tuple["Template", int]]:
    """(template, template line) of rendered line ``line`` of jit program
    ``file``, when every variant launched under that name agrees."""
    with _LAUNCH_LOCK:
        maps = list(_LAUNCH_MAPS.get(file, ()))
    got = {(id(t), m[line - 1] if 0 < line <= len(m) else None) for t, m in maps}
    if len(got) != 1 or None in {g[1] for g in got}:
        return None
    return maps[0][0], maps[0][1][line - 1]


def locate(source: str, line: int) -> Tuple[Optional["Template"], Optional[int]]:
    """(template, template line) for a rendered line, when known."""
    if isinstance(source, Rendered):
        return source.template, source.template_line(line)
    return None, None


_RETURNED: Dict[str, "Template"] = {}   # the templates jit functions returned, by text (a few per program)


def render_returned(text: str, values: Mapping[str, Any], name: str) -> str:
    """The source a jit function returned: rendered like ``jit(SRC,
    params=...)`` over the call's values when it holds ``${...}``
    placeholders (never valid Ascend C), else as it is."""
    if "${" not in text:
        return text
    t = _RETURNED.get(text)
    if t is None:
        t = Template(text, name=f"{name} (the template it returned)")
        with _LAUNCH_LOCK:
            if len(_RETURNED) >= 64:
                _RETURNED.pop(next(iter(_RETURNED)))
            _RETURNED[text] = t
    return t.render(values)
