"""Op host code reaches symbols of other images only through the GOT or
a PLT stub (rtc/host_ctors.cpp).  In the JIT each op's code and the
JITDylib's __dso_handle are separate mappings that may lie more than 2 GB
apart; a 32-bit PC-relative reference to one (clang emits that for
__dso_handle, which it declares hidden) then fails to link ("relocation
target __dso_handle ... is out of range of Delta32 fixup", seen once in a
clean-clone CI run).  The kept object of an op load (the compile cache) is
read with llvm-readelf: no R_X86_64_PC32 or absolute 32-bit relocation may
name an undefined symbol."""
import re
import shutil
import subprocess

import pytest

from helpers.oplib import library
from test_op_host_cache import load_in_child

READELF = shutil.which("llvm-readelf-19") or shutil.which("llvm-readelf")
NEAR = {"R_X86_64_PC32", "R_X86_64_32", "R_X86_64_32S", "R_X86_64_PC64"}


def kept_objects(cache_dir):
    """The ELF objects inside the cache's entries."""
    for p in sorted(cache_dir.rglob("*.arcc")):
        data = p.read_bytes()
        at = data.find(b"\x7fELF")
        if at >= 0:
            yield data[at:]


def near_references_to_undefined(obj, tmp_path):
    path = tmp_path / "kept.o"
    path.write_bytes(obj)
    out = subprocess.run([READELF, "-rsW", str(path)], capture_output=True, text=True, check=True).stdout
    undefined = {p[7] for p in (line.split() for line in out.splitlines())
                 if len(p) >= 8 and p[0].endswith(":") and p[6] == "UND"}
    bad = set()
    for line in out.splitlines():
        m = re.match(r"\s*[0-9a-f]+\s+[0-9a-f]+\s+(R_X86_64_\w+)\s+[0-9a-f]+\s+(\S+)", line)
        if m and m.group(1) in NEAR and m.group(2) in undefined:
            bad.add((m.group(2), m.group(1)))
    return bad


@pytest.mark.skipif(READELF is None, reason="llvm-readelf-19 not installed (the README's set-up installs LLVM 19)")
def test_op_host_code_reaches_dso_handle_through_the_got(tmp_path):
    _, op_dir = library(tmp_path)
    cache_dir = tmp_path / "cache"
    load_in_child(op_dir, cache_dir)  # the op runs (its values checked in the child)
    objs = [o for o in kept_objects(cache_dir) if b"__dso_handle" in o]
    assert objs, "no kept op host object refers to __dso_handle (the op registers static destructors)"
    for o in objs:
        assert not near_references_to_undefined(o, tmp_path)
