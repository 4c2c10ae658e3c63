"""Kernel argument handles and the three launchers
(aclrtLaunchKernelWith{Config,ArgsArray,HostArgs}): packing at the metadata's offsets, placeholders, ParaUpdate,
user-memory handles, and the checks that name a wrong argument, a bad
numBlocks or a bad launch attribute before anything runs."""
import ctypes

import numpy as np
import pytest

from helpers import rt_kernels as K
from helpers.rt import (INVALID_PARAM, RT_AICORE_TIMEOUT, RT_FEATURE_NOT_SUPPORT, RT_INVALID_HANDLE,
                        RT_PARAM_INVALID, Attr, LaunchCfg, PlaceHolderInfo, fails, from_dev, function, launch, lib,
                        load, malloc, ok, pack_args, to_dev)

V = ctypes.c_void_p


def fn(blob, name):
    rc, b = load(blob)
    ok(rc)
    return function(b, name)


@pytest.fixture(scope="module")
def add():
    return fn(K.add_binary(), "add_custom")


@pytest.fixture(scope="module")
def scalars():
    return fn(K.scalars_binary(), "scalars")


class T(ctypes.Structure):
    _fields_ = [("a", ctypes.c_int32), ("b", ctypes.c_int32), ("c", ctypes.c_int32)]


def sync():
    ok(lib().aclrtSynchronizeStream(None))


def test_params_land_at_metadata_offsets(scalars):
    out = malloc(6 * 8)
    vals = [V(out), ctypes.c_int32(-7), ctypes.c_float(2.5), ctypes.c_double(1e300), T(1, 2, 3)]
    ok(launch(scalars, 1, vals))
    sync()
    assert list(from_dev(out, np.zeros(6))) == [-7, 2.5, 1e300, 1, 2, 3]


def test_param_count_and_info(add):
    L = lib()
    n, off, size = ctypes.c_size_t(), ctypes.c_size_t(), ctypes.c_size_t()
    ok(L.aclrtFunctionGetParamCount(add, ctypes.byref(n)))
    assert n.value == 4
    got = []
    for i in range(4):
        ok(L.aclrtFunctionGetParamInfo(add, i, ctypes.byref(off), ctypes.byref(size)))
        got.append((off.value, size.value))
    assert got == [(0, 8), (8, 8), (16, 8), (24, 4)]
    fails(L.aclrtFunctionGetParamInfo(add, 4, ctypes.byref(off), ctypes.byref(size)), RT_PARAM_INVALID,
          "paramIndex 4", "4 parameter")
    fails(L.aclrtFunctionGetParamCount(add, None), INVALID_PARAM, "paramCount is NULL")
    fails(L.aclrtFunctionGetParamCount(None, ctypes.byref(n)), INVALID_PARAM, "funcHandle is NULL")
    fails(L.aclrtFunctionGetParamCount(V(0x1234), ctypes.byref(n)), RT_INVALID_HANDLE, "funcHandle")


def test_append_checks_count_and_size_against_the_signature(add):
    L = lib()
    a, ph = ctypes.c_void_p(), ctypes.c_void_p()
    ok(L.aclrtKernelArgsInit(add, ctypes.byref(a)))
    p = V(0)
    ok(L.aclrtKernelArgsAppend(a, ctypes.byref(p), 8, ctypes.byref(ph)))
    ok(L.aclrtKernelArgsAppend(a, ctypes.byref(p), 8, ctypes.byref(ph)))
    small = ctypes.c_int32(0)
    fails(L.aclrtKernelArgsAppend(a, ctypes.byref(small), 4, ctypes.byref(ph)), INVALID_PARAM,
          "add_custom: parameter 2 'z' (GM_ADDR) expects 8 bytes, got 4")
    fails(L.aclrtKernelArgsAppend(a, None, 8, ctypes.byref(ph)), INVALID_PARAM, "param is NULL")
    fails(L.aclrtKernelArgsAppend(a, ctypes.byref(p), 0, ctypes.byref(ph)), INVALID_PARAM, "paramSize is 0")
    fails(L.aclrtKernelArgsFinalize(a), RT_PARAM_INVALID, "takes 4 parameter(s) but 2 were appended")
    ok(L.aclrtKernelArgsAppend(a, ctypes.byref(p), 8, ctypes.byref(ph)))
    ok(L.aclrtKernelArgsAppend(a, ctypes.byref(small), 4, ctypes.byref(ph)))
    fails(L.aclrtKernelArgsAppend(a, ctypes.byref(p), 8, ctypes.byref(ph)), RT_PARAM_INVALID,
          "takes 4 parameter(s); all are appended")
    ok(L.aclrtKernelArgsFinalize(a))
    fails(L.aclrtKernelArgsAppend(a, ctypes.byref(small), 4, ctypes.byref(ph)), RT_PARAM_INVALID, "finalized")
    fails(L.aclrtKernelArgsAppend(None, ctypes.byref(p), 8, ctypes.byref(ph)), INVALID_PARAM, "argsHandle is NULL")
    fails(L.aclrtKernelArgsInit(add, None), INVALID_PARAM, "argsHandle is NULL")


