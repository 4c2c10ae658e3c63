"""Hostile input never crashes the process: truncated, bit-flipped and
foreign blobs to the loader (Python and aclrtBinaryLoadFromData), random
option lists to aclrtcCompileProg, random argument tuples to a launch,
and random runtime API call sequences (use after free, double destroy,
unload with a launch queued).  Each gets an error code or an exception;
afterwards a real launch still works.  Also random kernel printf formats, DeviceArray shapes and
dtypes, and every kind of file sitting where a cache entry should be (a
FIFO, symlinks, a directory, a device, truncated, oversized, foreign).
Bounded case counts keep the file well under a minute."""
import ctypes
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import ascendrtc as arc
from helpers import rt_kernels as K
from helpers.py_kernels import add_kernel, add_source, compiled
from helpers.rt import lib, load

FUZZ = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def add_blob():
    return compiled("fuzz_add_blob", lambda: bytes(arc.Program(add_source(np.float32), "add.asc").compile()))


def still_works():
    x = np.arange(256, dtype=np.float32)
    z = np.zeros_like(x)
    add_kernel(np.float32)[8](x, x, z)
    np.testing.assert_array_equal(z, 2 * x)


mutation = st.one_of(
    st.tuples(st.just("truncate"), st.floats(0, 1)),
    st.tuples(st.just("flip"), st.lists(st.tuples(st.floats(0, 1), st.integers(0, 7)), min_size=1, max_size=16)),
    st.tuples(st.just("splice"), st.floats(0, 1), st.binary(min_size=1, max_size=64)),
    st.tuples(st.just("foreign"), st.binary(min_size=0, max_size=512)),
)


def mutate(blob, m):
    d = bytearray(blob)
    if m[0] == "truncate":
        return bytes(d[:int(m[1] * (len(d) - 1))])
    if m[0] == "flip":
        for pos, bit in m[1]:
            d[int(pos * (len(d) - 1))] ^= 1 << bit
        return bytes(d)
    if m[0] == "splice":
        i = int(m[1] * (len(d) - 1))
        d[i:i + len(m[2])] = m[2]
        return bytes(d)
    return bytes(m[1])


@FUZZ
@given(m=mutation)
def test_corrupt_blobs_are_refused_or_load(m):
    d = mutate(add_blob(), m)
    try:
        mod = arc.Binary.from_bytes(d).load()
    except (arc.AclError, ValueError, TypeError):
        return
    try:
        mod.get_kernel("add_custom")
    except (arc.AclError, KeyError, ValueError, TypeError):
        pass


@FUZZ
@given(m=mutation)
def test_corrupt_blobs_through_the_c_loader(m):
    d = mutate(add_blob(), m)
    if not d:
        d = b"\0"
    rc, h = load(d)
    if rc == 0:
        assert lib().aclrtBinaryUnLoad(h) == 0
    else:
        assert rc in (100000, 107000), rc


OPTION_POOL = ["--npu-arch=dav-2201", "--npu-arch=dav-3510", "--npu-arch=dav-9999", "--npu-arch=", "-O0", "-O2",
               "-O9", "-g", "-std=c++17", "-std=c++99", "-DX=1", "-D", "-U", "-I", "-I/nonexistent", "-w", "-Wall",
               "-x", "asc", "--sanitizer", "--bogus", "", "-", "--", "-fsyntax-only", "-o", "/tmp/x"]


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(opts=st.lists(st.one_of(st.sampled_from(OPTION_POOL), st.text(max_size=12)), max_size=5))
def test_random_option_lists_to_compile(opts):
    src = "#include \"kernel_operator.h\"\nextern \"C\" __global__ __aicore__ void k(GM_ADDR x) {}\n"
    try:
        arc.Program(src, "k.asc").compile(opts)
    except (arc.AclError, ValueError, TypeError, UnicodeError):
        pass


scalar = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
                   st.text(max_size=4), st.binary(max_size=8))
array = st.builds(lambda n, dt: np.zeros(n, dt), st.integers(0, 300),
                  st.sampled_from([np.float32, np.float16, np.int32, np.int8, np.float64, np.uint64]))


