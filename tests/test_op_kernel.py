"""The kernel side of op projects (ascendrtc/_op_kernel.py): the test op
projects in tests/op_projects (our own, in the samples' layout) compiled
with no op build and launched with hand-made tiling bytes (packed here with
ctypes / NumPy in the C layout), against NumPy."""
import ctypes
import os

import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc._op_kernel import OpProjectError, op_kernel
from helpers.op_projects import files_of

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECTS = os.path.join(HERE, "op_projects")


def project(name):
    return os.path.join(PROJECTS, name)


# ---- AddEven: DTYPE_* per dtype, GET_TILING_DATA through the op's registration
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int16, np.int32])
def test_dtype_macros_follow_the_arguments(dtype):
    ok = op_kernel(project("AddEven"), params=["x", "y", "z"])
    x = (np.arange(8 * 256) % 50).astype(dtype)
    y = (np.arange(8 * 256) % 7).astype(dtype)
    z = np.zeros_like(x)
    ok(x, y, z, block_dim=8, tiling=np.array([x.size, 2], np.uint32))
    arc.synchronize()
    np.testing.assert_array_equal(z, x + y)


def test_one_compile_per_dtype_combination():
    ok = op_kernel(project("AddEven"), params=["x", "y", "z"])
    k16 = ok.kernel({"x": np.float16, "y": "half", "z": "DT_FLOAT16"})
    assert ok.kernel({"x": "float16", "y": np.dtype(np.float16), "z": "fp16"}) is k16
    assert ok.kernel({"x": np.float32, "y": np.float32, "z": np.float32}) is not k16


def test_files_in_memory():
    ok = op_kernel(files_of("AddEven"), params=["x", "y", "z"])
    x = np.arange(8 * 64, dtype=np.float32)
    z = np.zeros_like(x)
    ok(x, x, z, block_dim=8, tiling=np.array([x.size, 1], np.uint32))
    arc.synchronize()
    np.testing.assert_array_equal(z, 2 * x)


def test_prelude_defines_what_the_op_build_defines():
    ok = op_kernel(project("AddEven"))
    p = ok.prelude({"x": np.float16, "y": "bfloat16"}, orig_dtypes={"x": np.float32}, formats={"x": "NCHW"})
    assert "#define DTYPE_X half" in p and "#define ORIG_DTYPE_X 0" in p and "#define FORMAT_X 0" in p
    assert "#define DTYPE_Y bfloat16_t" in p and "#define ORIG_DTYPE_Y 27" in p and "#define FORMAT_Y 2" in p
    assert '#define ASCENDRTC_OP_TYPE "add_even"' in p
    assert ok.tiling_headers == ["op_host/add_even_tiling.h"]


# ---- ScaleTail: former/tail split, _STRUCT, _ARR, GET_TILING_DATA_MEMBER / _PTR_WITH_STRUCT
class Split(ctypes.Structure):
    _fields_ = [("formerNum", ctypes.c_uint8), ("formerLength", ctypes.c_uint64), ("tailLength", ctypes.c_uint32)]


class ScaleTailTiling(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_int16), ("split", Split), ("scale", ctypes.c_float),
                ("offset", ctypes.c_float * 4)]


def test_former_and_tail_cores_nested_struct_and_array():
    ok = op_kernel(project("ScaleTail"), params=["x", "y"])
    cores, former, flen, tlen = 6, 2, 64 * 3, 64 * 2
    n = former * flen + (cores - former) * tlen
    x = (np.arange(n) % 13).astype(np.float32)
    y = np.zeros_like(x)
    t = ScaleTailTiling(flags=-1, split=Split(former, flen, tlen), scale=2.0)
    t.offset[:] = [0.5, 1.0, 1.5, 2.0]
    ok(x, y, block_dim=cores, tiling=t)
    arc.synchronize()
    core = np.concatenate([np.full(flen, c) for c in range(former)] +
                          [np.full(tlen, c) for c in range(former, cores)])
    np.testing.assert_array_equal(y, x * 2.0 + np.array(t.offset)[core % 4].astype(np.float32))


def test_a_tiling_buffer_shorter_than_the_struct_is_stopped():
    ok = op_kernel(project("ScaleTail"), params=["x", "y"])
    x = np.zeros(64, np.float32)
    with pytest.raises(arc.LaunchError, match="GET_TILING_DATA"):
        ok(x, np.zeros_like(x), block_dim=1, tiling=np.zeros(8, np.uint8))
        arc.synchronize()


