"""ctypes bindings of the runtime half of the simulated CANN home
(libascendcl.so) and hand-made kernel binaries for runtime tests.

Hand-made binaries are small C files compiled with clang-19 that define an
entry `void k_entry(const unsigned char *args)` and carry an `.arc_meta`
section written here by an independent serializer of the format documented
in csrc/common/meta.h.  They need no rtc, and they make corrupt or unusual
binaries easy to build.
"""
import ctypes
import hashlib
import os
import shutil
import struct
import subprocess
import tempfile

from helpers.acl import ROOT, sim_home

P = ctypes.c_void_p
SZ = ctypes.c_size_t
U32 = ctypes.c_uint32
I32 = ctypes.c_int32
PP = ctypes.POINTER(ctypes.c_void_p)

# error codes (csrc/include/acl/acl_error_table.h)
INVALID_PARAM = 100000
REPEAT_INITIALIZE = 100002
INVALID_FILE = 100003
RT_PARAM_INVALID = 107000
RT_INVALID_DEVICEID = 107001
RT_INVALID_HANDLE = 107017
RT_FEATURE_NOT_SUPPORT = 207000
RT_MEMORY_ALLOCATION = 207001
RT_EVENT_NOT_COMPLETE = 207007
RT_AICORE_TIMEOUT = 507014
RT_AICORE_EXCEPTION = 507015
RT_STREAM_SYNC_TIMEOUT = 507046

MAGIC_AICORE = 0x43554245
MAGIC_VECTOR = 0x41415246
MAGIC_CUBE = 0x41494343

KIND_POINTER, KIND_INT, KIND_UINT, KIND_FLOAT, KIND_STRUCT = 1, 2, 3, 4, 6


class LoadOptionValue(ctypes.Union):
    _fields_ = [("isLazyLoad", U32), ("magic", U32), ("cpuKernelMode", I32), ("rsv", U32 * 4)]


class LoadOption(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("value", LoadOptionValue)]


class LoadOptions(ctypes.Structure):
    _fields_ = [("options", ctypes.POINTER(LoadOption)), ("numOpt", SZ)]


class TimeoutUs(ctypes.Structure):
    _fields_ = [("timeoutLow", U32), ("timeoutHigh", U32)]


class AttrValue(ctypes.Union):
    _fields_ = [("schemMode", ctypes.c_uint8), ("dynUBufSize", U32), ("engineType", ctypes.c_int),
                ("blockDimOffset", U32), ("isBlockTaskPrefetch", ctypes.c_uint8), ("isDataDump", ctypes.c_uint8),
                ("timeout", ctypes.c_uint16), ("timeoutUs", TimeoutUs), ("enableProfiling", ctypes.c_uint8),
                ("rsv", U32 * 4)]


class Attr(ctypes.Structure):
    _fields_ = [("id", ctypes.c_int), ("value", AttrValue)]


class LaunchCfg(ctypes.Structure):
    _fields_ = [("attrs", ctypes.POINTER(Attr)), ("numAttrs", SZ)]


class PlaceHolderInfo(ctypes.Structure):
    _fields_ = [("addrOffset", U32), ("dataOffset", U32)]


