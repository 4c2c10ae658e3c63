"""Device API on dav-3510: DataCopy's multi-dimensional GM -> UB form
(NDDMA, arc/nddma.h) in the five scenarios its API page documents
(constant padding, nearest-value padding, transpose, broadcast, slice),
the older MultiCopy* names opbase uses, and its checks; against NumPy."""
import numpy as np
import pytest

import ascendrtc as arc

KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void nd_%(name)s(GM_ADDR x, GM_ADDR y)
{
    using namespace AscendC;
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, %(nin)d);
    yg.SetGlobalBuffer((__gm__ float *)y, %(nout)d);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, %(nout)d * sizeof(float));
    LocalTensor<float> t = b.Get<float>();
    %(loop)s
    %(params)s
    NdDmaDci();
    static constexpr NdDmaConfig cfg = {%(nearest)s};
    DataCopy<float, 2, cfg>(t, xg, p);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, t, %(nout)d);
}
"""
# name: (input shape, output shape, loop info, nearest, NumPy reference from x)
SCENARIOS = {
    "pad": ((16, 32), (32, 64), "{{1, 32}, {1, 64}, {32, 16}, {15, 13}, {17, 3}}", False,
            lambda x: np.pad(x, ((13, 3), (15, 17)), constant_values=0.0)),
    "nearest": ((28, 15), (32, 32), "{{1, 15}, {1, 32}, {15, 28}, {11, 3}, {6, 1}}", True,
                lambda x: np.pad(x, ((3, 1), (11, 6)), mode="edge")),
    "transpose": ((16, 64), (64, 16), "{{1, 64}, {16, 1}, {64, 16}, {0, 0}, {0, 0}}", False, lambda x: x.T),
    "broadcast": ((1, 16), (3, 16), "{{1, 0}, {1, 16}, {16, 3}, {0, 0}, {0, 0}}", False,
                  lambda x: np.broadcast_to(x, (3, 16))),
    "slice": ((32, 64), (16, 16), "{{1, 64}, {1, 16}, {16, 16}, {0, 0}, {0, 0}}", False, lambda x: x[:16, :16]),
}


def source(name, nin, nout, loop, nearest, old_names=False):
    if old_names:   # opbase's names for the same structs
        decl = "MultiCopyLoopInfo<2> li%s; MultiCopyParams<float, 2> p = {li, 0.0f};" % loop
    else:
        decl = "NdDmaLoopInfo<2> li%s; NdDmaParams<float, 2> p{li, 0.0f};" % loop
    return KERNEL % {"name": name, "nin": nin, "nout": nout, "loop": "", "params": decl,
                     "nearest": "true" if nearest else ""}


def run(name, src, x, nout):
    y = np.full(nout, -7.0, np.float32)
    k = arc.Program(src, name + ".asc").compile(["--npu-arch=dav-3510"]).load().get_kernel("nd_" + name)
    k[1](x.ravel(), y)
    arc.synchronize()
    return y


@pytest.mark.parametrize("old_names", [False, True], ids=["NdDma", "MultiCopy"])
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_documented_scenarios(name, old_names):
    ishape, oshape, loop, nearest, ref = SCENARIOS[name]
    x = np.arange(np.prod(ishape), dtype=np.float32).reshape(ishape) + 1
    y = run(name, source(name, x.size, int(np.prod(oshape)), loop, nearest, old_names), x, int(np.prod(oshape)))
    np.testing.assert_array_equal(y.reshape(oshape), ref(x))


def test_a_read_past_the_source_is_refused_then_a_good_copy_runs():
    """Slice rows 32 apart from a 16 x 64 source (rows 16.. lie past it)."""
    x = np.arange(16 * 64, dtype=np.float32)
    src = source("past", x.size, 256, "{{1, 128}, {1, 16}, {16, 16}, {0, 0}, {0, 0}}", False)
    with pytest.raises(arc.AclError, match=r"AscendC::DataCopy \(NDDMA\)"):
        run("past", src, x, 256)
    y = run("slice", source("slice", 32 * 64, 256, SCENARIOS["slice"][2], False),
            np.arange(32 * 64, dtype=np.float32), 256)
    np.testing.assert_array_equal(y.reshape(16, 16), np.arange(32 * 64, dtype=np.float32).reshape(32, 64)[:16, :16])


def test_a_zero_loop_size_names_the_dimension():
    src = source("zero", 64, 64, "{{1, 8}, {1, 8}, {8, 0}, {0, 0}, {0, 0}}", False)
    with pytest.raises(arc.AclError, match=r"loopSize\[1\] = 0 is outside \[1, 2\^20\)"):
        run("zero", src, np.zeros(64, np.float32), 64)
