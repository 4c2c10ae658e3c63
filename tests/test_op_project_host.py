"""Op projects, host side: op_host code compiled in process against the
clean-room host API, its op definition read back, InferShape and the tiling
function run for the arrays of a call (tests/op_projects/*), and each kind
of bad input reported with the op, the file and the reason."""
import os
import re

import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc import _C
from helpers.op_projects import files_of

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECTS = os.path.join(HERE, "op_projects")


def project(name):
    return arc.op_project(os.path.join(PROJECTS, name))



def test_definition_read_back():
    op = project("LeakyAttr")
    assert op.op_type == "LeakyAttr" and op.kernel_name == "leaky_attr"
    assert op.input_names == ["x"] and op.output_names == ["y"]
    assert op.attr_names == ["negative_slope", "tile_num"]
    slope, tiles = op.definition["attrs"]
    assert not slope["required"] and slope["has_default"] and slope["floats"] == [pytest.approx(0.01)]
    assert tiles["required"] and not tiles["has_default"]
    assert op.definition["inputs"][0]["dtypes"] == [0, 1]  # DT_FLOAT, DT_FLOAT16
    assert op.definition["infer_shape"] and not op.definition["infer_dtype"]


def test_even_split_tiling_and_readable_struct():
    op = project("AddSplit")
    x = np.ones(8 * 1024, np.float16)
    t = op.tiling(x, x)
    assert (t.block_dim, t.tiling_key, t.workspace_sizes) == (8, 0, [0])
    assert t.fields == {"totalLength": 8 * 1024, "tileNum": 4}
    assert t.data == np.array([8 * 1024, 4], np.uint32).tobytes()
    assert t.outputs == [((8 * 1024,), np.dtype(np.float16))]


def test_former_tail_split_uses_the_platform():
    op = project("MulTail")
    n = 1000  # 125 blocks of 8 over 6 cores: 5 cores take 21 blocks, 1 takes 20
    t = op.tiling(np.zeros(n, np.float32), np.zeros(n, np.float32))
    f = t.fields
    assert t.block_dim == 6
    assert f["formerNum"] * f["formerLength"] + (t.block_dim - f["formerNum"]) * f["tailLength"] == n
    assert (f["formerNum"], f["formerLength"], f["tailLength"]) == (5, 168, 160)


def test_tiling_key_per_dtype_and_attr_default():
    op = project("ScaleKeyed")
    assert op.tiling(np.ones(64, np.float16)).tiling_key == 1
    t = op.tiling(np.ones(64, np.float32), scale=0.25)
    assert t.tiling_key == 2 and t.tiling_key_set and t.fields["scale"] == 0.25
    assert op.tiling(np.ones(64, np.float32)).fields["scale"] == 2.0  # Float(2.0) default


def test_infer_shape_and_two_outputs():
    assert project("RowSum").tiling(np.ones((5, 16), np.float32)).outputs == [((5,), np.dtype(np.float32))]
    t = project("MinMax").tiling(np.ones(2048, np.int32), np.ones(2048, np.int32))
    assert t.outputs == [((2048,), np.dtype(np.int32))] * 2
    assert len(t.data) == 16 and t.fields == {"blockLength": 256, "cores": 8}  # uint64 then uint16: padded


def test_platform_ub_size_and_list_attrs():
    op = project("ClipUb")
    t = op.tiling(np.ones(4096, np.float32), bounds=[-1.5, 2.0])
    assert t.fields["tileLength"] == arc.device_info()["ub_size"] // 4 // 4
    assert t.fields["bounds"] == [-1.5, 2.0]
    assert op.tiling(np.ones(4096, np.float32), bounds=[0, 1], max_tile=[64]).fields["tileLength"] == 64


def test_workspace_and_new_style_struct():
    t = project("WorkspaceAdd").tiling(np.ones(1024, np.float32), rounds=2)
    # the user's bytes plus GetLibApiWorkSpaceSize(), 16 MiB as on the NPU (common/socs.h)
    assert t.workspace_sizes == [1024 * 4 + _C.LIB_API_WORKSPACE] and t.fields["rounds"] == 2
    t = project("AxpyStruct").tiling(np.ones(256, np.float32), np.ones(256, np.float32), alpha=0.5)
    assert t.data == np.array([128], np.uint32).tobytes() + np.float32(0.5).tobytes()
    assert t.fields == {"blockLength": 128, "alpha": 0.5}     # a plain struct (GetTilingData<T>) is decoded too


def test_template_tiling_key_changes_with_its_arguments():
    op = project("AddTpl")
    h, f = np.ones(4096, np.float16), np.ones(4096, np.float32)
    keys = {op.tiling(h, h).tiling_key, op.tiling(f, f).tiling_key, op.tiling(h, h, double_it=True).tiling_key,
            op.tiling(h[:1024], h[:1024]).tiling_key}
    assert len(keys) == 4


