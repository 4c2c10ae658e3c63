"""dav-3510's register-level vector compute, against NumPy: the C++ API
(AscendC::Reg: RegTensor, MaskReg, LoadAlign/StoreAlign, predicated
arithmetic, Duplicate, Select, Reduce) and the SIMD C API (vector_float,
asc_* on `__ubuf__` buffers, asc_copy_*, asc_sync_*), each with its
documented semantics (inactive lanes zeroed, masked stores, post-update
addressing) and its checks (alignment, UB end, event pairing, GM bounds),
a good launch after each failure."""
import numpy as np
import pytest

import ascendrtc as arc

OPTS = ["--npu-arch=dav-3510"]

CPP = r"""
#include "kernel_operator.h"
using namespace AscendC;

// Three 512-float UB tiles lx, ly, lo over GM x, y, out; x and y copied in.
#define TILES_IN                                                                                        \
    TPipe pipe;                                                                                         \
    TBuf<TPosition::VECCALC> buf;                                                                       \
    pipe.InitBuffer(buf, 3 * 512 * 4);                                                                  \
    LocalTensor<float> lx = buf.GetWithOffset<float>(512, 0), ly = buf.GetWithOffset<float>(512, 2048), \
                       lo = buf.GetWithOffset<float>(512, 4096);                                        \
    GlobalTensor<float> gx, gy, go;                                                                     \
    gx.SetGlobalBuffer((__gm__ float *)x, 512);                                                         \
    gy.SetGlobalBuffer((__gm__ float *)y, 512);                                                         \
    go.SetGlobalBuffer((__gm__ float *)out, 512);                                                       \
    DataCopy(lx, gx, 512);                                                                              \
    DataCopy(ly, gy, 512);

// x, y: n floats (n <= 512); out = f(x, y) lane by lane, masked past n.
template <int OP>
__simd_vf__ inline void vf(__ubuf__ float *o, __ubuf__ float *x, __ubuf__ float *y, uint32_t n)
{
    constexpr uint32_t step = AscendC::GetVecLen() / sizeof(float);
    Reg::RegTensor<float> a, b, d;
    Reg::MaskReg m;
    for (uint32_t i = 0; i < 512 / step; i++) {
        m = Reg::UpdateMask<float>(n);
        Reg::LoadAlign(a, x + i * step);
        Reg::LoadAlign(b, y + i * step);
        if constexpr (OP == 0) Reg::Add(d, a, b, m);
        if constexpr (OP == 1) Reg::Mul(d, a, b, m);
        if constexpr (OP == 2) Reg::Muls(d, a, 2.5f, m);
        if constexpr (OP == 3) Reg::Exp(d, a, m);
        if constexpr (OP == 4) { Reg::Duplicate(d, 7.0f); Reg::Max(d, a, b, m); }
        if constexpr (OP == 5) { Reg::Duplicate(d, -1.0f); Reg::Add<float, Reg::MaskMergeMode::MERGING>(d, a, b, m); }
        Reg::MaskReg all = Reg::CreateMask<float>();
        Reg::StoreAlign(o + i * step, d, all);
    }
}

template <int OP>
__global__ __vector__ void reg_op(GM_ADDR x, GM_ADDR y, GM_ADDR out, uint32_t n)
{
    AscendC::InitSocState();
    TILES_IN
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    asc_vf_call<vf<OP>>((__ubuf__ float *)lo.GetPhyAddr(), (__ubuf__ float *)lx.GetPhyAddr(),
                        (__ubuf__ float *)ly.GetPhyAddr(), n);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(go, lo, 512);
}

// Masks, select, reduce and the post-update forms on one register of floats.
__simd_vf__ inline void misc_vf(__ubuf__ float *o, __ubuf__ float *x, __ubuf__ float *y)
{
    Reg::RegTensor<float> a, b, d;
    Reg::MaskReg all = Reg::CreateMask<float>();
    __ubuf__ float *px = x;
    Reg::LoadAlign<float, Reg::PostLiteral::POST_MODE_UPDATE>(a, px, 64);  // px -> x + 64
    Reg::LoadAlign<float, Reg::PostLiteral::POST_MODE_UPDATE>(b, px, 64);
    Reg::MaskReg m3 = Reg::CreateMask<float, Reg::MaskPattern::M3>();
    Reg::Select(d, a, b, m3);                       // row 0: a where i % 3 == 0, else b
    Reg::StoreAlign(o, d, all);
    Reg::MaskReg h = Reg::CreateMask<float, Reg::MaskPattern::H>();
    Reg::Reduce<Reg::ReduceType::SUM>(d, a, h);     // row 1: sum of a[0:32] at 0
    Reg::StoreAlign(o + 64, d, all);
    Reg::MaskReg q = Reg::CreateMask<float, Reg::MaskPattern::Q>();
    Reg::Duplicate(d, 3.0f, q);                     // row 2: 3 in the first 16 lanes, 0 after
    Reg::StoreAlign(o + 128, d, all);
    Reg::LoadAlign<float, Reg::LoadDist::DIST_BRC_B32>(d, y + 5);  // row 3: y[5] everywhere
    __ubuf__ float *po = o + 192;
    Reg::StoreAlign<float, Reg::PostLiteral::POST_MODE_UPDATE>(po, d, 64, all);
    Reg::MaskReg vl8 = Reg::CreateMask<float, Reg::MaskPattern::VL8>();
    Reg::StoreAlign(po, a, vl8);                    // row 4: a[0:8], the rest untouched
}

__global__ __vector__ void reg_misc(GM_ADDR x, GM_ADDR y, GM_ADDR out)
{
    TILES_IN
    DataCopy(lo, go, 512);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<misc_vf>((__ubuf__ float *)lo.GetPhyAddr(), (__ubuf__ float *)lx.GetPhyAddr(),
                         (__ubuf__ float *)ly.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();
    DataCopy(go, lo, 512);
}

__simd_vf__ inline void misaligned_vf(__ubuf__ float *x)
{
    Reg::RegTensor<float> a;
    Reg::LoadAlign(a, x + 1);
}
__global__ __vector__ void reg_misaligned(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    asc_vf_call<misaligned_vf>((__ubuf__ float *)buf.Get<float>().GetPhyAddr());
}
__simd_vf__ inline void past_ub_vf(__ubuf__ float *x)
{
    Reg::RegTensor<float> a;
    Reg::LoadAlign(a, x + (AscendC::TOTAL_UB_SIZE - 128) / 4);
}
__global__ __vector__ void reg_past_ub(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    asc_vf_call<past_ub_vf>((__ubuf__ float *)buf.Get<float>().GetPhyAddr());
}
"""


