"""The tiling structs an op project declares with the tiling DSL
(``BEGIN_TILING_DATA_DEF`` ... ``END_TILING_DATA_DEF``) or as plain C++
structs (``context->GetTilingData<T>()``), read from its sources so that the bytes a host tiling function saved can be shown field by
field, and a hand-made tiling packed.

The layout is the DSL's (csrc/device/README.md, "Op projects"): fields in
declaration order at their natural alignment, the size a multiple of the
largest alignment.  The host code reports each registered class's size;
a struct whose computed size differs is not decoded (raw bytes only).
Library tiling structs a project nests (``TCubeTiling``, from
csrc/device/kernel_tiling/kernel_tiling.h) are known without its headers.
"""
from __future__ import annotations

import re
import struct as _struct
from typing import Any, Dict, List, Mapping, Optional, Tuple

__all__ = ["TilingStruct", "parse_tiling_structs"]

_SCALARS = {
    "int8_t": "b", "uint8_t": "B", "int16_t": "h", "uint16_t": "H", "int32_t": "i", "uint32_t": "I",
    "int64_t": "q", "uint64_t": "Q", "float": "f", "double": "d", "int": "i", "char": "b", "bool": "?",
    "unsigned": "I", "size_t": "Q",
}

_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_DEF = re.compile(r"BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\)(.*?)END_TILING_DATA_DEF", re.S)
_FIELD = re.compile(r"TILING_DATA_FIELD_DEF(_ARR|_STRUCT)?\s*\(([^()]*)\)")
_CONST = re.compile(r"(?:constexpr|const)\s+[\w:]+\s+(\w+)\s*=\s*(\d+)[uUlL]*\s*;|#define\s+(\w+)\s+\(?(\d+)[uUlL]*\)?")
_REG = re.compile(r"REGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)")
# A plain struct of data members only (no methods, access specifiers, nested braces).
_PLAIN = re.compile(r"\bstruct\s+(\w+)\s*\{([^{}]*)\}\s*;")
_MEMBER = re.compile(r"^([\w:]+)\s+(\w+)\s*(?:\[\s*(\w+)\s*\])?\s*(?:=\s*[-+\w.]+)?$")
_GET = re.compile(r"GetTilingData\s*<\s*([\w:]+)\s*>")


class TilingStruct:
    """One DSL tiling struct: ``fields`` is [(name, kind, type, count)], kind
    one of "scalar", "array", "struct"."""

    def __init__(self, name: str, fields: List[Tuple[str, str, str, int]], registry: Dict[str, "TilingStruct"]):
        self.name = name
        self.fields = fields
        self._registry = registry

    def _member(self, kind: str, typ: str) -> Tuple[int, int]:
        """(size, alignment) of one element of a field."""
        if kind == "struct":
            sub = self._registry[typ]
            return sub.size, sub.align
        n = _struct.calcsize(_SCALARS[typ])
        return n, n

    @property
    def align(self) -> int:
        return max([self._member(k, t)[1] for _, k, t, _ in self.fields] or [1])

    def layout(self) -> List[Tuple[str, str, str, int, int]]:
        """[(name, kind, type, count, offset)] in the C layout."""
        out, off = [], 0
        for name, kind, typ, count in self.fields:
            size, align = self._member(kind, typ)
            off = (off + align - 1) // align * align
            out.append((name, kind, typ, count, off))
            off += size * count
        return out

    @property
    def size(self) -> int:
        lay = self.layout()
        if not lay:
            return 0
        name, kind, typ, count, off = lay[-1]
        end = off + self._member(kind, typ)[0] * count
        a = self.align
        return (end + a - 1) // a * a

    def decode(self, data: bytes, base: int = 0) -> Dict[str, Any]:
        """The field values in ``data`` (nested structs as dicts, arrays as lists)."""
        out: Dict[str, Any] = {}
        for name, kind, typ, count, off in self.layout():
            at = base + off
            if kind == "struct":
                sub = self._registry[typ]
                vals = [sub.decode(data, at + i * sub.size) for i in range(count)]
            else:
                fmt = "<" + _SCALARS[typ]
                n = _struct.calcsize(fmt)
                vals = [_struct.unpack_from(fmt, data, at + i * n)[0] for i in range(count)]
            out[name] = vals if kind == "array" else vals[0]
        return out

    def encode(self, values: Mapping[str, Any], into: Optional[bytearray] = None, base: int = 0) -> bytes:
        """Packs ``values`` (missing fields 0; unknown names are an error)."""
        known = {f[0] for f in self.fields}
        extra = sorted(set(values) - known)
        if extra:
            raise KeyError(f"tiling struct {self.name} has no field(s) {', '.join(extra)} "
                           f"(fields: {', '.join(f[0] for f in self.fields)})")
        buf = into if into is not None else bytearray(self.size)
        for name, kind, typ, count, off in self.layout():
            if name not in values:
                continue
            v = values[name]
            items = list(v) if kind == "array" else [v]
            if len(items) > count:
                raise ValueError(f"{self.name}.{name} holds {count} element(s), got {len(items)}")
            for i, item in enumerate(items):
                if kind == "struct":
                    sub = self._registry[typ]
                    sub.encode(item, buf, base + off + i * sub.size)
                else:
                    fmt = "<" + _SCALARS[typ]
                    _struct.pack_into(fmt, buf, base + off + i * _struct.calcsize(fmt), item)
        return bytes(buf)

    def __repr__(self) -> str:
        return f"TilingStruct({self.name}, {self.size} bytes, fields={[f[0] for f in self.fields]})"