@FUZZ
@given(args=st.lists(st.one_of(scalar, array), max_size=5),
       blocks=st.one_of(st.integers(-5, 70000), st.floats(allow_nan=True), st.just("8"), st.none()))
def test_random_argument_tuples_to_a_launch(args, blocks):
    k = add_kernel(np.float32)
    try:
        k[blocks](*args)
        arc.synchronize()
    except (arc.AclError, TypeError, ValueError, OverflowError, IndexError, KeyError):
        pass


OPS = st.lists(st.tuples(st.sampled_from(["malloc", "free", "memcpy", "stream", "destroy_stream", "event",
                                          "destroy_event", "record", "wait", "sync_stream", "load", "unload",
                                          "launch", "sync"]),
                         st.integers(0, 7)), max_size=25)


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(ops=OPS)
def test_random_api_call_sequences(ops):
    L = lib()
    bufs, streams, events, bins = [], [], [], []
    P = ctypes.c_void_p

    def pick(v, i):
        return v[i % len(v)] if v else None

    def add(v, h):
        """A new handle may reuse a destroyed one's address: that one is live again."""
        v[:] = [x for x in v if x[0] != h]
        v.append([h, True])

    for op, i in ops:
        if op == "malloc":
            p = P()
            if L.aclrtMalloc(ctypes.byref(p), 64 * (i + 1), 0) == 0:
                add(bufs, p.value)
        elif op == "free" and bufs:
            b = pick(bufs, i)
            rc = L.aclrtFree(b[0])
            assert (rc == 0) == b[1], rc                       # double free refused
            b[1] = False
        elif op == "memcpy" and bufs:
            b = pick(bufs, i)
            h = np.zeros(64, np.uint8)
            rc = L.aclrtMemcpy(h.ctypes.data, 64, b[0], 64, 2)
            assert (rc == 0) == b[1], rc                       # use after free refused
        elif op == "stream":
            s = P()
            assert L.aclrtCreateStream(ctypes.byref(s)) == 0
            add(streams, s.value)
        elif op == "destroy_stream" and streams:
            s = pick(streams, i)
            assert (L.aclrtDestroyStream(s[0]) == 0) == s[1]
            s[1] = False
        elif op == "event":
            e = P()
            assert L.aclrtCreateEvent(ctypes.byref(e)) == 0
            add(events, e.value)
        elif op == "destroy_event" and events:
            e = pick(events, i)
            assert (L.aclrtDestroyEvent(e[0]) == 0) == e[1]
            e[1] = False
        elif op == "record" and events:
            e, s = pick(events, i), pick(streams, i)
            rc = L.aclrtRecordEvent(e[0], s[0] if s else None)
            assert (rc == 0) == (e[1] and (s is None or s[1])), rc
        elif op == "wait" and events and streams:
            e, s = pick(events, i), pick(streams, i)
            rc = L.aclrtStreamWaitEvent(s[0], e[0])
            assert rc == 0 or not (e[1] and s[1]), rc
        elif op == "sync_stream" and streams:
            s = pick(streams, i)
            assert (L.aclrtSynchronizeStream(s[0]) == 0) == s[1]
        elif op == "load":
            rc, h = load(K.add_binary())
            assert rc == 0
            add(bins, h)
        elif op == "unload" and bins:
            b = pick(bins, i)
            assert (L.aclrtBinaryUnLoad(b[0]) == 0) == b[1]      # waits for queued launches
            b[1] = False
        elif op == "launch" and bins:
            b, s = pick(bins, i), pick(streams, i)
            f = P()
            rc = L.aclrtBinaryGetFunction(b[0], b"add_custom", ctypes.byref(f))
            if not b[1]:
                assert rc != 0
                continue
            assert rc == 0
            d = P()
            if L.aclrtMalloc(ctypes.byref(d), 4 * 64, 0) != 0:
                continue
            x = ctypes.c_void_p(d.value)
            n = ctypes.c_int32(16)
            args = (ctypes.c_void_p * 4)(ctypes.addressof(x), ctypes.addressof(x), ctypes.addressof(x),
                                        ctypes.addressof(n))
            rc = L.aclrtLaunchKernelWithArgsArray(f, 4, s[0] if s else None, None, args)
            assert rc == 0 or (s is not None and not s[1]), rc
            add(bufs, d.value)                                   # freed at the end
        elif op == "sync":
            L.aclrtSynchronizeDevice()
    assert L.aclrtSynchronizeDevice() in (0, 507015)
    for s in streams:
        if s[1]:
            assert L.aclrtDestroyStream(s[0]) == 0
    for e in events:
        if e[1]:
            assert L.aclrtDestroyEvent(e[0]) == 0
    for b in bins:
        if b[1]:
            assert L.aclrtBinaryUnLoad(b[0]) == 0
    for b in bufs:
        if b[1]:
            assert L.aclrtFree(b[0]) == 0


