"""Read the ``.arc_meta`` section of a binary made by the simulated NPU's
compiler (format: ``csrc/common/meta.h``): kernel names, lowered symbols and
each parameter's offset, size, kind, name and spelled type.  Binaries from a
real CANN compiler have no such section; :func:`parse` returns None."""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import List, Optional

# enum arc_param_kind in csrc/common/meta.h
KINDS = {0: "unknown", 1: "pointer", 2: "int", 3: "uint", 4: "float", 5: "bool", 6: "struct", 7: "bfloat16"}


@dataclass
class ParamMeta:
    offset: int
    size: int
    align: int
    kind: int
    name: str
    type: str


@dataclass
class KernelMeta:
    name: str
    lowered: str
    entry: str
    ktype: int
    args_size: int
    params: List[ParamMeta] = field(default_factory=list)


@dataclass
class BinaryMeta:
    arch: str
    target_cpu: str
    options: str
    kernels: List[KernelMeta] = field(default_factory=list)

    def find(self, name: str) -> Optional[KernelMeta]:
        """The kernel whose source name, name expression or symbol is ``name``."""
        for k in self.kernels:
            if name in (k.name, k.lowered):
                return k
        return None


def _section(elf: bytes, wanted: str) -> Optional[bytes]:
    if len(elf) < 64 or elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        return None
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    if shentsize < 64 or shoff + shnum * shentsize > len(elf) or shstrndx >= shnum:
        return None

    def sh(i):
        base = shoff + i * shentsize
        name, _t, _f, _a, off, size = struct.unpack_from("<IIQQQQ", elf, base)
        return name, off, size

    _, stroff, strsize = sh(shstrndx)
    for i in range(shnum):
        name, off, size = sh(i)
        if name >= strsize:
            continue
        end = elf.find(b"\0", stroff + name)
        if elf[stroff + name:end].decode("latin-1") == wanted:
            return bytes(elf[off:off + size]) if off + size <= len(elf) else None
    return None


class _Reader:
    def __init__(self, buf: bytes):
        self.buf, self.pos = buf, 0

    def u32(self) -> int:
        v, = struct.unpack_from("<I", self.buf, self.pos)
        self.pos += 4
        return v

    def str(self) -> str:
        n = self.u32()
        s = self.buf[self.pos:self.pos + n]
        if len(s) != n:
            raise ValueError("truncated string")
        self.pos += n
        return s.decode("utf-8", "replace")


def parse(binary: bytes) -> Optional[BinaryMeta]:
    """The metadata of ``binary``, or None when it has none (or it is corrupt)."""
    sec = _section(binary, ".arc_meta")
    if not sec or sec[:8] != b"ARCMETA1":
        return None
    try:
        r = _Reader(sec)
        r.pos = 8
        if r.u32() != 1:
            return None
        nk = r.u32()
        meta = BinaryMeta(r.str(), r.str(), r.str())
        for _ in range(nk):
            k = KernelMeta(r.str(), r.str(), r.str(), r.u32(), 0)
            np_ = r.u32()
            k.args_size = r.u32()
            for _ in range(np_):
                off, size, align, kind = r.u32(), r.u32(), r.u32(), r.u32()
                k.params.append(ParamMeta(off, size, align, kind, r.str(), r.str()))
            meta.kernels.append(k)
        return meta
    except (struct.error, ValueError):
        return None
