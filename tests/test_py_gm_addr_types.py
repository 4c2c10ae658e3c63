"""GM_ADDR (and uint8_t *) parameters: the compiler infers their element type
from the casts the kernel applies to them, records it in the binary's
metadata, and launches check it like a `__gm__ float *` parameter's; where no
single type can be inferred the parameter stays untyped and the signature
says so; get_kernel(..., dtypes=...) states it."""
import numpy as np
import pytest

import ascendrtc as arc

# The README's style: GM_ADDR parameters, cast where the kernel uses them.
AXPY = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void axpy(GM_ADDR x, GM_ADDR y, float a, uint32_t n)
{
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, n);
    yg.SetGlobalBuffer((__gm__ float *)y, n);
    for (uint32_t i = AscendC::GetBlockIdx(); i < n; i += AscendC::GetBlockNum())
        yg.SetValue(i, a * xg.GetValue(i) + yg.GetValue(i));
}
'''

MIXED = r'''
#include "kernel_operator.h"
struct Tiling { uint32_t n; };
extern "C" __global__ __aicore__ void mixed(GM_ADDR h, GM_ADDR both, GM_ADDR tiling, __gm__ uint8_t *off,
                                            GM_ADDR unused)
{
    __gm__ Tiling *t = (__gm__ Tiling *)tiling;
    __gm__ half *ph = reinterpret_cast<__gm__ half *>(h);
    __gm__ int32_t *pi = (__gm__ int32_t *)both;
    __gm__ float *pf = (__gm__ float *)both;
    __gm__ int16_t *po = (__gm__ int16_t *)(off + 8);
    for (uint32_t i = 0; i < t->n; i++)
        ph[i] = (half)(pi[i] + pf[i] + po[i]);
}
'''


@pytest.fixture(scope="module")
def axpy():
    return arc.Program(AXPY, "axpy.asc").compile().load().get_kernel("axpy")


@pytest.fixture(scope="module")
def mixed_binary():
    return arc.Program(MIXED, "mixed.asc").compile()


def test_float64_for_a_gm_addr_cast_to_float_is_refused(axpy):
    x = np.arange(4, dtype=np.float64)              # the issue: gave [0. 0. 0. 3.75] without a word
    y = np.zeros(4, np.float64)
    with pytest.raises(TypeError, match=r"argument 'x' \(GM_ADDR, used as __gm__ float \*\) got .*float64.*"
                                        r"expected float32 elements"):
        axpy[1](x, y, 2.0, 4)
    with pytest.raises(TypeError, match="expected float32 elements"):
        axpy[1](arc.to_device(x), arc.zeros(4, np.float64), 2.0, 4)
    x32, y32 = np.arange(4, dtype=np.float32), np.ones(4, np.float32)
    axpy[2](x32, y32, 2.0, 4)
    np.testing.assert_array_equal(y32, 2 * np.arange(4, dtype=np.float32) + 1)


def test_inferred_types_are_in_the_binarys_metadata(mixed_binary):
    km = mixed_binary.meta.find("mixed")
    assert [(p.name, p.elem, p.dtype) for p in km.params] == [
        ("h", "half", "float16"), ("both", "", None), ("tiling", "", None), ("off", "int16_t", "int16"),
        ("unused", "", None)]
    # and survive a save/load as bytes
    back = arc.Binary(mixed_binary.data)
    assert [p.dtype for p in back.meta.find("mixed").params] == ["float16", None, None, "int16", None]


def test_signature_names_the_untyped_parameters(mixed_binary, axpy):
    k = mixed_binary.load().get_kernel("mixed")
    assert k.signature == "mixed(h, both: untyped, tiling: untyped, off, unused: untyped)"
    assert k.dtypes == {"h": np.dtype(np.float16), "both": None, "tiling": None, "off": np.dtype(np.int16),
                        "unused": None}
    assert axpy.signature == "axpy(x, y, a, n)"


def test_get_kernel_dtypes_states_them(mixed_binary):
    m = mixed_binary.load()
    k = m.get_kernel("mixed", dtypes={"both": np.float32, "h": None})
    assert k.signature == "mixed(h: untyped, both, tiling: untyped, off, unused: untyped)"
    assert m.get_kernel("mixed").signature.startswith("mixed(h, both: untyped")   # the default kernel is unchanged
    tiling = np.array([2], np.uint32)
    with pytest.raises(TypeError, match=r"argument 'both' .*expected float32 elements"):
        k[1](np.zeros(2, np.float32), np.zeros(2, np.int32), tiling, np.zeros(8, np.int16), np.zeros(1, np.uint8))
    h = np.zeros(2, np.float32)                      # h stated untyped: any array
    k[1](h, np.zeros(2, np.float32), tiling, np.zeros(8, np.int16), np.zeros(1, np.uint8))
    with pytest.raises(ValueError, match="has no parameter 'nope'"):
        m.get_kernel("mixed", dtypes={"nope": np.float32})


def test_jit_and_templates_get_checked_too():
    k = arc.jit(AXPY, params="x, y, a, n", block_dim=1, specialize={"a": arc.runtime, "n": arc.runtime})
    with pytest.raises(TypeError, match="expected float32 elements"):
        k(np.zeros(4, np.float64), np.zeros(4, np.float64), 1.0, 4)


TILED = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void tiled(GM_ADDR y, GM_ADDR tiling)
{
    __gm__ uint32_t *t = (__gm__ uint32_t *)tiling;
    __gm__ float *py = (__gm__ float *)y;
    for (uint32_t i = 0; i < t[0]; i++)
        py[i] = (float)t[1];
}
'''


