"""The GM race check between the blocks of SIMT kernels (issue 25 item 4):
the compiler keeps each loop's pointer accesses as runs and patterns
(rt/analysis/race_stream.c) instead of a call per access, and the check
stays exact -- a race in a strided, masked-tail or column pattern is
found, disjoint interleaved patterns are not a race -- with NumPy
references for the values of the good launches after each negative one."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.simt_kernels import BLOCK_SUM, TRANSPOSE

OPTS = ["--npu-arch=dav-3510", "--enable-simt"]

SRC = r'''
#include "simt_api/asc_simt.h"

__global__ void rows(float* out, uint32_t step)
{
    out[blockIdx.x * step + threadIdx.x] = (float)threadIdx.x;
}

__global__ void strided(float* x, uint32_t n, uint32_t stride)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        x[i] += 1.0f;
}

__global__ void tail(float* out, uint32_t per_block, uint32_t n)
{
    uint32_t i = blockIdx.x * per_block + threadIdx.x;
    if (threadIdx.x < per_block + 1 && i < n)
        out[i] = 2.0f;
}

__global__ void columns(float* out, uint32_t n, uint32_t div)
{
    out[threadIdx.x * n + blockIdx.x / div] = (float)threadIdx.x;
}

__global__ void every(float* out, uint32_t s0, uint32_t o0, uint32_t s1, uint32_t o1)
{
    uint32_t s = blockIdx.x ? s1 : s0, o = blockIdx.x ? o1 : o0;
    out[o + s * threadIdx.x] = (float)blockIdx.x + 1.0f;
}

__global__ void peek(const float* a, float* c, uint32_t at)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + (blockIdx.x == 1 && threadIdx.x == 0 ? c[at] : 0.0f);
}

__global__ void bands(const float* in, float* out, uint32_t n, uint32_t apart)
{
    uint32_t x = threadIdx.x, y = blockIdx.x * apart + threadIdx.y;
    for (uint32_t j = 0; j < 32; j += 8) out[(y + j) * n + x] = in[(y + j) * n + x];
}

__global__ void late(float* out, uint32_t from)
{
    out[blockIdx.x >= from ? 0 : blockIdx.x + 1] = 1.0f;
}
''' + BLOCK_SUM + TRANSPOSE


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "race.asc").compile(OPTS).load()


def race(fn):
    with pytest.raises(arc.LaunchError) as e:
        fn()
    arc.synchronize()
    return str(e.value)


def test_overlapping_rows_race_then_disjoint_rows(mod):
    k = mod.get_kernel("rows")
    out = np.zeros(2048, np.float32)
    msg = race(lambda: k[2, 1024](out, 512))
    assert "data race (write/write between cores)" in msg and "race.asc:6" in msg and "block 1" in msg
    k[2, 1024](out, 1024)
    np.testing.assert_array_equal(out, np.tile(np.arange(1024, dtype=np.float32), 2))


def test_strided_loops_that_overlap_race(mod):
    """Each thread's grid-stride loop is one strided run and the block's
    threads one pattern; with the stride of half the grid, blocks 0 and 2
    meet on every other row."""
    k = mod.get_kernel("strided")
    x = np.zeros(4096, np.float32)
    msg = race(lambda: k[4, 64](x, 4096, 128))
    assert "data race" in msg and "race.asc:12" in msg
    x[:] = 0
    k[4, 64](x, 4096, 256)
    np.testing.assert_array_equal(x, np.ones(4096, np.float32))


def test_race_in_a_vector_loops_masked_tail(mod):
    """20 threads per block: the vectorised thread loop's last vector is
    masked; block 0's thread 20 writes the element block 1's thread 0 does."""
    k = mod.get_kernel("tail")
    out = np.zeros(64, np.float32)
    msg = race(lambda: k[3, 21](out, 20, 64))
    assert "data race" in msg and "race.asc:19" in msg
    out[:] = 0
    k[3, 20](out, 20, 64)
    ref = np.zeros(64, np.float32)
    ref[:60] = 2
    np.testing.assert_array_equal(out, ref)


def test_interleaved_columns_are_not_a_race_but_shared_ones_are(mod):
    """Block b writes column b: patterns of one element per row, interleaved
    with every other block's -- disjoint, so no race; two blocks per column
    are."""
    k = mod.get_kernel("columns")
    n = 64
    out = np.zeros(n * n, np.float32)
    k[n, n](out, n, 1)
    np.testing.assert_array_equal(out.reshape(n, n), np.repeat(np.arange(n, dtype=np.float32)[:, None], n, 1))
    msg = race(lambda: k[n, n](out, n, 2))
    assert "data race (write/write between cores)" in msg and "race.asc:24" in msg


def test_patterns_of_different_steps(mod):
    """Each block's stores are one pattern (a piece every s elements): blocks
    stepping by 4 and by 2 from an odd start never meet; by 3 and by 2 they
    meet first at element 3, which the report names."""
    k = mod.get_kernel("every")
    out = np.zeros(256, np.float32)
    k[2, 64](out, 4, 0, 2, 1)
    arc.synchronize()
    want = np.zeros(256, np.float32)
    want[0:256:4] = 1
    want[1:128:2] = 2
    np.testing.assert_array_equal(out, want)
    msg = race(lambda: k[2, 64](out, 3, 3, 2, 1))
    assert "data race (write/write between cores)" in msg and "race.asc:30" in msg
    assert "in block 0 writes bytes [12, 16)" in msg and "in block 1 writes bytes [12, 16)" in msg


def test_bands_of_an_unrolled_loop_race_where_blocks_overlap(mod):
    """32 x 8 threads copy 32 rows of 32 floats in 4 bands of 8 rows (the
    loop unrolled: 4 streams of one line, one record of 32 rows once
    joined). Blocks 32 rows apart are disjoint; 20 apart, block 1's first
    band meets block 0's third on row 20, which the report names."""
    k = mod.get_kernel("bands")
    n = 64
    a = np.arange(64 * n, dtype=np.float32).reshape(64, n)
    out = np.zeros_like(a)
    k[2, (32, 8)](a, out, n, 32)
    arc.synchronize()
    want = np.zeros_like(a)
    want[:, :32] = a[:, :32]
    np.testing.assert_array_equal(out, want)
    msg = race(lambda: k[2, (32, 8)](a, out, n, 20))
    assert "data race (write/write between cores)" in msg and "race.asc:42" in msg
    assert "in block 0 writes bytes [5120, 5248)" in msg and "in block 1 writes bytes [5120, 5248)" in msg