_SIGS = {
    "aclInit": [ctypes.c_char_p], "aclFinalize": [],
    "aclrtSetDevice": [I32], "aclrtResetDevice": [I32], "aclrtGetDevice": [ctypes.POINTER(I32)],
    "aclrtGetDeviceCount": [ctypes.POINTER(U32)], "aclrtSynchronizeDevice": [],
    "aclrtGetDeviceInfo": [U32, ctypes.c_int, ctypes.POINTER(ctypes.c_int64)],
    "aclrtCreateContext": [PP, I32], "aclrtDestroyContext": [P], "aclrtSetCurrentContext": [P],
    "aclrtGetCurrentContext": [PP],
    "aclrtMalloc": [PP, SZ, ctypes.c_int], "aclrtMallocAlign32": [PP, SZ, ctypes.c_int],
    "aclrtMallocCached": [PP, SZ, ctypes.c_int], "aclrtFreeWithDevSync": [P], "aclrtFree": [P], "aclrtMallocHost": [PP, SZ], "aclrtFreeHost": [P],
    "aclrtMemcpy": [P, SZ, P, SZ, ctypes.c_int], "aclrtMemcpyAsync": [P, SZ, P, SZ, ctypes.c_int, P],
    "aclrtMemset": [P, SZ, I32, SZ], "aclrtMemsetAsync": [P, SZ, I32, SZ, P],
    "aclrtGetMemInfo": [ctypes.c_int, ctypes.POINTER(SZ), ctypes.POINTER(SZ)],
    "aclrtCreateStream": [PP], "aclrtCreateStreamWithConfig": [PP, U32, U32], "aclrtDestroyStream": [P],
    "aclrtSynchronizeStream": [P], "aclrtSynchronizeStreamWithTimeout": [P, I32], "aclrtStreamWaitEvent": [P, P],
    "aclrtCreateEvent": [PP], "aclrtCreateEventWithFlag": [PP, U32],
    "aclrtCreateEventExWithFlag": [PP, U32], "aclrtDestroyEvent": [P],
    "aclrtRecordEvent": [P, P], "aclrtSynchronizeEvent": [P], "aclrtQueryEventStatus": [P, ctypes.POINTER(ctypes.c_int)],
    "aclrtEventElapsedTime": [ctypes.POINTER(ctypes.c_float), P, P],
    "aclrtBinaryLoadFromData": [P, SZ, ctypes.POINTER(LoadOptions), PP],
    "aclrtBinaryLoadFromFile": [ctypes.c_char_p, ctypes.POINTER(LoadOptions), PP],
    "aclrtBinaryUnLoad": [P], "aclrtBinaryGetFunction": [P, ctypes.c_char_p, PP],
    "aclrtFunctionGetParamCount": [P, ctypes.POINTER(SZ)],
    "aclrtFunctionGetParamInfo": [P, SZ, ctypes.POINTER(SZ), ctypes.POINTER(SZ)],
    "aclrtKernelArgsInit": [P, PP], "aclrtKernelArgsInitByUserMem": [P, P, P, SZ],
    "aclrtKernelArgsGetMemSize": [P, SZ, ctypes.POINTER(SZ)], "aclrtKernelArgsGetHandleMemSize": [P, ctypes.POINTER(SZ)],
    "aclrtKernelArgsAppend": [P, P, SZ, PP], "aclrtKernelArgsAppendPlaceHolder": [P, PP],
    "aclrtKernelArgsGetPlaceHolderBuffer": [P, P, SZ, PP], "aclrtKernelArgsParaUpdate": [P, P, P, SZ],
    "aclrtKernelArgsFinalize": [P],
    "aclrtLaunchKernelWithConfig": [P, U32, P, ctypes.POINTER(LaunchCfg), P, P],
    "aclrtLaunchKernelWithArgsArray": [P, U32, P, ctypes.POINTER(LaunchCfg), PP],
    "aclrtLaunchKernelWithHostArgs": [P, U32, P, ctypes.POINTER(LaunchCfg), P, SZ,
                                      ctypes.POINTER(PlaceHolderInfo), SZ],
}

_lib = []


def lib():
    """libascendcl.so with every runtime function typed (a private CDLL
    object, so other tests' bindings are unaffected)."""
    if not _lib:
        path = os.path.join(sim_home(), "lib64", "libascendcl.so")
        L = ctypes.CDLL(path)
        for name, args in _SIGS.items():
            f = getattr(L, name)
            f.argtypes = args
            f.restype = ctypes.c_int
        L.aclGetRecentErrMsg.restype = ctypes.c_char_p
        L.aclGetRecentErrMsg.argtypes = []
        L.aclrtGetSocName.restype = ctypes.c_char_p
        L.aclrtGetSocName.argtypes = []
        _lib.append(L)
    return _lib[0]


def err():
    return lib().aclGetRecentErrMsg().decode()


def ok(rc):
    assert rc == 0, (rc, err())


def fails(rc, code, *words):
    """Assert rc == code and that the recent message has every word."""
    msg = err()
    assert rc == code, (rc, msg)
    for w in words:
        assert w in msg, (w, msg)
    return msg


# ---- objects ----

def malloc(n):
    p = ctypes.c_void_p()
    ok(lib().aclrtMalloc(ctypes.byref(p), n, 0))
    return p.value


def stream():
    s = ctypes.c_void_p()
    ok(lib().aclrtCreateStream(ctypes.byref(s)))
    return s.value


def event(flag=None):
    e = ctypes.c_void_p()
    ok(lib().aclrtCreateEvent(ctypes.byref(e)) if flag is None else lib().aclrtCreateEventWithFlag(ctypes.byref(e), flag))
    return e.value


def to_dev(arr):
    """Copy a NumPy array into new device memory; returns the pointer."""
    d = malloc(max(arr.nbytes, 1))
    ok(lib().aclrtMemcpy(d, arr.nbytes, arr.ctypes.data, arr.nbytes, 1))
    return d


