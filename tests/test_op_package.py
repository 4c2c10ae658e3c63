"""Op packages built with CANN's ASC CMake functions (npu_op_library(...
TILING ...), npu_op_kernel_sources(... OP_TYPE ... KERNEL_FILE ...)): op_project
reads the package's CMake for its host sources and each op's kernel, whether
they sit side by side or in op_host/<op>/ and op_kernel/<op>/ (asc-devkit's
99_acl_based/00_acl_compilation).  The packages here are the tests' own."""
import os
import textwrap

import numpy as np
import pytest

import ascendrtc as arc

TILING_H = """\
#pragma once
#include <cstdint>
struct ScalePkgTilingData {
    uint32_t totalLength;
    float scale;
};
"""

HOST = """\
#include "scale_pkg_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ScalePkgTilingData *t = context->GetTilingData<ScalePkgTilingData>();
    t->totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    t->scale = *context->GetAttrs()->GetAttrPointer<float>(0);
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    // 2026's names: CalcTschNumBlocks, SetSimdNumBlocks
    context->SetSimdNumBlocks(plat.CalcTschNumBlocks(4, 0, plat.GetCoreNumAiv()));
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
namespace ops {
class ScalePkg : public OpDef {
public:
    explicit ScalePkg(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(2.0f);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b").AddConfig("ascend950");
    }
};
OP_ADD(ScalePkg);
} // namespace ops
"""

KERNEL = """\
#include "kernel_operator.h"
#include "scale_pkg_tiling.h"
extern "C" __global__ __aicore__ void scale_pkg(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(ScalePkgTilingData);
    GET_TILING_DATA(t, tiling);
    uint32_t n = t.totalLength / AscendC::GetBlockNum();
    AscendC::GlobalTensor<DTYPE_X> xg;
    AscendC::GlobalTensor<DTYPE_Z> zg;
    xg.SetGlobalBuffer((__gm__ DTYPE_X *)x + n * AscendC::GetBlockIdx(), n);
    zg.SetGlobalBuffer((__gm__ DTYPE_Z *)z + n * AscendC::GetBlockIdx(), n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(DTYPE_X));
    AscendC::LocalTensor<DTYPE_X> v = buf.Get<DTYPE_X>();
    AscendC::DataCopy(v, xg, n);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Muls(v, v, (DTYPE_X)t.scale, n);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(zg, v, n);
}
"""

FLAT_CMAKE = """\
cmake_minimum_required(VERSION 3.16.0)
project(pkg)
find_package(ASC REQUIRED)
npu_op_package(mine TYPE RUN)
file(GLOB host_ops_srcs ${CMAKE_CURRENT_SOURCE_DIR}/scale_pkg_host.cpp)
npu_op_library(cust_optiling TILING ${host_ops_srcs})
npu_op_kernel_library(ascendc_kernels SRC_BASE ${CMAKE_CURRENT_SOURCE_DIR}/ TILING_LIBRARY cust_optiling)
npu_op_kernel_sources(ascendc_kernels OP_TYPE ScalePkg KERNEL_FILE scale_pkg_kernel.cpp)
"""


def _write(root, files):
    for rel, text in files.items():
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(textwrap.dedent(text))
    return str(root)


def test_flat_package_runs_against_numpy(tmp_path):
    # host, kernel and tiling header side by side; an op-API source beside them is not host code
    root = _write(tmp_path, {"CMakeLists.txt": FLAT_CMAKE, "scale_pkg_tiling.h": TILING_H,
                             "scale_pkg_host.cpp": HOST, "scale_pkg_kernel.cpp": KERNEL,
                             "aclnn_scale_pkg.cpp": "#error not host tiling code\n"})
    op = arc.op_project(root)
    assert op.op_type == "ScalePkg" and op.kernel_file == "op_kernel/scale_pkg_kernel.cpp"
    x = np.random.default_rng(1).standard_normal(4 * 512).astype(np.float32)
    np.testing.assert_array_equal(op(x, scale=3.0), x * np.float32(3.0))
    np.testing.assert_array_equal(op(x), x * np.float32(2.0))  # the attribute's default
    h = x.astype(np.float16)
    np.testing.assert_array_equal(op(h, scale=0.5), h * np.float16(0.5))