@pytest.fixture(scope="module")
def cpp():
    return arc.Program(CPP, "reg_api.asc", name_expressions=[f"reg_op<{i}>" for i in range(6)]).compile(OPTS).load()


def _xy(seed=0):
    r = np.random.default_rng(seed)
    return r.standard_normal(512).astype(np.float32), r.standard_normal(512).astype(np.float32)


@pytest.mark.parametrize("op", range(6))
def test_reg_arithmetic_is_numpy_with_zeroed_or_merged_tails(cpp, op):
    x, y = _xy(op)
    n = 200  # UpdateMask: 64, 64, 64, 8, then nothing
    out = np.full(512, 99, np.float32)
    cpp.get_kernel(f"reg_op<{op}>")[1](x, y, out, n)
    arc.synchronize()
    want = [x + y, x * y, x * np.float32(2.5), np.exp(x), np.maximum(x, y), x + y][op].astype(np.float32)
    tail = np.float32(-1) if op == 5 else np.float32(0)  # MERGING keeps the old -1, ZEROING writes 0
    want[n:] = tail
    if op == 3:
        np.testing.assert_allclose(out, want, rtol=2e-6)
    else:
        np.testing.assert_array_equal(out, want)


def test_reg_masks_select_reduce_broadcast_post_update(cpp):
    x, y = _xy(7)
    out = np.full(512, 99, np.float32)
    cpp.get_kernel("reg_misc")[1](x, y, out)
    arc.synchronize()
    a, b = x[:64], x[64:128]
    i = np.arange(64)
    np.testing.assert_array_equal(out[:64], np.where(i % 3 == 0, a, b))
    assert out[64] == pytest.approx(float(np.sum(a[:32], dtype=np.float64)), rel=1e-5)
    np.testing.assert_array_equal(out[65:128], 0)
    np.testing.assert_array_equal(out[128:192], np.where(i < 16, 3.0, 0.0).astype(np.float32))
    np.testing.assert_array_equal(out[192:256], np.full(64, y[5], np.float32))
    np.testing.assert_array_equal(out[256:264], a[:8])
    np.testing.assert_array_equal(out[264:320], 99)


def test_reg_load_checks_alignment_and_the_ub_end(cpp):
    with pytest.raises(arc.LaunchError, match=r"AscendC::Reg::LoadAlign.*not 32-byte aligned"):
        cpp.get_kernel("reg_misaligned")[1](np.zeros(8, np.float32))
        arc.synchronize()
    with pytest.raises(arc.LaunchError, match=r"AscendC::Reg::LoadAlign.*past the end of the UB \(262144 bytes\)"):
        cpp.get_kernel("reg_past_ub")[1](np.zeros(8, np.float32))
        arc.synchronize()
    test_reg_arithmetic_is_numpy_with_zeroed_or_merged_tails(cpp, 0)  # a good launch after