def test_init_hands_out_one_handle_per_thread(add, scalars):
    L = lib()
    a, b = ctypes.c_void_p(), ctypes.c_void_p()
    ok(L.aclrtKernelArgsInit(add, ctypes.byref(a)))
    ok(L.aclrtKernelArgsInit(scalars, ctypes.byref(b)))
    assert a.value == b.value
    import threading
    other = []
    t = threading.Thread(target=lambda: (L.aclrtKernelArgsInit(add, ctypes.byref(c := ctypes.c_void_p())),
                                         other.append(c.value)))
    t.start()
    t.join()
    assert other and other[0] != a.value


def test_launch_validation(add, scalars):
    L = lib()
    x = malloc(1024)
    vals = [V(x), V(x), V(x), ctypes.c_int32(32)]
    a = pack_args(add, vals)
    fails(L.aclrtLaunchKernelWithConfig(add, 0, None, None, a, None), RT_PARAM_INVALID,
          "numBlocks 0 for 'add_custom' is out of range [1, 65535]")
    fails(L.aclrtLaunchKernelWithConfig(add, 65536, None, None, a, None), RT_PARAM_INVALID, "numBlocks 65536")
    fails(L.aclrtLaunchKernelWithConfig(add, 1, None, None, a, V(1)), INVALID_PARAM, "reserve must be NULL")
    fails(L.aclrtLaunchKernelWithConfig(add, 1, None, None, None, None), INVALID_PARAM, "argsHandle is NULL")
    fails(L.aclrtLaunchKernelWithConfig(scalars, 1, None, None, a, None), RT_PARAM_INVALID,
          "initialised for kernel 'add_custom' but the launch is of 'scalars'")
    fails(L.aclrtLaunchKernelWithConfig(None, 1, None, None, a, None), INVALID_PARAM, "funcHandle is NULL")
    fails(L.aclrtLaunchKernelWithConfig(add, 1, V(0xbad0), None, a, None), RT_INVALID_HANDLE, "stream")
    ok(L.aclrtLaunchKernelWithConfig(add, 1, None, None, a, None))
    sync()


def cfg_of(*attrs):
    arr = (Attr * max(1, len(attrs)))()
    for i, (aid, field, v) in enumerate(attrs):
        arr[i].id = aid
        setattr(arr[i].value, field, v)
    return LaunchCfg(arr, len(attrs)), arr


@pytest.mark.parametrize("attrs,code,words", [
    ([(1, "schemMode", 2)], RT_PARAM_INVALID, ["SCHEM_MODE 2"]),
    ([(2, "dynUBufSize", 1024)], RT_PARAM_INVALID, ["DYN_UBUF_SIZE 1024", "dav-3510"]),
    ([(3, "engineType", 1)], RT_FEATURE_NOT_SUPPORT, ["ENGINE_TYPE", "310P"]),
    ([(4, "blockDimOffset", 1)], RT_FEATURE_NOT_SUPPORT, ["BLOCKDIM_OFFSET"]),
    ([(5, "isBlockTaskPrefetch", 2)], RT_PARAM_INVALID, ["value 2 must be 0 or 1"]),
    ([(6, "isDataDump", 3)], RT_PARAM_INVALID, ["value 3"]),
    ([(9, "enableProfiling", 4)], RT_PARAM_INVALID, ["value 4"]),
    ([(7, "timeout", 1), (8, "rsv", (ctypes.c_uint32 * 4)(5, 0, 0, 0))], RT_PARAM_INVALID, ["TIMEOUT", "TIMEOUT_US"]),
    ([(42, "rsv", (ctypes.c_uint32 * 4)())], RT_PARAM_INVALID, ["unknown attribute id 42"]),
])
def test_bad_launch_attributes_are_named(add, attrs, code, words):
    x = malloc(1024)
    a = pack_args(add, [V(x), V(x), V(x), ctypes.c_int32(1)])
    cfg, _keep = cfg_of(*attrs)
    fails(lib().aclrtLaunchKernelWithConfig(add, 1, None, ctypes.byref(cfg), a, None), code, *words)


