"""A kernel file that names g_coreType (or a __DAV_CUBE__/__DAV_VEC__ side
macro) is compiled once per side, as CANN's compiler compiles every file:
g_coreType is AscendC::AIC in the code an AIC runs and AscendC::AIV in the
code an AIV runs (a constant: `if constexpr`, a template's default
argument, as CATLASS's kernels choose their body), and the kernel type is
inferred from both sides' code.  A name only in a header on disk is found
too (the file is compiled again per side)."""
import numpy as np

import ascendrtc as arc
from helpers import dev

SIDES = r'''
#include "kernel_operator.h"
using namespace AscendC;

template <int32_t CORE = g_coreType> __aicore__ inline void Mark(GM_ADDR aic, GM_ADDR aiv);
template <> __aicore__ inline void Mark<AIC>(GM_ADDR aic, GM_ADDR)
{
    ((__gm__ int32_t *)aic)[GetBlockIdx()] = g_coreType * 10 + 1;
}
template <> __aicore__ inline void Mark<AIV>(GM_ADDR, GM_ADDR aiv)
{
    ((__gm__ int32_t *)aiv)[GetBlockIdx()] = g_coreType * 10 + 2;
}

extern "C" __global__ __aicore__ void sides(GM_ADDR aic, GM_ADDR aiv, GM_ADDR macros)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    Mark(aic, aiv);
#if defined(__DAV_CUBE__) && defined(__DAV_C220_CUBE__) && !defined(__DAV_VEC__)
    if constexpr (g_coreType == AIC) if (GetBlockIdx() == 0) ((__gm__ int32_t *)macros)[0] = 1;
#endif
#if defined(__DAV_VEC__) && defined(__DAV_C220_VEC__) && !defined(__DAV_CUBE__)
    if constexpr (g_coreType == AIV) if (GetBlockIdx() == 0) ((__gm__ int32_t *)macros)[1] = 1;
#endif
}
'''


def test_each_side_runs_its_own_pass():
    k = dev.load(SIDES, "sides.cpp").get_kernel("sides")
    aic = np.zeros(4, np.int32)
    aiv = np.zeros(8, np.int32)
    macros = np.zeros(2, np.int32)
    k[4](aic, aiv, macros)
    arc.synchronize()
    assert (aic == 11).all(), aic            # AscendC::AIC == 1 on every AIC
    assert (aiv == 22).all(), aiv            # AscendC::AIV == 2 on both AIVs of every block
    assert (macros == 1).all(), macros       # each pass sees its own side macro only


# The kernel type of a file compiled per side: CANN infers it from both
# sides' code; here the AIV side's code is empty, so cube work alone: AIC only.
CUBE_SIDE = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void cube_side(GM_ADDR out)
{
    if constexpr (g_coreType == AIC) {
        TPipe pipe;
        TBuf<TPosition::CO1> c;
        pipe.InitBuffer(c, 1024);
        LocalTensor<float> l0c = c.Get<float>();
        LocalTensor<half> a, b;
        (void)l0c; (void)a; (void)b;
        ((__gm__ int32_t *)out)[GetBlockIdx()] = 7;
        if (GetBlockIdx() < 0) Mmad(l0c, a, b, MmadParams(16, 16, 16, 0, false, true));
    }
}
'''


def test_kernel_type_from_both_sides(tmp_path):
    b = arc.Program(CUBE_SIDE, "cube_side.cpp").compile(["--npu-arch=dav-2201"])
    (k,) = b.meta.kernels
    assert k.ktype == 1, k.ktype             # KERNEL_TYPE_AIC_ONLY
    out = np.zeros(3, np.int32)
    b.load().get_kernel("cube_side")[3](out)
    arc.synchronize()
    assert (out == 7).all(), out


def test_a_header_on_disk_naming_g_coretype(tmp_path):
    (tmp_path / "side.h").write_text(
        "#pragma once\n#include \"kernel_operator.h\"\n"
        "__aicore__ inline int32_t Side() { return g_coreType; }\n")
    src = ('#include "side.h"\n'
           'extern "C" __global__ __aicore__ void side(GM_ADDR out)\n'
           '{\n    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);\n'
           '    ((__gm__ int32_t *)out)[AscendC::GetBlockIdx()] = Side();\n}\n')
    mod = arc.Program(src, "side.cpp").compile(["--npu-arch=dav-2201", "-I" + str(tmp_path)]).load()
    out = np.zeros(5, np.int32)
    mod.get_kernel("side")[5](out)
    arc.synchronize()
    assert (out == 2).all(), out             # AscendC::AIV on every AIV


# CATLASS's padding kernels' shape: the AIV side only moves data (GM -> UB
# -> GM, no vector instruction) and the AIC side waits for it, then uses
# the cube.  CANN's compiler finds the copies in the vector binary, so the
# kernel is MIX and both sides run (an AIC-only launch would read a
# workspace nobody wrote).
STAGED = r'''
#include "kernel_operator.h"
using namespace AscendC;
template <int32_t CORE = g_coreType> __aicore__ inline void Stage(GM_ADDR x, GM_ADDR ws, GM_ADDR y);
template <> __aicore__ inline void Stage<AIV>(GM_ADDR x, GM_ADDR ws, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 64 * sizeof(int32_t));
    LocalTensor<int32_t> t = b.Get<int32_t>();
    GlobalTensor<int32_t> gx, gw;
    gx.SetGlobalBuffer((__gm__ int32_t *)x + GetBlockIdx() * 64);
    gw.SetGlobalBuffer((__gm__ int32_t *)ws + GetBlockIdx() * 64);
    DataCopy(t, gx, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gw, t, 64);
    CrossCoreSetFlag<2, PIPE_MTE3>(1);
}
template <> __aicore__ inline void Stage<AIC>(GM_ADDR x, GM_ADDR ws, GM_ADDR y)
{
    CrossCoreWaitFlag(1);
    GlobalTensor<int32_t> gw, gy;
    gw.SetGlobalBuffer((__gm__ int32_t *)ws);
    gy.SetGlobalBuffer((__gm__ int32_t *)y);
    const int32_t b = GetBlockIdx();
    for (int32_t j = 0; j < 128; j++)
        gy.SetValue(b * 128 + j, gw.GetValue(b * 128 + j) * 3);
    if (b < 0) { /* cube work the compiler sees; never run */
        TPipe pipe;
        TBuf<TPosition::CO1> c;
        pipe.InitBuffer(c, 1024);
        LocalTensor<half> l0a, l0b;
        Mmad(c.Get<float>(), l0a, l0b, MmadParams(16, 16, 16, 0, false, true));
    }
}
extern "C" __global__ __aicore__ void staged(GM_ADDR x, GM_ADDR ws, GM_ADDR y) { Stage(x, ws, y); }
'''


def test_aiv_side_that_only_copies_makes_the_kernel_mix():
    b = arc.Program(STAGED, "staged.cpp").compile(["--npu-arch=dav-2201"])
    (k,) = b.meta.kernels
    assert k.ktype == 5, (k.ktype, k.uses)   # KERNEL_TYPE_MIX_AIC_1_2 (cube on the AIC, UB copies on the AIV)
    n = 3
    x = np.arange(n * 128, dtype=np.int32) - 50
    ws = np.zeros_like(x)
    y = np.zeros_like(x)
    b.load().get_kernel("staged")[n](x, ws, y)
    arc.synchronize()
    np.testing.assert_array_equal(y, 3 * x)
