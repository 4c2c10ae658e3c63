"""Device API breadth that real kernels use: DivCeil/AlignUp/Std helpers,
integer Ceil/CeilDivision, GetTaskRation, likely/unlikely,
IsSameType, block_idx/block_num, float16_t, C library names at global
scope, LocalTensor operators, Fill/InitOutput, Arange, level-0 ReduceMin/
Max with a mask array, RepeatReduceSum, GlobalTensor::address_, the
4-field DataCopyPad form, TBufPool, LocalMemAllocator, ListTensorDesc,
ShapeInfo/DumpAccChkPoint, CacheMode and GroupBarrier, against NumPy."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

PRE = "using namespace AscendC;\n"


def k(name, params, body, ub=8192):
    return ('extern "C" __global__ __aicore__ void %s(%s)\n{\nTPipe pipe; TBuf<> b; pipe.InitBuffer(b, %d);\n%s\n}\n'
            % (name, params, ub, body))


KERNELS = [
    # scalar helpers and builtin names: one int32 result per slot
    k("scalars", "GM_ADDR y",
      "GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t *)y + GetBlockIdx() * 16, 16);"
      " float16_t h = (float16_t)1.5f; float32_t f = 2.25f; uint8_t raw[4]; ::memcpy(raw, &f, 4); float f2; memcpy(&f2, raw, 4);"
      " g.SetValue(0, DivCeil(10, 4)); g.SetValue(1, CeilDiv(17u, 8u)); g.SetValue(2, AlignUp(33, 32));"
      " g.SetValue(3, Std::max(3, 9)); g.SetValue(4, Std::min(3, 9));"
      " g.SetValue(5, IsSameType<float, float32_t>::value + 2 * IsSameType<half, float>::value + 4 * Std::is_same<half, float16_t>::value);"
      " g.SetValue(6, (int32_t)block_idx); g.SetValue(7, (int32_t)(block_num * 10));"
      " g.SetValue(8, (int32_t)(::sqrt(f2) * 100)); g.SetValue(9, (int32_t)((float)h * 2));"
      " g.SetValue(10, TOTAL_VEC_LOCAL_SIZE / 1024); g.SetValue(11, AIV * 10 + AIC);"
      " g.SetValue(12, AscendCUtils::GetC0Count(sizeof(half)));"),
    # integer Ceil(a, b) (the scalar overload beside the tensor Ceil), CeilDivision, GetTaskRation, unlikely
    k("ceil_helpers", "GM_ADDR y, uint32_t n",
      "GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t *)y, 16);"
      " g.SetValue(0, Ceil(n, 4u)); g.SetValue(1, (int32_t)Ceil(n * sizeof(half), 32)); g.SetValue(2, Ceil(0, 5));"
      " g.SetValue(3, Ceil(n, 0)); g.SetValue(4, CeilDivision((int32_t)n, 8)); g.SetValue(5, (int32_t)GetTaskRation());"
      " if (unlikely(n > 1000)) { g.SetValue(6, -1); } else if (likely(n > 0)) { g.SetValue(6, 1); }"
      " static_assert(Ceil(33u, 32u) == 2u && Ceil((uint64_t)64, 32) == 2u, \"constexpr\");"),
    # z = x * y + ...: whole-tensor operators
    k("tensor_ops", "GM_ADDR x, GM_ADDR y, GM_ADDR z",
      "GlobalTensor<float> gx, gy, gz; gx.SetGlobalBuffer((__gm__ float *)x); gy.SetGlobalBuffer((__gm__ float *)y);"
      " gz.SetGlobalBuffer((__gm__ float *)z); LocalTensor<float> a = b.Get<float>(64), c = b.Get<float>(128)[64];"
      " LocalTensor<float> t = b.Get<float>(192)[128], o = b.Get<float>(256)[192];"
      " PipeBarrier<PIPE_ALL>(); DataCopy(a, gx, 64); PipeBarrier<PIPE_ALL>(); PipeBarrier<PIPE_ALL>(); DataCopy(c, gy, 64); PipeBarrier<PIPE_ALL>();"
      " t = a * c; o = t + a; PipeBarrier<PIPE_ALL>(); DataCopy(gz, o, 64); PipeBarrier<PIPE_ALL>(); o = a - c; PipeBarrier<PIPE_ALL>(); DataCopy(gz[64], o, 64); PipeBarrier<PIPE_ALL>(); o = a / c; PipeBarrier<PIPE_ALL>(); DataCopy(gz[128], o, 64); PipeBarrier<PIPE_ALL>();"),
    # Fill / InitOutput on GM
    k("fill", "GM_ADDR y, GM_ADDR z",
      "GlobalTensor<half> gy; gy.SetGlobalBuffer((__gm__ half *)y + GetBlockIdx() * 40, 40);"
      " GlobalTensor<int32_t> gz; gz.SetGlobalBuffer((__gm__ int32_t *)z + GetBlockIdx() * 24, 24);"
      " Fill<half>(gy, 40, (half)(float)GetBlockIdx()); InitOutput<int32_t>(gz, 24, 7);"),
    # Arange (int32 and float)
    k("arange", "GM_ADDR y, GM_ADDR z",
      "GlobalTensor<int32_t> gy; gy.SetGlobalBuffer((__gm__ int32_t *)y); GlobalTensor<float> gz; gz.SetGlobalBuffer((__gm__ float *)z);"
      " LocalTensor<int32_t> a = b.Get<int32_t>(64); LocalTensor<float> f = b.Get<float>(128)[64];"
      " Arange<int32_t>(a, 5, 3, 64); Arange(f, 0.5f, -0.25f, 64); PipeBarrier<PIPE_ALL>(); DataCopy(gy, a, 64); PipeBarrier<PIPE_ALL>(); PipeBarrier<PIPE_ALL>(); DataCopy(gz, f, 64); PipeBarrier<PIPE_ALL>();"),
    # level-0 ReduceMin/Max with a uint64_t mask[2] (the unaligned reducemin sample's form), RepeatReduceSum
    k("reduce_masks", "GM_ADDR x, GM_ADDR y",
      "GlobalTensor<half> gx, gy; gx.SetGlobalBuffer((__gm__ half *)x); gy.SetGlobalBuffer((__gm__ half *)y);"
      " LocalTensor<half> a = b.Get<half>(256), o = b.Get<half>(512)[256], w = b.Get<half>(1024)[512];"
      " PipeBarrier<PIPE_ALL>(); DataCopy(a, gx, 256); PipeBarrier<PIPE_ALL>(); Duplicate(o, (half)0, 256);"
      " uint64_t m[2] = {0xF0F0F0F0F0F0F0F0ull, 0x1ull}; ReduceMin<half>(o, a, w, m, 1, 8, false);"
      " ReduceMax<half>(o[16], a, w, m, 2, 8, true);"
      " RepeatReduceSum<half>(o[32], a, 2, 128, 0, 1, 1, 8);"
      " PipeBarrier<PIPE_ALL>(); DataCopy(gy, o, 256); PipeBarrier<PIPE_ALL>();"),
    # GlobalTensor::address_ and the 4-field DataCopyPad form (DataCopyParams, bytes)
    k("address", "GM_ADDR x, GM_ADDR y",
      "GlobalTensor<int8_t> gx, gy; gx.SetGlobalBuffer((__gm__ int8_t *)x, 64); gy.SetGlobalBuffer((__gm__ int8_t *)y, 64);"
      " LocalTensor<int8_t> a = b.Get<int8_t>(64); PipeBarrier<PIPE_ALL>(); DataCopy(a, gx, 64); PipeBarrier<PIPE_ALL>();"
      " PipeBarrier<PIPE_ALL>(); DataCopyPad(gy, a, {1, (uint16_t)(40 * sizeof(int8_t)), 0, 0}); PipeBarrier<PIPE_ALL>();"
      " for (int i = 40; i < 44; i++) { auto cursor = gy.address_ + i; *cursor = (int8_t)(gx[4].address_[i - 40] + 1); }"),
    # TBufPool: pools carved from the pipe, nested, shared, reset
    k("bufpool", "GM_ADDR x, GM_ADDR y",
      "TPipe *pp = &pipe; pp->Reset(); TBufPool<TPosition::VECCALC> p0, p1, p2; TQue<TPosition::VECIN, 1> q0, q1, q2;"
      " pp->InitBufPool(p0, 4096); p0.InitBuffer(q0, 1, 1024); p0.InitBufPool(p1, 2048); p0.InitBufPool(p2, 2048, p1);"
      " p1.InitBuffer(q1, 1, 1024); p2.InitBuffer(q2, 1, 1024);"
      " GlobalTensor<float> gx, gy; gx.SetGlobalBuffer((__gm__ float *)x); gy.SetGlobalBuffer((__gm__ float *)y);"
      " LocalTensor<float> a = q0.AllocTensor<float>(), c = q1.AllocTensor<float>();"
      " PipeBarrier<PIPE_ALL>(); DataCopy(a, gx, 256); PipeBarrier<PIPE_ALL>(); Adds(c, a, 1.0f, 256); PipeBarrier<PIPE_ALL>(); DataCopy(gy, c, 256); PipeBarrier<PIPE_ALL>(); q0.FreeTensor(a); q1.FreeTensor(c);"
      " p1.Reset(); LocalTensor<float> d = q2.AllocTensor<float>();"
      " int32_t same = d.GetPhyAddr() == c.GetPhyAddr(); PipeBarrier<PIPE_ALL>(); DataCopy(gy[256], d, 256); PipeBarrier<PIPE_ALL>(); q2.FreeTensor(d);"
      " LocalTensor<float> e = b.Get<float>(); e.SetValue(0, (float)same); e.SetValue(1, (float)(pp->ub_used_ / 32));"
      " PipeBarrier<PIPE_ALL>(); DataCopy(gy[512], e, 8); PipeBarrier<PIPE_ALL>();", ub=32),
    # LocalMemAllocator static tensors
    k("allocator", "GM_ADDR x, GM_ADDR y",
      "LocalMemAllocator<Hardware::UB> al; LocalTensor<float> a = al.Alloc<float, 64>(); LocalTensor<float> c = al.Alloc<float, 64>();"
      " GlobalTensor<float> gx, gy; gx.SetGlobalBuffer((__gm__ float *)x); gy.SetGlobalBuffer((__gm__ float *)y);"
      " PipeBarrier<PIPE_ALL>(); DataCopy(a, gx, 64); PipeBarrier<PIPE_ALL>(); Muls(c, a, 2.0f, 64); PipeBarrier<PIPE_ALL>(); DataCopy(gy, c, 64); PipeBarrier<PIPE_ALL>();"
      " c.SetValue(0, (float)((uint8_t *)c.GetPhyAddr() - (uint8_t *)a.GetPhyAddr())); PipeBarrier<PIPE_ALL>(); DataCopy(gy[64], c, 8); PipeBarrier<PIPE_ALL>();", ub=32),
    # ListTensorDesc of two 2-D tensors (the AddN layout)
    k("addn", "GM_ADDR list, GM_ADDR z",
      "ListTensorDesc ld((__gm__ void *)list, (1 + (1 + 2 + 1) * 2) * sizeof(uint64_t), 2);"
      " uint64_t buf[2] = {0}; TensorDesc<float> td; td.SetShapeAddr(buf); ld.GetDesc(td, 1);"
      " uint32_t n = td.GetShape(0) * td.GetShape(1);"
      " GlobalTensor<float> gx, gy, gz; gx.SetGlobalBuffer(ld.GetDataPtr<float>(0)); gy.SetGlobalBuffer(td.GetDataPtr());"
      " gz.SetGlobalBuffer((__gm__ float *)z); LocalTensor<float> a = b.Get<float>(n), c = b.Get<float>(2 * n)[n];"
      " PipeBarrier<PIPE_ALL>(); DataCopy(a, gx, n); PipeBarrier<PIPE_ALL>(); PipeBarrier<PIPE_ALL>(); DataCopy(c, gy, n); PipeBarrier<PIPE_ALL>(); Add(a, a, c, n); PipeBarrier<PIPE_ALL>(); DataCopy(gz, a, n); PipeBarrier<PIPE_ALL>();"
      " c.SetValue(0, (float)ld.GetSize()); c.SetValue(1, (float)td.GetIndex()); c.SetValue(2, (float)td.GetDim()); PipeBarrier<PIPE_ALL>(); DataCopy(gz[n], c, 8); PipeBarrier<PIPE_ALL>();"),
    # ShapeInfo + DumpTensor / DumpAccChkPoint, CacheMode hint
    k("dumps", "GM_ADDR x, GM_ADDR y",
      "GlobalTensor<float> gx, gy; gx.SetGlobalBuffer((__gm__ float *)x); gy.SetGlobalBuffer((__gm__ float *)y);"
      " gy.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE); LocalTensor<float> a = b.Get<float>(64); PipeBarrier<PIPE_ALL>(); DataCopy(a, gx, 64); PipeBarrier<PIPE_ALL>();"
      " uint32_t shp[2] = {8, 8}; ShapeInfo si(2, shp); DumpTensor(a, 1, 4, si); DumpAccChkPoint(a, 2, 32, 3);"
      " a.SetValue(0, (float)GetShapeSize(si)); PipeBarrier<PIPE_ALL>(); DataCopy(gy, a, 64); PipeBarrier<PIPE_ALL>();"),
    # GroupBarrier: blocks 0..2 add into GM and arrive, blocks 3..4 wait then read the sum
    k("group_barrier", "GM_ADDR ws, GM_ADDR y",
      "GroupBarrier<PipeMode::MTE3_MODE> bar(ws, 3, 2); int64_t id = GetBlockIdx();"
      " GlobalTensor<int32_t> gy; gy.SetGlobalBuffer((__gm__ int32_t *)y, 64);"
      " if (id < 3) { AtomicAdd((__gm__ int32_t *)y, (int32_t)(id + 1)); bar.Arrive(id); }"
      " else { bar.Wait(id - 3); gy.SetValue(8 * (id - 2), gy.GetValue(0)); }"),
]


@pytest.fixture(scope="module")
def mod():
    return dev.program(KERNELS, prelude=PRE)


def run(mod, name, blocks, *args):
    mod.get_kernel(name)[blocks](*args)
    arc.synchronize()


def test_scalar_helpers_and_builtin_names(mod):
    y = np.zeros(2 * 16, np.int32)
    run(mod, "scalars", 2, y)
    for blk in range(2):
        r = y[blk * 16:(blk + 1) * 16]
        assert list(r[:13]) == [3, 3, 64, 9, 3, 1 + 4, blk, 20, 150, 3, 192, 21, 16]


def test_integer_ceil_ceil_division_and_branch_hints(mod):
    for n in (17, 32, 1):
        y = np.zeros(16, np.int32)
        run(mod, "ceil_helpers", 1, y, np.uint32(n))
        assert list(y[:7]) == [-(-n // 4), -(-(2 * n) // 32), 0, 0, -(-n // 8), 1, 1]


def test_tensor_operators(mod):
    rng = np.random.default_rng(5)
    x = rng.standard_normal(64).astype(np.float32)
    y = rng.uniform(0.5, 2, 64).astype(np.float32)
    z = np.zeros(192, np.float32)
    run(mod, "tensor_ops", 1, x, y, z)
    np.testing.assert_array_equal(z[:64], x * y + x)
    np.testing.assert_array_equal(z[64:128], x - y)
    np.testing.assert_allclose(z[128:], x / y, rtol=1e-6)


def test_fill_and_init_output(mod):
    y = np.ones(3 * 40, np.float16)
    z = np.zeros(3 * 24, np.int32)
    run(mod, "fill", 3, y, z)
    np.testing.assert_array_equal(y, np.repeat(np.arange(3), 40).astype(np.float16))
    np.testing.assert_array_equal(z, 7)


def test_arange(mod):
    y = np.zeros(64, np.int32)
    z = np.zeros(64, np.float32)
    run(mod, "arange", 1, y, z)
    np.testing.assert_array_equal(y, 5 + 3 * np.arange(64))
    np.testing.assert_array_equal(z, (0.5 - 0.25 * np.arange(64)).astype(np.float32))


def test_reduce_mask_array_and_repeat_reduce_sum(mod):
    x = np.random.default_rng(6).uniform(-4, 4, 256).astype(np.float16)
    y = np.zeros(256, np.float16)
    run(mod, "reduce_masks", 1, x, y)
    lanes = [i for i in range(64) if (0xF0F0F0F0F0F0F0F0 >> i) & 1] + [64]
    assert y[0] == x[lanes].min()
    sel = np.array(lanes + [128 + i for i in lanes])
    assert y[16] == x[sel].max()
    idx = int(y[17:18].view(np.uint16)[0])
    assert x[idx] == x[sel].max() and idx in sel
    np.testing.assert_allclose(y[32:34].astype(np.float32), [x[:128].astype(np.float32).sum(),
                                                             x[128:].astype(np.float32).sum()], rtol=2e-3, atol=2e-2)


def test_address_and_four_field_datacopypad(mod):
    x = np.arange(64, dtype=np.int8)
    y = np.full(64, -1, np.int8)
    run(mod, "address", 1, x, y)
    np.testing.assert_array_equal(y[:40], x[:40])
    np.testing.assert_array_equal(y[40:44], x[4:8] + 1)
    np.testing.assert_array_equal(y[44:], -1)


def test_tbufpool(mod):
    x = np.arange(256, dtype=np.float32)
    y = np.zeros(512 + 8, np.float32)
    run(mod, "bufpool", 1, x, y)
    np.testing.assert_array_equal(y[:256], x + 1)
    np.testing.assert_array_equal(y[256:512], x + 1)   # the shared pool sees the same memory after Reset
    assert y[512] == 1 and y[513] == 4096 / 32         # the pipe gave the pool 4096 bytes


def test_local_mem_allocator(mod):
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(72, np.float32)
    run(mod, "allocator", 1, x, y)
    np.testing.assert_array_equal(y[1:64], 2 * x[1:64])
    assert y[64] == 256                               # the second tensor follows the first (64 floats)


def test_list_tensor_desc(mod):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((8, 16)).astype(np.float32)
    b = rng.standard_normal((8, 16)).astype(np.float32)
    da, db = arc.to_device(a), arc.to_device(b)
    desc = np.zeros(1 + (1 + 2) * 2 + 2, np.uint64)
    desc[0] = (1 + (1 + 2) * 2) * 8
    desc[1:4] = [2 | (0 << 32), 8, 16]
    desc[4:7] = [2 | (1 << 32), 8, 16]
    desc[7:9] = [da.ptr, db.ptr]
    z = np.zeros(128 + 8, np.float32)
    run(mod, "addn", 1, desc, z)
    np.testing.assert_array_equal(z[:128], (a + b).ravel())
    np.testing.assert_array_equal(z[128:131], [2, 1, 2])


def test_dump_shapeinfo_and_checkpoint(mod, capfd):
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64, np.float32)
    run(mod, "dumps", 1, x, y)
    assert y[0] == 64
    out = capfd.readouterr().out
    assert "shape [8, 8]" in out and " 32 33 34" in out


def test_group_barrier(mod):
    ws = np.zeros(8, np.int32)
    y = np.zeros(64, np.int32)
    run(mod, "group_barrier", 5, ws, y)
    assert y[0] == 6 and y[8] == 6 and y[16] == 6
