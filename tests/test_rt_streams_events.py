"""Asynchronous, in-order streams and events: a
launch returns before its kernel has run, tasks on one stream run in
order, StreamWaitEvent orders streams, events time the work between their
records, and every misuse names the handle.  Kernels that wait for a flag
the host sets make "not yet run" observable without sleeping."""
import ctypes
import time

import numpy as np

from helpers import rt_kernels as K
from helpers.threads import run_in_threads
from helpers.rt import (INVALID_PARAM, RT_EVENT_NOT_COMPLETE, RT_INVALID_HANDLE, RT_STREAM_SYNC_TIMEOUT, event,
                        fails, from_dev, function, launch, lib, load, malloc, ok, stream, to_dev)

V = ctypes.c_void_p
NOT_READY, COMPLETE = 0, 1


def status(e):
    st = ctypes.c_int(-1)
    ok(lib().aclrtQueryEventStatus(e, ctypes.byref(st)))
    return st.value


def spin_kernel():
    rc, b = load(K.spin_binary())
    ok(rc)
    return function(b, "spin")


def release(flag):
    one = np.ones(1, np.int32)
    ok(lib().aclrtMemcpy(flag, 4, one.ctypes.data, 4, 1))   # synchronous: does not wait for streams


def test_launch_returns_before_the_kernel_runs():
    L = lib()
    f = spin_kernel()
    flag, out = to_dev(np.zeros(1, np.int32)), to_dev(np.zeros(4, np.int32))
    s, e = stream(), event()
    ok(launch(f, 4, [V(flag), V(out)], s))
    ok(L.aclrtRecordEvent(e, s))
    assert status(e) == NOT_READY
    assert (from_dev(out, np.zeros(4, np.int32)) == 0).all()
    fails(L.aclrtSynchronizeStreamWithTimeout(s, 20), RT_STREAM_SYNC_TIMEOUT, "unfinished task", "20 ms")
    release(flag)
    ok(L.aclrtSynchronizeStreamWithTimeout(s, -1))
    assert status(e) == COMPLETE
    assert (from_dev(out, np.zeros(4, np.int32)) == [1, 2, 3, 4]).all()
    ok(L.aclrtDestroyEvent(e))
    ok(L.aclrtDestroyStream(s))


def test_tasks_on_one_stream_run_in_order():
    L = lib()
    f = spin_kernel()
    flag, out = to_dev(np.zeros(1, np.int32)), to_dev(np.zeros(2, np.int32))
    s = stream()
    ok(launch(f, 2, [V(flag), V(out)], s))
    hp = ctypes.c_void_p()
    ok(L.aclrtMallocHost(ctypes.byref(hp), 8))
    host = np.frombuffer((ctypes.c_int32 * 2).from_address(hp.value), np.int32)
    host[:] = -1
    ok(L.aclrtMemcpyAsync(hp, 8, out, 8, 2, s))   # pinned memory: queued, not run yet
    assert list(host) == [-1, -1]
    release(flag)
    ok(L.aclrtSynchronizeStream(s))
    assert list(host) == [1, 2]
    ok(L.aclrtFreeHost(hp))
    ok(L.aclrtDestroyStream(s))


def test_stream_wait_event_orders_two_streams():
    L = lib()
    f = spin_kernel()
    flag, out = to_dev(np.zeros(1, np.int32)), to_dev(np.zeros(1, np.int32))
    copy = malloc(4)
    s1, s2, e, done = stream(), stream(), event(), event()
    ok(launch(f, 1, [V(flag), V(out)], s1))
    ok(L.aclrtRecordEvent(e, s1))
    ok(L.aclrtStreamWaitEvent(s2, e))
    ok(L.aclrtMemcpyAsync(copy, 4, out, 4, 3, s2))
    ok(L.aclrtRecordEvent(done, s2))
    fails(L.aclrtSynchronizeStreamWithTimeout(s2, 10), RT_STREAM_SYNC_TIMEOUT)
    assert status(done) == NOT_READY
    release(flag)
    ok(L.aclrtSynchronizeEvent(done))
    assert from_dev(copy, np.zeros(1, np.int32))[0] == 1
    for h in (e, done):
        ok(L.aclrtDestroyEvent(h))
    for h in (s1, s2):
        ok(L.aclrtDestroyStream(h))


def test_event_elapsed_time_measures_the_work_between_records():
    L = lib()
    f = spin_kernel()
    flag, out = to_dev(np.zeros(1, np.int32)), malloc(4)
    s, a, b = stream(), event(), event()
    t0 = time.perf_counter()
    ok(L.aclrtRecordEvent(a, s))
    ok(launch(f, 1, [V(flag), V(out)], s))
    ok(L.aclrtRecordEvent(b, s))
    ok(L.aclrtSynchronizeEvent(a))           # a has its time (the stream may start late on a busy machine)
    t1 = time.perf_counter()
    while time.perf_counter() - t1 < 0.03:   # then keep the kernel busy for 30 ms: b is 30 ms later at least
        pass
    release(flag)
    ok(L.aclrtSynchronizeStream(s))
    host_ms = (time.perf_counter() - t0) * 1e3
    ms = ctypes.c_float()
    ok(L.aclrtEventElapsedTime(ctypes.byref(ms), a, b))
    assert 20.0 <= ms.value <= host_ms
    ok(L.aclrtEventElapsedTime(ctypes.byref(ms), b, a))
    assert ms.value < 0
    ok(L.aclrtDestroyStream(s))


