"""The public samples' vector kernels that use Sort32, Fill, level-0
ReduceMin with a mask array, LocalMemAllocator and ListTensorDesc, compiled
unchanged from the local samples mirror and run against NumPy references
written here.  Skipped without ASCEND_SAMPLES_SRC (see helpers/samples.py)."""
import os

import numpy as np
import pytest

import ascendrtc as arc
from helpers.samples import sample_path

INTRO = "operator/ascendc/0_introduction/"


def load(rel):
    path = sample_path(rel)
    with open(path) as f:
        src = f.read()
    opts = ["--npu-arch=dav-2201", "-I" + os.path.dirname(path)]
    return arc.Program(src, os.path.basename(path)).compile(opts).load()


def run(mod, name, blocks, *args):
    mod.get_kernel(name)[blocks](*args)
    arc.synchronize()


def test_abs_duplicate_fill_and_masked_tail():
    # 4 cores x 16 rows of 11 halves; Fill zeroes the output, rows are written with atomic adds
    mod = load(INTRO + "16_unaligned_abs_kernellaunch/AbsDuplicateKernelInvocation/abs_duplicate.cpp")
    n = 4 * 16 * 11
    x = np.random.default_rng(0).uniform(-8, 8, n + 16).astype(np.float16)
    y = np.full(n + 16, 5, np.float16)
    run(mod, "abs_duplicate_custom", 4, x, y, np.zeros(4 * 8, np.int32))
    np.testing.assert_array_equal(y[:n], np.abs(x[:n]))


def test_unaligned_reduce_min_mask_array():
    # 16 groups of 4 halves: group g's min lands at 4 g, the rest of the output stays 0 (Fill)
    mod = load(INTRO + "17_unaligned_reducemin_kernellaunch/ReduceMinKernelInvocation/reduce_min.cpp")
    x = np.random.default_rng(1).uniform(-8, 8, 80).astype(np.float16)
    y = np.full(80, 3, np.float16)
    run(mod, "reduce_min_custom", 4, x, y, np.zeros(4 * 8, np.int32))
    want = np.zeros(80, np.float16)
    for g in range(16):
        want[4 * g] = x[4 * g:4 * g + 4].min()
    np.testing.assert_array_equal(y[:76], want[:76])


@pytest.mark.parametrize("k", [4, 8])
def test_moe_softmax_topk_sort32(k):
    mod = load("operator_contrib/MoeSoftMaxTopkCustomSample/KernelLaunch/MoeSoftMaxTopkKernelInvocation/"
               "moe_soft_max_topk.cpp")
    last = 16 if k == 4 else 32
    total = 1024 * 16 if k == 4 else 2048 * 32
    rows = total // last
    x = np.random.default_rng(2).uniform(-3, 3, total).astype(np.float32)
    y = np.zeros(rows * k, np.float32)
    idx = np.zeros(rows * k, np.uint32)
    # the kernel moves the uint32 indices through a float GlobalTensor: say what they hold
    mod.get_kernel("moe_soft_max_topk", dtypes={"indices": np.uint32})[32](x, y, idx, np.uint32(k))
    arc.synchronize()
    e = np.exp(x.reshape(rows, last).astype(np.float64))
    sm = e / e.sum(axis=1, keepdims=True)
    order = np.argsort(-sm, axis=1, kind="stable")[:, :k]
    np.testing.assert_array_equal(idx.reshape(rows, k), order)
    np.testing.assert_allclose(y.reshape(rows, k), np.take_along_axis(sm, order, axis=1), rtol=1e-5)


def test_static_tensor_local_mem_allocator():
    mod = load(INTRO + "23_static_tensor_programming_kernellaunch/KernelLaunch/add_custom_v3.cpp")
    per = 4096 * 2
    rng = np.random.default_rng(3)
    x = rng.standard_normal(8 * per).astype(np.float32)
    y = rng.standard_normal(8 * per).astype(np.float32)
    z = np.zeros_like(x)
    run(mod, "add_custom_v3", 8, x, y, z, np.array([per], np.uint32))
    np.testing.assert_array_equal(z, x + y)


def test_addn_list_tensor_desc():
    mod = load(INTRO + "5_addn_kernellaunch/addn_custom.cpp")
    rng = np.random.default_rng(4)
    a = rng.uniform(-4, 4, (8, 2048)).astype(np.float16)
    b = rng.uniform(-4, 4, (8, 2048)).astype(np.float16)
    da, db = arc.to_device(a), arc.to_device(b)
    desc = np.zeros(1 + 3 * 2 + 2, np.uint64)            # ptrOffset, {dim|index<<32, 8, 2048} x 2, 2 pointers
    desc[0] = (1 + 3 * 2) * 8
    desc[1:4] = [2, 8, 2048]
    desc[4:7] = [2 | (1 << 32), 8, 2048]
    desc[7:9] = [da.ptr, db.ptr]
    z = np.zeros(8 * 2048, np.float16)
    run(mod, "addn_custom", 8, desc, z)
    np.testing.assert_array_equal(z, (a + b).ravel())
