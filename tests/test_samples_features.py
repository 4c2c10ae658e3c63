"""The samples' 2_features programs that are not Matmul-API ones (those are
in test_samples_matmul_main.py and test_samples_cube.py), run with the race
check on (its default) from a local samples mirror ($ASCEND_SAMPLES_SRC;
skipped without it): issue 30's zero-false-positive sweep over them, and
what the simulator says where it refuses one."""
import os

import numpy as np
import pytest

import ascendrtc as arc
from helpers.samples import sample_path

F = "operator/ascendc/2_features/"


def test_tbufpool_adds_then_subtracts_through_reused_buffer_pools():
    d = sample_path(F + "2_tbufpool")
    with open(os.path.join(d, "op_kernel", "tbufpool_custom.cpp")) as f:
        src = f.read()
    k = arc.Program(src, "tbufpool_custom.cpp").compile(
        ["--npu-arch=dav-2201", "-I" + os.path.join(d, "op_kernel")]).load().get_kernel("tbufpool_custom")
    rng = np.random.default_rng(11)
    x, y = (rng.integers(0, 1000, (8, 256)).astype(np.float32) for _ in range(2))
    z = np.full((8, 256), np.nan, np.float32)
    k[1](x, y, z, np.array([x.size], np.uint32).tobytes())     # main.cpp: one core, TbufPoolTilingData by value
    np.testing.assert_array_equal(z, np.vstack((x[:4] + y[:4], x[4:] - y[4:])))


def test_group_barrier_arrivals_release_the_waiters(capfd):
    # InitOutput's same-value zero fill from all 8 blocks before SyncAll is
    # not a race; 2 blocks atomically add 12 each, then arrive; 6 wait and print.
    op = arc.op_project(sample_path(F + "16_group_barrier/GroupBarrier"))
    with pytest.warns(RuntimeWarning, match=r"declares 'out' float16, but op_kernel/group_barrier.cpp uses "
                                             r"parameter 'out' as int32 elements"):
        out = op(np.zeros((8, 2048), np.float16))
    assert out.view(np.int32).ravel()[0] == 24
    assert capfd.readouterr().out.count("OUTPUT = 24") == 6


def test_tiling_sink_registers_its_tiling_and_the_kernels_mix_overrun_is_named():
    # DEVICE_IMPL_OP_OPTILING: CANN runs this tiling on the device at launch,
    # ascendrtc on the host at launch, with the same inputs.
    op = arc.op_project(sample_path(F + "17_tiling_sink/AddCustomTilingSink/AddCustomTilingSink"))
    rng = np.random.default_rng(12)
    x, y = (rng.standard_normal((6, 64)).astype(np.float32) for _ in range(2))
    assert op.tiling(x, y).block_dim == 8
    # The kernel forces MIX 1:2 on 8 AI cores: its 16 AIVs split the data by
    # GetBlockNum() (8), so AIVs 8..15 read past x -- unnoticed on an NPU.
    # (which of them reports first depends on the host threads' timing)
    with pytest.raises(arc.LaunchError, match=r"add_custom_tiling_sink block [4-7]/8 \(AIV [01]: GetBlockIdx\(\) = "
                                              r"(8|9|1[0-5])\): AscendC::DataCopy: (?=.*\(kernel parameter [01] '[xy]'\))"
                                              r"(?=.*(past its end|past the end of the allocation))"):
        op(x, y)
    assert op.tiling(x, y).block_dim == 8                            # the process and the op live on


def test_cube_group_is_refused_as_not_modelled():
    op = arc.op_project(sample_path(F + "12_cube_group/CubeGroupCustom"))
    rng = np.random.default_rng(13)
    a, b = rng.uniform(-1, 1, (1024, 256)).astype(np.float16), rng.uniform(-1, 1, (256, 640)).astype(np.float16)
    bias = rng.uniform(-1, 1, 640).astype(np.float32)
    with pytest.raises(arc.LaunchError, match=r"CreateCubeResGroup: cube resource groups .* are not modelled"):
        op(a, b, bias, out_shapes=[(1024, 640)])