def _library_structs(registry: Dict[str, "TilingStruct"]) -> Dict[str, "TilingStruct"]:
    """The library's tiling structs a DSL struct may nest: TCubeTiling, its
    int32 fields in the kernel struct's order (ascendrtc.matmul_tiling.FIELDS)."""
    from .matmul_tiling import FIELDS
    return {"TCubeTiling": TilingStruct("TCubeTiling", [(f, "scalar", "int32_t", 1) for f in FIELDS], registry)}


def _short(typ: str) -> str:
    """``optiling::TCubeTiling`` -> ``TCubeTiling``; ``std::uint32_t`` -> ``uint32_t``."""
    return typ.rsplit("::", 1)[-1].strip()


def _plain_fields(body: str) -> Optional[List[Tuple[str, str, str, str]]]:
    """A plain struct's members as DSL fields, or None when one is not a
    plain data member (or the layout may be changed: alignas, attributes)."""
    if "alignas" in body or "__attribute__" in body or "#" in body:
        return None
    fields = []
    for decl in (d.strip() for d in body.split(";")):
        if not decl:
            continue
        m = _MEMBER.match(decl)
        if not m:
            return None
        typ, name, count = _short(m.group(1)), m.group(2), m.group(3)
        kind = "array" if count else "scalar" if typ in _SCALARS else "struct"
        fields.append((name, kind, typ, count or "1"))
    return fields


def parse_tiling_structs(texts: Mapping[str, str]) -> Tuple[Dict[str, TilingStruct], Dict[str, str]]:
    """The DSL and plain structs declared in ``texts`` (path -> source), and
    the ``REGISTER_TILING_DATA_CLASS`` map op -> struct name (key "": the one
    struct ``GetTilingData<T>`` names, where the sources name one).  Structs
    with a field type or array length this parser cannot read are left out."""
    consts: Dict[str, int] = {}
    raw: Dict[str, List[Tuple[str, str, str, str]]] = {}
    regs: Dict[str, str] = {}
    for text in texts.values():
        text = _COMMENTS.sub("", text)
        for m in _CONST.finditer(text):
            name, val = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            consts[name] = int(val)
        for m in _DEF.finditer(text):
            fields = []
            for f in _FIELD.finditer(m.group(2)):
                parts = [p.strip() for p in f.group(2).split(",")]
                kind = {"_ARR": "array", "_STRUCT": "struct"}.get(f.group(1) or "", "scalar")
                if kind == "array" and len(parts) == 3:
                    fields.append((parts[2], kind, parts[0], parts[1]))
                elif kind != "array" and len(parts) == 2:
                    fields.append((parts[1], kind, parts[0], "1"))
            raw[m.group(1)] = fields
        for m in _REG.finditer(text):
            regs[m.group(1)] = m.group(2)
    for text in texts.values():    # plain structs after every DSL one: the DSL's layout wins
        text = _COMMENTS.sub("", text)
        for m in _PLAIN.finditer(text):
            fields = None if "#pragma pack" in text else _plain_fields(m.group(2))
            if fields and m.group(1) not in raw:
                raw[m.group(1)] = fields
    got = {_short(m.group(1)) for text in texts.values() for m in _GET.finditer(_COMMENTS.sub("", text))}
    if len(got) == 1:
        regs[""] = got.pop()
    registry: Dict[str, TilingStruct] = {}
    registry.update({k: v for k, v in _library_structs(registry).items() if k not in raw})
    pending = dict(raw)
    while pending:
        progress = False
        for name, fields in list(pending.items()):
            out, ok = [], True
            for fname, kind, typ, count in fields:
                typ = _short(typ)
                n = int(count) if count.isdigit() else consts.get(count)
                if n is None:
                    ok = False
                    break
                if kind == "struct":
                    if typ in pending:
                        ok = None
                        break
                    if typ not in registry:
                        ok = False
                        break
                elif typ not in _SCALARS:
                    ok = False
                    break
                out.append((fname, kind, typ, n))
            if ok is None:
                continue
            del pending[name]
            progress = True
            if ok:
                registry[name] = TilingStruct(name, out, registry)
        if not progress:
            break
    return registry, regs
