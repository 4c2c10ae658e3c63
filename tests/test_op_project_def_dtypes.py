"""An op's definition, not the kernel's casts, says what its tensors hold:
GE allocates them as the definition says and the kernel gets addresses, so
CANN builds and runs a kernel that writes an output through a pointer of
another element type (the samples' GroupBarrier writes its float16 output
through int32_t *).  ascendrtc runs it too, with a warning naming both
types, where a plain kernel launch would refuse the array."""
import warnings

import numpy as np
import pytest

import ascendrtc as arc
from helpers.op_projects import files_of


@pytest.fixture(scope="module")
def bits_out():
    """AddSplit whose definition declares z an integer of x's size while the
    kernel writes x + y into it as x's float type: z holds the sum's bits."""
    files = files_of("AddSplit")
    host = files["op_host/add_split.cpp"]
    host = host.replace('this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT})',
                        'this->Output("z").ParamType(REQUIRED).DataType({ge::DT_INT16, ge::DT_INT32})')
    host = host.replace("context->SetOutputDataType(0, context->GetInputDataType(0));",
                        "context->SetOutputDataType(0, context->GetInputDataType(0) == ge::DT_FLOAT ? "
                        "ge::DT_INT32 : ge::DT_INT16);")
    assert "DT_INT32" in host and "ge::DT_INT32 : ge::DT_INT16" in host
    files["op_host/add_split.cpp"] = host
    files["op_kernel/add_split.cpp"] = files["op_kernel/add_split.cpp"].replace("DTYPE_Z", "DTYPE_X")
    return arc.op_project(files)


@pytest.mark.parametrize("dtype,bits", [(np.float32, np.int32), (np.float16, np.int16)])
def test_the_definitions_dtype_wins_with_a_warning(bits_out, dtype, bits):
    rng = np.random.default_rng(5)
    x, y = (rng.standard_normal(8 * 2048).astype(dtype) for _ in range(2))
    with pytest.warns(RuntimeWarning, match=rf"op AddSplit: its definition declares 'z' {np.dtype(bits)}, but "
                                             rf"op_kernel/add_split.cpp uses parameter 'z' as {np.dtype(dtype)} "
                                             rf"elements; the kernel gets the {np.dtype(bits)} tensor's bytes"):
        z = bits_out(x, y)
    assert z.dtype == bits
    np.testing.assert_array_equal(z.view(dtype), x + y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # warned once per kernel, not per call
        np.testing.assert_array_equal(bits_out(x, y).view(dtype), x + y)


def test_a_plain_launch_still_refuses_the_other_type():
    src = ('#include "kernel_operator.h"\n'
           'extern "C" __global__ __aicore__ void k(GM_ADDR z) { ((__gm__ float *)z)[0] = 1.0f; }\n')
    k = arc.Program(src).compile(["--npu-arch=dav-2201"]).load().get_kernel("k")
    with pytest.raises(TypeError, match=r"argument 'z' \(GM_ADDR, used as __gm__ float \*\) got an ndarray of "
                                        r"int16; expected float32 elements"):
        k[1](np.zeros(8, np.int16))
    z = np.zeros(8, np.float32)
    k[1](z)
    assert z[0] == 1.0
