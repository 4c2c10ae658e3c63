"""Loading kernel binaries (aclrtBinaryLoadFromData/File): load options, lookup by
source or lowered name, unload, and corrupt or unusual binaries - each
refused with a message that says what is wrong.  Also the half/bfloat16
conversion builtins the loader supplies to JIT'd code, against NumPy."""
import ctypes

import numpy as np
import pytest

from helpers import rt_kernels as K
from helpers.rt import (INVALID_FILE, INVALID_PARAM, MAGIC_AICORE, MAGIC_CUBE, MAGIC_VECTOR, RT_FEATURE_NOT_SUPPORT,
                        RT_INVALID_HANDLE, RT_PARAM_INVALID, LoadOption, LoadOptions, build_binary, fails, from_dev,
                        function, gm, launch, lib, load, malloc, ok, seal, to_dev, write_meta)

V = ctypes.c_void_p


def opts(*pairs):
    arr = (LoadOption * max(1, len(pairs)))()
    for i, (typ, field, v) in enumerate(pairs):
        arr[i].type = typ
        setattr(arr[i].value, field, v)
    return LoadOptions(arr, len(pairs)), arr


def load_with(blob, *pairs):
    o, _keep = opts(*pairs)
    h = ctypes.c_void_p()
    buf = ctypes.create_string_buffer(blob, len(blob))
    return lib().aclrtBinaryLoadFromData(buf, len(blob), ctypes.byref(o), ctypes.byref(h)), h.value


def run_two(b, name):
    f = function(b, name)
    out = to_dev(np.zeros(1, np.int32))
    ok(launch(f, 1, [V(out)]))
    ok(lib().aclrtSynchronizeStream(None))
    return int(from_dev(out, np.zeros(1, np.int32))[0])


@pytest.mark.parametrize("magic", [MAGIC_AICORE, MAGIC_VECTOR, MAGIC_CUBE])
def test_load_options_of_the_seed_are_accepted(magic):
    # The seed: ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC (== MAGIC, 2) with a magic.
    rc, b = load_with(K.two_kernel_binary(), (2, "magic", magic), (1, "isLazyLoad", 1))
    ok(rc)
    assert run_two(b, "one") == 1
    ok(lib().aclrtBinaryUnLoad(b))


@pytest.mark.parametrize("pairs,code,words", [
    ([(2, "magic", 0x1234)], RT_PARAM_INVALID, ["magic 0x00001234", "ACL_RT_BINARY_MAGIC_ELF_AICORE"]),
    ([(1, "isLazyLoad", 2)], RT_PARAM_INVALID, ["LAZY_LOAD value 2"]),
    ([(3, "cpuKernelMode", 1)], RT_FEATURE_NOT_SUPPORT, ["CPU_KERNEL_MODE"]),
    ([(9, "magic", 0)], RT_PARAM_INVALID, ["unknown option type 9"]),
])
def test_bad_load_options_are_named(pairs, code, words):
    rc, _ = load_with(K.two_kernel_binary(), *pairs)
    fails(rc, code, *words)


def test_load_argument_checks():
    L = lib()
    blob = K.two_kernel_binary()
    h = ctypes.c_void_p()
    fails(L.aclrtBinaryLoadFromData(None, 10, None, ctypes.byref(h)), INVALID_PARAM, "data is NULL")
    fails(L.aclrtBinaryLoadFromData(blob, 0, None, ctypes.byref(h)), INVALID_PARAM, "length is 0")
    fails(L.aclrtBinaryLoadFromData(blob, len(blob), None, None), INVALID_PARAM, "binHandle is NULL")
    fails(L.aclrtBinaryLoadFromData(blob, len(blob), ctypes.byref(LoadOptions(None, 2)), ctypes.byref(h)),
          INVALID_PARAM, "numOpt is 2")


def test_get_function_by_source_or_lowered_name_and_unknown_names():
    rc, b = load(K.two_kernel_binary())
    ok(rc)
    assert run_two(b, "two<int>") == 2
    assert run_two(b, "_Z3twoIiEvPv") == 2
    f = ctypes.c_void_p()
    msg = fails(lib().aclrtBinaryGetFunction(b, b"three", ctypes.byref(f)), RT_PARAM_INVALID,
                "no kernel named 'three'", "'one'", "'two<int>' (lowered '_Z3twoIiEvPv')")
    assert "has 2" in msg
    fails(lib().aclrtBinaryGetFunction(b, None, ctypes.byref(f)), INVALID_PARAM, "kernelName is NULL")
    fails(lib().aclrtBinaryGetFunction(b, b"one", None), INVALID_PARAM, "funcHandle is NULL")
    fails(lib().aclrtBinaryGetFunction(None, b"one", ctypes.byref(f)), INVALID_PARAM, "binHandle is NULL")


