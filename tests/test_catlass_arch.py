"""CATLASS (hicann/catlass) picks its kernels by CATLASS_ARCH: a build for
an arch the simulated NPU cannot run (Ascend 950's 3510: no dav-3510 cube
yet), an unknown one, or Atlas A2's with another --npu-arch stops at once
with the reason (csrc/device/arc/catlass_arch.h), not deep in CATLASS's
templates; the next compile is fine."""
import pytest

import ascendrtc as arc

KERNEL = '#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n'


@pytest.mark.parametrize("opts, msg", [
    (["--npu-arch=dav-3510", "-DCATLASS_ARCH=3510"], "CATLASS built for Ascend 950 (CATLASS_ARCH=3510): the simulated "
                                                     "dav-3510 has no cube unit yet"),
    (["--npu-arch=dav-3510", "-DCATLASS_ARCH=2201"], "CATLASS built for Atlas A2 (CATLASS_ARCH=2201) but compiled for "
                                                     "another arch: pass --npu-arch=dav-2201"),
    (["--npu-arch=dav-2201", "-DCATLASS_ARCH=1001"], "CATLASS_ARCH must be 2201 (Atlas A2) or 3510 (Ascend 950)"),
])
def test_catlass_for_an_arch_the_simulator_cannot_run_is_a_clear_error(opts, msg):
    with pytest.raises(arc.CompileError) as ei:
        arc.Program(KERNEL, "catlass_arch.cpp").compile(opts)
    assert msg in ei.value.log, ei.value.log
    arc.Program(KERNEL, "catlass_arch.cpp").compile(["--npu-arch=dav-2201", "-DCATLASS_ARCH=2201"])   # fine
