"""The public samples' own op projects run end to end (host tiling compiled
in process + kernel) from the local mirror, against NumPy.  Skipped without
ASCEND_SAMPLES_SRC (tests/helpers/samples.py); nothing from the samples is
in this repository.  docs/compatibility.md lists the results."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.samples import sample_path

rng = np.random.default_rng(3)


def rn(n, dt=np.float32):
    return rng.standard_normal(n).astype(dt)


def add(x, y):
    return x.astype(np.float64) + y


CASES = [
    ("operator/ascendc/0_introduction/1_add_frameworklaunch/AddCustom", lambda: (rn(16384, np.float16),) * 2, {}, add),
    ("operator/ascendc/0_introduction/2_add_frameworklaunchlite/AddCustom",
     lambda: (rn(16384, np.float16), rn(16384, np.float16)), {}, add),
    ("operator/ascendc/tutorials/AddCustomSample/FrameworkLaunch/AddCustom",
     lambda: (rn(16384, np.float16), rn(16384, np.float16)), {}, add),
    ("operator/ascendc/0_introduction/6_addtemplate_frameworklaunch/AddTemplateCustom",
     lambda: (rn(16384, np.float16), rn(16384, np.float16)), {}, add),
    ("operator/ascendc/0_introduction/15_sub_frameworklaunch/SubCustom",
     lambda: (rn(16384, np.float16), rn(16384, np.float16)), {}, lambda x, y: x.astype(np.float64) - y),
    ("operator/ascendc/0_introduction/9_leakyrelu_frameworklaunch/LeakyReluCustom", lambda: (rn(16384),),
     {"negative_slope": 0.1}, lambda x, negative_slope: np.where(x >= 0, x, x * np.float32(negative_slope))),
    ("operator/ascendc/1_utilities/7_dumptensor/FrameworkLaunch/DumpTensorVector/AddCustom",
     lambda: (rn(16384, np.float16), rn(16384, np.float16)), {}, add),
    ("operator_contrib/LerpSample/FrameworkLaunch/Lerp", lambda: (rn(4096), rn(4096), rn(4096)), {},
     lambda s, e, w: s + w * (e.astype(np.float64) - s)),
    ("operator_contrib/AddcmulSample/FrameworkLaunch/Addcmul",
     lambda: (rn(4096), rn(4096), rn(4096), np.array([0.5], np.float32)), {},
     lambda a, b, c, v: a + v[0] * b.astype(np.float64) * c),
    ("operator_contrib/ClipByValueSample/FrameworkLaunch/ClipByValue",
     lambda: (rn(4096), np.array([-0.5], np.float32), np.array([0.5], np.float32)), {},
     lambda x, lo, hi: np.clip(x, lo[0], hi[0])),
]


@pytest.mark.parametrize("rel,make,attrs,ref", CASES, ids=[c[0].split("/")[-3] + "/" + c[0].split("/")[-1]
                                                           for c in CASES])
def test_sample_op_project_runs(rel, make, attrs, ref, capfd):
    op = arc.op_project(sample_path(rel))
    args = make()
    out = op(*args, **attrs)
    want = ref(*args, **attrs)
    assert out.shape == np.shape(want)
    tol = 2e-3 if out.dtype == np.float16 else 1e-5
    np.testing.assert_allclose(out.astype(np.float64), want, rtol=tol, atol=tol)


MATMUL = "operator/ascendc/0_introduction/10_matmul_frameworklaunch/MatmulCustomMultiCore"


def test_matmul_without_infer_shape_needs_its_output_shape():
    """The sample defines no InferShape: its output's shape cannot be known
    from a (M, K), b (K, N), bias (N,); the call says so before launch and
    runs with out_shapes= (or outputs=) against NumPy."""
    op = arc.op_project(sample_path(MATMUL))
    a, b = rn(1024 * 256, np.float16).reshape(1024, 256), rn(256 * 640, np.float16).reshape(256, 640)
    bias = rn(640)
    with pytest.raises(arc.OpProjectError, match=r"the shape of output 'c' cannot be known before launch.*"
                                                 r"pass out_shapes=\[...\]"):
        op(a, b, bias)
    want = a.astype(np.float64) @ b + bias
    np.testing.assert_allclose(op(a, b, bias, out_shapes=[(1024, 640)]), want, rtol=1e-3, atol=1e-3)
    with pytest.raises(arc.OpProjectError, match=r"output 'c' is float16 \(1024, 640\), but the op definition gives "
                                                 r"float32 \(1024, 640\)"):
        op(a, b, bias, outputs=[np.empty((1024, 640), np.float16)])
    for _ in range(3):  # too small: the kernel's writes past it name it, every time
        with pytest.raises(arc.LaunchError, match=r"\(kernel parameter 3 'c'\)"):
            op(a, b, bias, out_shapes=[(1024, 256)])


@pytest.mark.parametrize("rel", [MATMUL, "operator/ascendc/tutorials/MatmulCustomSample/FrameworkLaunch/MatmulCustomMultiCore"],
                         ids=["plain struct", "tiling DSL"])
def test_matmul_tiling_fields_include_the_nested_tcube_tiling(rel):
    """The tiling struct nests TCubeTiling (a plain C++ struct the host fills
    through GetTilingData<T>, or a DSL struct with TILING_DATA_FIELD_DEF_STRUCT):
    its fields are decoded, and agree with the call's shapes."""
    op = arc.op_project(sample_path(rel))
    a, b = np.zeros((1024, 256), np.float16), np.zeros((256, 640), np.float16)
    t = op.tiling(a, b, np.zeros(640, np.float32), out_shapes=[(1024, 640)])
    assert t.struct is not None and t.struct.size == 8 + 50 * 4 == 208 and len(t.data) >= 208
    f = t.fields
    cube = f["cubeTilingData"]
    assert (cube["M"], cube["N"], cube["Ka"], cube["Kb"], cube["isBias"]) == (1024, 640, 256, 256, 1)
    assert 1 <= cube["usedCoreNum"] <= t.block_dim * 2 and f["localMemSize"] > 0
    assert t.replace(localMemSize=7).fields["localMemSize"] == 7


def test_addtemplate_float32_leaves_most_of_z_unwritten_and_poisoning_says_where(monkeypatch):
    # The sample's bug, not the simulator's: its float32 branch calls
    # Process1() (tile 0 only) with the tiling's TILE_NUM 8, so each of the 8
    # blocks writes 128 of its 2048 elements.  float16 takes Process2().
    op = arc.op_project(sample_path("operator/ascendc/0_introduction/6_addtemplate_frameworklaunch/AddTemplateCustom"))
    x, y = rn(16384), rn(16384)
    monkeypatch.setenv("ASCENDRTC_POISON", "1")
    with pytest.raises(arc.UnwrittenOutputError, match=r"15360 of 16384 elements of AddCustom output 'z' .* never "
                                                        r"written by the kernel: flat elements 128\.\.2047, 2176\.\.4095"):
        op(x, y)
    h = rn(16384, np.float16)
    np.testing.assert_array_equal(op(h, h), h + h)
    # the tiling function picks TilingDataFp or TilingDataFp16 per dtype; fields decode the one it used
    assert op.tiling(h, h).fields == {"totalLength": 16384} and op.tiling(x, y).fields == {"totalLength": 16384}