# ---- KeySelect: the tiling key both ways; ORIG_DTYPE_ / FORMAT_ numbers
@pytest.mark.parametrize("key_at", ["launch", "compile"])
def test_tiling_key_both_ways(key_at):
    ok = op_kernel(project("KeySelect"), params=["x", "y", "z", "info"])
    n, cores = 128, 4
    x = (np.arange(n * cores) % 11 - 5).astype(np.float32)
    y = (np.arange(n * cores) % 5 - 2).astype(np.float32)
    want = {1: x + y, 2: x - y, 3: np.maximum(x, y)}
    for key in (1, 2, 3):
        z = np.zeros_like(x)
        info = np.zeros(8, np.int32)
        ok(x, y, z, info, block_dim=cores, tiling=np.uint32(n), tiling_key=key, key_at=key_at)
        arc.synchronize()
        np.testing.assert_array_equal(z, want[key], err_msg=f"key {key}")
        assert info[:4].tolist() == [0, 2, 3, 4]    # DT_FLOAT, FORMAT_ND, DT_INT32, sizeof(float)


def test_compile_time_key_ignores_the_launch_key():
    ok = op_kernel(project("KeySelect"), params=["x", "y", "z", "info"])
    k = ok.kernel({"x": np.float32, "y": np.float32, "z": np.float32, "info": np.int32}, tiling_key=2)
    x, y = np.full(64, 5, np.float32), np.full(64, 3, np.float32)
    z = np.zeros_like(x)
    k(x, y, z, np.zeros(8, np.int32), np.zeros(32, np.uint8), np.uint32(64).tobytes() + bytes(4),
      block_dim=1, tiling_key=1)
    arc.synchronize()
    np.testing.assert_array_equal(z, x - y)


# ---- WsCopy: plain struct + REGISTER_TILING_DEFAULT, the workspace, a same-named op_host header
def test_plain_struct_default_and_workspace():
    ok = op_kernel(project("WsCopy"), params=["x", "y"])
    assert ok.tiling_headers == []          # op_kernel/ws_copy_tiling.h is the kernel's own
    n, cores = 64, 4
    x = np.arange(n * cores, dtype=np.int32)
    y = np.zeros_like(x)
    t = np.array([(n, -7)], dtype=[("blockLength", "<u4"), ("add", "<i4")])
    ok(x, y, block_dim=cores, tiling=t, workspace=x.nbytes)
    arc.synchronize()
    np.testing.assert_array_equal(y, x - 7)


# ---- TplAdd: tiling template programming
ELEM = {"half": 0, "float": 1}                  # positions in ASCENDC_TPL_DTYPE_DECL(ELEM, ...)
TILES = [1, 2, 4, 8]                            # MIX: range {1, 2}, then 4, 8


def tpl_key(elem, tiles, bias):
    """The documented encoding: each value's position in its declared list,
    packed from bit 0 in declaration order (ELEM 8 bits, TILES 4, BIAS 1)."""
    return ELEM[elem] | TILES.index(tiles) << 8 | int(bias) << 12


@pytest.mark.parametrize("tiles,bias", [(1, False), (4, True), (8, False)])
def test_template_tiling_float(tiles, bias):
    ok = op_kernel(project("TplAdd"), params=["x", "y", "z"])
    x = (np.arange(8 * 256) % 9).astype(np.float32)
    y = np.full_like(x, 2)
    z = np.zeros_like(x)
    t = np.array([(x.size, 0.25)], dtype=[("n", "<u4"), ("bias", "<f4")])
    ok(x, y, z, block_dim=8, tiling=t, tiling_key=tpl_key("float", tiles, bias), key_at="compile")
    arc.synchronize()
    np.testing.assert_array_equal(z, x + y + (np.float32(0.25) if bias else 0))


def test_template_tiling_half_reads_the_default_struct():
    ok = op_kernel(project("TplAdd"), params=["x", "y", "z"])
    x = (np.arange(8 * 128) % 9).astype(np.float16)
    z = np.zeros_like(x)
    ok(x, x, z, block_dim=8, tiling=np.uint32(x.size), tiling_key=tpl_key("half", 2, False), key_at="compile")
    arc.synchronize()
    np.testing.assert_array_equal(z, x + x)


