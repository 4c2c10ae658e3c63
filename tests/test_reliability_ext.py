"""Small extension bugs that lost errors or memory: the backend's load
error leaked two objects per call; a DeviceArray (or Module) freed while a
failed launch was still queued swallowed the launch's error in its implicit
sync; ``ctype(np.float32)`` (a scalar type, not a dtype) raised TypeError."""
import os
import subprocess
import sys

import numpy as np
import pytest

import ascendrtc as arc
from helpers.faults import greedy, still_works

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_backend_that_cannot_load_leaks_nothing_per_error(tmp_path):
    code = r'''
import sys
import ascendrtc as arc
from ascendrtc import _C
def fail():
    try:
        _C.compiler_fingerprint()
    except arc.AclError as e:
        assert e.code == 100001 and e.name == "ACL_ERROR_UNINITIALIZE", (e.code, e.name)
        return
    raise SystemExit("no error")
for _ in range(200):
    fail()
before = sys.getallocatedblocks()
for _ in range(5000):
    fail()
print(sys.getallocatedblocks() - before)
'''
    env = dict(os.environ, ASCENDRTC_SIM_HOME=str(tmp_path / "no-home"), PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout.strip()) < 1000          # two leaked objects per error were 10000 blocks


def test_freeing_a_device_array_keeps_the_failed_launchs_error():
    x = arc.zeros(8, np.float32)
    greedy()[8](x, 1 << 24)                       # asynchronous: fails on the device
    del x                                         # its dealloc syncs and meets the error ...
    with pytest.raises(arc.LaunchError, match="InitBuffer"):
        arc.synchronize()                         # ... which the next sync raises
    arc.synchronize()                             # once
    still_works()


def test_the_kept_error_surfaces_at_the_next_get():
    x = arc.zeros(8, np.float32)
    y = arc.zeros(8, np.float32)
    greedy()[8](x, 1 << 24)
    greedy()[8](y, 64)
    del x
    with pytest.raises(arc.LaunchError, match="InitBuffer"):
        y.get()
    assert y.get().shape == (8,)
    still_works()


@pytest.mark.parametrize("t", [np.float32, np.float16, np.int32, np.dtype("int8"), "float32", np.zeros(2, np.int16)])
def test_ctype_takes_scalar_types_dtypes_names_and_arrays(t):
    want = {"float32": "float", "float16": "half", "int32": "int32_t", "int8": "int8_t", "int16": "int16_t"}
    name = np.dtype(getattr(t, "dtype", t) if not isinstance(t, type) else t).name
    assert arc.ctype(t) == want[name]


def test_ctype_of_a_non_dtype_names_it():
    with pytest.raises(TypeError, match="dtype"):
        arc.ctype(object())
    with pytest.raises(TypeError, match="complex128 has no Ascend C scalar type"):
        arc.ctype(np.complex128)


def test_a_zero_size_shape_numpy_cannot_hold_is_refused():
    """(0, 2**62, 4) has no elements but strides past 2**63: NumPy refuses it, so does DeviceArray."""
    with pytest.raises(ValueError, match="shape too large"):
        arc.empty((0, 2**62, 4), np.float32)
    a = arc.empty((0, 4), np.float32)
    with pytest.raises(ValueError, match="cannot reshape"):
        a.reshape(0, 2**62)
    assert a.reshape(4, 0).get().shape == (4, 0)


# ---- item 5: size computations from user input are overflow-checked ----

def test_tiling_sizes_that_used_to_wrap_are_refused():
    from ascendrtc import adv_tiling as T
    with pytest.raises(ValueError, match="more than 2\\^32 - 1 elements"):
        T.confusion_transpose_tiling([2**31, 2**31, 4, 1], 2, 1)   # the product wrapped to 0
    with pytest.raises(ValueError, match="type_size"):
        T.softmax_tiling([8, 64], 2**32 + 2)                     # was read as 2
    with pytest.raises(ValueError, match="kind"):
        T.confusion_transpose_tiling([1, 1, 16, 16], 2, 2**32 + 1)
    with pytest.raises(ValueError, match="original H"):
        T.layernorm_tiling([1, 8, 64], 4, original_h=2**32 + 16)  # was truncated to 16
    assert len(T.confusion_transpose_tiling([1, 2, 16, 16], 2, 1)) > 0   # a good one still works
