"""Plain C++ tiling structs (``context->GetTilingData<T>()``), laid out from
their text.

The op's host code reports the layout of every tiling-DSL class
(_op_tiling_struct.py); a plain struct has no such hook, so its members are
read from the sources and laid out as C does for plain data members: in
declaration order at their natural alignment, the size a multiple of the
largest alignment (a ``class`` too, when every member is in one ``public:``
section).  A struct with anything that could change that (methods,
other access specifiers, alignas, attributes, ``#pragma pack``, a type or array
length this reader cannot name) is left out: its bytes are shown raw, never
guessed; and the tiling function reports ``sizeof(T)`` of its
``GetTilingData<T>()``, so a layout read here whose size disagrees (a
``-fpack-struct``, a macro this reader cannot see) is refused too.  Library structs a plain one nests (``TCubeTiling``) are known
without their headers.
"""
from __future__ import annotations

import re
import struct as _struct
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ._op_tiling_struct import TilingStruct

__all__ = ["parse_plain_structs"]

_SCALARS = {
    "int8_t": "b", "uint8_t": "B", "int16_t": "h", "uint16_t": "H", "int32_t": "i", "uint32_t": "I",
    "int64_t": "q", "uint64_t": "Q", "float": "f", "double": "d", "int": "i", "char": "b", "bool": "?",
    "unsigned": "I", "size_t": "Q",
}
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_CONST = re.compile(r"(?:constexpr|const)\s+[\w:]+\s+(\w+)\s*=\s*(\d+)[uUlL]*\s*;|#define\s+(\w+)\s+\(?(\d+)[uUlL]*\)?")
# A plain struct (or class) of data members only (no methods, nested braces; access specifiers checked in _members).
_PLAIN = re.compile(r"\b(?:struct|class)\s+(\w+)\s*\{([^{}]*)\}\s*;")
_ACCESS = re.compile(r"\b(public|private|protected)\s*:")
_MEMBER = re.compile(r"^([\w:]+)\s+(\w+)\s*(?:\[\s*(\w+)\s*\])?\s*(?:=\s*[-+\w.]+)?$")
_GET = re.compile(r"GetTilingData\s*<\s*([\w:]+)\s*>")

Row = Dict[str, Any]  # one field as the host reports DSL fields (_op_tiling_struct.TilingStruct)


def _short(typ: str) -> str:
    """``optiling::TCubeTiling`` -> ``TCubeTiling``; ``std::uint32_t`` -> ``uint32_t``."""
    return typ.rsplit("::", 1)[-1].strip()


def _members(body: str) -> Optional[List[Tuple[str, str, str]]]:
    """[(type, name, count text)] of a plain struct's body, or None when a
    member is not a plain data member (or the layout may be changed)."""
    if "alignas" in body or "__attribute__" in body or "#" in body:
        return None
    if {m.group(1) for m in _ACCESS.finditer(body)} - {"public"}:
        return None   # a class's members in one public section only (CANN's samples: class T { public: ... })
    body = _ACCESS.sub(";", body)
    out = []
    for decl in (d.strip() for d in body.split(";")):
        if not decl:
            continue
        m = _MEMBER.match(decl)
        if not m:
            return None
        out.append((_short(m.group(1)), m.group(2), m.group(3) or ""))
    return out


def _lay_out(members: List[Tuple[str, str, int]], known: Dict[str, Tuple[int, int, List[Row]]]) -> Tuple[int, int, List[Row]]:
    """(size, alignment, rows) of members [(type, name, count)] in C's layout."""
    rows, off, align = [], 0, 1
    for typ, name, count in members:
        if typ in _SCALARS:
            size = a = _struct.calcsize(_SCALARS[typ])
            row: Row = {"kind": "a" if count != 1 else "s", "fmt": _SCALARS[typ], "cls": ""}
        else:
            size, a, sub = known[typ]
            row = {"kind": "t", "fmt": "", "cls": typ, "fields": sub}
        off = (off + a - 1) // a * a
        row.update(name=name, count=count, offset=off, size=size)
        rows.append(row)
        off += size * count
        align = max(align, a)
    return (off + align - 1) // align * align, align, rows


def _library() -> Dict[str, Tuple[int, int, List[Row]]]:
    """TCubeTiling: int32 fields in the kernel struct's order (ascendrtc.matmul_tiling.FIELDS)."""
    from .matmul_tiling import FIELDS
    return {"TCubeTiling": _lay_out([("int32_t", f, 1) for f in FIELDS], {})}


def parse_plain_structs(texts: Mapping[str, str]) -> Tuple[Dict[str, TilingStruct], Optional[str]]:
    """The plain structs declared in ``texts`` (path -> source) that can be
    laid out from their text, and the one struct ``GetTilingData<T>`` names
    (None where the sources name none or several)."""
    consts: Dict[str, int] = {}
    raw: Dict[str, List[Tuple[str, str, str]]] = {}
    for text in texts.values():
        text = _COMMENTS.sub("", text)
        for m in _CONST.finditer(text):
            name, val = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            consts[name] = int(val)
        if "#pragma pack" in text:
            continue
        for m in _PLAIN.finditer(text):
            members = _members(m.group(2))
            if members:
                raw[m.group(1)] = members
    got = {_short(m.group(1)) for text in texts.values() for m in _GET.finditer(_COMMENTS.sub("", text))}
    known = {k: v for k, v in _library().items() if k not in raw}
    pending = dict(raw)
    while pending:   # nested structs first
        progress = False
        for name, members in list(pending.items()):
            out: Optional[List[Tuple[str, str, int]]] = []
            for typ, fname, count in members:
                n = 1 if not count else int(count) if count.isdigit() else consts.get(count)
                if typ in pending and typ != name:
                    out = None  # later, once its member's struct is laid out
                    break
                if n is None or (typ not in _SCALARS and (typ not in known or n != 1)):
                    out = []    # unreadable: left out
                    members = []
                    break
                out.append((typ, fname, n))
            if out is None:
                continue
            del pending[name]
            progress = True
            if members:
                known[name] = _lay_out(out, known)
        if not progress:
            break
    structs = {n: TilingStruct(n, v[0], v[2], from_text=True) for n, v in known.items()}
    return {n: s for n, s in structs.items() if s.decodable()}, (got.pop() if len(got) == 1 else None)