def test_good_launch_attributes_and_null_attrs(add):
    L = lib()
    x = malloc(1024)
    a = pack_args(add, [V(x), V(x), V(x), ctypes.c_int32(1)])
    cfg, _keep = cfg_of((1, "schemMode", 1), (5, "isBlockTaskPrefetch", 1), (6, "isDataDump", 0),
                        (9, "enableProfiling", 1), (7, "timeout", 10), (2, "dynUBufSize", 0))
    ok(L.aclrtLaunchKernelWithConfig(add, 2, None, ctypes.byref(cfg), a, None))
    sync()
    fails(L.aclrtLaunchKernelWithConfig(add, 1, None, ctypes.byref(LaunchCfg(None, 0)), a, None), RT_PARAM_INVALID,
          "cfg->attrs is NULL")


def test_launch_timeout_is_reported_at_sync():
    f = fn(K.spin_binary(), "spin")
    flag, out = to_dev(np.ones(1, np.int32)), malloc(4 * 64)
    a = pack_args(f, [V(flag), V(out)])
    us = (ctypes.c_uint32 * 4)(1, 0, 0, 0)                   # 1 microsecond
    cfg, _keep = cfg_of((8, "rsv", us))
    ok(lib().aclrtLaunchKernelWithConfig(f, 64, None, ctypes.byref(cfg), a, None))
    fails(lib().aclrtSynchronizeStream(None), RT_AICORE_TIMEOUT, "spin", "launch timeout")


def test_handle_is_copied_at_launch_so_it_can_be_refilled(scalars):
    L = lib()
    out1, out2 = malloc(48), malloc(48)
    a = pack_args(scalars, [V(out1), ctypes.c_int32(1), ctypes.c_float(1), ctypes.c_double(1), T(1, 1, 1)])
    ok(L.aclrtLaunchKernelWithConfig(scalars, 1, None, None, a, None))
    a2 = pack_args(scalars, [V(out2), ctypes.c_int32(2), ctypes.c_float(2), ctypes.c_double(2), T(2, 2, 2)])
    assert a2 == a   # the same thread-local handle, refilled
    ok(L.aclrtLaunchKernelWithConfig(scalars, 1, None, None, a2, None))
    sync()
    assert (from_dev(out1, np.zeros(6)) == 1).all() and (from_dev(out2, np.zeros(6)) == 2).all()


def test_para_update_requires_finalize_again(scalars):
    L = lib()
    out = malloc(48)
    a, ph = ctypes.c_void_p(), ctypes.c_void_p()
    ok(L.aclrtKernelArgsInit(scalars, ctypes.byref(a)))
    handles = []
    for v in [V(out), ctypes.c_int32(5), ctypes.c_float(0.5), ctypes.c_double(-2), T(7, 8, 9)]:
        ok(L.aclrtKernelArgsAppend(a, ctypes.byref(v), ctypes.sizeof(v), ctypes.byref(ph)))
        handles.append(ph.value)
    ok(L.aclrtKernelArgsFinalize(a))
    nv = ctypes.c_int32(99)
    ok(L.aclrtKernelArgsParaUpdate(a, handles[1], ctypes.byref(nv), 4))
    fails(L.aclrtLaunchKernelWithConfig(scalars, 1, None, None, a, None), RT_PARAM_INVALID, "not finalized")
    fails(L.aclrtKernelArgsParaUpdate(a, handles[1], ctypes.byref(nv), 8), INVALID_PARAM, "parameter 1 'i'",
          "expects 4 bytes, got 8")
    fails(L.aclrtKernelArgsParaUpdate(a, V(handles[1] + 1), ctypes.byref(nv), 4), RT_PARAM_INVALID,
          "not a parameter")
    ok(L.aclrtKernelArgsFinalize(a))
    ok(L.aclrtLaunchKernelWithConfig(scalars, 1, None, None, a, None))
    sync()
    assert list(from_dev(out, np.zeros(6))) == [99, 0.5, -2, 7, 8, 9]


