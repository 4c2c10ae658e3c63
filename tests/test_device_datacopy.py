"""Device API: DataCopy (count and DataCopyParams forms, GM<->UB, UB->UB),
DataCopyPad (new Ext params and old DataCopyPadParams, with their units),
DMA atomics across blocks and InitGlobalMemory, against NumPy."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

PRE = "using namespace AscendC;\n"


def k(name, params, body):
    return 'extern "C" __global__ __aicore__ void %s(%s)\n{\nTPipe pipe; TBuf<> b; pipe.InitBuffer(b, 8192);\n%s\n}\n' % (
        name, params, body)


KERNELS = [
    # count form through UB and back; UB -> UB copy
    k("dc_count", "GM_ADDR x, GM_ADDR y",
      "GlobalTensor<half> gx, gy; gx.SetGlobalBuffer((__gm__ half *)x + GetBlockIdx() * 256, 256);"
      " gy.SetGlobalBuffer((__gm__ half *)y + GetBlockIdx() * 256, 256);"
      " LocalTensor<half> a = b.Get<half>(), c = a[256];"
      " DataCopy(a, gx, 256); PipeBarrier<PIPE_ALL>(); DataCopy(c, a, 256); PipeBarrier<PIPE_ALL>(); DataCopy(gy, c, 256);"),
    # DataCopyParams: 3 blocks of 2 x 32 B, GM gap 1 block, UB gap 2 blocks; then back contiguous
    k("dc_params", "GM_ADDR x, GM_ADDR y",
      "GlobalTensor<float> gx, gy; gx.SetGlobalBuffer((__gm__ float *)x); gy.SetGlobalBuffer((__gm__ float *)y);"
      " LocalTensor<float> a = b.Get<float>(); Duplicate(a, -1.0f, 256);"
      " PipeBarrier<PIPE_ALL>(); DataCopy(a, gx, DataCopyParams(3, 2, 1, 2)); PipeBarrier<PIPE_ALL>(); DataCopy(gy, a, DataCopyParams{1, 12, 0, 0});"),
    # UB -> GM with gaps on the GM side
    k("dc_params_out", "GM_ADDR x, GM_ADDR y",
      "GlobalTensor<float> gx, gy; gx.SetGlobalBuffer((__gm__ float *)x); gy.SetGlobalBuffer((__gm__ float *)y);"
      " LocalTensor<float> a = b.Get<float>(); DataCopy(a, gx, 64);"
      " PipeBarrier<PIPE_ALL>(); DataCopy(gy, a, DataCopyParams(2, 1, 1, 3));"),
    # DataCopyPad new form: 3 rows of 5 floats (20 B) spaced 7 floats apart in GM; pad right 3 with 9
    k("pad_ext", "GM_ADDR x, GM_ADDR y",
      "GlobalTensor<float> gx, gy; gx.SetGlobalBuffer((__gm__ float *)x); gy.SetGlobalBuffer((__gm__ float *)y);"
      " LocalTensor<float> a = b.Get<float>(); Duplicate(a, -1.0f, 64);"
      " PipeBarrier<PIPE_ALL>(); DataCopyPad(a, gx, DataCopyExtParams{3, 20, 8, 1, 0}, DataCopyPadExtParams<float>{true, 0, 3, 9.0f});"
      " PipeBarrier<PIPE_ALL>(); DataCopy(gy, a, 64);"),
    # DataCopyPad UB -> GM: 3 rows of 5 floats from 32 B UB blocks (gap 1 block), GM gap 4 bytes
    k("pad_ext_out", "GM_ADDR x, GM_ADDR y",
      "GlobalTensor<float> gx, gy; gx.SetGlobalBuffer((__gm__ float *)x); gy.SetGlobalBuffer((__gm__ float *)y);"
      " LocalTensor<float> a = b.Get<float>(); DataCopy(a, gx, 64);"
      " PipeBarrier<PIPE_ALL>(); DataCopyPad(gy, a, DataCopyExtParams{3, 20, 1, 4, 0});"),
    # old form: DataCopyParams with blockLen in bytes + DataCopyPadParams (left pad 2 halves of 7)
    k("pad_old", "GM_ADDR x, GM_ADDR y",
      "GlobalTensor<half> gx, gy; gx.SetGlobalBuffer((__gm__ half *)x); gy.SetGlobalBuffer((__gm__ half *)y);"
      " LocalTensor<half> a = b.Get<half>(); Duplicate(a, (half)-1, 64);"
      " PipeBarrier<PIPE_ALL>(); DataCopyPad(a, gx, DataCopyParams{2, 22, 2, 0}, DataCopyPadParams{true, 2, 0, 0x4700});"
      " PipeBarrier<PIPE_ALL>(); DataCopy(gy, a, 64); PipeBarrier<PIPE_MTE3>(); PipeBarrier<PIPE_ALL>(); DataCopyPad(gy[64], a, DataCopyParams{2, 26, 0, 6});"),
    # unaligned tail: 1000 halves, DataCopyPad in and out per block
    k("pad_tail", "GM_ADDR x, GM_ADDR y",
      "GlobalTensor<half> gx, gy; gx.SetGlobalBuffer((__gm__ half *)x + GetBlockIdx() * 1000);"
      " gy.SetGlobalBuffer((__gm__ half *)y + GetBlockIdx() * 1000);"
      " LocalTensor<half> a = b.Get<half>();"
      " DataCopyPad(a, gx, DataCopyExtParams{1, 2000, 0, 0, 0}, DataCopyPadExtParams<half>{false, 0, 0, 0});"
      " PipeBarrier<PIPE_ALL>(); Abs(a, a, 1000); PipeBarrier<PIPE_ALL>(); DataCopyPad(gy, a, DataCopyExtParams{1, 2000, 0, 0, 0});"),
    # atomic add: every block adds its 64 floats into y; then SetAtomicNone and a plain write
    k("atomic", "GM_ADDR x, GM_ADDR y",
      "GlobalTensor<float> gx, gy; gx.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * 64);"
      " gy.SetGlobalBuffer((__gm__ float *)y);"
      " LocalTensor<float> a = b.Get<float>(); DataCopy(a, gx, 64);"
      " SetAtomicAdd<float>(); PipeBarrier<PIPE_ALL>(); DataCopy(gy, a, 64); SetAtomicNone();"
      " SyncAll(); if (GetBlockIdx() == 0) { a.SetValue(0, 100.0f); PipeBarrier<PIPE_ALL>(); DataCopy(gy[64], a, 8); }"),
    k("atomic_half", "GM_ADDR x, GM_ADDR y",
      "GlobalTensor<half> gx, gy; gx.SetGlobalBuffer((__gm__ half *)x + GetBlockIdx() * 16);"
      " gy.SetGlobalBuffer((__gm__ half *)y);"
      " LocalTensor<half> a = b.Get<half>(); DataCopy(a, gx, 16);"
      " SetAtomicAdd<half>(); PipeBarrier<PIPE_ALL>(); DataCopyPad(gy, a, DataCopyExtParams{1, 6, 0, 0, 0}); DisableDmaAtomic();"),
    # large copies (the non-temporal store path) to an aligned and a misaligned GM address
    k("dc_large", "GM_ADDR x, GM_ADDR y",
      "TBuf<> big; pipe.InitBuffer(big, 3008 * 4); GlobalTensor<float> gx, gy;"
      " gx.SetGlobalBuffer((__gm__ float *)x); gy.SetGlobalBuffer((__gm__ float *)y);"
      " LocalTensor<float> a = big.Get<float>(); DataCopy(a, gx, 3008);"
      " PipeBarrier<PIPE_ALL>(); DataCopy(gy, a, 3008); PipeBarrier<PIPE_ALL>(); DataCopy(gy[3009], a, 3008);"),
    k("atomic_maxmin", "GM_ADDR x, GM_ADDR y",
      "GlobalTensor<int32_t> gx, gy; gx.SetGlobalBuffer((__gm__ int32_t *)x + GetBlockIdx() * 8);"
      " gy.SetGlobalBuffer((__gm__ int32_t *)y);"
      " LocalTensor<int32_t> a = b.Get<int32_t>(); DataCopy(a, gx, 8);"
      " SetAtomicMax<int32_t>(); PipeBarrier<PIPE_ALL>(); DataCopy(gy, a, 8); SetAtomicMin<int32_t>(); PipeBarrier<PIPE_ALL>(); DataCopy(gy[8], a, 8); SetAtomicNone();"),
] + [
    # the same on uint32 (values above 2^31 compare unsigned) and float
    k("atomic_maxmin_" + t, "GM_ADDR x, GM_ADDR y",
      ("GlobalTensor<ELT> gx, gy; gx.SetGlobalBuffer((__gm__ ELT *)x + GetBlockIdx() * 8);"
       " gy.SetGlobalBuffer((__gm__ ELT *)y);"
       " LocalTensor<ELT> a = b.Get<ELT>(); DataCopy(a, gx, 8);"
       " SetAtomicMax<ELT>(); PipeBarrier<PIPE_ALL>(); DataCopy(gy, a, 8); SetAtomicMin<ELT>(); PipeBarrier<PIPE_ALL>();"
       " DataCopy(gy[8], a, 8); SetAtomicNone();").replace("ELT", t))
    for t in ("uint32_t", "float")
] + [
    k("init_gm", "GM_ADDR x, GM_ADDR y",
      "GlobalTensor<int32_t> gy; gy.SetGlobalBuffer((__gm__ int32_t *)y + GetBlockIdx() * 100);"
      " InitGlobalMemory(gy, 100, (int32_t)GetBlockIdx() + 7);"),
]


@pytest.fixture(scope="module")
def mod():
    return dev.program(KERNELS, prelude=PRE)


def launch(mod, name, blocks, *arrays):
    mod.get_kernel(name)[blocks](*arrays)
    arc.synchronize()


def test_count_form(mod):
    x = np.random.default_rng(0).standard_normal(4 * 256).astype(np.float16)
    y = np.zeros_like(x)
    launch(mod, "dc_count", 4, x, y)
    np.testing.assert_array_equal(y, x)


def test_params_form_units_are_blocks(mod):
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(96, np.float32)
    launch(mod, "dc_params", 1, x, y)
    ub = np.full(96, -1, np.float32)
    for blk in range(3):  # 16 floats per block pair, GM stride (2+1)*8, UB stride (2+2)*8
        ub[blk * 32:blk * 32 + 16] = x[blk * 24:blk * 24 + 16]
    np.testing.assert_array_equal(y, ub)
    y = np.zeros(64, np.float32)
    launch(mod, "dc_params_out", 1, x, y)
    want = np.zeros(64, np.float32)
    want[0:8] = x[0:8]          # block 0 -> GM block 0
    want[32:40] = x[16:24]      # UB gap 1 block, GM gap 3 blocks
    np.testing.assert_array_equal(y, want)


def test_pad_ext_units(mod):
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64, np.float32)
    launch(mod, "pad_ext", 1, x, y)
    want = np.full(64, -1, np.float32)
    for r in range(3):          # GM: 20 B rows 8 B apart -> row starts 0, 7, 14; UB: 32 B blocks + 1 gap block
        want[r * 16:r * 16 + 5] = x[r * 7:r * 7 + 5]
        want[r * 16 + 5:r * 16 + 8] = 9
    np.testing.assert_array_equal(y, want)
    y = np.zeros(64, np.float32)
    launch(mod, "pad_ext_out", 1, x, y)
    want = np.zeros(64, np.float32)
    for r in range(3):          # UB rows at 0, 16, 32 floats; GM rows 5 floats + 1 float gap
        want[r * 6:r * 6 + 5] = x[r * 16:r * 16 + 5]
    np.testing.assert_array_equal(y, want)


def test_pad_old_form_units(mod):
    x = np.arange(64, dtype=np.float16)
    y = np.zeros(128, np.float16)
    launch(mod, "pad_old", 1, x, y)
    ub = np.full(64, -1, np.float16)
    pad = np.array([0x4700], np.uint16).view(np.float16)[0]   # 7.0
    for r in range(2):          # 11 halves per row, GM gap 2 bytes (1 half); UB row = 2 pad + 11 -> 16
        ub[r * 16:r * 16 + 2] = pad
        ub[r * 16 + 2:r * 16 + 13] = x[r * 12:r * 12 + 11]
        ub[r * 16 + 13:r * 16 + 16] = pad
    np.testing.assert_array_equal(y[:64], ub)
    want = np.zeros(64, np.float16)
    for r in range(2):          # out: 13 halves per row from 32 B UB blocks, GM gap 6 bytes
        want[r * 16:r * 16 + 13] = ub[r * 16:r * 16 + 13]
    np.testing.assert_array_equal(y[64:], want)


def test_pad_unaligned_tail(mod):
    x = np.random.default_rng(1).standard_normal(3000).astype(np.float16)
    y = np.full(3002, 5, np.float16)
    launch(mod, "pad_tail", 3, x, y)
    np.testing.assert_array_equal(y[:3000], np.abs(x))
    np.testing.assert_array_equal(y[3000:], 5)      # exactly blockLen bytes written


def test_atomic_add_across_blocks(mod):
    blocks = 8
    x = np.random.default_rng(2).integers(-50, 50, 64 * blocks).astype(np.float32)
    y = np.ones(72, np.float32)                     # GM is not zeroed first
    launch(mod, "atomic", blocks, x, y)
    np.testing.assert_array_equal(y[:64], 1 + x.reshape(blocks, 64).sum(0))
    assert y[64] == 100 and y[65] == x[1]           # after SetAtomicNone writes overwrite
    xh = np.arange(16 * 4, dtype=np.float16)
    yh = np.zeros(16, np.float16)
    launch(mod, "atomic_half", 4, xh, yh)
    np.testing.assert_array_equal(yh[:3], xh.reshape(4, 16)[:, :3].sum(0))
    np.testing.assert_array_equal(yh[3:], 0)


def test_large_copies(mod):
    x = np.random.default_rng(3).standard_normal(3008).astype(np.float32)
    y = np.zeros(3009 + 3008 + 5, np.float32)
    launch(mod, "dc_large", 1, x, y)
    np.testing.assert_array_equal(y[:3008], x)
    assert y[3008] == 0
    np.testing.assert_array_equal(y[3009:3009 + 3008], x)
    np.testing.assert_array_equal(y[-5:], 0)


def test_atomic_max_min(mod):
    x = np.random.default_rng(4).integers(-1000, 1000, 6 * 8).astype(np.int32)
    y = np.zeros(16, np.int32)
    launch(mod, "atomic_maxmin", 6, x, y)
    np.testing.assert_array_equal(y[:8], np.maximum(x.reshape(6, 8).max(0), 0))
    np.testing.assert_array_equal(y[8:], np.minimum(x.reshape(6, 8).min(0), 0))


@pytest.mark.parametrize("t,dt", [("uint32_t", np.uint32), ("float", np.float32)])
def test_atomic_max_min_uint32_float(mod, t, dt):
    rng = np.random.default_rng(5)
    x = (rng.integers(0, 2**32, 6 * 8, dtype=np.uint64).astype(dt) if dt == np.uint32
         else (rng.standard_normal(6 * 8) * 100).astype(dt))
    y = np.concatenate([x[:8], x[:8]]).astype(dt)   # start from block 0's values: max/min of all six
    launch(mod, "atomic_maxmin_" + t, 6, x, y)
    np.testing.assert_array_equal(y[:8], x.reshape(6, 8).max(0))
    np.testing.assert_array_equal(y[8:], x.reshape(6, 8).min(0))


def test_init_global_memory(mod):
    y = np.zeros(400, np.int32)
    launch(mod, "init_gm", 4, np.zeros(1, np.int32), y)
    np.testing.assert_array_equal(y, np.repeat(np.arange(4) + 7, 100))
