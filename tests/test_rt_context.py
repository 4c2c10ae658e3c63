"""ACL contexts (csrc/rt/acl/context.c) and the host's half conversions
(csrc/rt/acl/fp16_api.c), which CANN's single-source examples call."""
import ctypes
import threading

import numpy as np

from helpers.rt import INVALID_PARAM, RT_INVALID_DEVICEID, RT_INVALID_HANDLE, P, fails, lib, ok


def _current():
    c = P()
    ok(lib().aclrtGetCurrentContext(ctypes.byref(c)))
    return c.value


def test_create_makes_current_and_destroy_invalidates():
    L = lib()
    default = _current()
    assert default  # the device's default context, before any is created
    ctx = P()
    ok(L.aclrtCreateContext(ctypes.byref(ctx), 0))
    assert _current() == ctx.value != default
    ok(L.aclrtSetCurrentContext(default))
    assert _current() == default
    ok(L.aclrtSetCurrentContext(ctx))
    ok(L.aclrtDestroyContext(ctx))
    assert _current() == default  # the destroyed context is no longer current
    fails(L.aclrtDestroyContext(ctx), RT_INVALID_HANDLE, "not a live context")
    fails(L.aclrtSetCurrentContext(ctx), RT_INVALID_HANDLE, "not a live context")


def test_current_context_is_per_thread():
    L = lib()
    ctx = P()
    ok(L.aclrtCreateContext(ctypes.byref(ctx), 0))
    seen = []
    t = threading.Thread(target=lambda: seen.append(_current()))
    t.start()
    t.join()
    assert seen[0] != ctx.value and _current() == ctx.value
    ok(L.aclrtDestroyContext(ctx))


def test_context_bad_input():
    L = lib()
    ctx = P()
    fails(L.aclrtCreateContext(ctypes.byref(ctx), 1), RT_INVALID_DEVICEID, "device id 1")
    fails(L.aclrtCreateContext(None, 0), INVALID_PARAM, "context is NULL")
    fails(L.aclrtDestroyContext(None), INVALID_PARAM, "context is NULL")
    fails(L.aclrtGetCurrentContext(None), INVALID_PARAM, "context is NULL")
    fails(L.aclrtDestroyContext(_current()), INVALID_PARAM, "default context")
    junk = ctypes.c_uint64(0x43545854)
    fails(L.aclrtSetCurrentContext(ctypes.addressof(junk)), RT_INVALID_HANDLE, "not a live context")


def test_event_ex_with_flag():
    L = lib()
    e = P()
    ok(L.aclrtCreateEventExWithFlag(ctypes.byref(e), 1))
    ok(L.aclrtDestroyEvent(e))
    fails(L.aclrtCreateEventExWithFlag(ctypes.byref(e), 0x4), INVALID_PARAM, "unknown bits 0x4")


def test_half_conversions_match_numpy():
    L = lib()
    L.aclFloat16ToFloat.argtypes, L.aclFloat16ToFloat.restype = [ctypes.c_uint16], ctypes.c_float
    L.aclFloatToFloat16.argtypes, L.aclFloatToFloat16.restype = [ctypes.c_float], ctypes.c_uint16
    rng = np.random.default_rng(7)
    bits = np.concatenate([np.arange(0, 1 << 16, 97, dtype=np.uint32),
                           [0x0001, 0x03ff, 0x7bff, 0x7c00, 0xfc00, 0x8000]]).astype(np.uint16)
    for b in bits:
        want = np.uint16(b).view(np.float16).astype(np.float32)
        got = np.float32(L.aclFloat16ToFloat(int(b)))
        assert (np.isnan(want) and np.isnan(got)) or got.view(np.uint32) == want.view(np.uint32), hex(b)
    floats = np.concatenate([rng.standard_normal(400).astype(np.float32) * 1000,
                             np.float32([65504, 65520, 65519.99, 1e-8, 2.98e-8, 6.1e-5, -0.0, np.inf])])
    with np.errstate(over="ignore"):  # 65520 and up round to infinity, as they should
        for f in floats:
            want = np.float32(f).astype(np.float16).view(np.uint16)
            assert L.aclFloatToFloat16(float(f)) == want, f
    assert np.isnan(np.uint16(L.aclFloatToFloat16(float("nan"))).view(np.float16))