def test_placeholder_data_reaches_the_kernel():
    L = lib()
    f = fn(K.placeholder_binary(), "ph")
    out = malloc(4 * 5)
    a, p0, p1, p2 = (ctypes.c_void_p() for _ in range(4))
    ok(L.aclrtKernelArgsInit(f, ctypes.byref(a)))
    o = V(out)
    ok(L.aclrtKernelArgsAppend(a, ctypes.byref(o), 8, ctypes.byref(p0)))
    ok(L.aclrtKernelArgsAppendPlaceHolder(a, ctypes.byref(p1)))
    n = ctypes.c_int32(5)
    ok(L.aclrtKernelArgsAppend(a, ctypes.byref(n), 4, ctypes.byref(p2)))
    buf = ctypes.c_void_p()
    fails(L.aclrtKernelArgsFinalize(a), RT_PARAM_INVALID, "placeholder parameter 1 'tiling' has no data")
    fails(L.aclrtKernelArgsGetPlaceHolderBuffer(a, p0, 20, ctypes.byref(buf)), RT_PARAM_INVALID, "not as a placeholder")
    ok(L.aclrtKernelArgsGetPlaceHolderBuffer(a, p1, 20, ctypes.byref(buf)))
    assert buf.value % 8 == 0
    ctypes.memmove(buf, np.arange(5, dtype=np.float32).tobytes(), 20)
    fails(L.aclrtKernelArgsAppend(a, ctypes.byref(n), 4, ctypes.byref(p2)), RT_PARAM_INVALID,
          "after aclrtKernelArgsGetPlaceHolderBuffer")
    fails(L.aclrtKernelArgsParaUpdate(a, p1, ctypes.byref(o), 8), RT_PARAM_INVALID, "is a placeholder")
    ok(L.aclrtKernelArgsFinalize(a))
    ok(L.aclrtLaunchKernelWithConfig(f, 1, None, None, a, None))
    ctypes.memmove(buf, bytes(20), 20)       # the launch has its own copy
    sync()
    assert list(from_dev(out, np.zeros(5, np.float32))) == [0, 1, 2, 3, 4]


def test_placeholder_must_stand_for_a_pointer(add):
    L = lib()
    a, ph = ctypes.c_void_p(), ctypes.c_void_p()
    ok(L.aclrtKernelArgsInit(add, ctypes.byref(a)))
    p = V(0)
    for _ in range(3):
        ok(L.aclrtKernelArgsAppend(a, ctypes.byref(p), 8, ctypes.byref(ph)))
    fails(L.aclrtKernelArgsAppendPlaceHolder(a, ctypes.byref(ph)), RT_PARAM_INVALID, "parameter 3 'n'",
          "not a pointer")