def test_structured_package_names_each_kernel(tmp_path):
    # op_host/<op>/ and op_kernel/<op>/ with kernel files not named <op>.cpp: only the CMake says which
    cm_host = "file(GLOB host_ops_srcs scale_pkg/scale_pkg_host.cpp)\nnpu_op_library(cust_optiling TILING ${host_ops_srcs})\n"
    cm_kernel = ("npu_op_kernel_sources(ascendc_kernels OP_TYPE ScalePkg KERNEL_DIR scale_pkg "
                 "KERNEL_FILE scale_pkg_kernel.cpp)\nnpu_op_kernel_library(ascendc_kernels SRC_BASE "
                 "${CMAKE_CURRENT_SOURCE_DIR} TILING_LIBRARY cust_optiling)\n")
    root = _write(tmp_path, {
        "CMakeLists.txt": "find_package(ASC REQUIRED)\nadd_subdirectory(op_host)\nadd_subdirectory(op_kernel)\n",
        "op_host/CMakeLists.txt": cm_host, "op_kernel/CMakeLists.txt": cm_kernel,
        "op_host/scale_pkg/scale_pkg_host.cpp": HOST.replace('"scale_pkg_tiling.h"',
                                                             '"../../op_kernel/scale_pkg/scale_pkg_tiling.h"'),
        "op_kernel/scale_pkg/scale_pkg_tiling.h": TILING_H,
        "op_kernel/scale_pkg/scale_pkg_kernel.cpp": KERNEL,
        "op_kernel/scale_pkg/other_kernel.cpp": "#error not this op's kernel\n"})
    op = arc.op_project(root)
    assert op.kernel_file == "op_kernel/scale_pkg/scale_pkg_kernel.cpp"
    x = np.arange(4 * 256, dtype=np.float32)
    np.testing.assert_array_equal(op(x, scale=-1.5), x * np.float32(-1.5))


def test_package_kernel_named_but_missing_is_named(tmp_path):
    root = _write(tmp_path, {"CMakeLists.txt": FLAT_CMAKE.replace("scale_pkg_kernel.cpp", "gone_kernel.cpp"),
                             "scale_pkg_tiling.h": TILING_H, "scale_pkg_host.cpp": HOST})
    with pytest.raises(arc.OpProjectError, match=r"op ScalePkg \(CMakeLists.txt\): npu_op_kernel_sources names "
                       r"op_kernel/gone_kernel\.cpp as the op's kernel"):
        arc.op_project(root)


DEVKIT = os.environ.get("ASC_DEVKIT_SRC")
PKG = "examples/01_simd_cpp_api/02_features/99_acl_based/00_acl_compilation"


@pytest.mark.skipif(not DEVKIT or not os.path.isdir(os.path.join(DEVKIT or "", PKG)),
                    reason="needs a work tree of CANN's asc-devkit in $ASC_DEVKIT_SRC")
def test_devkit_packages_run_against_numpy():
    rng = np.random.default_rng(7)
    x = rng.standard_normal(8 * 2048).astype(np.float16)
    y = rng.standard_normal(8 * 2048).astype(np.float16)
    for d in ("custom_op", "custom_op_static_lib/op", "parallel_ops_package/add_custom"):
        op = arc.op_project(os.path.join(DEVKIT, PKG, d), op_type="AddCustom")
        np.testing.assert_array_equal(op(x, y), x + y)
    lr = arc.op_project(os.path.join(DEVKIT, PKG, "custom_op"), op_type="LeakyReluCustom")
    xf = rng.standard_normal(8 * 2048).astype(np.float32)
    np.testing.assert_allclose(lr(xf, negative_slope=0.1), np.where(xf >= 0, xf, xf * np.float32(0.1)), rtol=1e-6)