def from_dev(d, like):
    import numpy as np
    out = np.empty_like(like)
    ok(lib().aclrtMemcpy(out.ctypes.data, out.nbytes, d, out.nbytes, 2))
    return out


def load(blob, magic=None):
    h = ctypes.c_void_p()
    opts = None
    if magic is not None:
        o = LoadOption(type=2)
        o.value.magic = magic
        opts = LoadOptions(ctypes.pointer(o), 1)
    buf = ctypes.create_string_buffer(blob, len(blob))
    rc = lib().aclrtBinaryLoadFromData(buf, len(blob), ctypes.byref(opts) if opts else None, ctypes.byref(h))
    return rc, h.value


def function(binh, name):
    f = ctypes.c_void_p()
    ok(lib().aclrtBinaryGetFunction(binh, name.encode(), ctypes.byref(f)))
    return f.value


def pack_args(f, values):
    """aclrtKernelArgsInit + Append (values: list of ctypes objects) + Finalize."""
    L = lib()
    a = ctypes.c_void_p()
    ok(L.aclrtKernelArgsInit(f, ctypes.byref(a)))
    ph = ctypes.c_void_p()
    for v in values:
        ok(L.aclrtKernelArgsAppend(a, ctypes.byref(v), ctypes.sizeof(v), ctypes.byref(ph)))
    ok(L.aclrtKernelArgsFinalize(a))
    return a.value


def launch(f, nblocks, values, s=None):
    a = pack_args(f, values)
    return lib().aclrtLaunchKernelWithConfig(f, nblocks, s, None, a, None)


# ---- hand-made binaries ----

def write_meta(kernels, arch="dav-2201", target_cpu="", options=""):
    """Serialise metadata; kernels: dicts with name, lowered, entry, ktype,
    args_size and params [(offset, size, align, kind, name, type)]."""
    def u32(v):
        return struct.pack("<I", v)

    def s(v):
        b = v.encode()
        return u32(len(b)) + b

    out = b"ARCMETA1" + u32(1) + u32(len(kernels)) + s(arch) + s(target_cpu) + s(options)
    for k in kernels:
        out += s(k["name"]) + s(k.get("lowered", k["name"])) + s(k.get("entry", "k_entry"))
        params = k.get("params", [])
        out += u32(k.get("ktype", 0)) + u32(len(params)) + u32(k.get("args_size", 8 * len(params)))
        for (off, size, align, kind, name, typ) in params:
            out += u32(off) + u32(size) + u32(align) + u32(kind) + s(name) + s(typ)
    return out


def gm(*names):
    """Pointer parameters at 8-byte steps, typed GM_ADDR."""
    return [(8 * i, 8, 8, KIND_POINTER, n, "GM_ADDR") for i, n in enumerate(names)]


_cache_dir = []


def build_binary(csrc, kernels=None, meta=None, opt="-O2", extra=()):
    """Compile csrc (C) with an .arc_meta section into an ELF object; the
    bytes are returned and cached by content for the session."""
    meta = meta if meta is not None else write_meta(kernels)
    arr = ",".join(str(b) for b in meta)
    src = ('#include "arc/core_abi.h"\n' + csrc +
           '\n__attribute__((section(".arc_meta"), used)) static const unsigned char arc_meta_blob[] = {%s};\n' % arr)
    key = hashlib.sha1((src + opt + " ".join(extra)).encode()).hexdigest()
    if not _cache_dir:
        _cache_dir.append(tempfile.mkdtemp(prefix="arc-rt-test-"))
    d = _cache_dir[0]
    obj = os.path.join(d, key + ".o")
    if not os.path.exists(obj):
        c = os.path.join(d, key + ".c")
        with open(c, "w") as fh:
            fh.write(src)
        clang = shutil.which("clang-19") or "clang-19"
        subprocess.run([clang, "-c", "-fPIC", opt, "-std=c11", "-I", os.path.join(ROOT, "csrc", "device"),
                        "-I", os.path.join(ROOT, "csrc"), *extra,
                        c, "-o", obj], check=True)
    with open(obj, "rb") as fh:
        return seal(fh.read())


def fnv1a64(data, h=1469598103934665603):  # csrc/common/fnv.h ARC_FNV1A64_INIT
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def seal(obj):
    """obj with the checksum trailer every load checks (csrc/common/checksum.h):
    "ARCSUM01" and the FNV-1a 64 of everything before the hash."""
    body = bytes(obj) + b"ARCSUM01"
    return body + fnv1a64(body).to_bytes(8, "little")
