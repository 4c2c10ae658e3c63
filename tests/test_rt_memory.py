"""Device and pinned host memory of the simulated NPU: allocation rules
(aclrtMalloc's policies and alignment), copies and sets (sync and async), and the tracked
allocations that turn bad pointers, double frees and out-of-range copies
into clear errors."""
import ctypes

import numpy as np
import pytest

from helpers.rt import (INVALID_PARAM, RT_MEMORY_ALLOCATION, RT_PARAM_INVALID, err, fails, from_dev, lib, malloc,
                        ok, stream, to_dev)

H2H, H2D, D2H, D2D, DEFAULT = 0, 1, 2, 3, 4


def host(n):
    p = ctypes.c_void_p()
    ok(lib().aclrtMallocHost(ctypes.byref(p), n))
    return p.value


def test_malloc_is_64_byte_aligned_and_usable():
    ptrs = [malloc(n) for n in (1, 31, 32, 33, 4096, 1 << 20)]
    assert all(p % 64 == 0 for p in ptrs)
    for p in ptrs:
        ok(lib().aclrtFree(p))


def test_malloc_bad_arguments():
    L = lib()
    p = ctypes.c_void_p()
    fails(L.aclrtMalloc(None, 16, 0), INVALID_PARAM, "devPtr is NULL")
    fails(L.aclrtMalloc(ctypes.byref(p), 0, 0), INVALID_PARAM, "size is 0")
    fails(L.aclrtMalloc(ctypes.byref(p), 16, 99), INVALID_PARAM, "policy 0x63")
    fails(L.aclrtMalloc(ctypes.byref(p), 1 << 40, 0), RT_MEMORY_ALLOCATION, str(1 << 40))
    ok(L.aclrtMalloc(ctypes.byref(p), 16, 2 | 0x1000))   # NORMAL_ONLY with a flag
    ok(L.aclrtFree(p.value))


def _used():
    free, total = ctypes.c_size_t(), ctypes.c_size_t()
    ok(lib().aclrtGetMemInfo(0, ctypes.byref(free), ctypes.byref(total)))
    return total.value - free.value


@pytest.mark.parametrize("api,claims", [("aclrtMalloc", 128 + 32), ("aclrtMallocCached", 128 + 32),
                                        ("aclrtMallocAlign32", 128)])
def test_malloc_siblings_claim_what_their_pages_say(api, claims):
    # on dav-2201 aclrtMalloc (and the cached form) round 100 bytes up to 128 and add 32;
    # aclrtMallocAlign32 only rounds (CANN's pages)
    L = lib()
    p = ctypes.c_void_p()
    before = _used()
    ok(getattr(L, api)(ctypes.byref(p), 100, 0))
    assert p.value % 64 == 0 and _used() - before == claims
    ok(L.aclrtFree(p.value))
    assert _used() == before
    fails(getattr(L, api)(ctypes.byref(p), 0, 0), INVALID_PARAM, api, "size is 0")
    fails(getattr(L, api)(ctypes.byref(p), 16, 99), INVALID_PARAM, api, "policy 0x63")


def test_copy_round_trip_and_device_to_device():
    x = np.arange(1000, dtype=np.float32)
    d1 = to_dev(x)
    d2 = malloc(x.nbytes)
    ok(lib().aclrtMemcpy(d2, x.nbytes, d1, x.nbytes, D2D))
    assert (from_dev(d2, x) == x).all()
    out = np.zeros_like(x)
    ok(lib().aclrtMemcpy(out.ctypes.data, out.nbytes, d2, x.nbytes, DEFAULT))   # direction inferred
    assert (out == x).all()


def test_free_errors_name_the_pointer():
    L = lib()
    p = malloc(100)
    fails(L.aclrtFree(p + 16), RT_PARAM_INVALID, "16 bytes into the allocation", hex(p), "100 bytes")
    ok(L.aclrtFree(p))
    fails(L.aclrtFree(p), RT_PARAM_INVALID, "double free", hex(p), "100 bytes")
    fails(L.aclrtFree(None), INVALID_PARAM, "devPtr is NULL")
    buf = ctypes.create_string_buffer(64)
    fails(L.aclrtFree(ctypes.addressof(buf)), RT_PARAM_INVALID, "not allocated by aclrtMalloc")
    h = host(64)
    fails(L.aclrtFree(h), RT_PARAM_INVALID, "aclrtFreeHost")
    d = malloc(64)
    fails(L.aclrtFreeHost(d), RT_PARAM_INVALID, "aclrtFree")
    ok(L.aclrtFreeHost(h))
    fails(L.aclrtFreeHost(h), RT_PARAM_INVALID, "double free")
    ok(L.aclrtFree(d))