def test_replace_makes_a_hand_made_tiling():
    op = project("AddSplit")
    x = np.ones(4096, np.float32)
    t = op.tiling(x, x).replace(tileNum=2)
    assert t.fields == {"totalLength": 4096, "tileNum": 2}
    with pytest.raises(KeyError, match="no field"):
        t.replace(nope=1)


def test_in_memory_files_and_host_compile_cached():
    files = files_of("AddSplit")
    op = arc.op_project(files)
    assert op.tiling(np.ones(64, np.float32), np.ones(64, np.float32)).fields["totalLength"] == 64
    assert arc.op_project(dict(files)) is op


# ---------------------------------------------------------------- bad input
def test_dtype_the_definition_does_not_list():
    op = project("AddSplit")
    with pytest.raises(arc.OpProjectError) as e:
        op.tiling(np.ones(64, np.int32), np.ones(64, np.int32))
    msg = str(e.value)
    assert "AddSplit" in msg and "op_host/add_split.cpp" in msg and "x=int32" in msg
    assert "DT_FLOAT16" in msg and e.value.file == "op_host/add_split.cpp"


def test_missing_op_host_and_missing_dir(tmp_path):
    files = files_of("AddSplit")
    del files["op_host/add_split.cpp"]
    with pytest.raises(arc.OpProjectError, match=r"no op_host/\*\.cpp"):
        arc.op_project(files)
    with pytest.raises(arc.OpProjectError, match="not a directory"):
        arc.op_project(str(tmp_path / "nope"))


def test_tiling_function_failing_names_its_status():
    op = project("LeakyAttr")
    with pytest.raises(arc.OpProjectError, match=r"LeakyAttr \(op_host/leaky_attr.cpp\): the tiling function "
                                                 r"returned ge::GRAPH_FAILED"):
        op.tiling(np.ones(64, np.float32), tile_num=0)
    with pytest.raises(TypeError, match="missing required attribute 'tile_num'"):
        op.tiling(np.ones(64, np.float32))
    with pytest.raises(TypeError, match="no input or attribute 'tiles'"):
        op.tiling(np.ones(64, np.float32), tiles=2)
    # the process and the project stay usable
    assert op.tiling(np.ones(64, np.float32), tile_num=2).fields["tileNum"] == 2


def test_tiling_struct_larger_than_the_buffer():
    files = files_of("AddSplit")
    files["op_host/add_split_tiling.h"] = files["op_host/add_split_tiling.h"].replace(
        "TILING_DATA_FIELD_DEF(uint32_t, tileNum);",
        "TILING_DATA_FIELD_DEF(uint32_t, tileNum);\nTILING_DATA_FIELD_DEF_ARR(uint8_t, 20000, pad);")
    op = arc.op_project(files)
    with pytest.raises(arc.OpProjectError, match=r"AddSplitTilingData::SaveToBuffer: the tiling data \(20008 bytes\) "
                                                 r"is larger than the tiling buffer \(16384 bytes\)"):
        op.tiling(np.ones(64, np.float32), np.ones(64, np.float32))
    big = arc.op_project(files, tiling_capacity=32 * 1024)
    assert big.tiling(np.ones(64, np.float32), np.ones(64, np.float32)).fields["tileNum"] == 4


def test_get_tiling_data_larger_than_the_buffer():
    op = arc.op_project(files_of("AxpyStruct"), tiling_capacity=4)
    with pytest.raises(arc.OpProjectError, match=r"GetTilingData<AxpyStructTilingData>\(\): the struct is 8 bytes, "
                                                 r"larger than the tiling buffer \(4 bytes\)"):
        op.tiling(np.ones(64, np.float32), np.ones(64, np.float32), alpha=1.0)


def test_missing_host_api_is_named_not_a_crash():
    files = files_of("AddSplit")
    files["op_host/add_split.cpp"] = files["op_host/add_split.cpp"].replace(
        "context->SetBlockDim(CORES);", "context->SetBlockDim(CORES);\n    context->SetAicpuBlockDim(2);")
    with pytest.raises(arc.OpProjectError) as e:
        arc.op_project(files)
    assert re.search(r"op_host/add_split.cpp:\d+: uses gert::TilingContext::SetAicpuBlockDim, which ascendrtc's "
                     r"host API subset lacks", str(e.value))
    assert e.value.file == "op_host/add_split.cpp" and "error:" in e.value.log
    files["op_host/add_split.cpp"] = '#include "register/op_hypothetical.h"\n' + files_of("AddSplit")["op_host/add_split.cpp"]
    with pytest.raises(arc.OpProjectError, match=r'includes "register/op_hypothetical.h", which neither'):
        arc.op_project(files)


