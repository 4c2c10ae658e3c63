"""Compiled binaries carry a checksum over their code and metadata
(csrc/common/checksum.h: "ARCSUM01" + FNV-1a 64 after the ELF object),
checked by every load before anything else reads the bytes: a single
flipped bit anywhere gives a load error naming the checksum -- never a
wrong parameter offset, wrong results or a crash -- and the next load
and launch work."""
import ctypes

import pytest

import ascendrtc as arc
from helpers.faults import still_works
from helpers.py_kernels import add_binary
from helpers.rt import fnv1a64, lib, load


def recent_error():
    lib().aclGetRecentErrMsg.restype = ctypes.c_char_p
    return lib().aclGetRecentErrMsg().decode()


def meta_range(data):
    """(offset, size) of the .arc_meta section, read from the ELF tables."""
    import struct
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shnum, shstrndx = struct.unpack_from("<HH", data, 0x3C)
    sec = lambda i: struct.unpack_from("<IIQQQQIIQQ", data, shoff + 64 * i)  # noqa: E731
    stroff = sec(shstrndx)[4]
    for i in range(shnum):
        s = sec(i)
        name = data[stroff + s[0]:data.index(b"\0", stroff + s[0])]
        if name == b".arc_meta":
            return s[4], s[5]
    raise AssertionError("no .arc_meta")


def test_a_binary_ends_with_its_checksum():
    data = add_binary().data
    assert data[:4] == b"\x7fELF" and data[-16:-8] == b"ARCSUM01"
    assert int.from_bytes(data[-8:], "little") == fnv1a64(data[:-8])
    assert arc.Binary.from_bytes(data).meta is not None


def test_every_single_bit_flip_is_refused_naming_the_checksum():
    data = add_binary().data
    moff, msize = meta_range(data)
    positions = [(i, i % 8) for i in range(len(data))]                     # every byte, one bit each
    positions += [(i, b) for i in range(moff, moff + msize) for b in range(8)]   # every bit of the metadata
    positions += [(i, b) for i in range(len(data) - 16, len(data)) for b in range(8)]  # ... and the trailer
    for i, bit in positions:
        d = bytearray(data)
        d[i] ^= 1 << bit
        rc, h = load(bytes(d))
        assert rc == 107000, (i, bit, rc)
        msg = recent_error()
        assert "checksum" in msg and "corrupt kernel binary" in msg, (i, bit, msg)
    still_works()


@pytest.mark.parametrize("where", ["code", "meta", "trailer"])
def test_a_flipped_binary_through_python_is_a_clear_error(where):
    data = add_binary().data
    moff, msize = meta_range(data)
    i = {"code": 0x60, "meta": moff + msize // 2, "trailer": len(data) - 3}[where]
    d = bytearray(data)
    d[i] ^= 0x04
    b = arc.Binary.from_bytes(bytes(d))
    assert b.meta is None                   # metadata is not trusted from a damaged binary
    with pytest.raises(arc.AclError, match="checksum"):
        b.load()
    still_works()


def test_a_flipped_binary_file_is_refused(tmp_path):
    data = bytearray(add_binary().data)
    data[len(data) // 3] ^= 0x80
    p = tmp_path / "k.o"
    p.write_bytes(bytes(data))
    h = ctypes.c_void_p()
    assert lib().aclrtBinaryLoadFromFile(str(p).encode(), None, ctypes.byref(h)) == 107000
    assert "checksum mismatch" in recent_error()
    still_works()


def test_an_unsealed_object_is_refused():
    data = add_binary().data
    rc, _ = load(data[:-16])                 # the bare ELF object, as an older ascendrtc wrote it
    assert rc == 107000 and "no ascendrtc checksum trailer" in recent_error()
    with pytest.raises(arc.AclError, match="checksum"):
        arc.Binary.from_bytes(data[:-16]).load()
    still_works()
