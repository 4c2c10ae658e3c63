"""Raw pointers into a core's cube-side buffers (L0A, L0B, L0C, BiasTable,
Fixpipe buffer) and into a MIX sub-core's UB/L1 are bounded by the arch's
real sizes, like a core's UB and L1: the whole buffer is usable, a store
past its end (or before its start) faults and the launch error names the
buffer and the distance -- never a silent write into a neighbouring buffer
or the heap -- and the next launch works."""
import re

import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc import _C
from helpers.py_kernels import add_kernel, compiled

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;

// Raw byte stores every `step` bytes in [from, to) from the start of a buffer at position P.
template <TPosition P> __aicore__ inline void raw(int64_t from, int64_t to, int64_t step)
{
    TPipe pipe; TBuf<P> buf; pipe.InitBuffer(buf, 512);
    LocalTensor<uint8_t> t = buf.template Get<uint8_t>();
    volatile char *p = (volatile char *)t.GetPhyAddr();
    for (int64_t i = from; i < to; i += step) p[i] = 1;
}

extern "C" __global__ __aicore__ void l0a_raw(GM_ADDR z, int64_t from, int64_t to, int64_t step)
{ KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY); raw<TPosition::A2>(from, to, step); }
extern "C" __global__ __aicore__ void l0b_raw(GM_ADDR z, int64_t from, int64_t to, int64_t step)
{ KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY); raw<TPosition::B2>(from, to, step); }
extern "C" __global__ __aicore__ void l0c_raw(GM_ADDR z, int64_t from, int64_t to, int64_t step)
{ KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY); raw<TPosition::CO1>(from, to, step); }
extern "C" __global__ __aicore__ void bt_raw(GM_ADDR z, int64_t from, int64_t to, int64_t step)
{ KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY); raw<TPosition::C2>(from, to, step); }
extern "C" __global__ __aicore__ void fb_raw(GM_ADDR z, int64_t from, int64_t to, int64_t step)
{ KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY); raw<TPosition::C2PIPE2GM>(from, to, step); }

// A MIX block: the AIVs store raw into their UB, the AIC into its L1.
extern "C" __global__ __aicore__ void mix_raw(GM_ADDR z, int64_t from, int64_t to, int64_t step)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIV { raw<TPosition::VECCALC>(from, to, step); }
    if ASCEND_IS_AIC { raw<TPosition::A1>(0, 512, 64); }
}
'''


@pytest.fixture(scope="module", params=["dav-2201", "dav-3510"])
def mod(request):
    arch = request.param
    return compiled(("local_guards", arch),
                    lambda: arc.Program(SRC, "guards.asc").compile([f"--npu-arch={arch}"]).load())


def still_works():
    x = np.arange(256, dtype=np.float32)
    z = np.zeros_like(x)
    add_kernel(np.float32)[8](x, x, z)
    np.testing.assert_array_equal(z, 2 * x)


def fails(call, pattern):
    with pytest.raises(arc.LaunchError) as ei:
        call()
        arc.synchronize()
    assert ei.value.code == 507015, str(ei.value)
    assert re.search(pattern, str(ei.value)), (pattern, str(ei.value))
    still_works()


BUFFERS = [("l0a_raw", "L0A buffer", 64 * 1024), ("l0b_raw", "L0B buffer", 64 * 1024),
           ("l0c_raw", "L0C buffer", None), ("bt_raw", "BiasTable", None), ("fb_raw", "Fixpipe buffer", 7168)]


@pytest.mark.parametrize("kernel,name,size", BUFFERS, ids=[b[0] for b in BUFFERS])
def test_a_cube_buffer_is_usable_to_its_end_and_guarded_past_it(mod, kernel, name, size):
    if not size:  # the arch's (common/socs.h): L0C, the BiasTable
        size = _C.ARCHS[mod.binary.meta.arch]["l0c" if kernel == "l0c_raw" else "bias_table"]
    z = arc.zeros(8, np.int32)
    k = mod.get_kernel(kernel)
    k[1](z, 0, size, 64)                                       # all of it
    arc.synchronize()
    kib = size >> 10
    fails(lambda: k[1](z, size, size + 1, 1),
          r"%s block 0/1: kernel code: invalid memory access at 0x[0-9a-f]+ \(SIGSEGV\): the address is 0 bytes "
          r"past the end of this core's %s of %d KiB" % (kernel, name, kib))
    fails(lambda: k[1](z, size + 4096, size + 4097, 1), r"4096 bytes past the end of this core's %s" % name)


@pytest.mark.parametrize("kernel,name", [("l0a_raw", "L0A buffer"), ("l0b_raw", "L0B buffer"),
                                         ("l0c_raw", "L0C buffer")])
def test_a_store_before_a_cube_buffer_faults(mod, kernel, name):
    z = arc.zeros(8, np.int32)
    fails(lambda: mod.get_kernel(kernel)[1](z, -64, -63, 1), r"64 bytes before the start of this core's %s" % name)


def test_l0a_runs_into_no_neighbour(mod):
    """Before the guards, L0A's 64 KiB ran straight into L0B."""
    z = arc.zeros(8, np.int32)
    fails(lambda: mod.get_kernel("l0a_raw")[1](z, 64 * 1024, 128 * 1024, 4096), r"past the end of this core's L0A")


def test_mix_sub_cores_ub_is_bounded_by_the_arch(mod):
    z = arc.zeros(8, np.int32)
    k = mod.get_kernel("mix_raw")
    ub = _C.ARCHS[mod.binary.meta.arch]["ub"] >> 10  # KiB
    k[1](z, 0, ub * 1024, 64)
    arc.synchronize()
    fails(lambda: k[1](z, ub * 1024, ub * 1024 + 1, 1),
          r"mix_raw block 0/1 \(AIV( [01]: GetBlockIdx\(\) = [01])?\): kernel code: invalid memory access at 0x[0-9a-f]+ \(SIGSEGV\): the "
          r"address is 0 bytes past the end of this core's unified buffer \(UB\) of %d KiB" % ub)
    fails(lambda: k[1](z, -32, -31, 1), r"32 bytes before the start of this core's unified buffer")
