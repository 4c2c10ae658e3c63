"""At import: are the LLVM 19 shared libraries the simulated NPU links
(libLLVM, libclang-cpp) where the dynamic loader will look?  A wheel installs
without them -- pip runs no code at install time -- so the first moment to
say which package is missing is ``import ascendrtc``, before a compile or a
launch fails with a loader error.  Cheap: two ELF headers read, a few stat
calls; a library in none of those directories is looked up in ldconfig's
cache before it is reported missing."""
from __future__ import annotations

import os
import re
import struct
from typing import List, Optional, Tuple

# The Debian/Ubuntu package that ships each library the simulated NPU needs at run time.
PACKAGES = {"libLLVM": "libllvm19", "libclang-cpp": "libclang-cpp19"}
_DIRS = ("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib",
         "/usr/local/lib")


def _dynamic(path: str) -> Tuple[List[str], List[str]]:
    """(DT_NEEDED names, DT_RUNPATH/DT_RPATH directories) of an ELF64 LE file;
    reads only its headers and dynamic section."""
    with open(path, "rb") as f:
        head = f.read(64)
        if head[:4] != b"\x7fELF" or head[4] != 2 or head[5] != 1:
            return [], []
        shoff, = struct.unpack_from("<Q", head, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", head, 0x3A)
        f.seek(shoff)
        table = f.read(shentsize * shnum)
        sections = [struct.unpack_from("<IIQQQQIIQQ", table, i * shentsize) for i in range(shnum)]
        needed, paths = [], []
        for _, stype, _, _, off, size, link, _, _, _ in sections:
            if stype != 6:  # SHT_DYNAMIC
                continue
            f.seek(off)
            dyn = f.read(size)
            f.seek(sections[link][4])
            strtab = f.read(sections[link][5])

            def s(i: int) -> str:
                return strtab[i:strtab.index(b"\0", i)].decode("utf-8", "replace")
            for j in range(0, len(dyn) - 15, 16):
                tag, val = struct.unpack_from("<qQ", dyn, j)
                if tag == 1:
                    needed.append(s(val))
                elif tag in (15, 29):
                    paths += [p.replace("$ORIGIN", os.path.dirname(path)) for p in s(val).split(":") if p]
    return needed, paths


def _is_elf(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def _ld_cache() -> bytes:
    try:
        with open("/etc/ld.so.cache", "rb") as f:
            return f.read()
    except OSError:
        return b""


def missing(home: str) -> Optional[str]:
    """The one message naming what to install, or None when all is there
    (or the home is not built: then the loader's own error says so later)."""
    lost = []
    for lib in ("libascendcl.so", "libacl_rtc.so"):
        path = os.path.join(home, "lib64", lib)
        try:
            needed, runpath = _dynamic(path)
        except (OSError, ValueError, struct.error, IndexError):
            continue
        dirs = runpath + [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d] + list(_DIRS)
        for name in needed:
            stem = name.split(".so")[0]
            if stem not in PACKAGES or name in lost:
                continue
            if any(_is_elf(os.path.join(d, name)) for d in dirs):
                continue
            cached = re.findall(rb"(/[^\0]*/" + re.escape(name.encode()) + rb")\0", _ld_cache())
            if any(_is_elf(p.decode("utf-8", "replace")) for p in cached):  # where ldconfig put it
                continue
            lost.append(name)
    if not lost:
        return None
    pkgs = " ".join(dict.fromkeys(PACKAGES[n.split(".so")[0]] for n in lost))
    return (f"ascendrtc's simulated NPU needs LLVM 19's shared libraries, and {', '.join(lost)} "
            f"{'is' if len(lost) == 1 else 'are'} not installed: sudo apt-get install {pkgs} "
            f"(or use a CANN toolkit: ASCENDRTC_BACKEND=cann)")
