"""dav-3510 Reg families CANN's op libraries call, against NumPy and the
API pages: And/Or/Xor/Not on elements (masked lanes 0) and on mask
registers (also by their older names MaskAnd ...); the shifts (unsigned
logical, signed arithmetic: a left shift keeps the sign bit, the page's
int16 example); Log/Log2/Log10 (a subnormal input flushed to zero but for
PRECISION_1ULP_FTZ_FALSE); Axpy, MulAddDst, MulDstAdd (one rounding),
AbsSub; AddrReg offsets and the older DataCopy name of
LoadAlign/StoreAlign; the UNPACK load and PACK store distributions
(the pages' examples); a shift count past the element's bits refused."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.reg_frame import REG_FRAME

SRC = REG_FRAME + r"""
// in: int32 a (0..255), int32 b (256..511), int16 c (512..767)
__simd_vf__ inline void logic_vf(__ubuf__ uint8_t *in, __ubuf__ uint8_t *out, int32_t n)
{
    Reg::RegTensor<int32_t> a, b, d;
    Reg::RegTensor<uint32_t> u;
    Reg::RegTensor<int16_t> c, e;
    Reg::MaskReg all = Reg::CreateMask<int32_t>(), h = Reg::CreateMask<int16_t>(), m, k;
    uint32_t cnt = 40;
    m = Reg::UpdateMask<int32_t>(cnt);                  // the first 40 lanes
    Reg::DataCopy(a, (__ubuf__ int32_t *)in);           // the older name of LoadAlign
    Reg::DataCopy<int32_t, Reg::LoadDist::DIST_NORM>(b, (__ubuf__ int32_t *)(in + 256));
    Reg::And(d, a, b, m);
    Reg::DataCopy((__ubuf__ int32_t *)out, d, all);     // the older name of StoreAlign
    Reg::Or(d, a, b, m);
    Reg::StoreAlign((__ubuf__ int32_t *)(out + 256), d, all);
    Reg::Xor(d, a, b, m);
    Reg::StoreAlign((__ubuf__ int32_t *)(out + 512), d, all);
    Reg::Not(d, a, m);
    Reg::StoreAlign((__ubuf__ int32_t *)(out + 768), d, all);
    Reg::ShiftRights(d, a, (int16_t)n, all);            // arithmetic
    Reg::StoreAlign((__ubuf__ int32_t *)(out + 1024), d, all);
    u = (Reg::RegTensor<uint32_t> &)a;
    Reg::ShiftRights(u, u, (int16_t)n, all);            // logical
    Reg::StoreAlign((__ubuf__ uint32_t *)(out + 1280), u, all);
    Reg::LoadAlign(c, (__ubuf__ int16_t *)(in + 512));
    Reg::ShiftLefts(e, c, (int16_t)n, h);               // keeps the sign bit
    Reg::StoreAlign((__ubuf__ int16_t *)(out + 1536), e, h);
    Reg::Compares<int32_t, CMPMODE::GT>(k, a, 0, all);
    Reg::MaskAnd(k, k, m, all);
    Reg::MaskNot(k, k, all);
    Reg::Select(d, a, b, k);                            // a where not (a > 0 and lane < 40)
    Reg::StoreAlign((__ubuf__ int32_t *)(out + 1792), d, all);
}
__vector__ __global__ void logic(GM_ADDR in, GM_ADDR out, int32_t n) { FRAME(asc_vf_call<logic_vf>(ui, uo, n)) }

// in: float x (0..255), y (256..511), z (512..767)
__simd_vf__ inline void fused_vf(__ubuf__ uint8_t *in, __ubuf__ uint8_t *out)
{
    Reg::RegTensor<float> x, y, z, d;
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::AddrReg ar;
    for (uint16_t i = 0; i < 3; i++) {                  // x, y, z through one AddrReg
        ar = Reg::CreateAddrReg<float>(i, 64);
        Reg::LoadAlign(i == 0 ? x : i == 1 ? y : z, (__ubuf__ float *)in, ar);
    }
    Reg::Log(d, x, all);
    Reg::StoreAlign((__ubuf__ float *)out, d, all);
    static constexpr Reg::LogSpecificMode keep = {Reg::MaskMergeMode::ZEROING, Reg::LogAlgo::PRECISION_1ULP_FTZ_FALSE};
    Reg::Log<float, &keep>(d, x, all);
    Reg::StoreAlign((__ubuf__ float *)(out + 256), d, all);
    Reg::Log2(d, x, all);
    Reg::StoreAlign((__ubuf__ float *)(out + 512), d, all);
    Reg::Log10(d, x, all);
    Reg::StoreAlign((__ubuf__ float *)(out + 768), d, all);
    d = z;
    Reg::Axpy(d, x, 0.75f, all);
    Reg::StoreAlign((__ubuf__ float *)(out + 1024), d, all);
    d = z;
    Reg::MulAddDst(d, x, y, all);
    Reg::StoreAlign((__ubuf__ float *)(out + 1280), d, all);
    d = z;
    Reg::MulDstAdd(d, x, y, all);
    Reg::StoreAlign((__ubuf__ float *)(out + 1536), d, all);
    Reg::AbsSub(d, x, y, all);
    ar = Reg::CreateAddrReg<float>(1, 64, 2, 128);      // 64 + 256 floats on: out + 1792
    Reg::StoreAlign((__ubuf__ float *)(out + 512), d, ar, all);
}
__vector__ __global__ void fused(GM_ADDR in, GM_ADDR out) { FRAME(asc_vf_call<fused_vf>(ui, uo)) }