def test_reg_api_needs_dav_3510():
    src = '#include "kernel_operator.h"\n__global__ __vector__ void k(GM_ADDR x) { AscendC::Reg::MaskReg m; }\n'
    with pytest.raises(arc.CompileError, match="Reg"):
        arc.Program(src, "reg2201.asc").compile(["--npu-arch=dav-2201"])


CAPI = r"""
#include "c_api/asc_simd.h"

constexpr uint32_t N = 256;

__simd_vf__ inline void axpy_vf(__ubuf__ float *z, __ubuf__ float *x, __ubuf__ float *y, uint32_t n, float a)
{
    vector_float vx, vy, vz;
    vector_bool m;
    uint16_t step = asc_get_vf_len() / sizeof(float);
    for (uint16_t i = 0; i < N / step; i++) {
        m = asc_update_mask_b32(n);
        asc_loadalign_postupdate(vx, x, step);
        asc_loadalign(vy, y, i * step);
        asc_mul_scalar(vz, vx, a, m);
        asc_add(vz, vz, vy, m);
        asc_storealign_postupdate(z, vz, step, m);
    }
}

__vector__ __global__ void axpy(__gm__ float *x, __gm__ float *y, __gm__ float *z, uint32_t n, float a)
{
    asc_init();
    __gm__ float *bx = x + block_idx * N, *by = y + block_idx * N, *bz = z + block_idx * N;
    __ubuf__ float *lx = (__ubuf__ float *)asc_get_phy_buf_addr(0);
    __ubuf__ float *ly = lx + N, *lz = lx + 2 * N;
    asc_copy_gm2ub_align(lx, bx, N * 4);
    asc_copy_gm2ub((__ubuf__ void *)ly, (__gm__ void *)by, N * 4);
    asc_copy_gm2ub((__ubuf__ void *)lz, (__gm__ void *)bz, N * 4);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_vf_call<axpy_vf>(lz, lx, ly, n, a);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_align(bz, lz, 1, N * 4, asc_store_l2_cache_mode::NORMAL_FIRST_VICTIM, 0, 0);
    asc_sync();
}

__simd_vf__ inline void cmp_vf(__ubuf__ float *o, __ubuf__ float *x, __ubuf__ float *y)
{
    vector_float vx, vy, vz, vk;
    vector_bool all = asc_create_mask_b32(PAT_ALL), gt, m4 = asc_create_mask_b32(PAT_M4);
    asc_loadalign(vx, x);
    asc_loadalign(vy, y);
    asc_gt(gt, vx, vy, all);
    asc_select(vz, vx, vy, gt);            // max(x, y)
    asc_storealign(o, vz, all);
    asc_gt_scalar(gt, vx, 0.0f, m4);       // x > 0 at multiples of 4
    asc_duplicate_scalar(vk, 1.0f, gt);
    asc_storealign(o + 64, vk, all);
    asc_abs(vz, vx, all);
    asc_reduce_sum(vk, vz, all);
    asc_storealign(o + 128, vk, all);
}
__vector__ __global__ void cmp(__gm__ float *x, __gm__ float *y, __gm__ float *o)
{
    asc_init();
    __ubuf__ float *lx = (__ubuf__ float *)asc_get_phy_buf_addr(0);
    __ubuf__ float *ly = lx + 64, *lo = lx + 128;
    asc_copy_gm2ub_sync((__ubuf__ void *)lx, (__gm__ void *)x, 256);
    asc_copy_gm2ub_sync((__ubuf__ void *)ly, (__gm__ void *)y, 256);
    asc_sync();
    cmp_vf(lo, lx, ly);                    // a VF may also be called directly
    asc_sync();
    asc_copy_ub2gm_sync((__gm__ void *)o, (__ubuf__ void *)lo, 192 * 4);
}

__simd_vf__ inline void logic_vf(__ubuf__ int32_t *o, __ubuf__ int32_t *x, __ubuf__ int32_t *y)
{
    vector_int32_t vx, vy, vz;
    uint32_t n = 40;
    vector_bool all = asc_create_mask_b32(PAT_ALL), m = asc_update_mask_b32(n), gx, gy, both;
    asc_loadalign(vx, x);
    asc_loadalign(vy, y);
    asc_and(vz, vx, vy, m);                // the first 40 lanes, the rest 0
    asc_storealign(o, vz, all);
    asc_or(vz, vx, vy, all);
    asc_storealign(o + 64, vz, all);
    asc_xor(vz, vx, vy, all);
    asc_storealign(o + 128, vz, all);
    asc_not(vz, vx, all);
    asc_storealign(o + 192, vz, all);
    asc_gt_scalar(gx, vx, 0, all);
    asc_gt_scalar(gy, vy, 0, all);
    asc_and(both, gx, gy, m);              // on mask registers, within m
    asc_select(vz, vx, vy, both);
    asc_storealign(o + 256, vz, all);
}
__vector__ __global__ void logic(__gm__ int32_t *x, __gm__ int32_t *y, __gm__ int32_t *o)
{
    asc_init();
    __ubuf__ int32_t *lx = (__ubuf__ int32_t *)asc_get_phy_buf_addr(0);
    __ubuf__ int32_t *ly = lx + 64, *lo = lx + 128;
    asc_copy_gm2ub_sync((__ubuf__ void *)lx, (__gm__ void *)x, 256);
    asc_copy_gm2ub_sync((__ubuf__ void *)ly, (__gm__ void *)y, 256);
    asc_sync();
    asc_vf_call<logic_vf>(lo, lx, ly);
    int32_t ev = 2;                        // an integer id, as CANN's examples pass
    asc_sync_notify(PIPE_V, PIPE_MTE3, ev);
    asc_sync_wait(PIPE_V, PIPE_MTE3, ev);
    asc_sync_data_barrier(mem_dsb_t::DSB_UB);
    asc_copy_ub2gm_sync((__gm__ void *)o, (__ubuf__ void *)lo, 320 * 4);
}
__vector__ __global__ void bad_event(__gm__ int32_t *x, int32_t ev)
{
    asc_sync_notify(PIPE_V, PIPE_MTE3, ev);
    asc_sync_wait(PIPE_V, PIPE_MTE3, ev);
}

__vector__ __global__ void wait_unpaired(__gm__ float *x)
{
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID3);
}
__vector__ __global__ void odd_size(__gm__ float *x)
{
    asc_copy_gm2ub((__ubuf__ void *)asc_get_phy_buf_addr(0), (__gm__ void *)x, 100);
}
__vector__ __global__ void gm_overrun(__gm__ float *x)
{
    asc_copy_gm2ub_align((__ubuf__ float *)asc_get_phy_buf_addr(0), x, 4096);
}
"""


