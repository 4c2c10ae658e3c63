"""dav-3510 Reg data movement within registers and from UB, in both
spellings, against NumPy: a mask register loaded from UB (DIST_NORM, US,
DS; the post-update stride in bytes) driving Select; Interleave,
DeInterleave, Pack (low bits to the low or high half, the other half 0);
Gather in a register (index % N), from UB (int8 widened to int16, masked
lanes 0) and by 32-byte block (GatherB); Squeeze with the AR register and
StoreUnAlign at an unaligned address; a gather past the UB's end fails
naming the API, with a good launch after."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.reg_frame import REG_FRAME

SRC = REG_FRAME + r"""
// bytes 0..255: floats a; 256..511: floats b; 512..: mask bits
__simd_vf__ inline void masks_vf(__ubuf__ uint8_t *in, __ubuf__ uint8_t *out)
{
    Reg::RegTensor<float> a, b, d;
    Reg::MaskReg m, all = Reg::CreateMask<float>();
    Reg::LoadAlign(a, (__ubuf__ float *)in);
    Reg::LoadAlign(b, (__ubuf__ float *)(in + 256));
    __ubuf__ uint8_t *mp = in + 512;
    Reg::LoadAlign<uint8_t, Reg::PostLiteral::POST_MODE_UPDATE>(m, mp, 32);   // bytes 512..543, then +32
    Reg::Select(d, a, b, m);
    Reg::StoreAlign((__ubuf__ float *)out, d, all);
    Reg::LoadAlign<uint8_t, Reg::MaskDist::DIST_US>(m, mp);                   // bytes 544..559, each bit twice
    Reg::Select(d, a, b, m);
    Reg::StoreAlign((__ubuf__ float *)(out + 256), d, all);
    vector_bool cm;
    __ubuf__ uint32_t *cp = (__ubuf__ uint32_t *)(in + 576);
    asc_loadalign_downsample_postupdate(cm, cp, 64);                          // bytes 576..639, every other bit
    Reg::Select(d, a, b, cm);
    Reg::StoreAlign((__ubuf__ float *)(out + 512), d, all);
    Reg::RegTensor<uint32_t> t;
    Reg::Duplicate(t, (uint32_t)((__ubuf__ uint8_t *)cp - in));
    Reg::StoreAlign((__ubuf__ uint32_t *)(out + 768), t, all);
}
__vector__ __global__ void masks(GM_ADDR in, GM_ADDR out) { FRAME(asc_vf_call<masks_vf>(ui, uo)) }

__simd_vf__ inline void relayout_vf(__ubuf__ uint8_t *in, __ubuf__ uint8_t *out)
{
    Reg::RegTensor<uint16_t> a, b, d0, d1;
    Reg::MaskReg all = Reg::CreateMask<uint16_t>();
    Reg::LoadAlign(a, (__ubuf__ uint16_t *)in);
    Reg::LoadAlign(b, (__ubuf__ uint16_t *)(in + 256));
    Reg::Interleave(d0, d1, a, b);
    Reg::StoreAlign((__ubuf__ uint16_t *)out, d0, all);
    Reg::StoreAlign((__ubuf__ uint16_t *)(out + 256), d1, all);
    vector_uint16_t e0, e1;
    asc_deintlv(e0, e1, a, b);
    Reg::StoreAlign((__ubuf__ uint16_t *)(out + 512), e0, all);
    Reg::StoreAlign((__ubuf__ uint16_t *)(out + 768), e1, all);
    Reg::RegTensor<uint32_t> w;
    Reg::LoadAlign(w, (__ubuf__ uint32_t *)in);
    Reg::Pack<uint16_t, uint32_t, Reg::HighLowPart::LOWEST>(d0, w);
    Reg::StoreAlign((__ubuf__ uint16_t *)(out + 1024), d0, all);
    asc_pack_to_high(d1, w);
    Reg::StoreAlign((__ubuf__ uint16_t *)(out + 1280), d1, all);
}
__vector__ __global__ void relayout(GM_ADDR in, GM_ADDR out) { FRAME(asc_vf_call<relayout_vf>(ui, uo)) }