def test_host_code_that_throws_is_reported():
    files = files_of("AddSplit")
    files["op_host/add_split.cpp"] = files["op_host/add_split.cpp"].replace(
        "AddSplitTilingData tiling;", 'AddSplitTilingData tiling;\n    if (context->GetInputShape(0)->GetOriginShape().GetShapeSize() == 7) throw std::runtime_error("seven");'
    ).replace('#include "add_split_tiling.h"', '#include <stdexcept>\n#include "add_split_tiling.h"')
    op = arc.op_project(files)
    with pytest.raises(arc.OpProjectError, match=r"op AddSplit \(op_host/add_split.cpp\): the tiling function "
                                                 r"\(SetTiling\) threw std::runtime_error: seven"):
        op.tiling(np.ones(7, np.float32), np.ones(7, np.float32))
    assert op.tiling(np.ones(8, np.float32), np.ones(8, np.float32)).fields["totalLength"] == 8


def test_tiling_bound_with_set_data_ptr_and_nested_first_field():
    """NestedBind: the tiling object is bound to the raw tiling buffer with
    SetDataPtr (no SaveToBuffer) and deleted inside the tiling function; its
    first field is itself a tiling class, so it must sit at offset 0 (the
    kernel's plain struct layout: 24 + 16 + 4 bytes, rounded to 48)."""
    op = project("NestedBind")
    z = op(np.zeros(5, np.float32))
    np.testing.assert_array_equal(z, np.array([5, 15, 0.5, 7, -5, 11, 48, 1], np.float32))


def test_a_packed_plain_struct_decodes_at_the_compilers_offsets():
    """AxpyStruct with a #pragma pack(1) the struct's own text does not show
    (it sits in included headers): read from the text, the struct would be
    12 bytes (blockLength at offset 4); the compiler lays it out in 9
    (blockLength at 1), and that layout is what the host code reports, so
    the fields decode where the tiling function wrote them."""
    files = files_of("AxpyStruct")
    files["op_kernel/pack_begin.h"] = "#pragma pack(push, 1)\n"
    files["op_kernel/pack_end.h"] = "#pragma pack(pop)\n"
    files["op_kernel/axpy_struct_tiling.h"] = files["op_kernel/axpy_struct_tiling.h"].replace(
        "struct AxpyStructTilingData {", '#include "pack_begin.h"\nstruct AxpyStructTilingData {\n    uint8_t tag;'
    ).replace("#endif", '#include "pack_end.h"\n#endif')
    files["op_host/axpy_struct.cpp"] = files["op_host/axpy_struct.cpp"].replace(
        "context->SetBlockDim(cores);", "context->GetRawTilingData()->SetDataSize(16);\n    context->SetBlockDim(cores);")
    op = arc.op_project(files)
    x, y = np.arange(256, dtype=np.float32), np.ones(256, np.float32)
    t = op.tiling(x, y, alpha=0.5)
    assert len(t.data) == 16 and t.data[1:5] == np.uint32(128).tobytes()    # the compiler's layout
    assert [(n, off) for n, _, _, _, off in t.struct.layout()] == [("tag", 0), ("blockLength", 1), ("alpha", 5)]
    assert t.struct.size == 9 and t.fields == {"tag": 0, "blockLength": 128, "alpha": 0.5}
    assert t.replace(alpha=2.0).data[5:9] == np.float32(2.0).tobytes()
    np.testing.assert_array_equal(op(x, y, alpha=0.5), 0.5 * x + y)
    assert project("AxpyStruct").tiling(x, y, alpha=0.5).fields == {"blockLength": 128, "alpha": 0.5}


def test_fields_follow_the_struct_the_tiling_function_used():
    # A tiling function that picks one of two plain structs (as CANN's
    # AddTemplateCustom does per dtype, with REGISTER_TILING_FOR_TILINGKEY on
    # the kernel side): fields decode the struct of this call's GetTilingData<T>().
    files = files_of("AxpyStruct")
    files["op_kernel/axpy_struct_tiling.h"] = files["op_kernel/axpy_struct_tiling.h"].replace(
        "#endif", "struct AxpyWideTiling {\n    uint32_t blockLength;\n    float alpha;\n    float beta;\n};\n#endif")
    files["op_host/axpy_struct.cpp"] = files["op_host/axpy_struct.cpp"].replace(
        "    AxpyStructTilingData *t = context->GetTilingData<AxpyStructTilingData>();\n", """\
    float a = *context->GetAttrs()->GetAttrPointer<float>(0);
    if (a < 0) {
        AxpyWideTiling *w = context->GetTilingData<AxpyWideTiling>();
        w->blockLength = 7;
        w->alpha = a;
        w->beta = 2.5f;
        context->SetTilingKey(1);
        context->SetBlockDim(2);
        return ge::GRAPH_SUCCESS;
    }
    AxpyStructTilingData *t = context->GetTilingData<AxpyStructTilingData>();
""")
    op = arc.op_project(files)
    x = np.ones(256, np.float32)
    assert op.tiling(x, x, alpha=0.5).fields == {"blockLength": 128, "alpha": 0.5}
    t = op.tiling(x, x, alpha=-1.0)
    assert t.tiling_key == 1 and t.fields == {"blockLength": 7, "alpha": -1.0, "beta": 2.5}
    assert t.replace(beta=1.0).fields["beta"] == 1.0
