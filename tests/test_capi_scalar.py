"""The SIMD C API's scalar bit operations (asc_clz, asc_popc, asc_ffs,
asc_ffz, asc_sflbits, asc_zero_bits_cnt, asc_set/clear_nthbit, and the
instruction names clz/bcnt1 asc-devkit's integer_fast_div calls) against
Python's integers and the docs' examples, and the pipe mutex
asc_lock/asc_unlock, which orders pipes for the race check as the docs
say (SIMD-API/C-API/scalar_compute, sync)."""
import numpy as np
import pytest

import ascendrtc as arc

OPTS = ["--npu-arch=dav-3510"]

SRC = r'''
#include "c_api/asc_simd.h"

__global__ __vector__ void bits(__gm__ uint64_t* x, __gm__ int64_t* out, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = x[i];
        __gm__ int64_t* o = out + 10 * i;
        o[0] = asc_clz(v);
        o[1] = asc_popc(v);
        o[2] = asc_ffs(v);
        o[3] = asc_ffz(v);
        o[4] = asc_sflbits((int64_t)v);
        o[5] = asc_zero_bits_cnt(v);
        o[6] = (int64_t)asc_set_nthbit(v, i % 64);
        o[7] = (int64_t)asc_clear_nthbit(v, (i * 7) % 64);
        o[8] = clz(v);
        o[9] = bcnt1(v);
    }
}

__global__ __vector__ void bad_bit(__gm__ int64_t* out, int64_t idx)
{
    out[0] = (int64_t)asc_set_nthbit(1, idx);
}

__global__ __vector__ void bad_mutex(uint32_t id)
{
    asc_lock(PIPE_MTE2, (uint8_t)id);
    asc_unlock(PIPE_MTE2, (uint8_t)id);
}
'''

PIPES = r'''
#include "kernel_operator.h"
#include "c_api/asc_simd.h"
using namespace AscendC;

// x -> UB (MTE2), + 1 (V), UB -> y (MTE3); LOCKED orders the three steps
// with one mutex instead of SetFlag/WaitFlag (asc-devkit's matrix_transpose)
template <int LOCKED>
__global__ __vector__ void add_one(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * n * sizeof(float));
    LocalTensor<float> a = buf.GetWithOffset<float>(n, 0), b = buf.GetWithOffset<float>(n, n * 4);
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float*)x, n);
    gy.SetGlobalBuffer((__gm__ float*)y, n);
    if (LOCKED) asc_lock(PIPE_MTE2, 3);
    DataCopy(a, gx, n);
    if (LOCKED) { asc_unlock(PIPE_MTE2, 3); asc_lock(PIPE_V, 3); }
    Adds(b, a, 1.0f, n);
    if (LOCKED) { asc_unlock(PIPE_V, 3); asc_lock(PIPE_MTE3, 3); }
    DataCopy(gy, b, n);
    if (LOCKED) asc_unlock(PIPE_MTE3, 3);
}
'''

M64 = (1 << 64) - 1


def ref(v, i):
    s = v - (1 << 64) if v >> 63 else v
    clz = 64 - v.bit_length()
    popc = bin(v).count("1")
    ffs = (v & -v).bit_length() - 1 if v else -1
    nv = ~v & M64
    ffz = (nv & -nv).bit_length() - 1 if nv else -1
    x = v ^ (M64 if s < 0 else 0)  # bits equal to the sign become 0
    sfl = 64 - x.bit_length() - 1 if x else -1
    sb = v | (1 << (i % 64))
    cb = v & ~(1 << ((i * 7) % 64)) & M64
    w = [clz, popc, ffs, ffz, sfl, 64 - popc, sb, cb, clz, popc]
    return [c - (1 << 64) if c >= (1 << 63) else c for c in w]


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "scalar_bits.asc").compile(OPTS).load()


def test_scalar_bit_operations_against_python(mod):
    r = np.random.default_rng(7)
    vals = [0, 1, M64, 1 << 63, (1 << 63) - 1, 0x0FFFFFFFFFFFFFFF, 10, 33, 0x0F00000000000000,
            0x000F00FF0FF0FFFF, 0xFFF0000000000000]
    vals += [int(v) for v in r.integers(0, 1 << 63, 40, dtype=np.uint64)]
    vals += [int(v) >> int(s) for v, s in zip(r.integers(0, 1 << 63, 20, dtype=np.uint64), r.integers(0, 63, 20))]
    vals += [(~v) & M64 for v in vals[11:40]]  # negative as int64
    x = np.array(vals, np.uint64)
    out = np.zeros(10 * len(vals), np.int64)
    mod.get_kernel("bits")[1](x, out, len(vals))
    arc.synchronize()
    want = np.array([ref(v, i) for i, v in enumerate(vals)], np.int64).ravel()
    np.testing.assert_array_equal(out, want)
    got = out.reshape(-1, 10)
    # the docs' own examples
    assert got[5, 0] == 4          # asc_clz(0x0fffffffffffffff) = 4
    assert got[7, 3] == 1          # asc_ffz(33) = 1
    assert got[8, 4] == 3          # asc_sflbits(0x0f00000000000000) = 3
    assert got[9, 4] == 11         # asc_sflbits(0x000f00ff0ff0ffff) = 11
    assert got[0, 4] == got[2, 4] == -1  # 0 and -1 (all bits equal)


@pytest.mark.parametrize("name,arg,msg", [
    ("bad_bit", 64, r"asc_set_nthbit: idx 64 is out of range \[0, 63\]"),
    ("bad_bit", -1, r"asc_set_nthbit: idx -1 is out of range"),
    ("bad_mutex", 32, r"asc_lock: mutex_id 32 is out of range \[0, 31\]"),
])
def test_scalar_checks(mod, name, arg, msg):
    args = (np.zeros(1, np.int64), arg) if name == "bad_bit" else (arg,)
    with pytest.raises(arc.LaunchError, match=msg):
        mod.get_kernel(name)[1](*args)
        arc.synchronize()
    out = np.zeros(1, np.int64)
    mod.get_kernel("bad_bit")[1](out, 5)  # a good launch after
    arc.synchronize()
    assert out[0] == 33


def test_mutex_orders_pipes_for_the_race_check():
    m = arc.Program(PIPES, "mutex.asc", name_expressions=["add_one<0>", "add_one<1>"]).compile(OPTS).load()
    n = 256
    x = np.arange(n, dtype=np.float32)
    y = np.zeros(n, np.float32)
    with pytest.raises(arc.LaunchError, match=r"data race"):
        m.get_kernel("add_one<0>")[1](x, y, n)
    m.get_kernel("add_one<1>")[1](x, y, n)
    arc.synchronize()
    np.testing.assert_array_equal(y, x + 1)