// bytes 0..255: float src; 256..511: uint32 indices; 512..767: int8 data; 768..1023: uint16 indices
__simd_vf__ inline void gathers_vf(__ubuf__ uint8_t *in, __ubuf__ uint8_t *out)
{
    Reg::RegTensor<float> s, d;
    Reg::RegTensor<uint32_t> idx;
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::LoadAlign(s, (__ubuf__ float *)in);
    Reg::LoadAlign(idx, (__ubuf__ uint32_t *)(in + 256));
    Reg::Gather(d, s, idx);
    Reg::StoreAlign((__ubuf__ float *)out, d, all);
    Reg::RegTensor<int16_t> w;
    Reg::RegTensor<uint16_t> i16;
    Reg::LoadAlign(i16, (__ubuf__ uint16_t *)(in + 768));
    Reg::MaskReg h = Reg::CreateMask<int16_t, Reg::MaskPattern::H>();
    Reg::Gather(w, (__ubuf__ int8_t *)(in + 512), i16, h);
    Reg::MaskReg all16 = Reg::CreateMask<int16_t>();
    Reg::StoreAlign((__ubuf__ int16_t *)(out + 256), w, all16);
    vector_uint32_t bidx;
    Reg::LoadAlign(bidx, (__ubuf__ uint32_t *)(in + 256 + 128));   // 8 byte offsets, multiples of 32
    vector_float g;
    asc_gather_datablock(g, (__ubuf__ float *)in, bidx, asc_create_mask_b32(PAT_VL4));
    Reg::StoreAlign((__ubuf__ float *)(out + 512), g, all);
}
__vector__ __global__ void gathers(GM_ADDR in, GM_ADDR out) { FRAME(asc_vf_call<gathers_vf>(ui, uo)) }

// bytes 0..767: 3 registers of floats; out: their M3 lanes squeezed back to back (C++),
// then the first register squeezed by the C form at out + 1024
__simd_vf__ inline void squeeze_vf(__ubuf__ uint8_t *in, __ubuf__ uint8_t *out)
{
    Reg::RegTensor<float> x, y;
    Reg::MaskReg m3 = Reg::CreateMask<float, Reg::MaskPattern::M3>(), all = Reg::CreateMask<float>();
    Reg::UnalignRegForStore u;
    Reg::Duplicate(y, -1.0f);                       // a sentinel the squeezed bytes must not pass
    Reg::StoreAlign((__ubuf__ float *)out, y, all);
    Reg::StoreAlign((__ubuf__ float *)(out + 256), y, all);
    Reg::ClearSpr<SpecialPurposeReg::AR>();
    __ubuf__ float *src = (__ubuf__ float *)in, *dst = (__ubuf__ float *)(out + 4);   // not 32-byte aligned
    for (int i = 0; i < 3; i++) {
        Reg::LoadAlign<float, Reg::PostLiteral::POST_MODE_UPDATE>(x, src, 64);
        Reg::Squeeze<float, Reg::GatherMaskMode::STORE_REG>(y, x, m3);
        Reg::StoreUnAlign<float, Reg::PostLiteral::POST_MODE_UPDATE>(dst, y, u);
    }
    Reg::StoreUnAlignPost(dst, u);
    vector_float a, b;
    asc_loadalign(a, (__ubuf__ float *)in);
    asc_squeeze(b, a, m3);
    asc_storealign((__ubuf__ float *)(out + 1024), b, all);
}
__vector__ __global__ void squeeze(GM_ADDR in, GM_ADDR out) { FRAME(asc_vf_call<squeeze_vf>(ui, uo)) }