def test_a_read_among_reads_no_write_meets_still_races(mod):
    """One read of another block's output among reads no write meets (every
    a[i]): block 1's read of c[0], which block 0 writes, is a race; of
    c[64], its own element, is not."""
    k = mod.get_kernel("peek")
    a = np.arange(128, dtype=np.float32)
    c = np.zeros(128, np.float32)
    k[2, 64](a, c, 64)
    arc.synchronize()
    np.testing.assert_array_equal(c, a)
    msg = race(lambda: k[2, 64](a, c, 0))
    assert "data race (read/write between cores)" in msg and "race.asc:36" in msg
    assert "in block 0 writes bytes [0, 256)" in msg and "in block 1 reads bytes [0, 4)" in msg


def test_the_last_blocks_of_a_big_grid_are_checked_too(mod):
    """Blocks 16384 and 16385 of 16386 both write out[0]: each block once
    took 256 records of the launch's 4M budget, so the first 16384 took it
    all and these two went unchecked; now the budget counts records (each
    thread takes a chunk, race_gm_arena.c)."""
    k = mod.get_kernel("late")
    out = np.zeros(16386, np.float32)
    msg = race(lambda: k[16386, 1](out, 16384))
    assert "data race (write/write between cores)" in msg
    assert "in block 16384 writes bytes [0, 4)" in msg and "in block 16385 writes bytes [0, 4)" in msg


def test_shuffle_reduction_and_tiled_transpose_are_race_free(mod):
    rng = np.random.default_rng(3)
    x = rng.random(1 << 16, dtype=np.float32)
    out = np.zeros(8, np.float32)
    mod.get_kernel("block_sum")[8, 1024](x, out, x.size)
    assert abs(float(out.astype(np.float64).sum()) - float(x.astype(np.float64).sum())) < 1e-2
    a = rng.random((128, 128), dtype=np.float32)
    t = np.zeros_like(a)
    mod.get_kernel("transpose")[(4, 4), (32, 8)](a, t, 128)
    np.testing.assert_array_equal(t, a.T)


def test_race_check_option_on_a_simt_launch(mod, capfd, monkeypatch):
    """k[grid, block](*args, race_check=...) as k(*args, block_dim=..., race_check=...)
    takes it for SIMD kernels: 'warn' reports and computes, 'off' is silent, and
    'error' wins over ASCENDRTC_RACE_CHECK=off; a clean kernel passes under 'error'."""
    k = mod.get_kernel("rows")
    out = np.zeros(2048, np.float32)
    k[2, 1024](out, 512, race_check="warn")
    arc.synchronize()
    want = np.zeros(2048, np.float32)
    want[:1536] = np.tile(np.arange(1024, dtype=np.float32), 2)[:1536]
    want[512:1536] = np.arange(1024, dtype=np.float32)  # block 1 runs after block 0
    np.testing.assert_array_equal(out, want)
    err = capfd.readouterr().err
    assert "warning" in err and "data race (write/write between cores)" in err and "race.asc:6" in err
    k[2, 1024](out, 512, race_check="off")
    arc.synchronize()
    assert "data race" not in capfd.readouterr().err
    monkeypatch.setenv("ASCENDRTC_RACE_CHECK", "off")
    assert "write/write" in race(lambda: k[2, 1024](out, 512, race_check="error"))
    k[2, 1024](out, 1024, race_check="error")
    arc.synchronize()
    np.testing.assert_array_equal(out, np.tile(np.arange(1024, dtype=np.float32), 2))
    with pytest.raises(ValueError, match="race_check must be 'error', 'warn' or 'off'"):
        k[2, 1024](out, 1024, race_check=True)
    with pytest.raises(TypeError, match="the launch option here is race_check="):
        k[2, 1024](out, 1024, block_dim=2)
