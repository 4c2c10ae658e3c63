"""TILING_KEY_IS() with a key set at launch: the ascendrtc launch attribute
ASCENDRTC_LAUNCH_KERNEL_ATTR_TILING_KEY (0x7A01, value.rsv[0..1])."""
import ctypes

import numpy as np

from helpers import rt
from helpers.acl import compile_binary
from helpers import dev

SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void keyed(GM_ADDR out)
{
    __gm__ int64_t *o = (__gm__ int64_t *)out;
    if (TILING_KEY_IS(1)) {
        o[AscendC::GetBlockIdx()] = 100;
    } else if (TILING_KEY_IS(0x500000002ull)) {
        o[AscendC::GetBlockIdx()] = 200;
    } else {
        o[AscendC::GetBlockIdx()] = -1;
    }
}
'''
TILING_KEY_ATTR = 0x7A01


def run(f, key):
    out = rt.to_dev(np.zeros(4, np.int64))
    args = rt.pack_args(f, [ctypes.c_void_p(out)])
    cfg = None
    if key is not None:
        attr = rt.Attr(id=TILING_KEY_ATTR)
        attr.value.rsv[0] = key & 0xFFFFFFFF
        attr.value.rsv[1] = key >> 32
        cfg = rt.LaunchCfg(ctypes.pointer(attr), 1)
    rt.ok(rt.lib().aclrtLaunchKernelWithConfig(f, 4, None, ctypes.byref(cfg) if cfg else None, args, None))
    rt.ok(rt.lib().aclrtSynchronizeDevice())
    got = rt.from_dev(out, np.zeros(4, np.int64))
    rt.ok(rt.lib().aclrtFree(ctypes.c_void_p(out)))
    return got.tolist()


def test_tiling_key_selects_the_branch():
    blob, _ = compile_binary(SRC)
    rc, binh = rt.load(blob)
    rt.ok(rc)
    f = rt.function(binh, "keyed")
    assert run(f, None) == [-1] * 4          # no key: 0
    assert run(f, 1) == [100] * 4
    assert run(f, 0x500000002) == [200] * 4  # both halves of the 64-bit key
    assert run(f, 7) == [-1] * 4
    rt.ok(rt.lib().aclrtBinaryUnLoad(binh))


def test_unknown_attribute_still_refused():
    blob, _ = compile_binary(SRC)
    rc, binh = rt.load(blob)
    f = rt.function(binh, "keyed")
    out = rt.malloc(64)
    args = rt.pack_args(f, [ctypes.c_void_p(out)])
    attr = rt.Attr(id=0x7A7F)   # 0x7A01 tiling key, 0x7A02 race check, 0x7A03/0x7A04 SIMT block/grid
    cfg = rt.LaunchCfg(ctypes.pointer(attr), 1)
    rt.fails(rt.lib().aclrtLaunchKernelWithConfig(f, 1, None, ctypes.byref(cfg), args, None), 107000,
             "unknown attribute id")
    rt.ok(rt.lib().aclrtBinaryUnLoad(binh))


def test_tiling_key_from_python():
    import pytest
    import ascendrtc as arc
    k = dev.load(SRC, "keyed.asc").get_kernel("keyed")
    out = arc.zeros(4, np.int64)
    for key, want in ((None, -1), (1, 100), (0x500000002, 200)):
        k(out, block_dim=4, tiling_key=key)
        arc.synchronize()
        assert out.get().tolist() == [want] * 4, key
    with pytest.raises(TypeError, match="tiling_key must be an int"):
        k(out, block_dim=4, tiling_key=1.5)
    with pytest.raises(ValueError, match=r"tiling_key must be in \[0, 2\*\*64\)"):
        k(out, block_dim=4, tiling_key=-1)