__simd_vf__ inline void gather_past_vf(__ubuf__ uint8_t *in)
{
    Reg::RegTensor<float> d;
    Reg::RegTensor<uint32_t> idx;
    Reg::Duplicate(idx, 70000u);
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::Gather(d, (__ubuf__ float *)in, idx, all);
}
__vector__ __global__ void gather_past(GM_ADDR in, GM_ADDR out) { FRAME(asc_vf_call<gather_past_vf>(ui)) }
"""


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "reg_data.asc").compile(["--npu-arch=dav-3510"]).load()


def _run(mod, name, buf):
    out = np.zeros(2048, np.uint8)
    mod.get_kernel(name)[1](buf, out)
    arc.synchronize()
    return out


def _bits(b):
    return np.unpackbits(b, bitorder="little")


def test_mask_loads_drive_select(mod):
    r = np.random.default_rng(2)
    buf = np.zeros(1024, np.uint8)
    a = r.uniform(-1, 1, 64).astype(np.float32)
    b = r.uniform(-1, 1, 64).astype(np.float32)
    buf[:256] = a.view(np.uint8)
    buf[256:512] = b.view(np.uint8)
    buf[512:640] = r.integers(0, 256, 128, dtype=np.uint8)
    o = _run(mod, "masks", buf)
    norm = _bits(buf[512:544])                       # bit k: byte lane k; float i is lane 4i
    us = np.repeat(_bits(buf[544:560]), 2)
    ds = _bits(buf[576:640])[0::2]
    for k, bits in enumerate((norm, us, ds)):
        sel = bits[0::4].astype(bool)
        np.testing.assert_array_equal(o[256 * k:256 * (k + 1)].view(np.float32), np.where(sel, a, b))
    assert o[768:772].view(np.uint32)[0] == 576 + 64   # the C form's post-update stride is in bytes


def test_interleave_deinterleave_pack(mod):
    r = np.random.default_rng(3)
    buf = r.integers(0, 256, 1024, dtype=np.uint8)
    a, b = buf[:256].view(np.uint16), buf[256:512].view(np.uint16)
    o = _run(mod, "relayout", buf)
    seq = np.empty(256, np.uint16)
    seq[0::2], seq[1::2] = a, b
    np.testing.assert_array_equal(o[:512].view(np.uint16), seq)
    cat = np.concatenate([a, b])
    np.testing.assert_array_equal(o[512:768].view(np.uint16), cat[0::2])
    np.testing.assert_array_equal(o[768:1024].view(np.uint16), cat[1::2])
    w = buf[:256].view(np.uint32)
    low = (w & 0xFFFF).astype(np.uint16)
    np.testing.assert_array_equal(o[1024:1280].view(np.uint16), np.concatenate([low, np.zeros(64, np.uint16)]))
    np.testing.assert_array_equal(o[1280:1536].view(np.uint16), np.concatenate([np.zeros(64, np.uint16), low]))


def test_gathers(mod):
    r = np.random.default_rng(4)
    buf = np.zeros(1024, np.uint8)
    s = r.uniform(-5, 5, 64).astype(np.float32)
    idx = r.integers(0, 200, 64).astype(np.uint32)
    idx[32:40] = np.array([7, 0, 3, 3, 1, 6, 2, 5], np.uint32) * 32   # GatherB's 8 byte offsets
    i8 = r.integers(-128, 128, 256).astype(np.int8)
    i16 = r.integers(0, 256, 128).astype(np.uint16)
    buf[:256] = s.view(np.uint8)
    buf[256:512] = idx.view(np.uint8)
    buf[512:768] = i8.view(np.uint8)
    buf[768:1024] = i16.view(np.uint8)
    o = _run(mod, "gathers", buf)
    np.testing.assert_array_equal(o[:256].view(np.float32), s[idx % 64])
    want = np.where(np.arange(128) < 64, i8[i16].astype(np.int16), 0)
    np.testing.assert_array_equal(o[256:512].view(np.int16), want)
    blocks = s.reshape(8, 8)
    gb = np.zeros((8, 8), np.float32)
    gb[:4] = blocks[idx[32:36] // 32]
    np.testing.assert_array_equal(o[512:768].view(np.float32), gb.ravel())


def test_squeeze_and_unaligned_store(mod):
    x = np.random.default_rng(6).uniform(-9, 9, 256).astype(np.float32)
    o = _run(mod, "squeeze", x.view(np.uint8))
    m3 = np.arange(64) % 3 == 0                        # 22 lanes of each register
    kept = np.concatenate([x[64 * i:64 * (i + 1)][m3] for i in range(3)])
    np.testing.assert_array_equal(o[4:4 + 4 * kept.size].view(np.float32), kept)
    assert np.all(o[:4].view(np.float32) == -1) and np.all(o[4 + 4 * kept.size:512].view(np.float32) == -1)
    np.testing.assert_array_equal(o[1024:1280].view(np.float32), np.concatenate([x[:64][m3], np.zeros(42, np.float32)]))


def test_gather_past_the_ub_fails_naming_it(mod):
    with pytest.raises(arc.LaunchError, match=r"AscendC::Reg::Gather.*past the end of the UB"):
        _run(mod, "gather_past", np.zeros(1024, np.uint8))
    test_gathers(mod)
