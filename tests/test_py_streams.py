"""Streams, events, device synchronisation and device info."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.py_kernels import add_kernel


def test_event_times_a_launch():
    add = add_kernel(np.float32)
    x = arc.to_device(np.ones(256, np.float32))
    z = arc.empty_like(x)
    s = arc.Stream()
    start, end = arc.Event(), arc.Event()
    start.record(s)
    for _ in range(5):
        add[8, s](x, x, z)
    end.record(s)
    end.synchronize()
    assert end.query() is True
    ms = start.elapsed_time(end)
    assert isinstance(ms, float) and 0.0 < ms < 10_000.0
    np.testing.assert_array_equal(z.get(), 2)
    with pytest.raises(ValueError, match=r"before this event; call it on the earlier event: start.elapsed_time\(end\)"):
        end.elapsed_time(start)   # swapped: was a quiet negative time


def test_event_misuse():
    e = arc.Event()
    with pytest.raises(ValueError, match="has not been recorded"):
        e.elapsed_time(arc.Event())
    with pytest.raises(TypeError, match="expects an Event"):
        e.elapsed_time(3)
    with pytest.raises(TypeError, match="stream must be"):
        e.record(stream=5)


def test_two_streams_both_complete():
    add = add_kernel(np.float32)
    s1, s2 = arc.Stream(), arc.Stream()
    a = arc.to_device(np.arange(256, dtype=np.float32))
    b = arc.to_device(np.full(256, 10, np.float32))
    za, zb = arc.zeros(256, np.float32), arc.zeros(256, np.float32)
    for _ in range(10):
        add[8, s1](za, a, za)
        add[8, s2](zb, b, zb)
    arc.synchronize()
    np.testing.assert_array_equal(za.get(), 10 * np.arange(256, dtype=np.float32))
    np.testing.assert_array_equal(zb.get(), np.full(256, 100, np.float32))


def test_stream_wait_event_orders_streams():
    add = add_kernel(np.float32)
    s1, s2 = arc.Stream(), arc.Stream()
    one = arc.to_device(np.ones(256, np.float32))
    z = arc.zeros(256, np.float32)
    for _ in range(10):
        add[8, s1](z, one, z)
    ev = arc.Event()
    ev.record(s1)
    s2.wait_event(ev)
    w = arc.empty_like(z)
    add[8, s2](z, z, w)            # sees all ten increments
    s2.synchronize()
    np.testing.assert_array_equal(w.get(), np.full(256, 20, np.float32))


def test_default_stream_and_handles():
    d = arc.default_stream()
    assert d is arc.default_stream()
    assert "default" in repr(d) and d.handle != 0
    d.synchronize()


def test_device_info():
    info = arc.device_info()
    assert isinstance(info["soc_name"], str) and info["soc_name"]
    assert info["aicore_num"] >= 1 and info["vector_core_num"] >= 1
    assert info["ub_size"] in (192 * 1024, 248 * 1024, 256 * 1024)
