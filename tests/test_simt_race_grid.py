"""The GM race check between blocks on big SIMT grids (issue 25 item 4):
records of consecutive blocks share per-thread chunks
(rt/analysis/race_gm_arena.c), the sweep skips the sort of writes already
in address order and drops reads that no write meets
(race_gm_sweep.c).  Each fast path still reports the races it meets: two
blocks' overlapping affine ranges late in the grid, neighbouring blocks'
edge threads writing one element, an in-place update reading the next
block's element; and past the record budget (ASCENDRTC_RACE_RECORDS) the
launch says that accesses went unchecked.  Values against NumPy."""
import numpy as np
import pytest

import ascendrtc as arc

OPTS = ["--npu-arch=dav-3510", "--enable-simt"]

SRC = r'''
#include "simt_api/asc_simt.h"

__global__ void shifted(const float* x, float* z, uint32_t from)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x - (blockIdx.x == from ? 1u : 0u);
    z[i] = x[i] * 2.0f;
}

__global__ void edge(const float* x, float* z, uint32_t at)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    z[i + (blockIdx.x == at && threadIdx.x == blockDim.x - 1 ? 1u : 0u)] = x[i];
}

__global__ void add_in_place(float* x, const float* y, uint32_t next)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t j = next && threadIdx.x == blockDim.x - 1 && i + 1 < gridDim.x * blockDim.x ? i + 1 : i;
    x[i] = x[j] + y[i];
}

__global__ void vadd(const float* a, const float* b, float* c)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];
}
'''

GRID, BLOCK = 4096, 64  # 3 records a block: more than one thread's chunk of 4096


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "grid.asc").compile(OPTS).load()


def race(fn):
    with pytest.raises(arc.LaunchError) as e:
        fn()
    arc.synchronize()
    return str(e.value)


def test_overlapping_affine_ranges_late_in_a_grid(mod):
    """Block 3000 starts one element early: its range meets block 2999's
    last element; every other pair of blocks is disjoint, writes in address
    order, and the reads of x meet no write."""
    k = mod.get_kernel("shifted")
    x = np.arange(GRID * BLOCK, dtype=np.float32)
    z = np.zeros_like(x)
    k[GRID, BLOCK](x, z, GRID)  # no block shifted
    arc.synchronize()
    np.testing.assert_array_equal(z, 2 * x)
    msg = race(lambda: k[GRID, BLOCK](x, z, 3000))
    lo = 4 * (3000 * BLOCK - 1)  # block 3000's range, a byte range each record
    assert "data race (write/write between cores)" in msg and "grid.asc:7" in msg
    assert f"in block 2999 writes bytes [{lo + 4 - 4 * BLOCK}, {lo + 4})" in msg
    assert f"in block 3000 writes bytes [{lo}, {lo + 4 * BLOCK})" in msg


def test_edge_threads_of_neighbouring_blocks(mod):
    """Block 4000's last thread writes z[i + 1], the first element of
    block 4001's range."""
    k = mod.get_kernel("edge")
    x = np.arange(GRID * BLOCK, dtype=np.float32)
    z = np.zeros_like(x)
    k[GRID, BLOCK](x, z, GRID)
    arc.synchronize()
    np.testing.assert_array_equal(z, x)
    msg = race(lambda: k[GRID, BLOCK](x, z, 4000))
    first = 4001 * BLOCK
    assert "data race (write/write between cores)" in msg and "grid.asc:13" in msg
    assert "block 4000" in msg and "block 4001" in msg
    assert f"writes bytes [{4 * first}, {4 * first + 4})" in msg


def test_in_place_update_reading_the_next_blocks_element(mod):
    """x[i] = x[i] + y[i] in place is race-free (each block reads what it
    writes); with each block's last thread reading x[i + 1], block b reads
    what block b + 1 writes: the first is blocks 0 and 1."""
    k = mod.get_kernel("add_in_place")
    rng = np.random.default_rng(5)
    x0 = rng.random(GRID * BLOCK, dtype=np.float32)
    y = rng.random(GRID * BLOCK, dtype=np.float32)
    x = x0.copy()
    k[GRID, BLOCK](x, y, 0)
    arc.synchronize()
    np.testing.assert_array_equal(x, x0 + y)
    msg = race(lambda: k[GRID, BLOCK](x, y, 1))
    assert "data race (read/write between cores)" in msg and "grid.asc:20" in msg
    assert "in block 0 reads bytes [256, 260)" in msg and "in block 1 writes bytes [256, 512)" in msg


