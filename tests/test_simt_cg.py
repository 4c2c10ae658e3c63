"""SIMT cooperative groups (simt_api/cooperative_groups.h, issue 25 item 1):
thread_block, thread_block_tile<Size> from tiled_partition, coalesced_group
from coalesced_threads(), against NumPy and the docs' stated semantics
(tiles are runs of lanes of a warp, ranks in lane order, votes over the
group's threads)."""
import numpy as np
import pytest

import ascendrtc as arc

OPTS = ["--npu-arch=dav-3510", "--enable-simt"]

SRC = r'''
#include "simt_api/asc_simt.h"
#include "simt_api/cooperative_groups.h"
namespace cg = cooperative_groups;

__global__ void groups(int* out, float* sums, const float* x)
{
    cg::thread_block b = cg::this_thread_block();
    auto t8 = cg::tiled_partition<8>(b);
    unsigned r = b.thread_rank(), g = blockIdx.x * b.size() + r;
    float v = x[g];
    for (unsigned o = t8.size() / 2; o > 0; o /= 2) v += t8.shfl_down(v, o);
    if (t8.thread_rank() == 0) sums[blockIdx.x * t8.meta_group_size() + t8.meta_group_rank()] = v;
    out[g * 5 + 0] = (int)t8.ballot(r % 3 == 0);
    out[g * 5 + 1] = t8.any(r == 13) + 2 * t8.all(r != 13);
    out[g * 5 + 2] = t8.shfl((int)r, 5) + t8.shfl_xor((int)r, 1) * 1000;
    b.sync();
    auto t64 = cg::tiled_partition<64>(b);
    t64.sync();
    if (r < 40) {
        cg::coalesced_group a = cg::coalesced_threads();
        out[g * 5 + 3] = (int)(a.thread_rank() * 1000 + a.size() * 10) + a.shfl((int)r, 2) % 10;
        out[g * 5 + 4] = (int)a.ballot(r % 2);
    } else {
        out[g * 5 + 3] = (int)t64.meta_group_rank();
        out[g * 5 + 4] = (int)(b.group_index().x * 100 + b.dim_threads().x);
    }
}
'''


def test_tiles_coalesced_groups_and_the_block():
    k = arc.Program(SRC, "cg.asc").compile(OPTS).load().get_kernel("groups")
    n, blocks = 128, 2
    x = np.random.default_rng(0).random(blocks * n, dtype=np.float32)
    out = np.zeros((blocks * n, 5), np.int32)
    sums = np.zeros(blocks * n // 8, np.float32)
    k[blocks, n](out, sums, x)
    arc.synchronize()
    np.testing.assert_allclose(sums, x.reshape(-1, 8).sum(axis=1), rtol=1e-5)
    r = np.tile(np.arange(n), blocks)
    base = r // 8 * 8
    want_ballot = sum(((base + i) % 3 == 0).astype(np.int64) << i for i in range(8))
    np.testing.assert_array_equal(out[:, 0], want_ballot)
    np.testing.assert_array_equal(out[:, 1], np.where(r // 8 == 1, 1, 2))  # tile 1 holds thread 13
    np.testing.assert_array_equal(out[:, 2], base + 5 + (r ^ 1) * 1000)
    # threads 0..39 active: warp 0 all 32 lanes, warp 1 lanes 0..7
    lo = r < 40
    size = np.where(r < 32, 32, 8)
    rank = r % 32
    np.testing.assert_array_equal(out[lo, 3], (rank * 1000 + size * 10 + (r // 32 * 32 + 2) % 10)[lo])
    odd = np.where(r < 32, 0xAAAAAAAA, 0xAA).astype(np.uint32).view(np.int32)
    np.testing.assert_array_equal(out[lo, 4], odd[lo])
    np.testing.assert_array_equal(out[~lo, 3], (r // 64)[~lo])
    np.testing.assert_array_equal(out[~lo, 4], (np.repeat(np.arange(blocks), n) * 100 + n)[~lo])


def test_a_cross_warp_tile_shuffle_is_refused_by_name():
    src = SRC.replace("t64.sync();", "t64.sync(); (void)t64.shfl(1, 0);")
    with pytest.raises(arc.CompileError, match=r"thread_block_tile<Size>::shfl with Size over 32"):
        arc.Program(src, "cg_bad.asc").compile(OPTS)
    arc.Program(SRC, "cg_ok.asc").compile(OPTS)  # the good source still compiles
