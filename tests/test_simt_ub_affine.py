"""The shared-UB race check's affine path (rtc/simt_ubaffine.cpp,
rt/analysis/race_simt.c): a checked run that starts an epoch, whose every
UB access each thread makes once at an address affine in its index, is
proven race-free from the block's dimensions and runs unchecked.  It must
still let every race and every access outside the UB be reported as the
checked run reports it (both threads, both lines), and stamp its accesses
when the epoch goes on past it (a warp function), so a later access of
the epoch still meets them.  Values of the good launches against NumPy."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.simt_kernels import TRANSPOSE
from test_simt_ub_race import race

OPTS = ["--npu-arch=dav-3510", "--enable-simt"]

SRC = r'''
#include "simt_api/asc_simt.h"

__global__ void one_row(float* out)
{
    __ubuf__ float row[8];
    row[threadIdx.y] = (float)threadIdx.x;
    asc_syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = row[threadIdx.y];
}

__global__ void next_one(float* out)
{
    __ubuf__ float a[65];
    uint32_t t = threadIdx.x;
    a[t] = (float)t;
    float v = a[t + 1];
    out[t] = v;
}

__global__ void far_off(float* out, int off)
{
    __ubuf__ float a[64];
    a[(int)threadIdx.x + off] = 1.0f;
    out[threadIdx.x] = 2.0f;
}

__global__ void cube(float* out, uint32_t racy)
{
    __ubuf__ float c[2][4][8];
    uint32_t x = threadIdx.x, y = threadIdx.y, z = racy ? 0 : threadIdx.z;
    c[z][y][x] = (float)(threadIdx.z * 100 + y * 10 + x);
    asc_syncthreads();
    out[(threadIdx.z * 4 + y) * 8 + x] = c[1 - threadIdx.z][3 - y][7 - x];
}

__global__ void after_shuffle(float* out)
{
    __ubuf__ float a[64];
    uint32_t t = threadIdx.x;
    a[t] = (float)t;
    float s = asc_shfl_down((float)t, 1);
    out[t] = a[(t + 32) % 64] + s;
}
''' + TRANSPOSE


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "ubaff.asc").compile(OPTS).load()


def test_transpose_stages_take_the_affine_path(tmp_path, monkeypatch):
    """Both stages of the tiled transpose: tile[threadIdx.y + j][threadIdx.x]
    before the barrier, tile[threadIdx.x][threadIdx.y + j] after it (its
    indices recomputed there, not reloaded from the thread's frame)."""
    monkeypatch.setenv("ASCENDRTC_RTC_DUMP_IR", str(tmp_path / "k"))
    b = arc.Program("#include \"simt_api/asc_simt.h\"\n" + TRANSPOSE, "tr.asc").compile(OPTS, cache=False)
    ll = open(tmp_path / "k.ll").read()
    bodies = {}
    for part in ll.split("\ndefine ")[1:]:
        name = part.split("@", 1)[1].split("(", 1)[0]
        bodies[name] = part.split("\n}\n", 1)[0]
    checked = sorted(n for n in bodies if n.endswith("_checked"))
    assert len(checked) == 2, checked
    for n in checked:
        assert "@__arc_simt_ub_affine(" in bodies[n], n
    k = b.load().get_kernel("transpose")
    a = np.random.default_rng(5).random((256, 256), dtype=np.float32)
    t = np.zeros_like(a)
    k[(8, 8), (32, 8)](a, t, 256)
    arc.synchronize()
    np.testing.assert_array_equal(t, a.T)


def test_threads_writing_one_word_are_still_reported(mod):
    """row[threadIdx.y] is affine with no step in x: 32 threads write each
    word; not proven, so the checked run reports the first two."""
    out = np.zeros(256, np.float32)
    msg = race(lambda: mod.get_kernel("one_row")[1, (32, 8)](out))
    assert "data race on shared UB (write after write between threads of one block)" in msg
    assert "thread (0,0,0) of block (0,0,0) wrote UB [0, 4) at ubaff.asc:7" in msg
    assert "thread (1,0,0) of block (0,0,0) writes [0, 4) at ubaff.asc:7" in msg


def test_two_affine_accesses_that_meet_are_reported(mod):
    """a[t] and a[t + 1]: each affine and apart over the threads, but thread
    0 reads the word thread 1 then writes."""
    out = np.zeros(64, np.float32)
    msg = race(lambda: mod.get_kernel("next_one")[1, 64](out))
    assert "data race on shared UB (write after read between threads of one block)" in msg
    assert "thread (0,0,0) of block (0,0,0) read UB [4, 8) at ubaff.asc:17" in msg
    assert "thread (1,0,0) of block (0,0,0) writes [4, 8) at ubaff.asc:16" in msg


@pytest.mark.parametrize("off", [1 << 20, -(1 << 20)])
def test_an_affine_access_outside_the_ub_is_refused(mod, off):
    out = np.zeros(64, np.float32)
    msg = race(lambda: mod.get_kernel("far_off")[1, 64](out, off))
    assert "outside the block's shared UB" in msg and "ubaff.asc:24" in msg
    assert "thread (0,0,0) of block (0,0,0) writes UB bytes [%d, %d)" % (4 * off, 4 * off + 4) in msg


def test_three_dimensional_blocks(mod):
    """c[z][y][x] over an 8 x 4 x 2 block: proven, and the reversed read after
    the barrier right; with z taken as 0 the two z layers write each word."""
    k = mod.get_kernel("cube")
    out = np.zeros(64, np.float32)
    k[1, (8, 4, 2)](out, 0)
    arc.synchronize()
    z, y, x = np.meshgrid(np.arange(2), np.arange(4), np.arange(8), indexing="ij")
    np.testing.assert_array_equal(out, ((1 - z) * 100 + (3 - y) * 10 + (7 - x)).astype(np.float32).ravel())
    msg = race(lambda: k[1, (8, 4, 2)](out, 1))
    assert "(write after write between threads of one block)" in msg
    assert "thread (0,0,0) of block (0,0,0) wrote UB [0, 4) at ubaff.asc:32" in msg
    assert "thread (0,0,1) of block (0,0,0) writes [0, 4) at ubaff.asc:32" in msg


def test_an_epoch_that_goes_on_past_a_warp_function_still_sees_the_stores(mod):
    """a[t] = t is proven and runs unchecked; the shuffle is a warp function,
    not a barrier, so the epoch goes on: thread 0 then reads a[32], which
    thread 32 (another warp) wrote before it -- reported with the store's line."""
    out = np.zeros(64, np.float32)
    msg = race(lambda: mod.get_kernel("after_shuffle")[1, 64](out))
    assert "data race on shared UB (read after write between threads of one block)" in msg
    assert "thread (32,0,0) of block (0,0,0) wrote UB [128, 132) at ubaff.asc:41" in msg
    assert "thread (0,0,0) of block (0,0,0) reads [128, 132) at ubaff.asc:43" in msg
