"""Device API: the Sort forms taking a SortConfig (lib/sort/sort.h, dav-3510):
RADIX_SORT and MERGE_SORT, ascending and descending, values alone, with
generated indices and with source indices, stable, against NumPy's stable
argsort on the radix key; and Concat into a default LocalTensor (arc/sort.h)."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

A35 = ("--npu-arch=dav-3510",)
N = 96


def radix_key(x):
    """Values as radix-sort keys (unsigned, ordered as the values): floats
    by the sign-flip transform, signed integers with the sign bit flipped."""
    x = np.asarray(x)
    if x.dtype.kind == "f":
        u = x.view({2: np.uint16, 4: np.uint32}[x.itemsize]).astype(np.uint64)
        top = np.uint64(1) << np.uint64(8 * x.itemsize - 1)
        full = (np.uint64(1) << np.uint64(8 * x.itemsize)) - np.uint64(1)
        return np.where(u & top, full ^ u, u | top)
    if x.dtype.kind == "i":
        return x.astype(np.int64)                        # order is all a key needs
    return x.astype(np.uint64)


def stable_order(x, desc):
    k = radix_key(x)
    if desc:   # descending but stable: sort by the negated rank, ties by position
        ranks = np.unique(k, return_inverse=True)[1]
        return np.argsort(-ranks, kind="stable")
    return np.argsort(k, kind="stable")


def data(dt, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dt).kind == "f":
        x = rng.integers(-6, 7, N).astype(dt) / dt(2)          # many ties
        x[:4] = [-0.0, 0.0, np.nan, -np.inf]
        return x.astype(dt)
    info = np.iinfo(dt)
    return rng.integers(max(info.min, -50), min(info.max, 50), N, endpoint=True).astype(dt)


CASES = [(np.float32, "RADIX"), (np.float16, "RADIX"), (np.int32, "RADIX"), (np.int8, "RADIX"),
         (np.uint64, "RADIX"), (np.float32, "MERGE"), (np.float16, "MERGE")]


def kernel(dt, algo, desc, form):
    c = dev.ctype(dt)
    cfg = "static constexpr SortConfig cfg{SortType::%s_SORT, %s};" % (algo, "true" if desc else "false")
    calls = {
        "values": "Sort<%s, false, cfg>(d, x, tmp, %d);" % (c, N),
        "index": "Sort<%s, false, cfg>(d, di, x, %d);" % (c, N),
        "src_index": "Sort<%s, uint32_t, false, cfg>(d, di, x, si, tmp, %d);" % (c, N),
    }
    dn = N * 8 // np.dtype(dt).itemsize if algo == "MERGE" else N
    p = [("x", dt, N), ("si", np.uint32, N), ("d", dt, dn), ("di", np.uint32, N), ("tmp", np.uint8, 256)]
    return p, dev.ub_kernel("k", p, cfg + " " + calls[form])


@pytest.mark.parametrize("form", ["values", "index", "src_index"])
@pytest.mark.parametrize("desc", [False, True], ids=["asc", "desc"])
@pytest.mark.parametrize("dt, algo", CASES, ids=lambda v: v if isinstance(v, str) else np.dtype(v).name)
def test_sort_config(dt, algo, desc, form):
    p, k = kernel(dt, algo, desc, form)
    x = data(dt, 1)
    si = np.arange(1000, 1000 + N, dtype=np.uint32)
    out = dev.run(dev.program([k], A35), "k", p, [x, si, np.zeros(p[2][2], dt), np.zeros(N, np.uint32),
                                                  np.zeros(256, np.uint8)])
    order = stable_order(x, desc)
    np.testing.assert_array_equal(out[2][:N].view(np.uint8), x[order].view(np.uint8))   # bits: -0.0, NaN
    if form == "index":
        np.testing.assert_array_equal(out[3], order)
    if form == "src_index":
        np.testing.assert_array_equal(out[3], si[order])


def test_negative_zero_sorts_before_zero():
    p, k = kernel(np.float32, "RADIX", False, "index")
    x = np.zeros(N, np.float32)
    x[::2] = -0.0
    out = dev.run(dev.program([k], A35), "k", p, [x, np.zeros(N, np.uint32), np.zeros(N, np.float32),
                                                  np.zeros(N, np.uint32), np.zeros(256, np.uint8)])
    assert np.signbit(out[2][:N // 2]).all() and not np.signbit(out[2][N // 2:]).any()
    np.testing.assert_array_equal(out[3][:N // 2], np.arange(0, N, 2))


def test_merge_sort_needs_multiples_of_32():
    p = [("x", np.float32, 64), ("d", np.float32, 128), ("di", np.uint32, 64)]
    body = "static constexpr SortConfig cfg{SortType::MERGE_SORT, false}; Sort<float, false, cfg>(d, di, x, 40);"
    m = dev.program([dev.ub_kernel("k", p, body)], A35)
    with pytest.raises(arc.Error) as ei:
        dev.run(m, "k", p, [np.zeros(64, np.float32), np.zeros(128, np.float32), np.zeros(64, np.uint32)])
    assert "MERGE_SORT: calCount 40 is not a multiple of 32" in str(ei.value)


def test_config_forms_are_950_only():
    p = [("x", np.float32, 64), ("d", np.float32, 64)]
    with pytest.raises(arc.CompileError) as ei:
        dev.program([dev.ub_kernel("k", p, "Sort<float, false>(d, x, 64);")])
    assert "the SortConfig forms are Ascend 950 (dav-3510) only" in ei.value.log


CONCAT_SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z)
{
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float *)x, 32);
    gz.SetGlobalBuffer((__gm__ float *)z, 64);
    LocalTensor<float> v = buf.GetWithOffset<float>(32, AT);
    LocalTensor<uint32_t> idx = buf.GetWithOffset<uint32_t>(32, 256);
    LocalTensor<float> tmp = buf.GetWithOffset<float>(256, 1024);
    LocalTensor<float> sorted = buf.GetWithOffset<float>(64, 2048);
    DataCopy(v, gx, 32);
    CreateVecIndex(idx.ReinterpretCast<int32_t>(), 0, 32);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<float> concat;
    Concat(concat, v, tmp, 2);
    Sort<float, true>(sorted, concat, idx, tmp, 1);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, sorted, 64);
}
'''


@pytest.mark.parametrize("at", [0, 512])
def test_concat_into_a_default_tensor(at):
    """A default LocalTensor is UB offset 0 on the NPU: Concat of scores
    lying there hands them back (the sort example); elsewhere it stops."""
    m = dev.load(CONCAT_SRC.replace("AT", str(at)), "concat.asc")
    x = np.random.default_rng(2).permutation(32).astype(np.float32)
    z = np.zeros(64, np.float32)
    if at:
        with pytest.raises(arc.Error) as ei:
            m.get_kernel("k")[1](x, z)
            arc.synchronize()
        assert "concat is a default LocalTensor, which is UB offset 0 on the NPU, and src is at UB offset 512" \
            in str(ei.value)
        return
    m.get_kernel("k")[1](x, z)
    arc.synchronize()
    np.testing.assert_array_equal(z.reshape(32, 2)[:, 0], np.sort(x)[::-1])   # (score, index) pairs, descending
