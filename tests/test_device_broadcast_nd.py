"""Device API on dav-3510: the advanced API's dynamic-shape Broadcast with
its kernel-side tiling (GetBroadcastTilingInfo, rank 1..9; opbase's atvoss
broadcast schedules call it) against NumPy's broadcasting; its checks; and
smaller pieces CANN's op libraries use: LocalTensor::SetBufferLen,
REGISTER_NONE_TILING, `x.template f` without an argument list (a warning,
as CANN's compiler takes it)."""
import numpy as np
import pytest

import ascendrtc as arc

KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void brc(GM_ADDR x, GM_ADDR y)
{
    using namespace AscendC;
    REGISTER_NONE_TILING;
    const uint32_t dst[%(rank)d] = {%(dst)s}, src[%(rank)d] = {%(src)s};
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, %(sn)d);
    yg.SetGlobalBuffer((__gm__ float *)y, %(dn)d);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, (%(sn_pad)d + %(dn)d) * sizeof(float));
    LocalTensor<float> s = b.Get<float>(), d = s[%(sn_pad)d];
    s.SetBufferLen(%(sn_pad)d);
    DataCopy(s, xg, %(sn_pad)d);
    PipeBarrier<PIPE_ALL>();
    BroadcastTiling t;
    GetBroadcastTilingInfo<float>(%(rank)d, dst, src, false, t);
    Broadcast(d, s, dst, src, &t);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, d, %(dn)d);
}
"""


def run(dst, src, xs=None):
    sn, dn = int(np.prod(src)), int(np.prod(dst))
    sn_pad = -(-sn // 8) * 8
    text = KERNEL % {"rank": len(dst), "dst": ", ".join(map(str, dst)), "src": ", ".join(map(str, src)),
                     "sn": sn_pad, "dn": dn, "sn_pad": sn_pad}
    k = arc.Program(text, "brc.asc").compile(["--npu-arch=dav-3510"]).load().get_kernel("brc")
    x = np.zeros(sn_pad, np.float32)
    x[:sn] = np.arange(sn, dtype=np.float32) + 1 if xs is None else xs
    y = np.zeros(dn, np.float32)
    k[1](x, y)
    arc.synchronize()
    return x[:sn].reshape(src), y.reshape(dst)


@pytest.mark.parametrize("dst, src", [((16,), (1,)), ((4, 8), (4, 1)), ((4, 8), (1, 8)), ((2, 3, 8), (2, 1, 8)),
                                      ((3, 2, 1, 8), (1, 2, 1, 1)), ((2,) * 9, (1, 2) * 4 + (1,))])
def test_broadcast_matches_numpy(dst, src):
    x, y = run(dst, src)
    np.testing.assert_array_equal(y, np.broadcast_to(x, dst))


def test_a_shape_that_does_not_broadcast_is_refused_then_a_good_one_runs():
    with pytest.raises(arc.AclError, match=r"AscendC::GetBroadcastTilingInfo.*axis 1: src extent 3 does not "
                                           r"broadcast to 8"):
        run((4, 8), (4, 3))
    x, y = run((4, 8), (1, 8))
    np.testing.assert_array_equal(y, np.broadcast_to(x, (4, 8)))


def test_set_buffer_len_past_the_buffer_is_refused():
    src = KERNEL.replace("s.SetBufferLen(%(sn_pad)d);", "s.SetBufferLen(100000);")
    text = src % {"rank": 1, "dst": "8", "src": "1", "sn": 8, "dn": 8, "sn_pad": 8}
    k = arc.Program(text, "brc.asc").compile(["--npu-arch=dav-3510"]).load().get_kernel("brc")
    with pytest.raises(arc.AclError, match=r"AscendC::LocalTensor::SetBufferLen.*size 100000 exceeds"):
        k[1](np.zeros(8, np.float32), np.zeros(8, np.float32))
        arc.synchronize()


TEMPLATE_KW = """#include "kernel_operator.h"
template <typename T> struct Base { template <typename U> __aicore__ inline void f(U *p) { *p = (U)3; } };
template <typename T> struct D : Base<T> { __aicore__ inline void g(T *p) { this->template f(p); } };
extern "C" __global__ __aicore__ void k(GM_ADDR y) { D<int32_t> d; d.g((__gm__ int32_t *)y); }
"""


def test_template_keyword_without_arguments_is_a_warning():
    """opbase's broadcast schedule calls `this->template F(args)`; clang 19
    makes that an error, CANN's compiler does not: here a warning."""
    b = arc.Program(TEMPLATE_KW, "kw.asc").compile(["--npu-arch=dav-3510"])
    assert "missing-template-arg-list-after-template-kw" in b.log
    y = np.zeros(8, np.int32)
    b.load().get_kernel("k")[1](y)
    arc.synchronize()
    assert y[0] == 3