@pytest.fixture(scope="module")
def capi():
    return arc.Program(CAPI, "capi.asc").compile(OPTS).load()


def test_capi_axpy_on_ub_with_tail_mask(capi):
    r = np.random.default_rng(3)
    x, y = r.standard_normal(512).astype(np.float32), r.standard_normal(512).astype(np.float32)
    z = np.full(512, 5, np.float32)
    n = 150
    capi.get_kernel("axpy")[2](x, y, z, n, 1.5)
    arc.synchronize()
    for blk in range(2):
        s = slice(blk * 256, blk * 256 + n)
        np.testing.assert_array_equal(z[s], (x[s] * np.float32(1.5)) + y[s])
        np.testing.assert_array_equal(z[blk * 256 + n:(blk + 1) * 256], 5)  # masked-off lanes not stored


def test_capi_logic_on_vector_and_mask_registers(capi):
    r = np.random.default_rng(5)
    x, y = r.integers(-2**31, 2**31, 64).astype(np.int32), r.integers(-2**31, 2**31, 64).astype(np.int32)
    o = np.zeros(320, np.int32)
    capi.get_kernel("logic")[1](x, y, o)
    arc.synchronize()
    i = np.arange(64)
    np.testing.assert_array_equal(o[:64], np.where(i < 40, x & y, 0))
    np.testing.assert_array_equal(o[64:128], x | y)
    np.testing.assert_array_equal(o[128:192], x ^ y)
    np.testing.assert_array_equal(o[192:256], ~x)
    np.testing.assert_array_equal(o[256:], np.where((i < 40) & (x > 0) & (y > 0), x, y))
    with pytest.raises(arc.LaunchError, match=r"asc_sync_notify.*event id 9 is out of range 0..7"):
        capi.get_kernel("bad_event")[1](x, 9)
    capi.get_kernel("bad_event")[1](x, 7)  # a good launch after
    arc.synchronize()


