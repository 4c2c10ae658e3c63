"""Reg::StoreAlign(dst, MaskReg) (dav-3510, the MaskReg StoreAlign page):
DIST_NORM writes the register's VL/8 bytes (bit k: byte lane k), DIST_PACK
keeps every other bit in VL/16 bytes; the post-update form moves dst on by
its offset in bytes; a LoadAlign of the stored bytes gives the mask back.
Against NumPy's bit packing of UpdateMask<float>(n): a b32 element owns 4
bits of which only the lowest is valid (the MaskReg page), so the valid
bits are compared (the simulator holds the others 0).
Reg::MaskGenWithRegTensor<T, offset>: data block `offset` of a register
(16 bytes for b16, 8 for b32), each bit broadcast to 2 (4) mask bits,
stored with StoreAlign against NumPy's bit repeat.
The C API's asc_storealign(dst, vector_bool) (uint32_t, uint16_t, uint8_t
addresses) and its post-update form write the DIST_NORM bytes."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r"""
#include "kernel_operator.h"
#include "c_api/asc_simd.h"
using namespace AscendC;

// o (UB, 128 bytes): NORM at 0, PACK at 32 (post-update by 32 bytes), then NORM again
// at 64 of the mask loaded back from 0.
__simd_vf__ inline void mask_vf(__ubuf__ uint8_t *o, uint32_t n)
{
    Reg::MaskReg m = Reg::UpdateMask<float>(n), back;
    Reg::StoreAlign(o, m);
    __ubuf__ uint8_t *p = o + 32;
    Reg::StoreAlign<uint8_t, Reg::PostLiteral::POST_MODE_UPDATE, Reg::MaskDist::DIST_PACK>(p, m, 32);
    Reg::LoadAlign(back, o);
    Reg::StoreAlign(p, back);
}
__global__ __vector__ void mask_store(GM_ADDR out, uint32_t n)
{
    AscendC::InitSocState();
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<uint8_t> lo = buf.Get<uint8_t>();
    GlobalTensor<uint8_t> go;
    go.SetGlobalBuffer((__gm__ uint8_t *)out, 128);
    Duplicate(lo, (uint8_t)0xAB, 128);
    PipeBarrier<PIPE_V>();
    asc_vf_call<mask_vf>((__ubuf__ uint8_t *)lo.GetPhyAddr(), n);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(go, lo, 128);
}

// r: 256 bytes at UB 0; the masks of block 5 as b16 and block 3 as b32 stored at UB 256 and 288.
__simd_vf__ inline void gen_vf(__ubuf__ uint8_t *u)
{
    Reg::RegTensor<half> h;
    Reg::RegTensor<float> f;
    Reg::MaskReg m16, m32;
    Reg::LoadAlign(h, (__ubuf__ half *)u);
    Reg::LoadAlign(f, (__ubuf__ float *)u);
    Reg::MaskGenWithRegTensor<half, 5>(m16, h);
    Reg::MaskGenWithRegTensor<float, 3>(m32, f);
    Reg::StoreAlign(u + 256, m16);
    Reg::StoreAlign(u + 288, m32);
}
__global__ __vector__ void mask_gen(GM_ADDR r, GM_ADDR out)
{
    AscendC::InitSocState();
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<uint8_t> lu = buf.Get<uint8_t>();
    GlobalTensor<uint8_t> gr, go;
    gr.SetGlobalBuffer((__gm__ uint8_t *)r, 256);
    go.SetGlobalBuffer((__gm__ uint8_t *)out, 64);
    DataCopy(lu, gr, 256);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    asc_vf_call<gen_vf>((__ubuf__ uint8_t *)lu.GetPhyAddr());
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(go, lu[256], 64);
}

// The C API: uint32_t at 0, uint16_t post-update by 32 bytes to 32, then uint8_t there (64).
__simd_vf__ inline void capi_vf(__ubuf__ uint8_t *o, uint32_t n)
{
    vector_bool m = asc_update_mask_b32(n);
    asc_storealign((__ubuf__ uint32_t *)o, m);
    __ubuf__ uint16_t *p = (__ubuf__ uint16_t *)(o + 32);
    asc_storealign_postupdate(p, m, 32);
    asc_storealign((__ubuf__ uint8_t *)p, m);
}
__global__ __vector__ void capi_mask_store(GM_ADDR out, uint32_t n)
{
    asc_init();
    __ubuf__ uint8_t u[128];
    asc_vf_call<capi_vf>(u, n);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm((__gm__ uint8_t *)out, u, 96);
}
"""


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "mask_store.asc").compile(["--npu-arch=dav-3510"]).load()


@pytest.fixture(scope="module")
def kern(mod):
    return mod.get_kernel("mask_store")


@pytest.mark.parametrize("n", [0, 5, 33, 64])
def test_mask_store_norm_and_pack(kern, n):
    out = np.zeros(128, np.uint8)
    kern[1](out, np.uint32(n))
    arc.synchronize()
    bits = np.zeros(256, np.uint8)
    bits[:4 * n:4] = 1                                 # the lowest bit of each of n floats' 4
    valid = np.zeros(256, np.uint8)
    valid[::4] = 1
    norm, vnorm = (np.packbits(b, bitorder="little") for b in (bits, valid))
    pack, vpack = (np.packbits(b[::2], bitorder="little") for b in (bits, valid))
    got = (out[:32], out[32:48], out[64:96])
    for g, w, v in zip(got, (norm, pack, norm), (vnorm, vpack, vnorm)):
        np.testing.assert_array_equal(g & v, w)
    assert (out[48:64] == 0xAB).all() and (out[96:] == 0xAB).all()   # untouched


def test_mask_gen_with_reg_tensor(mod):
    r = np.random.default_rng(11).integers(0, 256, 256).astype(np.uint8)
    out = np.zeros(64, np.uint8)
    mod.get_kernel("mask_gen")[1](r, out)
    arc.synchronize()
    bits = np.unpackbits(r, bitorder="little")
    want16 = np.packbits(np.repeat(bits[5 * 128:6 * 128], 2), bitorder="little")
    want32 = np.packbits(np.repeat(bits[3 * 64:4 * 64], 4), bitorder="little")
    np.testing.assert_array_equal(out[:32], want16)
    np.testing.assert_array_equal(out[32:], want32)


@pytest.mark.parametrize("n", [0, 7, 64])
def test_capi_mask_store(mod, n):
    out = np.zeros(96, np.uint8)
    mod.get_kernel("capi_mask_store")[1](out, np.uint32(n))
    arc.synchronize()
    bits, valid = np.zeros(256, np.uint8), np.zeros(256, np.uint8)
    bits[:4 * n:4] = 1
    valid[::4] = 1
    want, v = np.packbits(bits, bitorder="little"), np.packbits(valid, bitorder="little")
    for k in range(3):
        np.testing.assert_array_equal(out[32 * k:32 * k + 32] & v, want)