def test_inputs_read_by_every_block_are_not_a_race(mod):
    """One array as both inputs: reads meet reads only."""
    k = mod.get_kernel("vadd")
    a = np.arange(GRID * BLOCK, dtype=np.float32)
    c = np.zeros_like(a)
    da = arc.to_device(a)
    k[GRID, BLOCK](da, da, c)
    arc.synchronize()
    np.testing.assert_array_equal(c, 2 * a)


def test_past_the_record_budget_the_launch_warns(mod, monkeypatch, capfd):
    """64 records hold the first blocks only: block 3000's race goes
    unchecked, and the launch says so, naming the kernel and the budget;
    with the default budget the same launch fails."""
    k = mod.get_kernel("shifted")
    x = np.arange(GRID * BLOCK, dtype=np.float32)
    z = np.zeros_like(x)
    monkeypatch.setenv("ASCENDRTC_RACE_RECORDS", "64")
    k[GRID, BLOCK](x, z, 3000)
    arc.synchronize()
    err = capfd.readouterr().err
    assert err.count("reached its budget of 64 access records (ASCENDRTC_RACE_RECORDS)") == 1
    assert "shifted" in err and "went unchecked" in err
    monkeypatch.setenv("ASCENDRTC_RACE_RECORDS", str(1 << 20))
    assert "block 3000" in race(lambda: k[GRID, BLOCK](x, z, 3000))
    assert "budget" not in capfd.readouterr().err
    monkeypatch.delenv("ASCENDRTC_RACE_RECORDS")
    assert "block 3000" in race(lambda: k[GRID, BLOCK](x, z, 3000))


@pytest.mark.parametrize("bad", ["0", "-5", "lots", str((1 << 30) + 1)])
def test_a_record_budget_that_is_not_a_count_is_refused(mod, monkeypatch, bad):
    k = mod.get_kernel("vadd")
    a = np.zeros(BLOCK * 2, np.float32)
    monkeypatch.setenv("ASCENDRTC_RACE_RECORDS", bad)
    with pytest.raises(arc.LaunchError, match=f"ASCENDRTC_RACE_RECORDS={bad}: expected a count"):
        k[2, BLOCK](a, a, a)
        arc.synchronize()


# SyncAll blocks run as fibers that take turns on the threads: a block's
# records (16 and more, one a round) move past the ones other blocks wrote
# on the thread meanwhile (race_gm_arena.c); each round's slots are read
# back by the neighbour after SyncAll, and with clash block 0's last store
# lands on block 1's final slot in the same phase.
ROUNDS = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void rounds(GM_ADDR z, GM_ADDR y, int clash)
{
    const int b = GetBlockIdx(), n = GetBlockNum();
    GlobalTensor<float> zg, yg;
    zg.SetGlobalBuffer((__gm__ float *)z, 64 * n * 9);
    yg.SetGlobalBuffer((__gm__ float *)y, 64 * n * 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    LocalTensor<float> a = buf.Get<float>();
    for (int r = 0; r < 8; r++) {
        Duplicate(a, (float)(b * 8 + r), 64);
        PipeBarrier<PIPE_ALL>();
        DataCopy(zg[(r * n + b) * 64], a, 64);
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        DataCopy(a, zg[(r * n + (b + 1) % n) * 64], 64);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yg[(r * n + b) * 64], a, 64);
        PipeBarrier<PIPE_ALL>();
    }
    DataCopy(zg[(8 * n + (clash && b == 0 ? 1 : b)) * 64], a, 64);
}
'''


def test_records_that_move_between_sync_all_rounds():
    from helpers import dev
    k = dev.load(ROUNDS, "rounds.asc").get_kernel("rounds")
    n = 8
    z = np.zeros(64 * n * 9, np.float32)
    y = np.zeros(64 * n * 8, np.float32)
    k(z, y, 0, block_dim=n)
    arc.synchronize()
    r, b = np.meshgrid(np.arange(8), np.arange(n), indexing="ij")
    np.testing.assert_array_equal(y.reshape(8, n, 64), np.repeat(((b + 1) % n * 8 + r)[..., None], 64, 2))
    with pytest.raises(arc.LaunchError) as e:
        k(z, y, 1, block_dim=n)
        arc.synchronize()
    msg = str(e.value)
    line = next(i for i, ln in enumerate(ROUNDS.splitlines(), 1) if "clash &&" in ln)
    assert "data race (write/write between cores)" in msg and f"rounds.asc:{line}" in msg
    assert "in block 0 writes bytes [%d, %d)" % (4 * 64 * (8 * n + 1), 4 * 64 * (8 * n + 2)) in msg
