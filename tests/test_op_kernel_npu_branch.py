"""Kernels compile as CANN's NPU build compiles them: `__CCE_KT_TEST__`
(CANN's CPU-debug build) is not defined, so the kernel scan leaves out the
CPU-debug twin a kernel keeps under it and finds the entry the NPU build
uses (ops-nn's bnll.cpp: a non-template twin under `#ifdef __CCE_KT_TEST__`,
the template entry under `#else`); a native-DataType template parameter
(ASCENDC_TPL_DATATYPE_DECL) is a typename decoded from the tiling key."""
import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc._op_kernel import op_kernel

KEY_H = """#include "ascendc/host_api/tiling/template_argument.h"
ASCENDC_TPL_ARGS_DECL(Scale, ASCENDC_TPL_DATATYPE_DECL(D_T_X, C_DT_FLOAT, C_DT_FLOAT16, ASCENDC_TPL_INPUT(0)),
                      ASCENDC_TPL_UINT_DECL(TWICE, 8, ASCENDC_TPL_UI_LIST, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT, C_DT_FLOAT16),
                                     ASCENDC_TPL_UINT_SEL(TWICE, ASCENDC_TPL_UI_LIST, 0, 1)));
"""

KERNEL = """#include "kernel_operator.h"
#include "scale_key.h"
#ifdef __CCE_KT_TEST__
// CANN's CPU-debug twin: not part of the NPU build
extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {}
#else
template <typename D_T_X, int TWICE>
__global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::GlobalTensor<D_T_X> xg, yg;
    xg.SetGlobalBuffer((__gm__ D_T_X *)x, 256);
    yg.SetGlobalBuffer((__gm__ D_T_X *)y, 256);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 256 * sizeof(D_T_X));
    AscendC::LocalTensor<D_T_X> t = b.Get<D_T_X>();
    AscendC::DataCopy(t, xg, 256);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(t, t, (D_T_X)(TWICE ? 2 : 3), 256);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, t, 256);
}
#endif
"""


def files():
    return {"op_kernel/scale.cpp": KERNEL, "op_kernel/scale_key.h": KEY_H}


@pytest.mark.parametrize("dtype, code", [(np.float32, 0), (np.float16, 1)])
@pytest.mark.parametrize("twice", [0, 1])
def test_the_npu_branch_with_a_typename_template_parameter(dtype, code, twice):
    """Key: D_T_X's position in its list (8 bits), then TWICE's."""
    ok = op_kernel(files(), params=["x", "y"])
    x = (np.arange(256) % 7).astype(dtype)
    y = np.zeros_like(x)
    ok(x, y, block_dim=1, tiling_key=code | twice << 8, key_at="compile")
    arc.synchronize()
    np.testing.assert_array_equal(y, x * (2 if twice else 3))


def test_a_key_whose_dtype_has_no_kernel_type_names_it():
    ok = op_kernel(files(), params=["x", "y"])
    with pytest.raises(arc.CompileError, match="does not decode"):
        ok.kernel({"x": np.float32, "y": np.float32}, tiling_key=2)


CPU_DEBUG = """#include "kernel_operator.h"
#ifndef __CCE_KT_TEST__
extern "C" __global__ __aicore__ void npu(GM_ADDR y) { *(__gm__ int32_t *)y = 1; }
#else
extern "C" __global__ __aicore__ void cpu_debug(GM_ADDR y) { *(__gm__ int32_t *)y = 2; }
#endif
"""


def test_the_device_compile_does_not_define_cce_kt_test():
    assert arc.Program(CPU_DEBUG, "k.asc").compile(["--npu-arch=dav-2201"]).kernel_names == ["npu"]


def test_an_option_defining_it_picks_the_other_branch():
    """-D__CCE_KT_TEST__ is the user's to give: then its group is the one compiled."""
    b = arc.Program(CPU_DEBUG, "k.asc").compile(["--npu-arch=dav-2201", "-D__CCE_KT_TEST__"])
    assert b.kernel_names == ["cpu_debug"]
    y = np.zeros(8, np.int32)
    b.load().get_kernel("cpu_debug")(y, block_dim=1)
    arc.synchronize()
    assert y[0] == 2
