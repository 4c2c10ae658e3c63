"""A lockstep round with every thread in step runs a copy of the thread
loops with the round counter and the thread's point as constants
(rtc/simt_round.h), which vectorises.  The edges it must keep: the ragged
last round (threads leave at different rounds), 2-D blocks, a loop entered again by an outer loop (its counter restarts), and
a GM read past the end in the middle of a round, reported for the thread
that makes it.  Sums are of small integers in float (exact in any order);
the references are NumPy."""
import functools
import os
import re
import sys

import numpy as np
import pytest

import ascendrtc as arc

sys.path.insert(0, os.path.dirname(__file__))
from helpers.simt_kernels import BLOCK_SUM  # noqa: E402
from test_simt_vectorise import run_functions  # noqa: E402

OPTS = ["--npu-arch=dav-3510", "--enable-simt", "-O2"]

SRC = r'''
__global__ void sum2d(const float* x, float* out, uint32_t n)
{
    uint32_t t = threadIdx.y * blockDim.x + threadIdx.x, nt = blockDim.x * blockDim.y;
    float s = 0.0f;
    for (uint32_t i = blockIdx.x * nt + t; i < n; i += gridDim.x * nt) s += x[i];
    out[blockIdx.x * nt + t] = s;
}

// the grid-stride loop inside a loop over rows: entered again per row
__global__ void rows(const float* x, float* out, uint32_t nrows, uint32_t n)
{
    uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (uint32_t r = 0; r < nrows; r++)
        for (uint32_t i = g; i < n; i += gridDim.x * blockDim.x) s += x[r * n + i] * (float)(r + 1);
    out[g] = s;
}
'''


@functools.lru_cache(None)
def mod():
    return arc.Program(SRC, "rounds.asc").compile(OPTS).load()


def ints(n, seed):
    return np.random.default_rng(seed).integers(0, 8, n).astype(np.float32)


def per_thread(x, threads):
    """Each thread's sum of x[g], x[g + threads], ... (exact: small integers)."""
    pad = np.zeros(-len(x) % threads, x.dtype)
    return np.concatenate([x, pad]).reshape(-1, threads).sum(axis=0)


@pytest.mark.parametrize("n,grid,bx,by", [(10007, 3, 32, 4), (4096, 2, 64, 8), (100, 2, 32, 2), (1, 1, 32, 1)])
def test_2d_blocks_and_a_ragged_last_round(n, grid, bx, by):
    x = ints(n, 1)
    out = arc.zeros(grid * bx * by, np.float32)
    mod().get_kernel("sum2d")[grid, (bx, by)](arc.to_device(x), out, np.uint32(n))
    arc.synchronize()
    np.testing.assert_array_equal(out.get(), per_thread(x, grid * bx * by))


def test_the_loop_entered_again_by_an_outer_loop():
    nrows, n, grid, block = 3, 5000, 2, 512
    x = ints(nrows * n, 3)
    out = arc.zeros(grid * block, np.float32)
    mod().get_kernel("rows")[grid, block](arc.to_device(x), out, np.uint32(nrows), np.uint32(n))
    arc.synchronize()
    want = sum((r + 1) * per_thread(x[r * n:(r + 1) * n], grid * block) for r in range(nrows))
    np.testing.assert_array_equal(out.get(), want)


def test_a_read_past_the_end_in_the_middle_of_a_round_names_its_thread():
    # a block of 32 x 4: round 7 reads x[7 * 128 + t], all threads in step;
    # with 1000 elements the first past the end is t = 104, i.e. (8, 3)
    x = np.ones(1000, np.float32)
    out = arc.zeros(128, np.float32)
    with pytest.raises(arc.LaunchError, match=r"thread \(8,3,0\) of block \(0,0,0\) reads 4 bytes at byte offset "
                       r"4000 \(element 1000 of 4 bytes\) of kernel parameter 0 'x' \(4000 bytes\) at "
                       r"rounds.asc:\d+: past its end"):
        mod().get_kernel("sum2d")[1, (32, 4)](arc.to_device(x), out, np.uint32(2000))
        arc.synchronize()


def lockstep_runs(ll, kernel):
    """The run functions of kernel's lockstep points (kind 3 in its point table, simt_abi.h)."""
    kinds = re.search(r"@__arc_simt_kind_%d = .*? c\"((?:\\[0-9A-F]{2})*)\"" % kernel, ll).group(1)
    codes = [int(k, 16) for k in kinds.split("\\")[1:]]
    runs = run_functions(ll)
    return [runs[f"__arc_simt_run_{kernel}_{s}"] for s, k in enumerate(codes) if k == 3]


def test_the_block_reduction_round_vectorises(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_RTC_DUMP_IR", str(tmp_path / "bsum"))
    arc.Program(BLOCK_SUM, "bsum.asc").compile(OPTS, cache=False)
    runs = lockstep_runs((tmp_path / "bsum.ll").read_text(), 0)
    assert runs and any(re.search(r"fadd <\d+ x float>", body) for body in runs), \
        "the block reduction's lockstep round stayed scalar"
