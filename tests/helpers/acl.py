"""ctypes access to the simulated CANN home, for tests of the C API.

Independent of the ascendrtc package on purpose: the C API is checked
against CANN's documented behaviour, not against our own Python layer.
"""
import ctypes
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sim_home():
    return os.path.abspath(os.environ.get("ASCENDRTC_SIM_HOME", os.path.join(ROOT, "ascendrtc", "_home")))


_libs = {}


def libs():
    """(libascendcl, libacl_rtc), loaded once per process."""
    if not _libs:
        home = sim_home()
        _libs["rt"] = ctypes.CDLL(os.path.join(home, "lib64", "libascendcl.so"), mode=ctypes.RTLD_GLOBAL)
        _libs["rtc"] = ctypes.CDLL(os.path.join(home, "lib64", "libacl_rtc.so"))
        rt, rtc = _libs["rt"], _libs["rtc"]
        rt.aclGetRecentErrMsg.restype = ctypes.c_char_p
        # dlsym through libacl_rtc finds the libascendcl it is bound to, which
        # is where its errors are recorded even if another copy loaded first
        rtc.aclGetRecentErrMsg.restype = ctypes.c_char_p
        P = ctypes.c_void_p
        rtc.aclrtcCreateProg.argtypes = [ctypes.POINTER(P), ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int,
                                         ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_char_p)]
        rtc.aclrtcCompileProg.argtypes = [P, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
        rtc.aclrtcGetBinDataSize.argtypes = [P, ctypes.POINTER(ctypes.c_size_t)]
        rtc.aclrtcGetBinData.argtypes = [P, ctypes.c_char_p]
        rtc.aclrtcGetCompileLogSize.argtypes = [P, ctypes.POINTER(ctypes.c_size_t)]
        rtc.aclrtcGetCompileLog.argtypes = [P, ctypes.c_char_p]
        rtc.aclrtcAddNameExpr.argtypes = [P, ctypes.c_char_p]
        rtc.aclrtcGetLoweredName.argtypes = [P, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)]
        rtc.aclrtcDestroyProg.argtypes = [ctypes.POINTER(P)]
    return _libs["rt"], _libs["rtc"]


def recent_error():
    return libs()[1].aclGetRecentErrMsg().decode()


def cstrs(items):
    arr = (ctypes.c_char_p * max(1, len(items)))()
    for i, s in enumerate(items):
        arr[i] = s.encode() if isinstance(s, str) else s
    return arr


class Prog:
    """A thin owner of an aclrtcProg handle."""

    def __init__(self, src, name="kernel.asc", headers=None):
        _, self.rtc = libs()
        self.h = ctypes.c_void_p()
        headers = headers or {}
        rc = self.rtc.aclrtcCreateProg(ctypes.byref(self.h), src.encode(), name.encode(), len(headers),
                                       cstrs(list(headers.values())), cstrs(list(headers.keys())))
        assert rc == 0, (rc, recent_error())

    def add_name_expr(self, expr):
        return self.rtc.aclrtcAddNameExpr(self.h, expr.encode())

    def compile(self, options=()):
        return self.rtc.aclrtcCompileProg(self.h, len(options), cstrs(list(options)) if options else None)

    def log(self):
        n = ctypes.c_size_t()
        assert self.rtc.aclrtcGetCompileLogSize(self.h, ctypes.byref(n)) == 0
        buf = ctypes.create_string_buffer(n.value)
        assert self.rtc.aclrtcGetCompileLog(self.h, buf) == 0
        return buf.value.decode()

    def binary(self):
        n = ctypes.c_size_t()
        rc = self.rtc.aclrtcGetBinDataSize(self.h, ctypes.byref(n))
        assert rc == 0, (rc, recent_error())
        buf = ctypes.create_string_buffer(n.value)
        assert self.rtc.aclrtcGetBinData(self.h, buf) == 0
        return buf.raw[: n.value]

    def lowered(self, expr):
        out = ctypes.c_char_p()
        rc = self.rtc.aclrtcGetLoweredName(self.h, expr.encode(), ctypes.byref(out))
        return rc, (out.value.decode() if rc == 0 else None)

    def destroy(self):
        if self.h:
            assert self.rtc.aclrtcDestroyProg(ctypes.byref(self.h)) == 0

    def __del__(self):
        try:
            self.destroy()
        except Exception:
            pass


def compile_binary(src, options=("--npu-arch=dav-2201",), name="kernel.asc", exprs=(), headers=None):
    p = Prog(src, name, headers)
    for e in exprs:
        assert p.add_name_expr(e) == 0
    rc = p.compile(list(options))
    assert rc == 0, p.log()
    return p.binary(), p


# ---- an independent reader of the .arc_meta section (format in csrc/common/meta.h) ----

def elf_section(blob, name):
    assert blob[:4] == b"\x7fELF" and blob[4] == 2 and blob[5] == 1
    shoff, = struct.unpack_from("<Q", blob, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", blob, 0x3A)
    def sh(i):
        return struct.unpack_from("<IIQQQQIIQQ", blob, shoff + i * shentsize)
    strtab = sh(shstrndx)
    names = blob[strtab[4]: strtab[4] + strtab[5]]
    for i in range(shnum):
        s = sh(i)
        nm = names[s[0]: names.index(b"\0", s[0])].decode()
        if nm == name:
            return blob[s[4]: s[4] + s[5]]
    raise KeyError(name)


def read_meta(blob):
    data = elf_section(blob, ".arc_meta")
    pos = [8]
    assert data[:8] == b"ARCMETA1"

    def u32():
        v, = struct.unpack_from("<I", data, pos[0])
        pos[0] += 4
        return v

    def s():
        n = u32()
        v = data[pos[0]: pos[0] + n].decode()
        pos[0] += n
        return v

    meta = {"version": u32()}
    nk = u32()
    meta.update(arch=s(), target_cpu=s(), options=s(), kernels=[])
    for _ in range(nk):
        k = dict(name=s(), lowered=s(), entry=s(), ktype=u32())
        if meta["version"] >= 4:   # version 4 adds the ARC_USES_* bits the kernel type comes from
            k["uses"] = u32()
        np_, k["args_size"] = u32(), u32()
        if meta["version"] >= 3:   # version 3 adds the SIMT shape: most threads per block, static UB bytes
            k["simt_threads"], k["simt_static_ub"] = u32(), u32()
        k["params"] = []
        for _ in range(np_):
            p = dict(offset=u32(), size=u32(), align=u32(), kind=u32(), name=s(), type=s())
            if meta["version"] >= 2:   # version 2 adds the element type inferred for byte pointers
                p["elem"] = s()
            k["params"].append(p)
        meta["kernels"].append(k)
    return meta


def _seed_kernel():
    """The kernel string of the seed article's program, examples/add_custom.cpp:
    one copy of the article's code serves the C test and the Python tests."""
    with open(os.path.join(ROOT, "examples", "add_custom.cpp")) as f:
        text = f.read()
    start = text.index('R""""(') + len('R""""(')
    return text[start: text.index(')""""', start)]


SEED_KERNEL = _seed_kernel()

# The seed's add kernel with {N} (length) and {T} (element type) to fill in.
ADD_TEMPLATE = (SEED_KERNEL.replace("float", "T").replace("8 * 32;", "{N};")
                .replace('#include "kernel_operator.h"', '#include "kernel_operator.h"\nusing T = {T};'))