def test_event_misuse_is_named():
    L = lib()
    f = spin_kernel()
    flag, out = to_dev(np.zeros(1, np.int32)), malloc(4)
    a, b = event(), event()
    ms = ctypes.c_float()
    fails(L.aclrtEventElapsedTime(ctypes.byref(ms), a, b), INVALID_PARAM, "startEvent", "never recorded")
    s = stream()
    ok(L.aclrtRecordEvent(a, s))
    ok(launch(f, 1, [V(flag), V(out)], s))
    ok(L.aclrtRecordEvent(b, s))
    ok(L.aclrtSynchronizeEvent(a))            # recorded before the kernel: completes
    fails(L.aclrtEventElapsedTime(ctypes.byref(ms), a, b), RT_EVENT_NOT_COMPLETE, "endEvent", "not completed")
    release(flag)
    ok(L.aclrtSynchronizeEvent(b))
    fails(L.aclrtEventElapsedTime(None, a, b), INVALID_PARAM, "ms is NULL")
    fails(L.aclrtQueryEventStatus(a, None), INVALID_PARAM, "status is NULL")
    ok(L.aclrtDestroyEvent(a))
    fails(L.aclrtDestroyEvent(a), RT_INVALID_HANDLE, "not a live event")
    fails(L.aclrtRecordEvent(a, s), RT_INVALID_HANDLE, "not a live event")
    fails(L.aclrtSynchronizeEvent(None), INVALID_PARAM, "event is NULL")
    fails(L.aclrtRecordEvent(b, V(0xdead0)), RT_INVALID_HANDLE, "not a live stream")
    e = ctypes.c_void_p()
    fails(L.aclrtCreateEventWithFlag(ctypes.byref(e), 0x4), INVALID_PARAM, "unknown bits 0x4")
    fails(L.aclrtCreateEvent(None), INVALID_PARAM, "event is NULL")
    for flag_ in (0x1, 0x8, 0x10, 0x20, 0x9):
        ok(L.aclrtDestroyEvent(event(flag_)))
    ok(L.aclrtDestroyEvent(b))
    ok(L.aclrtDestroyStream(s))


def test_unrecorded_event_is_complete_and_waiting_on_it_is_a_no_op():
    L = lib()
    e = event()
    assert status(e) == COMPLETE
    ok(L.aclrtSynchronizeEvent(e))
    ok(L.aclrtStreamWaitEvent(None, e))
    ok(L.aclrtSynchronizeStream(None))
    ok(L.aclrtDestroyEvent(e))


def test_destroying_an_event_with_queued_records_is_safe():
    L = lib()
    f = spin_kernel()
    flag, out = to_dev(np.zeros(1, np.int32)), malloc(4)
    s, e = stream(), event()
    ok(launch(f, 1, [V(flag), V(out)], s))
    ok(L.aclrtRecordEvent(e, s))
    ok(L.aclrtDestroyEvent(e))
    release(flag)
    ok(L.aclrtSynchronizeStream(s))
    ok(L.aclrtDestroyStream(s))


def test_stream_misuse_is_named():
    L = lib()
    s = ctypes.c_void_p()
    fails(L.aclrtCreateStream(None), INVALID_PARAM, "aclrtCreateStream: stream is NULL")
    fails(L.aclrtCreateStreamWithConfig(ctypes.byref(s), 8, 0), INVALID_PARAM, "priority 8")
    ok(L.aclrtCreateStreamWithConfig(ctypes.byref(s), 3, 0x2))
    fails(L.aclrtSynchronizeStreamWithTimeout(s, -2), INVALID_PARAM, "timeout -2")
    ok(L.aclrtSynchronizeStreamWithTimeout(s, 0))
    ok(L.aclrtDestroyStream(s))
    fails(L.aclrtDestroyStream(s), RT_INVALID_HANDLE, "not a live stream")
    fails(L.aclrtSynchronizeStream(s), RT_INVALID_HANDLE, "not a live stream")
    fails(L.aclrtDestroyStream(None), INVALID_PARAM, "default stream cannot be destroyed")
    ok(L.aclrtSynchronizeStream(None))


def test_destroy_stream_finishes_its_queued_work():
    L = lib()
    s = stream()
    d = malloc(1 << 20)
    for v in range(1, 6):
        ok(L.aclrtMemsetAsync(d, 1 << 20, v, 1 << 20, s))
    ok(L.aclrtDestroyStream(s))
    assert (from_dev(d, np.zeros(1 << 20, np.uint8)) == 5).all()


def test_many_threads_share_the_runtime():
    L = lib()
    rc_, b = load(K.add_binary())
    ok(rc_)
    f = function(b, "add_custom")

    def work(i):
        s = stream()
        x = np.arange(256, dtype=np.float32) * i
        y = np.ones(256, np.float32)
        dx, dy, dz = to_dev(x), to_dev(y), malloc(1024)
        for _ in range(5):
            ok(launch(f, 8, [V(dx), V(dy), V(dz), ctypes.c_int32(32)], s))
        ok(L.aclrtSynchronizeStream(s))
        assert (from_dev(dz, x) == x + y).all()
        for p in (dx, dy, dz):
            ok(L.aclrtFree(p))
        ok(L.aclrtDestroyStream(s))

    run_in_threads(work, 6)


def test_device_sync_does_not_block_stream_creation_elsewhere():
    import threading
    L = lib()
    f = spin_kernel()
    flag, out = to_dev(np.zeros(1, np.int32)), malloc(4)
    s = stream()
    ok(launch(f, 1, [V(flag), V(out)], s))
    rcs = []
    t = threading.Thread(target=lambda: rcs.append(L.aclrtSynchronizeDevice()))
    t.start()
    s2 = stream()                              # would wait for the kernel if device sync held the list
    ok(L.aclrtDestroyStream(s2))
    release(flag)
    t.join()
    assert rcs == [0]
    ok(L.aclrtDestroyStream(s))