def test_inferred_types_take_raw_bytes_and_same_size_integers():
    # a tiling blob (uint8, GM_ADDR's own type) or int32 words read through a uint32_t * cast hold
    # the bits the kernel reads; a float or a wider integer for them is still refused
    k = arc.Program(TILED, "tiled.asc").compile().load().get_kernel("tiled")
    for tiling in (np.array([3, 7], np.uint32), np.array([3, 7], np.int32), np.array([3, 7], np.uint32).view(np.uint8)):
        y = np.zeros(4, np.float32)
        k[1](y, tiling)
        arc.synchronize()
        np.testing.assert_array_equal(y, [7, 7, 7, 0])
    for bad in (np.array([3, 7], np.float32), np.array([3, 7], np.int64)):
        with pytest.raises(TypeError, match=r"argument 'tiling' .*expected uint32 elements"):
            k[1](np.zeros(4, np.float32), bad)
    with pytest.raises(TypeError, match=r"argument 'y' .*expected float32 elements"):
        k[1](np.zeros(4, np.int32), np.array([3, 7], np.uint32))       # same size, not an integer view of float
    stated = arc.Program(TILED, "tiled.asc").compile().load().get_kernel("tiled", dtypes={"tiling": np.uint32})
    with pytest.raises(TypeError, match=r"argument 'tiling' .*expected uint32 elements"):
        stated[1](np.zeros(4, np.float32), np.array([3, 7], np.int32))   # a stated dtype is strict


TEMPLATED = r'''
#include "kernel_operator.h"
template <typename T>
__aicore__ inline void scale_impl(GM_ADDR x, uint32_t n)
{
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T *)x, n);
    for (uint32_t i = 0; i < n; i++)
        g.SetValue(i, (T)((float)g.GetValue(i) * 2.0f));
}
template <typename T>
__global__ __aicore__ void tscale(GM_ADDR x, uint32_t n) { scale_impl<T>(x, n); }
template __global__ __aicore__ void tscale<int32_t>(GM_ADDR, uint32_t);
'''


def test_template_kernels_get_their_instances_types():
    # each instance's casts give its own element type (name expressions and explicit instantiations)
    p = arc.Program(TEMPLATED, "templated.asc")
    p.add_name_expression("tscale<float>")
    p.add_name_expression("tscale<half>")
    p.add_name_expression("tscale<int32_t>")
    m = p.compile().load()
    kf, kh, ki = (m.get_kernel("tscale<%s>" % t) for t in ("float", "half", "int32_t"))
    assert kf.dtypes["x"] == np.float32 and kh.dtypes["x"] == np.float16 and ki.dtypes["x"] == np.int32
    x = np.arange(4, dtype=np.float32)
    kf[1](x, 4)
    arc.synchronize()
    np.testing.assert_array_equal(x, [0, 2, 4, 6])
    with pytest.raises(TypeError, match=r"argument 'x' .*used as __gm__ half \*.* expected float16 elements"):
        kh[1](np.zeros(4, np.float32), 4)