def test_unload_invalidates_the_binary_and_its_functions():
    L = lib()
    rc, b = load(K.two_kernel_binary())
    ok(rc)
    f = function(b, "one")
    ok(L.aclrtBinaryUnLoad(b))
    fails(L.aclrtBinaryUnLoad(b), RT_INVALID_HANDLE, "not a loaded binary")
    g = ctypes.c_void_p()
    fails(L.aclrtBinaryGetFunction(b, b"one", ctypes.byref(g)), RT_INVALID_HANDLE, "binHandle")
    a = ctypes.c_void_p()
    fails(L.aclrtKernelArgsInit(f, ctypes.byref(a)), RT_INVALID_HANDLE, "unloaded")


def test_unload_waits_for_queued_launches():
    L = lib()
    rc, b = load(K.spin_binary())
    ok(rc)
    f = function(b, "spin")
    flag, out = to_dev(np.zeros(1, np.int32)), to_dev(np.zeros(2, np.int32))
    s = ctypes.c_void_p()
    ok(L.aclrtCreateStream(ctypes.byref(s)))
    ok(launch(f, 2, [V(flag), V(out)], s.value))
    import threading
    t = threading.Thread(target=lambda: ok(L.aclrtBinaryUnLoad(b)))
    t.start()
    one = np.ones(1, np.int32)
    ok(L.aclrtMemcpy(flag, 4, one.ctypes.data, 4, 1))
    t.join()
    ok(L.aclrtSynchronizeStream(s))
    assert list(from_dev(out, np.zeros(2, np.int32))) == [1, 2]
    ok(L.aclrtDestroyStream(s))


def test_load_from_file(tmp_path):
    L = lib()
    p = tmp_path / "k.o"
    p.write_bytes(K.two_kernel_binary())
    h = ctypes.c_void_p()
    ok(L.aclrtBinaryLoadFromFile(str(p).encode(), None, ctypes.byref(h)))
    assert run_two(h.value, "one") == 1
    ok(L.aclrtBinaryUnLoad(h))
    o, _keep = opts((2, "magic", MAGIC_VECTOR))
    fails(L.aclrtBinaryLoadFromFile(str(p).encode(), ctypes.byref(o), ctypes.byref(h)), RT_PARAM_INVALID,
          "only accepted by aclrtBinaryLoadFromData")
    fails(L.aclrtBinaryLoadFromFile(str(tmp_path / "no.o").encode(), None, ctypes.byref(h)), INVALID_FILE,
          "no.o", "No such file")
    (tmp_path / "empty.o").write_bytes(b"")
    fails(L.aclrtBinaryLoadFromFile(str(tmp_path / "empty.o").encode(), None, ctypes.byref(h)), INVALID_FILE, "empty")
    fails(L.aclrtBinaryLoadFromFile(None, None, ctypes.byref(h)), INVALID_PARAM, "binPath is NULL")


def one_kernel(meta_kw=None, kernel_kw=None, src=K.TWO):
    k = dict(name="one", params=gm("out"))
    k.update(kernel_kw or {})
    return build_binary(src, meta=write_meta([k], **(meta_kw or {})))


def corrupt_meta(raw):
    """A binary whose .arc_meta section holds `raw` bytes."""
    return build_binary(K.TWO, meta=raw)


CORRUPT = [
    (lambda: b"definitely not an ELF object", "no ascendrtc checksum trailer"),
    (lambda: K.two_kernel_binary()[:-1], "no ascendrtc checksum trailer"),
    (lambda: K.two_kernel_binary()[:-20] + K.two_kernel_binary()[-16:], "checksum mismatch"),
    # sealed, so the structural checks behind the checksum are reached
    (lambda: seal(b"definitely not an ELF object"), "not an ELF object"),
    (lambda: seal(K.two_kernel_binary()[:200]), "out of range"),
    (lambda: build_binary(K.TWO, meta=b"")[:0] + build_binary("int x;", meta=b"X"), "metadata magic missing"),
    (lambda: corrupt_meta(write_meta([dict(name="one", params=gm("out"))])[:30]), "corrupt metadata"),
    (lambda: corrupt_meta(b"ARCMETA1" + (7).to_bytes(4, "little")), "metadata version 7"),
    (lambda: one_kernel({"arch": "dav-9999"}), "--npu-arch 'dav-9999'"),
    (lambda: one_kernel(kernel_kw={"ktype": 6}), "kernel type 6 (KERNEL_TYPE_AICORE)"),
    (lambda: one_kernel(kernel_kw={"entry": "missing_entry"}), "missing_entry"),
    (lambda: one_kernel({"target_cpu": "nonsense-cpu"}), "CPU 'nonsense-cpu'"),
    (lambda: one_kernel(src='int puts(const char *);\nvoid k_entry(const unsigned char *a) { (void)a; puts("x"); }'),
     "puts"),
    (lambda: corrupt_meta(write_meta([])), "no kernels"),
]


@pytest.mark.parametrize("make,words", CORRUPT, ids=[w for _, w in CORRUPT])
def test_corrupt_or_unusual_binaries_are_refused_clearly(make, words):
    rc, _ = load(make())
    fails(rc, RT_PARAM_INVALID, words)
    # ...and the process keeps working.
    rc, b = load(K.two_kernel_binary())
    ok(rc)
    assert run_two(b, "one") == 1
    ok(lib().aclrtBinaryUnLoad(b))