def test_everything_still_works_after_the_fuzzing():
    still_works()


# ---- kernel printf formats (the format comes from GM, so one kernel takes them all) ----

PF_SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void pf_fuzz(GM_ADDR fmt, GM_ADDR str, int32_t i, uint32_t u, float f)
{
    AscendC::printf((const char *)fmt, i, u, f, (const char *)str, (void *)str);
}
'''


def pf_kernel():
    return compiled("pf_fuzz", lambda: arc.Program(PF_SRC, "pf_fuzz.asc").compile().load().get_kernel("pf_fuzz"))


conversion = st.builds(
    lambda flags, width, prec, length, conv: "%" + flags + width + prec + length + conv,
    st.text(alphabet="-+ #0'", max_size=3),
    st.one_of(st.just(""), st.just("*"), st.integers(0, 5000).map(str), st.sampled_from(["4097", "99999999999"])),
    st.one_of(st.just(""), st.just(".*"), st.integers(0, 5000).map(lambda p: f".{p}"), st.just(".0000000000000007")),
    st.sampled_from(["", "h", "hh", "l", "ll", "L", "z", "j", "t", "q"]),
    st.sampled_from(list("diouxXcfFeEgGaAspn%") + ["", "k", "y", "\n"]))
formats = st.lists(st.one_of(st.text(max_size=8).filter(lambda t: "\0" not in t), conversion),
                   max_size=6).map("".join)


@settings(max_examples=80, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(fmt=formats, i=st.integers(-2**31, 2**31 - 1), f=st.floats(allow_nan=True, width=32))
def test_random_printf_formats_print_or_fail_the_launch_naming_printf(fmt, i, f, capfd):
    data = np.frombuffer(fmt.encode("utf-8", "surrogatepass") + b"\0", np.uint8).copy()
    s = np.frombuffer(b"a string\0", np.uint8).copy()
    try:
        pf_kernel()[1](data, s, i, abs(i), f)
        arc.synchronize()
    except arc.LaunchError as e:
        assert "AscendC::printf" in str(e), str(e)
    out = capfd.readouterr().out
    assert len(out) <= 64 * 1024 + 1                  # one call prints at most 64 KiB
    still_works()


def test_a_huge_printf_width_is_refused_not_allocated(capfd):
    for fmt, what in ((b"%2000000000s", "width above 4096"), (b"%.2000000000f", "precision above 4096"),
                      (b"%." + b"0" * 60 + b"1d", "longer than 56")):
        with pytest.raises(arc.LaunchError, match=what):
            pf_kernel()[1](np.frombuffer(fmt + b"\0", np.uint8).copy(), np.zeros(4, np.uint8), 1, 1, 1.0)
            arc.synchronize()
    pf_kernel()[1](np.frombuffer(b"<%4096d>\0", np.uint8).copy(), np.zeros(4, np.uint8), 7, 1, 1.0)
    arc.synchronize()
    out = capfd.readouterr().out
    assert out.startswith("<" + " " * 4095 + "7>"), out[:80]       # the widest field, whole
    still_works()


# ---- DeviceArray shapes ----

dim = st.one_of(st.integers(0, 9), st.sampled_from([64, 2**20, 2**31 - 1, 2**31, 2**32 + 1, 2**61, 2**63 - 1, 2**63,
                                                     2**64, -1, -2**63]),
                st.sampled_from([1.5, "3", None, np.int64(3), np.uint8(2), True]))
shapes = st.one_of(dim, st.lists(dim, max_size=10).map(tuple))
dtypes = st.sampled_from([np.float32, np.float16, np.int8, np.complex128, np.float64, object, "V0", "V7", "S3",
                          "U2", [("a", "i4"), ("b", "f2")], "M8[s]", None, "nonsense", 3])


@FUZZ
@given(shape=shapes, dtype=dtypes)
def test_random_device_array_shapes_are_sized_exactly_or_refused(shape, dtype):
    try:
        a = arc.empty(shape, dtype)
    except (ValueError, TypeError, OverflowError, MemoryError, arc.AclError):
        still_works()
        return
    dims = (shape,) if not isinstance(shape, tuple) else shape
    n = 1
    for d in dims:
        n *= int(d)
    assert a.shape == tuple(int(d) for d in dims)
    assert a.nbytes == n * a.dtype.itemsize                  # exact: no wrapped product
    if a.nbytes <= 1 << 20:
        buf = (np.arange(a.nbytes) % 251).astype(np.uint8)
        a.set(buf.view(a.dtype).reshape(a.shape))
        np.testing.assert_array_equal(a.get().reshape(-1).view(np.uint8), buf)
        for new in ((-1,), (n, -1) if n else (0,), (2, -1)):
            try:
                r = a.reshape(*new)
            except (ValueError, TypeError):
                continue
            assert r.nbytes == a.nbytes
    del a
    still_works()


# ---- cache entry types: whatever sits where an entry should, the compile works ----

ENTRY_KINDS = ["fifo", "symlink_good", "symlink_devzero", "symlink_dangling", "directory", "devnull", "truncated",
               "oversized", "empty", "random", "other_key", "flipped"]


def _plant(path, kind, good, other):
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink_good":
        os.symlink(other, path)
    elif kind == "symlink_devzero":
        os.symlink("/dev/zero", path)
    elif kind == "symlink_dangling":
        os.symlink(path + ".nowhere", path)
    elif kind == "directory":
        os.mkdir(path)
        open(os.path.join(path, "x"), "w").close()
    elif kind == "devnull":
        os.symlink("/dev/null", path)
    elif kind == "truncated":
        open(path, "wb").write(good[:len(good) // 2])
    elif kind == "oversized":
        with open(path, "wb") as f:
            f.truncate((1 << 30) + 1)                      # sparse: larger than an entry may be
    elif kind == "empty":
        open(path, "wb").close()
    elif kind == "random":
        open(path, "wb").write(os.urandom(len(good)))
    elif kind == "other_key":
        open(path, "wb").write(open(other, "rb").read())
    elif kind == "flipped":
        d = bytearray(good)
        d[len(d) * 2 // 3] ^= 0x20
        open(path, "wb").write(bytes(d))


@pytest.mark.parametrize("kind", ENTRY_KINDS)
def test_any_cache_entry_type_gives_a_good_compile(kind, tmp_path, monkeypatch):
    import shutil
    from ascendrtc import cache as C
    monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("ASCENDRTC_CACHE", raising=False)
    prog = lambda n: arc.Program(add_source(np.float32, n), "add_custom.asc")  # noqa: E731
    other = C.compile(prog(512), ["--npu-arch=dav-2201"])
    r = C.compile(prog(256), ["--npu-arch=dav-2201"])
    path = C.get_cache().path_for(r.key.digest)
    good = open(path, "rb").read()
    os.unlink(path)
    _plant(path, kind, good, C.get_cache().path_for(other.key.digest))
    r2 = C.compile(prog(256), ["--npu-arch=dav-2201"])       # must not hang, crash or serve the wrong binary
    assert r2.how == "compiled", kind
    k = r2.binary.load().get_kernel("add_custom")
    x = np.arange(256, dtype=np.float32)
    z = np.zeros_like(x)
    k[8](x, x, z)
    np.testing.assert_array_equal(z, 2 * x)
    if kind != "directory":                                   # rebuilt in place: the next compile hits
        assert C.compile(prog(256), ["--npu-arch=dav-2201"]).how == "disk"
    else:
        shutil.rmtree(path)
    still_works()