def test_copy_errors_name_pointers_and_sizes():
    L = lib()
    d = malloc(100)
    src = np.zeros(200, np.uint8)
    fails(L.aclrtMemcpy(d, 100, src.ctypes.data, 101, H2D), INVALID_PARAM, "count 101 exceeds destMax 100")
    fails(L.aclrtMemcpy(d, 200, src.ctypes.data, 101, H2D), RT_PARAM_INVALID, "leaves its allocation", "100 bytes")
    fails(L.aclrtMemcpy(d + 90, 200, src.ctypes.data, 20, H2D), RT_PARAM_INVALID, "offset 90", "10 bytes available")
    fails(L.aclrtMemcpy(src.ctypes.data, 200, d, 101, D2H), RT_PARAM_INVALID, "src range")
    fails(L.aclrtMemcpy(None, 1, src.ctypes.data, 1, H2D), INVALID_PARAM, "dst is NULL")
    fails(L.aclrtMemcpy(d, 1, None, 1, H2D), INVALID_PARAM, "src is NULL")
    fails(L.aclrtMemcpy(d, 1, src.ctypes.data, 1, 8), INVALID_PARAM, "kind 8")
    other = np.zeros(8, np.uint8)
    fails(L.aclrtMemcpy(other.ctypes.data, 8, src.ctypes.data, 8, H2D), RT_PARAM_INVALID,
          "is not device memory", "HOST_TO_DEVICE")
    ok(L.aclrtFree(d))
    fails(L.aclrtMemcpy(d, 8, src.ctypes.data, 8, H2D), RT_PARAM_INVALID, "already freed")


def test_pinned_host_memory():
    h = host(256)
    assert h % 64 == 0
    ctypes.memmove(h, bytes(range(256)), 256)
    d = malloc(256)
    ok(lib().aclrtMemcpy(d, 256, h, 256, H2D))
    assert bytes(from_dev(d, np.zeros(256, np.uint8))) == bytes(range(256))
    fails(lib().aclrtMemcpy(d, 256, h + 200, 100, H2D), RT_PARAM_INVALID, "src range")
    p = ctypes.c_void_p()
    fails(lib().aclrtMallocHost(ctypes.byref(p), 0), INVALID_PARAM, "size is 0")
    fails(lib().aclrtMallocHost(None, 8), INVALID_PARAM, "hostPtr is NULL")
    ok(lib().aclrtFreeHost(h))


def test_memset():
    L = lib()
    d = malloc(64)
    ok(L.aclrtMemset(d, 64, 0x1AB, 64))                    # the low byte is used
    assert (from_dev(d, np.zeros(64, np.uint8)) == 0xAB).all()
    ok(L.aclrtMemset(d, 64, 7, 10))
    got = from_dev(d, np.zeros(64, np.uint8))
    assert (got[:10] == 7).all() and (got[10:] == 0xAB).all()
    fails(L.aclrtMemset(d, 10, 0, 11), INVALID_PARAM, "count 11 exceeds maxCount 10")
    fails(L.aclrtMemset(d, 100, 0, 65), RT_PARAM_INVALID, "leaves its allocation")
    fails(L.aclrtMemset(None, 1, 0, 1), INVALID_PARAM, "devPtr is NULL")
    ok(L.aclrtFree(d))


@pytest.mark.parametrize("pinned", [False, True])
def test_async_copies_and_sets_run_in_stream_order(pinned):
    L = lib()
    s = stream()
    n = 4096
    d = malloc(n)
    src_h = host(n) if pinned else None
    src = np.frombuffer((ctypes.c_uint8 * n).from_address(src_h), np.uint8) if pinned else np.empty(n, np.uint8)
    src[:] = np.arange(n) % 251
    ok(L.aclrtMemsetAsync(d, n, 9, n, s))
    ok(L.aclrtMemcpyAsync(d, n, src.ctypes.data, n // 2, H2D, s))   # after the set, in order
    out = np.zeros(n, np.uint8)
    ok(L.aclrtMemcpyAsync(out.ctypes.data, n, d, n, D2H, s))
    ok(L.aclrtSynchronizeStream(s))
    assert (out[: n // 2] == src[: n // 2]).all() and (out[n // 2:] == 9).all()
    fails(L.aclrtMemcpyAsync(d, n, src.ctypes.data, n + 1, H2D, s), INVALID_PARAM, "exceeds destMax")
    fails(L.aclrtMemsetAsync(d, n, 0, n, ctypes.c_void_p(12345)), 107017, "not a live stream")
    ok(L.aclrtDestroyStream(s))
    if pinned:
        ok(L.aclrtFreeHost(src_h))
    ok(L.aclrtFree(d))


def test_mem_info_tracks_device_allocations():
    L = lib()
    free0, total = ctypes.c_size_t(), ctypes.c_size_t()
    ok(L.aclrtGetMemInfo(1, ctypes.byref(free0), ctypes.byref(total)))
    assert total.value == 64 << 30
    d = malloc(10 << 20)
    free1 = ctypes.c_size_t()
    ok(L.aclrtGetMemInfo(1, ctypes.byref(free1), ctypes.byref(total)))
    assert free0.value - free1.value >= 10 << 20
    ok(L.aclrtFree(d))
    fails(L.aclrtGetMemInfo(1, None, ctypes.byref(total)), INVALID_PARAM, "freeBytes is NULL")
    fails(L.aclrtGetMemInfo(99, ctypes.byref(free1), ctypes.byref(total)), INVALID_PARAM, "attr 99")


def test_size_is_rounded_like_cann_on_dav_2201():
    # 32-byte rounding plus 32 bytes: a 1-byte allocation reserves 64 bytes.
    L = lib()
    f0, f1, t = ctypes.c_size_t(), ctypes.c_size_t(), ctypes.c_size_t()
    ok(L.aclrtGetMemInfo(1, ctypes.byref(f0), ctypes.byref(t)))
    d = malloc(33)
    ok(L.aclrtGetMemInfo(1, ctypes.byref(f1), ctypes.byref(t)))
    assert f0.value - f1.value == 64 + 32
    ok(L.aclrtFree(d))
    assert "aclrt" in err()   # the last failure message is still there