def test_binary_for_a_cpu_this_host_lacks_is_refused():
    flags = open("/proc/cpuinfo").read()
    if "amx_tile" in flags:
        pytest.skip("this host has AMX")
    rc, _ = load(one_kernel({"target_cpu": "graniterapids"}))
    fails(rc, RT_PARAM_INVALID, "built for CPU 'graniterapids'", "amx-tile", "lacks")
    rc, b = load(one_kernel({"target_cpu": "x86-64"}))
    ok(rc)
    ok(lib().aclrtBinaryUnLoad(b))


# ---- half and bfloat16 conversions (builtins the loader supplies) ----

FP16 = r'''
void k_entry(const unsigned char *args) {
    const float *f = *(const float *const *)(args + 0);
    const double *d = *(const double *const *)(args + 8);
    unsigned short *o = *(unsigned short **)(args + 16);   /* 4 arrays of n: f->h, d->h, f->bf, d->bf */
    float *back = *(float **)(args + 24);                  /* 2 arrays of n: h->f, bf->f (of f->h, f->bf) */
    int n = *(const int *)(args + 32);
    for (int i = 0; i < n; i++) {
        _Float16 h1 = (_Float16)f[i], h2 = (_Float16)d[i];
        __bf16 b1 = (__bf16)f[i], b2 = (__bf16)d[i];
        __builtin_memcpy(&o[i], &h1, 2); __builtin_memcpy(&o[n + i], &h2, 2);
        __builtin_memcpy(&o[2 * n + i], &b1, 2); __builtin_memcpy(&o[3 * n + i], &b2, 2);
        back[i] = (float)h1; back[n + i] = (float)b1;
    }
}
'''


def bf16_reference(x):
    """Round float64 values to bfloat16 bits, nearest-even, by search over
    every finite bfloat16 (independent of the runtime's bit arithmetic)."""
    bits = np.arange(0, 0x7f80, dtype=np.uint32)
    vals = (bits << 16).view(np.float32).astype(np.float64)     # all finite non-negative bf16
    out = np.empty(len(x), np.uint16)
    for i, v in enumerate(x):
        if np.isnan(v):
            out[i] = 0x7fc0
            continue
        a = abs(v)
        j = np.searchsorted(vals, a)
        if j >= len(vals):
            # beyond the largest bf16 (0x7f7f): infinity from its halfway point on
            r = 0x7f80 if a >= vals[-1] + 2.0 ** 119 else 0x7f7f
        else:
            lo, hi = max(j - 1, 0), j
            dlo, dhi = a - vals[lo], vals[hi] - a
            r = lo if dlo < dhi or (dlo == dhi and lo % 2 == 0) else hi
        out[i] = r | (0x8000 if np.signbit(v) else 0)
    return out


def test_half_and_bfloat16_conversions_round_to_nearest_even():
    rng = np.random.default_rng(7)
    special = [0.0, -0.0, 1.0, -2.5, 65504.0, 65520.0, 1e6, -1e6, 2.0 ** -24, 2.0 ** -25, 3 * 2.0 ** -26,
               2.0 ** -14 * 1.5, 1e-8, 1e-45, 3.0e38, np.inf, -np.inf, 1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11,
               1 + 2.0 ** -8, 1 + 3 * 2.0 ** -8, 1.00390625 + 2.0 ** -30]
    d = np.concatenate([special, rng.standard_normal(300) * 10.0 ** rng.integers(-10, 10, 300)]).astype(np.float64)
    f = d.astype(np.float32)
    n = len(d)
    blob = build_binary(FP16, meta=write_meta([dict(name="conv", params=gm("f", "d", "o", "back") +
                                                    [(32, 4, 4, 2, "n", "int32_t")], args_size=40)]))
    rc, b = load(blob)
    ok(rc)
    fn = function(b, "conv")
    df, dd, do, db = to_dev(f), to_dev(d), malloc(8 * n), malloc(8 * n)
    ok(launch(fn, 1, [V(df), V(dd), V(do), V(db), ctypes.c_int32(n)]))
    ok(lib().aclrtSynchronizeStream(None))
    o = from_dev(do, np.zeros(4 * n, np.uint16)).reshape(4, n)
    back = from_dev(db, np.zeros(2 * n, np.float32)).reshape(2, n)
    with np.errstate(over="ignore"):
        assert (o[0] == f.astype(np.float16).view(np.uint16)).all()      # float -> half
        assert (o[1] == d.astype(np.float16).view(np.uint16)).all()      # double -> half, one rounding
    assert (o[2] == bf16_reference(f.astype(np.float64))).all()          # float -> bf16
    assert (o[3] == bf16_reference(d)).all()                             # double -> bf16, one rounding
    assert (back[0] == o[0].view(np.float16).astype(np.float32)).all()   # half -> float, exact
    assert (back[1] == (o[2].astype(np.uint32) << 16).view(np.float32)).all()
