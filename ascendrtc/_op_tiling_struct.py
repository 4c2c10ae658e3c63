"""The tiling structs of an op project as the compiler laid them out: the
classes it declares with the tiling DSL (``BEGIN_TILING_DATA_DEF`` ...
``END_TILING_DATA_DEF``; the op's host code reports each registered class's
fields: offset, element size and format, count, nested class; tiling_dsl.h's
field_info) and the plain structs its tiling function names in
``GetTilingData<T>()`` (described by the host compile from clang's record
layout, csrc/rtc/tiling_layout.cpp), so that the bytes a host tiling
function saved can be shown field by field and a hand-made tiling packed;
and :class:`Tiling`, what a tiling function chose for one call.
"""
from __future__ import annotations

import struct as _struct
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

__all__ = ["Tiling", "TilingStruct", "PlainStructs"]

_KINDS = {"s": "scalar", "a": "array", "t": "struct"}
# A scalar field's struct format character (tiling_dsl.h's fmt_of) -> its C type.
_C_TYPES = {"?": "bool", "f": "float", "d": "double", "b": "int8_t", "B": "uint8_t", "h": "int16_t",
            "H": "uint16_t", "i": "int32_t", "I": "uint32_t", "q": "int64_t", "Q": "uint64_t"}


class TilingStruct:
    """One tiling struct as the compiler laid it out: ``fields`` is
    [(name, kind, type, count)], kind one of "scalar", "array", "struct",
    type a scalar element's struct format character or the nested class's
    name (an array of structs: the class's name too); :meth:`layout` adds
    each field's offset."""

    def __init__(self, name: str, size: int, fields: Sequence[Mapping[str, Any]]):
        self.name = name
        self.size = int(size)
        self._rows = []
        for f in fields:
            kind = _KINDS[f["kind"]]
            sub = TilingStruct(f["cls"], f["size"], f["fields"]) if "fields" in f else None
            self._rows.append((f["name"], kind, f["cls"] if sub is not None or kind == "struct" else f["fmt"],
                               int(f["count"]), int(f["offset"]), int(f["size"]), sub))
        self.fields = [(n, k, t, c) for n, k, t, c, _, _, _ in self._rows]
        self._spelled = {f["name"]: f.get("cls") or f.get("fmt") for f in fields}  # the C type, for messages

    @classmethod
    def from_host(cls, c: Mapping[str, Any]) -> Optional["TilingStruct"]:
        """The struct of one ``tiling_classes`` (or ``plain_classes``) entry
        of the op definition, or None when a field is of a type it cannot
        name (raw bytes only; :func:`undecodable` says which)."""
        s = cls(c["cls"], c["size"], c.get("fields", []))
        return s if s.undecodable() is None else None

    def undecodable(self) -> Optional[str]:
        """None, or the first field whose bytes cannot be shown (``name
        (type)``, nested fields dotted), or a name two fields share (a base
        class's member hidden by one of the class's own)."""
        names = [r[0] for r in self._rows]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            return f"{twice[0]} (two fields of this name)"
        for name, kind, typ, _, _, size, sub in self._rows:
            if sub is not None:
                inner = sub.undecodable()
                if inner is not None:
                    return f"{name}.{inner}"
            elif kind == "struct" or (typ not in _C_TYPES and typ != "e") or _struct.calcsize("<" + typ) != size:
                return f"{name} ({self._spelled[name] or 'a type without a byte format'})"
        return None

    def layout(self) -> List[Tuple[str, str, str, int, int]]:
        """[(name, kind, type, count, offset)] as the compiler laid them out."""
        return [(n, k, t, c, off) for n, k, t, c, off, _, _ in self._rows]

    def decode(self, data: bytes, base: int = 0) -> Dict[str, Any]:
        """The field values in ``data`` (nested structs as dicts, arrays as lists)."""
        out: Dict[str, Any] = {}
        for name, kind, typ, count, off, size, sub in self._rows:
            at = base + off
            if sub is not None:
                vals = [sub.decode(data, at + i * size) for i in range(count)]
            else:
                vals = [_struct.unpack_from("<" + typ, data, at + i * size)[0] for i in range(count)]
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
        for name, kind, typ, count, off, size, sub in self._rows:
            if name not in values:
                continue
            v = values[name]
            items = list(v) if kind == "array" else [v]
            if len(items) > count:
                raise ValueError(f"{self.name}.{name} holds {count} element(s), got {len(items)}")
            for i, item in enumerate(items):
                if sub is not None:
                    sub.encode(item, buf, base + off + i * size)
                else:
                    _struct.pack_into("<" + typ, buf, base + off + i * size, item)
        return bytes(buf)

    def dsl_source(self, op_type: str) -> Optional[str]:
        """The struct in the tiling DSL, registered for ``op_type``: what the
        op build gives a kernel when the header that defines the struct is
        host code (an op library's shared ``foreach_tiling_def.h``); None
        when a field's type has no C name here."""
        out: List[str] = []
        if not self._dsl(out):
            return None
        return "\n".join(out + [f"REGISTER_TILING_DATA_CLASS({op_type}, {self.name})", ""])

    def _dsl(self, out: List[str], seen: Optional[set] = None) -> bool:
        seen = set() if seen is None else seen
        body = [f"BEGIN_TILING_DATA_DEF({self.name})"]
        for name, kind, typ, count, _, _, sub in self._rows:
            if sub is not None:
                if kind == "array" or (sub.name not in seen and not sub._dsl(out, seen)):
                    return False
                body.append(f"TILING_DATA_FIELD_DEF_STRUCT({sub.name}, {name});")
            elif typ not in _C_TYPES:
                return False
            elif kind == "array":
                body.append(f"TILING_DATA_FIELD_DEF_ARR({_C_TYPES[typ]}, {count}, {name});")
            else:
                body.append(f"TILING_DATA_FIELD_DEF({_C_TYPES[typ]}, {name});")
        seen.add(self.name)
        out += body + ["END_TILING_DATA_DEF;"]
        return True

    def __repr__(self) -> str:
        return f"TilingStruct({self.name}, {self.size} bytes, fields={[f[0] for f in self.fields]})"


