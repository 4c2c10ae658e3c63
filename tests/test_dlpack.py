"""DLPack both ways with NumPy: device arrays export DLPack without a copy
(the simulated NPU's device memory is host memory); kernels take objects
exporting DLPack, the buffer protocol or the array interface, and write
outputs into their memory."""
import numpy as np
import pytest

import ascendrtc as arc

SCALE = r'''
#include "kernel_operator.h"
// y[i] = x[i] * k, n elements, one core per n / block_num
extern "C" __global__ __aicore__ void scale(__gm__ float *x, __gm__ float *y, float k, uint32_t n) {
    uint32_t per = n / AscendC::GetBlockNum(), base = per * AscendC::GetBlockIdx();
    for (uint32_t i = 0; i < per; i++)
        y[base + i] = x[base + i] * k;
}
'''


@pytest.fixture(scope="module")
def scale():
    return arc.Program(SCALE, "scale.asc").compile().load().get_kernel("scale")


def test_numpy_from_dlpack_shares_device_memory():
    d = arc.to_device(np.arange(12, dtype=np.float32).reshape(3, 4))
    assert d.__dlpack_device__() == (1, 0)
    n = np.from_dlpack(d)
    assert n.ctypes.data == d.ptr and n.shape == (3, 4) and n.dtype == np.float32
    n[1, 2] = -7                                   # writes land in the device array
    assert d.get()[1, 2] == -7
    v = d[1:]                                      # a view exports its own offset
    assert np.from_dlpack(v).ctypes.data == v.ptr
    np.testing.assert_array_equal(np.from_dlpack(v), d.get()[1:])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.int32, np.uint16, np.int64,
                                   np.bool_, np.complex64])
def test_dtypes_round_trip(dtype):
    host = (np.arange(10) % 3).astype(dtype)
    n = np.from_dlpack(arc.to_device(host))
    assert n.dtype == host.dtype
    np.testing.assert_array_equal(n, host)


def test_export_outlives_the_device_array():
    d = arc.to_device(np.full(1000, 3, np.int32))
    n = np.from_dlpack(d)
    del d                                          # the DLPack tensor keeps the memory alive
    assert int(n.sum()) == 3000


def test_export_waits_for_the_launch_that_writes_it(scale):
    x = arc.to_device(np.arange(4096, dtype=np.float32))
    y = arc.zeros(4096, np.float32)
    scale[8](x, y, 2.0, 4096)                      # asynchronous
    np.testing.assert_array_equal(np.from_dlpack(y), np.arange(4096, dtype=np.float32) * 2)


def test_copy_and_device_requests():
    d = arc.to_device(np.ones(4, np.float32))
    cap = d.__dlpack__(copy=True)                  # a host copy, owned by NumPy
    assert type(cap).__name__ == "PyCapsule"
    with pytest.raises(BufferError, match=r"device \(2, 0\)"):
        d.__dlpack__(dl_device=(2, 0))


def test_versioned_and_legacy_capsules():
    d = arc.to_device(np.ones(4, np.float32))
    assert type(d.__dlpack__()).__name__ == "PyCapsule"
    assert type(d.__dlpack__(max_version=(1, 0))).__name__ == "PyCapsule"
    np.testing.assert_array_equal(np.from_dlpack(d), np.ones(4))


class Interface:
    """An object that only exports __array_interface__ (no buffer, no DLPack)."""

    def __init__(self, a):
        self._a = a
        self.__array_interface__ = a.__array_interface__


class DLPackOnly:
    """An object that only exports DLPack."""

    def __init__(self, a):
        self._a = a

    def __dlpack__(self, **kw):
        return self._a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


@pytest.mark.parametrize("wrap", [Interface, DLPackOnly], ids=["array_interface", "dlpack"])
def test_kernels_take_exporters_as_inputs_and_outputs(scale, wrap):
    x = np.arange(256, dtype=np.float32)
    y = np.zeros(256, np.float32)
    scale[4](wrap(x), wrap(y), 3.0, 256)
    np.testing.assert_array_equal(y, x * 3)


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_exporter_dtype_checked_against_typed_pointer(scale, dtype):
    """Named as passed (module and type: 'a torch.Tensor of float64' for a
    tensor), not as the ndarray it is viewed through."""
    with pytest.raises(TypeError, match=r"argument 'x' \(__gm__ float \*\) got a (\w+\.)*DLPackOnly of "
                                        + np.dtype(dtype).name + "; expected float32 elements"):
        scale[1](DLPackOnly(np.zeros(4, dtype)), np.zeros(4, np.float32), 1.0, 4)


def test_kernel_writes_into_another_device_arrays_export(scale):
    x = arc.to_device(np.arange(64, dtype=np.float32))
    out = np.zeros(64, np.float32)
    scale[2](np.from_dlpack(x), out, 0.5, 64)      # a DLPack view of a device array as a host input
    np.testing.assert_array_equal(out, np.arange(64, dtype=np.float32) * 0.5)


def test_non_exporters_are_refused_with_the_parameter_named(scale):
    with pytest.raises(TypeError, match=r"argument 'x' .* got list; expected a device array or ndarray \(or an "
                                        r"object exporting DLPack"):
        scale[1]([1.0, 2.0], np.zeros(2, np.float32), 1.0, 2)
