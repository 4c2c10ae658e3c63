"""Device arrays: NumPy in and out, shape/dtype/strides, views, lifetime."""
import gc
import weakref

import numpy as np
import pytest

import ascendrtc as arc


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int8, np.uint64, np.complex64])
def test_round_trip(dtype):
    a = (np.arange(24) % 7).astype(dtype).reshape(2, 3, 4)
    d = arc.to_device(a)
    assert d.shape == (2, 3, 4) and d.dtype == a.dtype and d.strides == a.strides
    assert d.size == 24 and d.ndim == 3 and d.nbytes == a.nbytes and d.itemsize == a.itemsize
    np.testing.assert_array_equal(d.get(), a)
    np.testing.assert_array_equal(np.asarray(d), a)
    assert np.asarray(d, dtype=np.complex128).dtype == np.complex128


def test_noncontiguous_made_contiguous():
    a = np.arange(20, dtype=np.int32).reshape(4, 5).T
    d = arc.to_device(a)
    assert d.strides == (16, 4)
    np.testing.assert_array_equal(d.get(), a)


def test_zeros_empty_like_set():
    z = arc.zeros((3, 5), np.int16)
    np.testing.assert_array_equal(z.get(), np.zeros((3, 5), np.int16))
    e = arc.empty_like(np.ones((2, 2), np.float64))
    assert e.shape == (2, 2) and e.dtype == np.float64
    e.set(np.eye(2))
    np.testing.assert_array_equal(e.get(), np.eye(2))
    with pytest.raises(ValueError, match="shape mismatch"):
        e.set(np.ones(3))
    assert arc.zeros_like(e).get().sum() == 0
    assert arc.empty(0).get().shape == (0,)


def test_views_share_memory():
    d = arc.to_device(np.arange(12, dtype=np.float32).reshape(4, 3))
    v = d[1:3]
    assert v.shape == (2, 3) and v.base is d and v.ptr == d.ptr + 12
    v.set(np.zeros((2, 3)))
    np.testing.assert_array_equal(d.get()[1:3], 0)
    np.testing.assert_array_equal(d[0].get(), [0, 1, 2])
    np.testing.assert_array_equal(d.reshape(-1).get()[-3:], [9, 10, 11])
    with pytest.raises(ValueError, match="step 1"):
        d[::2]
    with pytest.raises(IndexError):
        d[4]
    with pytest.raises(ValueError, match="cannot reshape"):
        d.reshape(5)


def test_freed_when_last_reference_goes():
    d = arc.empty(1 << 20, np.uint8)
    r = weakref.ref(d)
    v = d[10:]
    del d
    gc.collect()
    assert r() is not None                  # the view keeps it alive
    del v
    gc.collect()
    assert r() is None


def test_many_large_allocations_do_not_leak():
    # 200 x 64 MiB would exhaust any sane device-memory limit if not freed.
    for _ in range(200):
        d = arc.empty(64 << 20, np.uint8)
        del d


def test_bad_shapes_and_dtypes():
    with pytest.raises(ValueError, match="negative dimension"):
        arc.empty((2, -1))
    with pytest.raises(TypeError, match="cannot live on the device"):
        arc.empty(3, object)
    with pytest.raises(TypeError):
        arc.DeviceArray("abc")


def test_repr():
    assert "shape=(3,)" in repr(arc.empty(3, np.int32))


def test_dropping_arrays_of_a_queued_launch_is_safe():
    # The inputs' last references go while their launch may still be queued:
    # freeing waits for it, so the result is right and no fault is reported.
    from helpers.py_kernels import add_kernel
    add = add_kernel(np.float32)
    x = np.arange(256, dtype=np.float32)
    z = arc.zeros(256, np.float32)
    for _ in range(20):
        add[8](arc.to_device(x), arc.to_device(x), z)
    arc.synchronize()
    np.testing.assert_array_equal(z.get(), 2 * x)
