"""Device API: WholeReduceSum/Max/Min give the same answers on their fast
path (each repeat's active lanes are 0..k-1 with srcBlkStride 1: read as one
contiguous run) and on the lane-by-lane path (gaps in the mask, srcBlkStride
> 1, counter mode), checked bit for bit against a NumPy model of the
pairwise tree the vector unit sums with."""
import numpy as np
import pytest

from helpers import dev

F = np.float32
L = 64  # float lanes per repeat
R = 4   # repeats


def tree_sum(v):
    """Pairwise tree in float32: (0+1), (2+3), ...; an odd last element is
    carried to the next level (reduce.h's documented order)."""
    v = [F(a) for a in v]
    while len(v) > 1:
        nxt = [F(v[2 * i] + v[2 * i + 1]) for i in range(len(v) // 2)]
        if len(v) % 2:
            nxt.append(v[-1])
        v = nxt
    return v[0]


KERNELS = {
    # fast path: prefix masks, adjacent blocks, repeat stride 8 and 16
    "sum_prefix": ([("x", F, 2 * R * L), ("z", F, 64)], "WholeReduceSum(z, x, 37, %d, 1, 1, 16);" % R),
    "max_prefix": ([("x", F, 2 * R * L), ("z", F, 64)],
                   "WholeReduceMax(z, x, 50, %d, 1, 1, 16, ReduceOrder::ORDER_VALUE_INDEX);" % R),
    "min_full": ([("x", F, 2 * R * L), ("z", F, 64)],
                 "WholeReduceMin(z, x, 64, %d, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);" % R),
    # lane-by-lane path: a mask with gaps, and srcBlkStride 2
    "sum_gaps": ([("x", F, 2 * R * L), ("z", F, 64)],
                 "uint64_t m[2] = {0x5555555555555555ull, 0}; WholeReduceSum(z, x, m, %d, 1, 1, 8);" % R),
    "max_blk2": ([("x", F, 2 * R * L), ("z", F, 64)],
                 "WholeReduceMax(z, x, 64, %d, 1, 2, 16, ReduceOrder::ORDER_VALUE_INDEX);" % R),
    # counter mode: 3 full repeats and a last one of 10 lanes
    "sum_counter": ([("x", F, 2 * R * L), ("z", F, 64)],
                    "SetMaskCount(); SetVectorMask<float, MaskMode::COUNTER>(%d);"
                    " WholeReduceSum<float, false>(z, x, MASK_PLACEHOLDER, 1, 1, 1, 8);"
                    " SetMaskNorm(); ResetMask();" % (3 * L + 10)),
}


@pytest.fixture(scope="module")
def mod():
    return dev.program([dev.ub_kernel(k, t, body) for k, (t, body) in KERNELS.items()])


def run(mod, name, x):
    t = KERNELS[name][0]
    _, z = dev.run(mod, name, t, [x, np.zeros(64, F)])
    return z


def idx(v):
    return int(np.asarray([v], F).view(np.uint32)[0])


@pytest.fixture
def x():
    return (np.random.default_rng(7).standard_normal(2 * R * L) * 3).astype(F)


def test_sum_prefix_bit_exact(mod, x):
    z = run(mod, "sum_prefix", x)
    want = [tree_sum(x[r * 2 * L:r * 2 * L + 37]) for r in range(R)]
    assert z[:R].tobytes() == np.array(want, F).tobytes()


def test_max_min_prefix_with_index(mod, x):
    z = run(mod, "max_prefix", x)
    for r in range(R):
        seg = x[r * 2 * L:r * 2 * L + 50]
        assert z[2 * r] == seg.max() and idx(z[2 * r + 1]) == int(np.argmax(seg))
    z = run(mod, "min_full", x)
    for r in range(R):
        seg = x[r * L:(r + 1) * L]
        assert idx(z[2 * r]) == int(np.argmin(seg)) and z[2 * r + 1] == seg.min()


def test_sum_mask_with_gaps(mod, x):
    z = run(mod, "sum_gaps", x)
    want = [tree_sum(x[r * L:(r + 1) * L][0::2]) for r in range(R)]
    assert z[:R].tobytes() == np.array(want, F).tobytes()


def test_max_block_stride_2(mod, x):
    z = run(mod, "max_blk2", x)
    for r in range(R):
        base = r * 2 * L   # repeat stride 16 blocks of 8 floats
        lanes = np.concatenate([x[base + 16 * b:base + 16 * b + 8] for b in range(8)])  # every other block
        assert z[2 * r] == lanes.max() and idx(z[2 * r + 1]) == int(np.argmax(lanes))


def test_sum_counter_mode_partial_last_repeat(mod, x):
    z = run(mod, "sum_counter", x)
    want = [tree_sum(x[r * L:min((r + 1) * L, 3 * L + 10)]) for r in range(R)]
    assert z[:R].tobytes() == np.array(want, F).tobytes()