class PlainStructs:
    """The op definition's ``plain_classes`` (the structs of the host code's
    ``GetTilingData<T>()`` calls), found by T as ``__PRETTY_FUNCTION__``
    spells it or by its unqualified name where that is unique: each a
    (:class:`TilingStruct`, "") or (None, why its bytes stay raw)."""

    def __init__(self, classes: Sequence[Mapping[str, Any]]):
        self._by: Dict[str, Tuple[Optional[TilingStruct], str]] = {}
        short: Dict[str, List[str]] = {}
        for c in classes:
            s = TilingStruct(c["cls"], c["size"], c.get("fields", []))
            bad = s.undecodable()
            self._by[c["type"]] = (None, f"the tiling struct {c['type']} has a field whose bytes cannot be shown "
                                         f"one by one: {bad}") if bad else (s, "")
            short.setdefault(c["type"].rsplit("::", 1)[-1], []).append(c["type"])
        self._short = {n: types[0] for n, types in short.items() if len(types) == 1}

    def __len__(self) -> int:
        return len(self._by)

    def only(self) -> Optional[TilingStruct]:
        """The struct when the host code names exactly one (decodable), else None."""
        return next(iter(self._by.values()))[0] if len(self._by) == 1 else None

    def get(self, type_name: str) -> Optional[Tuple[Optional[TilingStruct], str]]:
        """(struct, why) of the struct ``GetTilingData<type_name>()`` used, or None when not described."""
        t = type_name.strip()
        return self._by.get(t) or self._by.get(self._short.get(t.rsplit("::", 1)[-1], ""))


class Tiling:
    """What an op's host tiling function chose for one call.

    ``block_dim``, ``tiling_key`` (``tiling_key_set``: whether the function
    set one), ``workspace_sizes`` (bytes, per GetWorkspaceSizes entry),
    ``data`` (the tiling bytes), ``struct`` (the :class:`TilingStruct` they
    hold, where it is known: declared with the tiling DSL, or the plain
    struct this call's ``GetTilingData<T>()`` used (a tiling function may
    pick one of several per tiling key), both as the compiler laid them out)
    and ``fields`` (its values as a dict, or None; ``unknown_struct`` then
    says why, when a struct was refused).  ``replace(**fields)`` makes a copy with
    some fields changed -- a hand-made tiling for :meth:`OpProject.launch`.
    """

    def __init__(self, block_dim: int, tiling_key: int, data: bytes, workspace_sizes: Sequence[int] = (),
                 struct: Optional[TilingStruct] = None, tiling_key_set: bool = True,
                 outputs: Sequence[Tuple[Tuple[int, ...], np.dtype]] = (), unknown_struct: str = ""):
        self.block_dim = int(block_dim)
        self.tiling_key = int(tiling_key)
        self.tiling_key_set = bool(tiling_key_set)
        self.data = bytes(data)
        self.workspace_sizes = [int(w) for w in workspace_sizes]
        self.struct = struct
        self.outputs = list(outputs)
        self.unknown_struct = unknown_struct  # why struct is None where a struct was expected

    @property
    def workspace_size(self) -> int:
        """Total workspace bytes the kernel gets."""
        return sum(self.workspace_sizes)

    @property
    def fields(self) -> Optional[Dict[str, Any]]:
        if self.struct is None or len(self.data) < self.struct.size:
            return None
        return self.struct.decode(self.data)

    def replace(self, **fields: Any) -> "Tiling":
        """A copy with the given tiling struct fields changed."""
        if self.struct is None:
            raise ValueError((self.unknown_struct or "this tiling's struct is not known (neither a tiling DSL class "
                              "nor a GetTilingData<T>() struct)") + "; pass bytes to launch()")
        values = self.fields or {}
        values.update(fields)
        data = self.struct.encode(values)
        return Tiling(self.block_dim, self.tiling_key, data + self.data[len(data):], self.workspace_sizes,
                      self.struct, self.tiling_key_set, self.outputs)

    def __repr__(self) -> str:
        f = self.fields
        body = f"fields={f}" if f is not None else f"data={self.data.hex()}"
        return (f"Tiling(block_dim={self.block_dim}, tiling_key={self.tiling_key}, "
                f"workspace_sizes={self.workspace_sizes}, {body})")