def test_capi_compare_select_duplicate_reduce(capi):
    r = np.random.default_rng(4)
    x, y = r.standard_normal(64).astype(np.float32), r.standard_normal(64).astype(np.float32)
    o = np.zeros(192, np.float32)
    capi.get_kernel("cmp")[1](x, y, o)
    arc.synchronize()
    np.testing.assert_array_equal(o[:64], np.maximum(x, y))
    i = np.arange(64)
    np.testing.assert_array_equal(o[64:128], np.where((i % 4 == 0) & (x > 0), 1.0, 0.0).astype(np.float32))
    assert o[128] == pytest.approx(float(np.abs(x).sum(dtype=np.float64)), rel=1e-5)
    np.testing.assert_array_equal(o[129:], 0)


@pytest.mark.parametrize("name,msg", [
    ("wait_unpaired", r"asc_sync_wait.*without a matching SetFlag"),
    ("odd_size", r"asc_copy_gm2ub.*size 100 bytes is not a multiple of 32"),
    ("gm_overrun", r"asc_copy_gm2ub_align"),
])
def test_capi_checks(capi, name, msg):
    with pytest.raises(arc.LaunchError, match=msg):
        capi.get_kernel(name)[1](np.zeros(8, np.float32))
        arc.synchronize()
    test_capi_axpy_on_ub_with_tail_mask(capi)


def test_debug_headers_builtins_and_cpu_debug_header(capfd):
    src = r"""
#include "kernel_operator.h"
#include "utils/debug/asc_printf.h"
#include "utils/debug/asc_dump.h"
#include "utils/debug/asc_assert.h"
#ifdef ASCENDC_CPU_DEBUG
#include "cpu_debug_launch.h"
#endif
__mix__(1, 2) __global__ void nothing() {}
__vector__ __global__ void facts(__gm__ int32_t *o)
{
    AscendC::InitSocState();
    o[block_idx * 4 + 0] = block_idx;
    o[block_idx * 4 + 1] = block_num;
    o[block_idx * 4 + 2] = sub_block_idx;
    o[block_idx * 4 + 3] = (int32_t)AscendC::GetVecLen();
    printf("facts block %d\n", (int)block_idx);
    asc_dump_gm(o, 7, 2);
}
__vector__ __global__ void check(__gm__ int32_t *o, int32_t v)
{
    ascendc_assert(v != 3, "v is %d\n", v);
    o[0] = v;
}
"""
    mod = arc.Program(src, "debug.asc").compile(OPTS).load()
    o = np.zeros(8, np.int32)
    mod.get_kernel("facts")[2](o)
    arc.synchronize()
    np.testing.assert_array_equal(o.reshape(2, 4), [[0, 2, 0, 256], [1, 2, 0, 256]])
    out, err = capfd.readouterr()
    assert "facts block 1" in out + err and "desc=7" in out + err
    with pytest.raises(arc.LaunchError, match=r"ascendc_assert.*Assertion `v != 3' failed"):
        mod.get_kernel("check")[1](o, 3)
        arc.synchronize()
    assert "v is 3" in "".join(capfd.readouterr())
    mod.get_kernel("check")[1](o, 4)
    arc.synchronize()
    assert o[0] == 4


def test_asc_dump_reg_prints_a_register(capfd):
    # asc_dump_reg / asc_dump(reg) in a simd_vf: the register's first
    # elements read as T; more than the register holds is refused naming it
    src = r"""
#include "kernel_operator.h"
#include "utils/debug/asc_dump.h"
__simd_vf__ inline void show(__ubuf__ float *x, uint32_t n)
{
    AscendC::Reg::RegTensor<float> r;
    AscendC::Reg::LoadAlign(r, x);
    asc_dump_reg<float>(r, 9, 4);
    AscendC::Reg::Duplicate<float>(r, 2.5f);
    asc_dump<float>(r, 10, n);
}
__vector__ __global__ void dumps(__gm__ float *g, uint32_t n)
{
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> t = ub.Alloc<float, 64>();
    AscendC::GlobalTensor<float> gt;
    gt.SetGlobalBuffer(g, 64);
    AscendC::DataCopy(t, gt, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    asc_vf_call<show>((__ubuf__ float *)t.GetPhyAddr(), n);
}
"""
    k = arc.Program(src, "dumpreg.asc").compile(OPTS).load().get_kernel("dumps")
    g = np.arange(64, dtype=np.float32) + 0.5
    k[1](g, np.uint32(3))
    arc.synchronize()
    out = "".join(capfd.readouterr())
    assert "asc_dump: Reg, desc=9, 4 elements of float: 0.5 1.5 2.5 3.5" in out, out
    assert "asc_dump: Reg, desc=10, 3 elements of float: 2.5 2.5 2.5" in out, out
    with pytest.raises(arc.LaunchError, match=r"asc_dump_reg: dump_size 65 is more than the register's 64 float"):
        k[1](g, np.uint32(65))
        arc.synchronize()
