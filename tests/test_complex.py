"""complex32/complex64 (dav-3510's AscendC::Complex<half|float>, the docs'
辅助数据结构 complex32/complex64): the element-wise APIs that list them
(count form), against NumPy's complex arithmetic; what the docs do not list
is refused at compile time; ops with complex64 inputs run from NumPy complex
arrays (issue 28 item 3)."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ascendrtc as arc

HERE = os.path.dirname(os.path.abspath(__file__))
N = 256

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void cx(GM_ADDR x, GM_ADDR y, GM_ADDR o, GM_ADDR a)
{
    constexpr int N = 256;
    GlobalTensor<complex64> xg, yg, og;
    GlobalTensor<float> ag;
    xg.SetGlobalBuffer((__gm__ complex64 *)x, N);
    yg.SetGlobalBuffer((__gm__ complex64 *)y, N);
    og.SetGlobalBuffer((__gm__ complex64 *)o, 6 * N);
    ag.SetGlobalBuffer((__gm__ float *)a, N);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 9 * N * sizeof(complex64));
    LocalTensor<complex64> t = b.Get<complex64>();
    LocalTensor<complex64> lx = t, ly = t[N], r = t[2 * N];
    LocalTensor<float> ab = t[8 * N].ReinterpretCast<float>();
    DataCopy(lx, xg, N);
    DataCopy(ly, yg, N);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Add(r, lx, ly, N);
    Sub(r[N], lx, ly, N);
    Mul(r[2 * N], lx, ly, N);
    Div(r[3 * N], lx, ly, N);
    Muls(r[4 * N], lx, complex64(2.0f, -1.0f), N);
    Adds(r[5 * N], lx, 1.5f, N);   // a real scalar is a complex with no imaginary part
    Abs(ab, lx, N);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(og, r, 6 * N);
    DataCopy(ag, ab, N);
}
'''


def _rand(rng, n):
    return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)


def test_complex64_arithmetic_matches_numpy():
    k = arc.Program(SRC, "cx.asc").compile(["--npu-arch=dav-3510"]).load().get_kernel("cx")
    rng = np.random.default_rng(0)
    x, y = _rand(rng, N), _rand(rng, N)
    o, a = np.zeros(6 * N, np.complex64), np.zeros(N, np.float32)
    k[1](x, y, o, a)
    o = o.reshape(6, N)
    np.testing.assert_array_equal(o[0], x + y)           # one rounding per part: exact
    np.testing.assert_array_equal(o[1], x - y)
    np.testing.assert_array_equal(o[5], x + np.complex64(1.5))
    # products and quotients: each float operation rounded once (the docs give no order)
    np.testing.assert_allclose(o[2], x * y, rtol=1e-6)
    np.testing.assert_allclose(o[3], x / y, rtol=1e-6)
    np.testing.assert_allclose(o[4], x * np.complex64(2 - 1j), rtol=1e-6)
    np.testing.assert_allclose(a, np.abs(x), rtol=1e-6)


def test_complex32_is_two_halves():
    src = r'''
    #include "kernel_operator.h"
    using namespace AscendC;
    extern "C" __global__ __aicore__ void c32(GM_ADDR x, GM_ADDR y, GM_ADDR z)
    {
        static_assert(sizeof(complex32) == 4 && sizeof(complex64) == 8, "sizes");
        GlobalTensor<complex32> xg, yg, zg;
        xg.SetGlobalBuffer((__gm__ complex32 *)x, 128);
        yg.SetGlobalBuffer((__gm__ complex32 *)y, 128);
        zg.SetGlobalBuffer((__gm__ complex32 *)z, 128);
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 3 * 128 * sizeof(complex32));
        LocalTensor<complex32> t = b.Get<complex32>();
        DataCopy(t, xg, 128);
        DataCopy(t[128], yg, 128);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        Sub(t[256], t, t[128], 128);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(zg, t[256], 128);
    }
    '''
    k = arc.Program(src, "c32.asc").compile(["--npu-arch=dav-3510"]).load().get_kernel("c32")
    rng = np.random.default_rng(1)
    x = rng.standard_normal(256).astype(np.float16)    # (real, imag) pairs
    y = rng.standard_normal(256).astype(np.float16)
    z = np.zeros(256, np.float16)
    k[1](x, y, z)
    np.testing.assert_array_equal(z, (x.astype(np.float32) - y.astype(np.float32)).astype(np.float16))


@pytest.mark.parametrize("body,arch,pat", [
    ("Max(t, t, t, 8);", "dav-3510", r"AscendC::Max: complex32/complex64 are not supported"),
    ("Add(t, t, t, (uint64_t)8, 1, {1, 1, 1, 8, 8, 8});", "dav-3510",
     r"AscendC::Add: complex32/complex64 take the count form only"),
])
def test_what_the_docs_do_not_list_is_refused(body, arch, pat):
    src = textwrap.dedent('''
    #include "kernel_operator.h"
    using namespace AscendC;
    extern "C" __global__ __aicore__ void bad(GM_ADDR x)
    {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 1024);
        LocalTensor<complex64> t = b.Get<complex64>();
        %s
    }
    ''') % body
    with pytest.raises(arc.CompileError, match=pat):
        arc.Program(src, "bad.asc").compile(["--npu-arch=" + arch])


def test_complex_on_dav_2201_compiles_and_is_refused_when_it_runs():
    # CANN compiles it; dav-2201 has no complex vector instructions (the type's page: Ascend 950 only)
    src = SRC.replace("void cx(", "void cx2201(")
    k = arc.Program(src, "cx2201.asc").compile(["--npu-arch=dav-2201"]).load().get_kernel("cx2201")
    x = np.zeros(N, np.complex64)
    with pytest.raises(arc.LaunchError, match=r"AscendC::Add: dav-2201 supports int16_t, half, int32_t and float "
                                              r"only.*ran on dav-2201, which cannot execute it"):
        k[1](x, x, np.zeros(6 * N, np.complex64), np.zeros(N, np.float32))


OP_HOST = r'''
#include "register/op_def_registry.h"
namespace optiling {
struct CmulTiling { uint32_t n; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    CmulTiling *t = context->GetTilingData<CmulTiling>();
    t->n = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    context->SetBlockDim(1);
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
namespace ops {
class Cmul : public OpDef {
public:
    explicit Cmul(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_COMPLEX64}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_COMPLEX64}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_COMPLEX64}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend950");
    }
};
OP_ADD(Cmul);
} // namespace ops
'''
OP_KERNEL = r'''
#include "kernel_operator.h"
struct CmulTiling { uint32_t n; };
extern "C" __global__ __aicore__ void cmul(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR ws, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(CmulTiling);
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<DTYPE_X> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ DTYPE_X *)x, t.n);
    yg.SetGlobalBuffer((__gm__ DTYPE_Y *)y, t.n);
    zg.SetGlobalBuffer((__gm__ DTYPE_Z *)z, t.n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 3 * t.n * sizeof(DTYPE_X));
    AscendC::LocalTensor<DTYPE_X> v = b.Get<DTYPE_X>();
    AscendC::DataCopy(v, xg, t.n);
    AscendC::DataCopy(v[t.n], yg, t.n);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Mul(v[2 * t.n], v, v[t.n], t.n);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(zg, v[2 * t.n], t.n);
}
'''
CHILD = r'''
import json, sys
sys.path.insert(0, sys.argv[1])
import numpy as np, ascendrtc as arc
op = arc.op_project(json.loads(sys.argv[2]))
rng = np.random.default_rng(3)
x = (rng.standard_normal(512) + 1j * rng.standard_normal(512)).astype(np.complex64)
y = (rng.standard_normal(512) + 1j * rng.standard_normal(512)).astype(np.complex64)
z = op(x, y)
out = {"dtype": str(z.dtype), "err": float(np.max(np.abs(z - x * y) / np.abs(x * y)))}
try:
    op(x.astype(np.complex128), y.astype(np.complex128))
    out["c128"] = "ran"
except arc.OpProjectError as e:
    out["c128"] = str(e)
print("RESULT " + json.dumps(out))
'''


def test_op_with_complex64_inputs_runs_from_numpy():
    files = {"op_host/cmul.cpp": OP_HOST, "op_kernel/cmul.cpp": OP_KERNEL}
    env = dict(os.environ, ASCENDRTC_SIM_SOC="Ascend950PR_9599")
    r = subprocess.run([sys.executable, "-c", CHILD, os.path.dirname(HERE), json.dumps(files)], env=env,
                       capture_output=True, text=True, timeout=600)
    line = [x for x in r.stdout.splitlines() if x.startswith("RESULT ")]
    assert line, r.stderr[-3000:]
    out = json.loads(line[-1][7:])
    assert out["dtype"] == "complex64" and out["err"] < 1e-6, out
    assert "complex128" in out["c128"] and "complex64" in out["c128"], out["c128"]


def test_an_op_listing_complex128_is_refused_naming_the_ai_cpu():
    files = {"op_host/cmul.cpp": OP_HOST.replace("DT_COMPLEX64", "DT_COMPLEX128"), "op_kernel/cmul.cpp": OP_KERNEL}
    child = CHILD.replace("z = op(x, y)", "z = op(x.astype(np.complex128), y.astype(np.complex128))")
    env = dict(os.environ, ASCENDRTC_SIM_SOC="Ascend950PR_9599")
    r = subprocess.run([sys.executable, "-c", child, os.path.dirname(HERE), json.dumps(files)], env=env,
                       capture_output=True, text=True, timeout=600)
    assert "op Cmul: dtype complex128 has no AI Core kernel type (CANN runs complex128 ops on the AI CPU" in r.stderr, \
        r.stderr[-2000:]