// in: bytes; out: UNPACK_B16, UNPACK_B8, UNPACK4_B8, UNPACK_B32 loads, then PACK_B32, PACK4_B32, PACK_B16 stores
__simd_vf__ inline void packs_vf(__ubuf__ uint8_t *in, __ubuf__ uint8_t *out)
{
    Reg::RegTensor<uint16_t> h;
    Reg::RegTensor<uint8_t> b;
    Reg::RegTensor<uint32_t> w;
    Reg::MaskReg a8 = Reg::CreateMask<uint8_t>(), a16 = Reg::CreateMask<uint16_t>(), a32 = Reg::CreateMask<uint32_t>();
    Reg::LoadAlign<uint16_t, Reg::LoadDist::DIST_UNPACK_B16>(h, (__ubuf__ uint16_t *)in);
    Reg::StoreAlign((__ubuf__ uint16_t *)out, h, a16);
    Reg::LoadAlign<uint8_t, Reg::LoadDist::DIST_UNPACK_B8>(b, in + 128);
    Reg::StoreAlign(out + 256, b, a8);
    Reg::LoadAlign<uint8_t, Reg::LoadDist::DIST_UNPACK4_B8>(b, in + 64);
    Reg::StoreAlign(out + 512, b, a8);
    Reg::LoadAlign<uint32_t, Reg::LoadDist::DIST_UNPACK_B32>(w, (__ubuf__ uint32_t *)(in + 256));
    Reg::StoreAlign((__ubuf__ uint32_t *)(out + 768), w, a32);
    Reg::LoadAlign(w, (__ubuf__ uint32_t *)(in + 512));
    Reg::StoreAlign<uint32_t, Reg::StoreDist::DIST_PACK_B32>((__ubuf__ uint32_t *)(out + 1024), w, a32);
    Reg::StoreAlign<uint32_t, Reg::StoreDist::DIST_PACK4_B32>((__ubuf__ uint32_t *)(out + 1152), w, a32);
    Reg::LoadAlign(h, (__ubuf__ uint16_t *)(in + 768));
    Reg::StoreAlign<uint16_t, Reg::StoreDist::DIST_PACK_B16>((__ubuf__ uint16_t *)(out + 1216), h, a16);
    Reg::StoreAlign<uint16_t, Reg::StoreDist::DIST_PACK_B32>((__ubuf__ uint16_t *)(out + 1344), h, a32);   // by b32 unit
}
__vector__ __global__ void packs(GM_ADDR in, GM_ADDR out) { FRAME(asc_vf_call<packs_vf>(ui, uo)) }
"""


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "reg_logic.asc").compile(["--npu-arch=dav-3510"]).load()


def _run(mod, name, buf, *args):
    out = np.zeros(2048, np.uint8)
    mod.get_kernel(name)[1](buf, out, *args)
    arc.synchronize()
    return out


def test_logic_shifts_and_mask_ops(mod):
    r = np.random.default_rng(11)
    buf = np.zeros(1024, np.uint8)
    a = r.integers(-2**31, 2**31, 64, dtype=np.int64).astype(np.int32)
    b = r.integers(-2**31, 2**31, 64, dtype=np.int64).astype(np.int32)
    c = r.integers(-2**15, 2**15, 128, dtype=np.int32).astype(np.int16)
    c[0] = np.int16(-21846)  # 1010101010101010, the page's example
    buf[:256], buf[256:512], buf[512:768] = a.view(np.uint8), b.view(np.uint8), c.view(np.uint8)
    o = _run(mod, "logic", buf, np.int32(3))
    on = np.arange(64) < 40
    for k, want in enumerate((a & b, a | b, a ^ b, ~a)):
        np.testing.assert_array_equal(o[256 * k:256 * (k + 1)].view(np.int32), np.where(on, want, 0))
    np.testing.assert_array_equal(o[1024:1280].view(np.int32), a >> 3)
    np.testing.assert_array_equal(o[1280:1536].view(np.uint32), a.view(np.uint32) >> 3)
    cu = c.view(np.uint16)
    keep = (cu & 0x8000) | ((cu << 3) & 0x7FFF)
    np.testing.assert_array_equal(o[1536:1792].view(np.uint16), keep.astype(np.uint16))
    assert o[1536:1538].view(np.uint16)[0] == 0b1101010101010000   # the page's int16 << 3
    np.testing.assert_array_equal(o[1792:2048].view(np.int32), np.where((a > 0) & on, b, a))


def test_unpack_loads_and_pack_stores(mod):
    buf = np.random.default_rng(13).integers(0, 256, 1024, dtype=np.uint8)
    o = _run(mod, "packs", buf)

    def spread(v, k):   # each element followed by k - 1 zeros
        r = np.zeros(len(v) * k, v.dtype)
        r[::k] = v
        return r
    np.testing.assert_array_equal(o[:256].view(np.uint16), spread(buf[:128].view(np.uint16), 2))
    np.testing.assert_array_equal(o[256:512], spread(buf[128:256], 2))
    np.testing.assert_array_equal(o[512:768], spread(buf[64:128], 4))
    np.testing.assert_array_equal(o[768:1024].view(np.uint32), spread(buf[256:384].view(np.uint32), 2))
    w = buf[512:768].view(np.uint32)
    np.testing.assert_array_equal(o[1024:1152].view(np.uint16), (w & 0xFFFF).astype(np.uint16))
    np.testing.assert_array_equal(o[1152:1216], (w & 0xFF).astype(np.uint8))
    np.testing.assert_array_equal(o[1216:1344], (buf[768:1024].view(np.uint16) & 0xFF).astype(np.uint8))
    np.testing.assert_array_equal(o[1344:1472].view(np.uint16), buf[768:1024].view(np.uint16)[0::2])


def test_a_shift_count_past_the_bits_is_refused(mod):
    buf = np.zeros(1024, np.uint8)
    with pytest.raises(arc.LaunchError, match=r"AscendC::Reg::ShiftRights.*shift count 32 is outside \[0, 32\)"):
        _run(mod, "logic", buf, np.int32(32))
    _run(mod, "logic", buf, np.int32(1))   # a good launch after


def test_logs_fused_and_addr_reg(mod):
    r = np.random.default_rng(12)
    x = r.uniform(0.01, 9, 64).astype(np.float32)
    x[:4] = [1e-40, 1.0, 10.0, 2.0 ** -130]   # subnormals flush but for FTZ_FALSE
    y = r.uniform(-3, 3, 64).astype(np.float32)
    z = r.uniform(-3, 3, 64).astype(np.float32)
    buf = np.zeros(1024, np.uint8)
    buf[:256], buf[256:512], buf[512:768] = x.view(np.uint8), y.view(np.uint8), z.view(np.uint8)
    o = _run(mod, "fused", buf)
    f = lambda k: o[256 * k:256 * (k + 1)].view(np.float32)
    ftz = np.where(np.abs(x) < np.finfo(np.float32).tiny, 0, x)
    with np.errstate(divide="ignore"):
        np.testing.assert_allclose(f(0), np.log(ftz.astype(np.float64)), rtol=2e-7)
        np.testing.assert_allclose(f(1), np.log(x.astype(np.float64)), rtol=2e-7)
        np.testing.assert_allclose(f(2)[4:], np.log2(x[4:].astype(np.float64)), rtol=2e-7)
        np.testing.assert_allclose(f(3)[4:], np.log10(x[4:].astype(np.float64)), rtol=2e-7)
    assert f(0)[0] == -np.inf and np.isfinite(f(1)[0])
    np.testing.assert_array_equal(f(4), (np.float32(0.75) * x) + z)
    np.testing.assert_array_equal(f(5), x * y + z)
    fma = z.astype(np.longdouble) * x + y   # exact here (a 48-bit product, nearby exponents): one rounding
    np.testing.assert_array_equal(f(6), fma.astype(np.float32))
    np.testing.assert_array_equal(o[512 + 1280:512 + 1536].view(np.float32), np.abs(x - y))  # via AddrReg