def test_template_arguments_declared_in_a_namespace():
    """ASCENDC_TPL_ARGS_DECL inside a namespace (ops-math's AtanOp): the
    instantiation for a key still finds it; the scan skips comments."""
    f = files_of("TplAdd")
    h = f["op_kernel/tpl_add_key.h"]
    f["op_kernel/tpl_add_key.h"] = h.replace("ASCENDC_TPL_ARGS_DECL(TplAdd,", "namespace TplAddOp {\n"
                                             "// namespace NotThis {\nASCENDC_TPL_ARGS_DECL(TplAdd,", 1)
    f["op_kernel/tpl_add_key.h"] = f["op_kernel/tpl_add_key.h"].replace("\n#endif", "\n} // namespace TplAddOp\n#endif")
    from ascendrtc._op_kernel import _decl_namespaces
    assert _decl_namespaces(f["op_kernel/tpl_add_key.h"]) == ["TplAddOp"]
    ok = op_kernel(f, params=["x", "y", "z"])
    x = (np.arange(8 * 256) % 9).astype(np.float32)
    z = np.zeros_like(x)
    t = np.array([(x.size, 0.25)], dtype=[("n", "<u4"), ("bias", "<f4")])
    ok(x, x, z, block_dim=8, tiling=t, tiling_key=tpl_key("float", 4, True), key_at="compile")
    arc.synchronize()
    np.testing.assert_array_equal(z, x + x + np.float32(0.25))


def test_template_keys_outside_the_declaration_or_selection_are_refused():
    ok = op_kernel(project("TplAdd"), params=["x", "y", "z"])
    dts = {"x": np.float16, "y": np.float16, "z": np.float16}
    with pytest.raises(arc.CompileError, match="not one of the op's ASCENDC_TPL_SEL"):
        ok.kernel(dts, tiling_key=tpl_key("half", 4, False))       # half only with 1 or 2 tiles
    with pytest.raises(arc.CompileError, match="does not decode"):
        ok.kernel(dts, tiling_key=ELEM["half"] | 9 << 8)           # TILES has 4 values
    with pytest.raises(OpProjectError, match="is a template.*tiling_key"):
        ok.kernel(dts)


# ---- bad input
def test_bad_projects_name_the_problem(tmp_path):
    with pytest.raises(OpProjectError, match="not a directory"):
        op_kernel(tmp_path / "nope")
    (tmp_path / "op_kernel").mkdir()
    with pytest.raises(OpProjectError, match=r"no kernel source in op_kernel/"):
        op_kernel(tmp_path)
    for n in ("a_op.cpp", "b_op.cpp"):
        (tmp_path / "op_kernel" / n).write_text("")
    with pytest.raises(OpProjectError, match="several kernel sources"):
        op_kernel(tmp_path)
    assert op_kernel(tmp_path, op_type="BOp").kernel_file == "op_kernel/b_op.cpp"
    ok = op_kernel(project("AddEven"))
    with pytest.raises(OpProjectError, match="op add_even: unknown dtype .datetime64."):
        ok.kernel({"x": np.datetime64})
    with pytest.raises(OpProjectError, match="op add_even: dtype complex128 has no AI Core kernel type"):
        ok.kernel({"x": np.complex128})
    with pytest.raises(OpProjectError, match="unknown format 'ZZ'"):
        ok.kernel({"x": np.float32}, formats={"x": "ZZ"})
    with pytest.raises(OpProjectError, match="tiling_key must be an int"):
        ok.kernel({"x": np.float32}, tiling_key=-1)
    with pytest.raises(OpProjectError, match="name the parameters"):
        ok(np.zeros(4), block_dim=1)


def test_a_compile_error_points_into_the_kernel_file():
    files = files_of("AddEven")
    files["op_kernel/add_even.cpp"] = files["op_kernel/add_even.cpp"].replace("t.tileNum", "t.tileCount")
    ok = op_kernel(files, params=["x", "y", "z"])
    with pytest.raises(arc.CompileError) as ei:
        ok.kernel({"x": np.float32, "y": np.float32, "z": np.float32})
    e = ei.value
    assert e.file == "add_even.cpp" and "tileCount" in e.message
    assert "t.tileCount" in str(e).splitlines()[1]           # the offending line, not a prelude line
    # nothing cached from the failure: the fixed text compiles
    files["op_kernel/add_even.cpp"] = files["op_kernel/add_even.cpp"].replace("t.tileCount", "t.tileNum")
    assert op_kernel(files).kernel({"x": np.float32, "y": np.float32, "z": np.float32}) is not None


def test_template_first_selected_instance():
    """tiling_key="first" builds ASCENDC_TPL_SEL's first combination (half, 1 tile, no bias)."""
    ok = op_kernel(project("TplAdd"), params=["x", "y", "z"])
    k = ok.kernel({"x": np.float16, "y": np.float16, "z": np.float16}, tiling_key="first")
    x = (np.arange(4 * 64) % 5).astype(np.float16)
    z = np.zeros_like(x)
    k(x, x, z, np.zeros(32, np.uint8), np.uint32(x.size).tobytes() + bytes(4), block_dim=4)
    arc.synchronize()
    np.testing.assert_array_equal(z, x + x)
