"""The Tensor API's bad input: each refused with the API, the values and
the kernel's source line -- a slice out of range or off a fractal
boundary, a tensor in the wrong memory for the copy, an Mmad over L0A
fractals no copy wrote (the C++ API's check, reached through Te), and the
header on dav-2201 (L0C -> UB outside a MIX kernel: test_tensor_api_ub)."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r'''#include "tensor_api/tensor.h"
using namespace AscendC::Te;
extern "C" __global__ __cube__ void slice_past(__gm__ half *a)
{
    auto g = MakeTensor(MakeMemPtr(a), MakeFrameLayout<NDExtLayoutPtn>(32, 48));
    auto s = g.Slice(MakeCoord(0, 32), MakeShape(32, 32));   // columns 32..63 of 48
    (void)s;
}
extern "C" __global__ __cube__ void slice_off_fractal(__gm__ half *a)
{
    __cbuf__ half l1[32 * 48];
    auto t = MakeTensor(MakeMemPtr(l1), MakeFrameLayout<NZLayoutPtn>(32, 48));
    auto s = t.Slice(MakeCoord(8, 0), MakeShape(16, 16));    // row 8 is inside a fractal
    (void)s;
}
extern "C" __global__ __cube__ void wrong_memory(__gm__ half *a, __gm__ half *b)
{
    auto ga = MakeTensor(MakeMemPtr(a), MakeFrameLayout<NDExtLayoutPtn>(16, 16));
    auto gb = MakeTensor(MakeMemPtr(b), MakeFrameLayout<NZLayoutPtn>(16, 16));
    Copy(MakeCopy(CopyGM2L1{}), gb, ga);                     // dst in GM
}
extern "C" __global__ __cube__ void unloaded(__gm__ half *a, __gm__ half *b)
{
    __cbuf__ half l1a[16 * 64];
    __cbuf__ half l1b[64 * 16];
    __ca__ half l0a[16 * 64];
    __cb__ half l0b[64 * 16];
    __cc__ float l0c[16 * 16];
    auto tA1 = MakeTensor(MakeMemPtr(l1a), MakeFrameLayout<NZLayoutPtn>(16, 64));
    auto tB1 = MakeTensor(MakeMemPtr(l1b), MakeFrameLayout<NZLayoutPtn>(64, 16));
    auto tA0 = MakeTensor(MakeMemPtr(l0a), MakeFrameLayout<NZLayoutPtn>(16, 64));
    auto tB0 = MakeTensor(MakeMemPtr(l0b), MakeFrameLayout<ZNLayoutPtn>(64, 16));
    auto tC = MakeTensor(MakeMemPtr(l0c), MakeFrameLayout<NZLayoutPtn>(16, 16));
    Copy(MakeCopy(CopyGM2L1{}), tA1, MakeTensor(MakeMemPtr(a), MakeFrameLayout<NDExtLayoutPtn>(16, 64)));
    Copy(MakeCopy(CopyGM2L1{}), tB1, MakeTensor(MakeMemPtr(b), MakeFrameLayout<NDExtLayoutPtn>(64, 16)));
    AscendC::PipeBarrier<PIPE_ALL>();
    Copy(MakeCopy(CopyL12L0A{}), tA0.Slice(MakeCoord(0, 0), MakeShape(16, 32)),
         tA1.Slice(MakeCoord(0, 0), MakeShape(16, 32)));    // half of K
    Copy(MakeCopy(CopyL12L0B{}), tB0, tB1);
    AscendC::PipeBarrier<PIPE_ALL>();
    Mmad(MakeMmad(MmadOperation{}).with(MmadParams{16, 16, 64, 0, true}), tC, tA0, tB0);
}
'''


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "te_bad.asc").compile(["--npu-arch=dav-3510"]).load()


def line_of(needle):
    return next(i for i, ln in enumerate(SRC.splitlines(), 1) if needle in ln)


def fails(mod, name, *args):
    with pytest.raises(arc.LaunchError) as e:
        mod.get_kernel(name)[1](*args)
        arc.synchronize()
    return e.value


def test_slice_out_of_range_names_the_line(mod):
    e = fails(mod, "slice_past", np.zeros((32, 48), np.float16))
    assert "AscendC::Te::Slice" in str(e) and "mode 2: coordinate 32 + extent 32 exceeds the tensor's 48" in str(e)
    assert (e.file, e.line) == ("te_bad.asc", line_of("columns 32..63"))


def test_slice_off_a_fractal_boundary(mod):
    e = fails(mod, "slice_off_fractal", np.zeros(16, np.float16))
    assert "mode 1: coordinate 8 is not on a fractal boundary (a multiple of 16)" in str(e)
    assert e.line == line_of("row 8 is inside")


def test_copy_checks_each_sides_memory(mod):
    e = fails(mod, "wrong_memory", np.zeros((16, 16), np.float16), np.zeros((16, 16), np.float16))
    assert "CopyGM2L1" in str(e) and "dst is in GM; this path needs it in L1" in str(e)
    assert e.line == line_of("dst in GM")


def test_mmad_over_unloaded_l0a_fractals(mod):
    e = fails(mod, "unloaded", np.ones((16, 64), np.float16), np.ones((64, 16), np.float16))
    assert "AscendC::Mmad" in str(e) and "was never loaded" in str(e)


def test_dav_2201_cannot_include_it():
    with pytest.raises(arc.CompileError, match=r"tensor_api/tensor.h: the Tensor API.*Ascend 950 only"):
        arc.Program(SRC, "te_2201.asc").compile(["--npu-arch=dav-2201"])


def test_the_kernel_type_is_inferred_from_te_copies():
    # no qualifier: CANN's compiler finds the cube copy (here an element-wise ND -> ZN) and makes it AIC only
    src = r'''#include "tensor_api/tensor.h"
using namespace AscendC::Te;
extern "C" __global__ __aicore__ void k(__gm__ half *a)
{
    __cbuf__ half l1[32 * 32];
    Copy(MakeCopy(CopyGM2L1{}), MakeTensor(MakeMemPtr(l1), MakeFrameLayout<ZNLayoutPtn, half>(32, 32)),
         MakeTensor(MakeMemPtr(a), MakeFrameLayout<NDExtLayoutPtn>(32, 32)));
}
'''
    b = arc.Program(src, "te_kt.asc").compile(["--npu-arch=dav-3510"])
    assert [(k.name, k.ktype, k.uses & 3) for k in b.meta.kernels] == [("k", 1, 1)]  # AIC only, cube uses
