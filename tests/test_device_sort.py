"""Device API: Sort32, MrgSort (both signatures, exhausted mode and
GetMrgSortResult), Concat / Sort (per 32 and full) / Extract on the
dav-2201 (score, index) layout, against NumPy (stable descending sort)."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

PRE = "using namespace AscendC;\n"


def k(name, params, body):
    return ('extern "C" __global__ __aicore__ void %s(%s)\n{\nTPipe pipe; TBuf<> b; pipe.InitBuffer(b, 65536);\n'
            'LocalTensor<uint8_t> ub = b.Get<uint8_t>();\n%s\n}\n') % (name, params, body)


def typed(T):
    return [
        # Sort32 of n = 32 * rep scores with indices 0..n-1; dst is n (score, index) structures
        k("sort32_" + T, "GM_ADDR x, GM_ADDR y, uint32_t rep",
          f"GlobalTensor<{T}> gx; gx.SetGlobalBuffer((__gm__ {T} *)x); GlobalTensor<uint8_t> gy;"
          " gy.SetGlobalBuffer((__gm__ uint8_t *)y); uint32_t n = rep * 32;"
          f" LocalTensor<{T}> s = ub.ReinterpretCast<{T}>(); LocalTensor<uint32_t> idx = ub[8192].ReinterpretCast<uint32_t>();"
          f" LocalTensor<{T}> d = ub[16384].ReinterpretCast<{T}>();"
          " PipeBarrier<PIPE_ALL>(); DataCopy(s, gx, n); PipeBarrier<PIPE_ALL>(); ArithProgression(idx.ReinterpretCast<int32_t>(), 0, 1, n);"
          " Sort32(d, s, idx, rep); PipeBarrier<PIPE_ALL>(); DataCopy(gy, d.template ReinterpretCast<uint8_t>(), n * 8); PipeBarrier<PIPE_ALL>();"),
        # Sort32 each 32-group, then MrgSort4 (basic MrgSort4Info form) of 4 groups -> 128 sorted
        k("mrg4_" + T, "GM_ADDR x, GM_ADDR y, uint32_t exhaust",
          f"GlobalTensor<{T}> gx; gx.SetGlobalBuffer((__gm__ {T} *)x); GlobalTensor<uint8_t> gy;"
          " gy.SetGlobalBuffer((__gm__ uint8_t *)y);"
          f" LocalTensor<{T}> s = ub.ReinterpretCast<{T}>(); LocalTensor<uint32_t> idx = ub[8192].ReinterpretCast<uint32_t>();"
          f" LocalTensor<{T}> d = ub[16384].ReinterpretCast<{T}>(); LocalTensor<{T}> m = ub[32768].ReinterpretCast<{T}>();"
          " PipeBarrier<PIPE_ALL>(); DataCopy(s, gx, 128); PipeBarrier<PIPE_ALL>(); ArithProgression(idx.ReinterpretCast<int32_t>(), 0, 1, 128);"
          f" Sort32(d, s, idx, 4); uint32_t q = GetSortLen<{T}>(32);"
          f" MrgSortSrcList<{T}> l(d, d[q], d[2 * q], d[3 * q]); uint16_t lens[4] = {{32, 32, 32, 32}};"
          " MrgSort4Info info(lens, exhaust != 0, 15, 1); MrgSort(m, l, info);"
          " uint16_t c0, c1, c2, c3; GetMrgSortResult(c0, c1, c2, c3);"
          " LocalTensor<uint32_t> cnt = ub[49152].ReinterpretCast<uint32_t>(); Duplicate(cnt.ReinterpretCast<int32_t>(), 0, 8);"
          " cnt.SetValue(0, c0); cnt.SetValue(1, c1); cnt.SetValue(2, c2); cnt.SetValue(3, c3);"
          " PipeBarrier<PIPE_ALL>(); DataCopy(gy, m.template ReinterpretCast<uint8_t>(), 1024); PipeBarrier<PIPE_ALL>(); PipeBarrier<PIPE_ALL>(); DataCopy(gy[1024], cnt.ReinterpretCast<uint8_t>(), 32); PipeBarrier<PIPE_ALL>();"),
        # Concat -> Sort<T, true> (full) / Sort<T, false> -> Extract, and the sort-family MrgSort of 2 lists
        k("sortfull_" + T, "GM_ADDR x, GM_ADDR v, GM_ADDR i, uint32_t rep, uint32_t full",
          f"GlobalTensor<{T}> gx, gv; gx.SetGlobalBuffer((__gm__ {T} *)x); gv.SetGlobalBuffer((__gm__ {T} *)v);"
          " GlobalTensor<uint32_t> gi; gi.SetGlobalBuffer((__gm__ uint32_t *)i); uint32_t n = rep * 32;"
          f" LocalTensor<{T}> s = ub.ReinterpretCast<{T}>(); LocalTensor<uint32_t> idx = ub[8192].ReinterpretCast<uint32_t>();"
          f" LocalTensor<{T}> c = ub[12288].ReinterpretCast<{T}>(); LocalTensor<{T}> d = ub[16384].ReinterpretCast<{T}>();"
          f" LocalTensor<{T}> tmp = ub[40960].ReinterpretCast<{T}>(); LocalTensor<{T}> ov = ub[49152].ReinterpretCast<{T}>();"
          " LocalTensor<uint32_t> oi = ub[53248].ReinterpretCast<uint32_t>();"
          " PipeBarrier<PIPE_ALL>(); DataCopy(s, gx, n); PipeBarrier<PIPE_ALL>(); ArithProgression(idx.ReinterpretCast<int32_t>(), 0, 1, n);"
          f" Concat(c, s, tmp, n / 16); if (full) Sort<{T}, true>(d, c, idx, tmp, rep); else Sort<{T}, false>(d, c, idx, tmp, rep);"
          " Extract(ov, oi, d, rep); PipeBarrier<PIPE_ALL>(); DataCopy(gv, ov, n); PipeBarrier<PIPE_ALL>(); PipeBarrier<PIPE_ALL>(); DataCopy(gi, oi, n); PipeBarrier<PIPE_ALL>();"),
        k("mrg2_" + T, "GM_ADDR x, GM_ADDR y, GM_ADDR cnt",
          f"GlobalTensor<{T}> gx; gx.SetGlobalBuffer((__gm__ {T} *)x); GlobalTensor<uint8_t> gy;"
          " gy.SetGlobalBuffer((__gm__ uint8_t *)y); GlobalTensor<uint32_t> gc; gc.SetGlobalBuffer((__gm__ uint32_t *)cnt);"
          f" LocalTensor<{T}> s = ub.ReinterpretCast<{T}>(); LocalTensor<uint32_t> idx = ub[8192].ReinterpretCast<uint32_t>();"
          f" LocalTensor<{T}> d = ub[16384].ReinterpretCast<{T}>(); LocalTensor<{T}> m = ub[32768].ReinterpretCast<{T}>();"
          " PipeBarrier<PIPE_ALL>(); DataCopy(s, gx, 64); PipeBarrier<PIPE_ALL>(); ArithProgression(idx.ReinterpretCast<int32_t>(), 0, 1, 64); Sort32(d, s, idx, 2);"
          f" MrgSortSrcList<{T}> l(d, d[GetSortOffset<{T}>(32)]); uint16_t lens[4] = {{32, 20, 0, 0}}; uint32_t sorted[4];"
          f" MrgSort<{T}, true>(m, l, lens, sorted, 3, 1);"
          " LocalTensor<uint32_t> c = ub[49152].ReinterpretCast<uint32_t>(); Duplicate(c.ReinterpretCast<int32_t>(), 0, 8);"
          " for (int j = 0; j < 4; j++) c.SetValue(j, sorted[j]);"
          " PipeBarrier<PIPE_ALL>(); DataCopy(gy, m.template ReinterpretCast<uint8_t>(), 512); PipeBarrier<PIPE_ALL>(); PipeBarrier<PIPE_ALL>(); DataCopy(gc, c, 8); PipeBarrier<PIPE_ALL>();"),
    ]


KERNELS = typed("float") + typed("half") + [
    k("sort32_bad", "GM_ADDR x", "LocalTensor<int32_t> s = ub.ReinterpretCast<int32_t>();"
      " LocalTensor<uint32_t> i = ub[4096].ReinterpretCast<uint32_t>(); LocalTensor<int32_t> d = ub[8192].ReinterpretCast<int32_t>();"
      " Sort32(d, s, i, 1);"),
    k("mrg_bad_valid", "GM_ADDR x", "LocalTensor<float> d = ub.ReinterpretCast<float>();"
      " MrgSortSrcList<float> l(d, d[64]); uint16_t lens[4] = {32, 32, 0, 0}; MrgSort4Info info(lens, false, 1, 1);"
      " MrgSort(d[1024], l, info);"),
]

NP = {"float": np.float32, "half": np.float16}


@pytest.fixture(scope="module")
def mod():
    return dev.program(KERNELS, prelude=PRE)


def run(mod, name, *args):
    mod.get_kernel(name)[1](*args)
    arc.synchronize()


def pairs(raw, T):
    """(score, index) structures: score in the low bytes, index in bytes 4..7."""
    s = raw.view(np.uint8).reshape(-1, 8)
    score = s[:, :np.dtype(NP[T]).itemsize].copy().view(NP[T]).ravel()
    index = s[:, 4:8].copy().view(np.uint32).ravel()
    return score, index


def stable_desc(x):
    return np.argsort(-x.astype(np.float64), kind="stable")


@pytest.mark.parametrize("T", ["float", "half"])
def test_sort32_groups(mod, T):
    rng = np.random.default_rng(1)
    rep = 3
    x = rng.integers(-20, 20, rep * 32).astype(NP[T])   # ties: equal scores keep input order
    y = np.zeros(rep * 32 * 8, np.uint8)
    run(mod, "sort32_" + T, x, y, np.uint32(rep))
    score, index = pairs(y, T)
    for g in range(rep):
        order = stable_desc(x[g * 32:(g + 1) * 32]) + g * 32
        np.testing.assert_array_equal(index[g * 32:(g + 1) * 32], order)
        np.testing.assert_array_equal(score[g * 32:(g + 1) * 32], x[order])


@pytest.mark.parametrize("T", ["float", "half"])
def test_mrgsort4(mod, T):
    x = np.random.default_rng(2).standard_normal(128).astype(NP[T])
    y = np.zeros(1024 + 32, np.uint8)
    run(mod, "mrg4_" + T, x, y, np.uint32(0))
    score, index = pairs(y[:1024], T)
    order = stable_desc(x)
    np.testing.assert_array_equal(score, x[order])
    np.testing.assert_array_equal(np.sort(index), np.arange(128))
    np.testing.assert_array_equal(y[1024:1040].view(np.uint32), [32, 32, 32, 32])
    # exhausted mode stops when the first list runs out
    y = np.zeros(1024 + 32, np.uint8)
    run(mod, "mrg4_" + T, x, y, np.uint32(1))
    cnt = y[1024:1040].view(np.uint32)
    assert 32 in cnt and cnt.sum() < 128
    score, _ = pairs(y[:cnt.sum() * 8], T)
    np.testing.assert_array_equal(score, x[order][:cnt.sum()])


@pytest.mark.parametrize("T", ["float", "half"])
@pytest.mark.parametrize("full", [1, 0])
def test_concat_sort_extract(mod, T, full):
    rep = 4
    x = np.random.default_rng(3).standard_normal(rep * 32).astype(NP[T])
    v = np.zeros(rep * 32, NP[T])
    i = np.zeros(rep * 32, np.uint32)
    run(mod, "sortfull_" + T, x, v, i, np.uint32(rep), np.uint32(full))
    if full:
        order = stable_desc(x)
    else:
        order = np.concatenate([stable_desc(x[g * 32:(g + 1) * 32]) + g * 32 for g in range(rep)])
    np.testing.assert_array_equal(i, order)
    np.testing.assert_array_equal(v, x[order])


@pytest.mark.parametrize("T", ["float", "half"])
def test_mrgsort_two_lists_exhausted(mod, T):
    x = np.random.default_rng(4).standard_normal(64).astype(NP[T])
    y = np.zeros(512, np.uint8)
    c = np.zeros(8, np.uint32)
    run(mod, "mrg2_" + T, x, y, c)
    a = x[:32][stable_desc(x[:32])]
    b = x[32:64][stable_desc(x[32:64])][:20]
    merged, ia, ib = [], 0, 0
    while ia < 32 and ib < 20:          # stops when one list is exhausted
        if b[ib] > a[ia]:
            merged.append(b[ib]); ib += 1
        else:
            merged.append(a[ia]); ia += 1
    np.testing.assert_array_equal(c[:4], [ia, ib, 0, 0])
    score, _ = pairs(y[:len(merged) * 8], T)
    np.testing.assert_array_equal(score, np.array(merged, NP[T]))


def test_bad_calls_name_the_problem(mod):
    with pytest.raises(arc.LaunchError, match=r"Sort32.*half and float.*int32_t"):
        run(mod, "sort32_bad", np.zeros(8, np.float32))
    with pytest.raises(arc.LaunchError, match=r"MrgSort.*validBit 1"):
        run(mod, "mrg_bad_valid", np.zeros(8, np.float32))