def test_handles_in_user_memory(add):
    L = lib()
    hsize, msize = ctypes.c_size_t(), ctypes.c_size_t()
    ok(L.aclrtKernelArgsGetHandleMemSize(add, ctypes.byref(hsize)))
    ok(L.aclrtKernelArgsGetMemSize(add, 28, ctypes.byref(msize)))
    assert msize.value >= 32
    handle = (ctypes.c_uint64 * (hsize.value // 8 + 1))()
    mem = ctypes.create_string_buffer(msize.value)
    x = np.arange(64, dtype=np.float32)
    dx, dz = to_dev(x), malloc(256)
    ok(L.aclrtKernelArgsInitByUserMem(add, ctypes.addressof(handle), mem, msize.value))
    ph = ctypes.c_void_p()
    for v in (V(dx), V(dx), V(dz), ctypes.c_int32(32)):
        ok(L.aclrtKernelArgsAppend(ctypes.addressof(handle), ctypes.byref(v), ctypes.sizeof(v), ctypes.byref(ph)))
    ok(L.aclrtKernelArgsFinalize(ctypes.addressof(handle)))
    ok(L.aclrtLaunchKernelWithConfig(add, 2, None, None, ctypes.addressof(handle), None))
    sync()
    assert (from_dev(dz, x) == 2 * x).all()
    fails(L.aclrtKernelArgsInitByUserMem(add, None, mem, 8), INVALID_PARAM, "argsHandle is NULL")
    fails(L.aclrtKernelArgsInitByUserMem(add, ctypes.addressof(handle), None, 8), INVALID_PARAM, "userHostMem is NULL")
    fails(L.aclrtKernelArgsInitByUserMem(add, ctypes.addressof(handle), mem, 0), INVALID_PARAM, "actualArgsSize is 0")
    tiny = ctypes.create_string_buffer(8)
    ok(L.aclrtKernelArgsInitByUserMem(add, ctypes.addressof(handle), tiny, 8))
    p = V(0)
    ok(L.aclrtKernelArgsAppend(ctypes.addressof(handle), ctypes.byref(p), 8, ctypes.byref(ph)))
    fails(L.aclrtKernelArgsAppend(ctypes.addressof(handle), ctypes.byref(p), 8, ctypes.byref(ph)), RT_PARAM_INVALID,
          "does not fit the argument buffer (8 bytes")


def test_launch_with_args_array(scalars):
    L = lib()
    out = malloc(48)
    vals = [V(out), ctypes.c_int32(3), ctypes.c_float(-1.5), ctypes.c_double(0.25), T(4, 5, 6)]
    arr = (ctypes.c_void_p * 5)(*[ctypes.addressof(v) for v in vals])
    ok(L.aclrtLaunchKernelWithArgsArray(scalars, 1, None, None, arr))
    sync()
    assert list(from_dev(out, np.zeros(6))) == [3, -1.5, 0.25, 4, 5, 6]
    arr[3] = None
    fails(L.aclrtLaunchKernelWithArgsArray(scalars, 1, None, None, arr), INVALID_PARAM,
          "args[3] is NULL", "parameter 3 'd' (double, 8 bytes)")
    fails(L.aclrtLaunchKernelWithArgsArray(scalars, 1, None, None, None), INVALID_PARAM, "args is NULL")
    fails(L.aclrtLaunchKernelWithArgsArray(scalars, 0, None, None, arr), RT_PARAM_INVALID, "numBlocks 0")


def test_launch_with_host_args_and_placeholders():
    L = lib()
    f = fn(K.placeholder_binary(), "ph")
    out = malloc(16)
    block = ctypes.create_string_buffer(24 + 16)
    ctypes.memmove(ctypes.addressof(block), ctypes.byref(V(out)), 8)
    ctypes.memmove(ctypes.addressof(block) + 16, ctypes.byref(ctypes.c_int32(4)), 4)
    ctypes.memmove(ctypes.addressof(block) + 24, np.array([9, 8, 7, 6], np.float32).tobytes(), 16)
    ph = (PlaceHolderInfo * 1)(PlaceHolderInfo(8, 24))
    ok(L.aclrtLaunchKernelWithHostArgs(f, 1, None, None, block, 40, ph, 1))
    sync()
    assert list(from_dev(out, np.zeros(4, np.float32))) == [9, 8, 7, 6]
    fails(L.aclrtLaunchKernelWithHostArgs(f, 1, None, None, block, 16, None, 0), RT_PARAM_INVALID,
          "argsSize 16 is smaller than the 24 bytes")
    bad = (PlaceHolderInfo * 1)(PlaceHolderInfo(36, 24))
    fails(L.aclrtLaunchKernelWithHostArgs(f, 1, None, None, block, 40, bad, 1), RT_PARAM_INVALID,
          "placeHolderArray[0]", "addrOffset 36")
    fails(L.aclrtLaunchKernelWithHostArgs(f, 1, None, None, block, 40, None, 1), INVALID_PARAM,
          "placeHolderArray is NULL")
    fails(L.aclrtLaunchKernelWithHostArgs(f, 1, None, None, None, 40, None, 0), INVALID_PARAM, "hostArgs is NULL")
