"""Op directories as CANN's op libraries build them (issue 28, items 2-4
in part): functions registered by op type (IMPL_OP_INFERSHAPE,
IMPL_OP_OPTILING with TilingParse), op-API sources left out of the host
compile, the library's common include directories and opbase's found from
the layout.  Libraries here are small trees the tests make; the real
ops-nn/ops-math sweep is in docs/compatibility.md."""
import numpy as np
import pytest

import ascendrtc as arc

from helpers.oplib import ROOT, files, library, with_tiling_body


def registered_by_type(host):
    """AddSplit whose InferShape, InferDataType and tiling are registered
    with IMPL_OP_* (the tiling reads its tile count from a compile info
    its TilingParse fills) instead of in the OpDef."""
    host = host.replace('#include "register/op_def_registry.h"',
                        '#include "register/op_def_registry.h"\n#include "register/op_impl_registry.h"\n'
                        'struct AddSplitCompileInfo { uint32_t tiles = 0; };')
    host = host.replace("tiling.set_tileNum(TILES);",
                        "tiling.set_tileNum(context->GetCompileInfo<AddSplitCompileInfo>()->tiles);")
    host = host.replace("this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);", "")
    host = host.replace("this->AICore().SetTiling(optiling::TilingFunc).AddConfig", "this->AICore().AddConfig")
    host += r"""
static ge::graphStatus ParseAddSplit(gert::TilingParseContext *context)
{
    context->GetCompiledInfo<AddSplitCompileInfo>()->tiles = 2;
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_INFERSHAPE(AddSplit).InferShape(ge::InferShape).InferDataType(ge::InferDataType);
IMPL_OP_OPTILING(AddSplit).Tiling(optiling::TilingFunc).TilingParse<AddSplitCompileInfo>(ParseAddSplit);
"""
    return host


def test_functions_registered_by_op_type():
    f = files()
    f["op_host/add_split.cpp"] = registered_by_type(f["op_host/add_split.cpp"])
    op = arc.op_project(f)
    assert op.definition["infer_shape"] and op.definition["tiling"]
    x, y = np.arange(4096, dtype=np.float32), np.ones(4096, np.float32)
    assert op.tiling(x, y).fields == {"totalLength": 4096, "tileNum": 2}
    np.testing.assert_array_equal(op(x, y), x + y)


def test_op_api_sources_are_not_tiling_code():
    f = files()
    f["op_host/op_api/aclnn_add_split.cpp"] = '#include "aclnn/opdev/op_executor.h"\nthis is not tiling code\n'
    f["op_host/add_split_l0.cpp"] = "neither is this\n"
    x = np.arange(4096, dtype=np.float32)
    np.testing.assert_array_equal(arc.op_project(f)(x, x), 2 * x)


def test_the_librarys_common_include_dirs_are_found(tmp_path):
    lib, op_dir = library(tmp_path)
    op = arc.op_project(str(op_dir))
    x = np.arange(4096, dtype=np.float32)
    assert op.tiling(x, x).fields["tileNum"] == 4
    np.testing.assert_array_equal(op(x, x), 2 * x)
    from ascendrtc._op_library import library_include_dirs
    assert library_include_dirs(str(op_dir))[:2] == [str(lib), str(lib / "common" / "inc")]
    assert str(op_dir / "op_host") in library_include_dirs(str(op_dir))
    assert library_include_dirs(ROOT) == []  # a project outside any library


def test_the_include_dirs_of_the_librarys_cmake_variables_are_found(tmp_path):
    """A header the library's op-proto build finds through an include list
    of its cmake/variables.cmake (ops-math's common/inc/op_api/op_util.h;
    ops-nn's matmul/ for "common/op_host/matmul_common_infershape.h");
    directories of the SDK's variables and missing ones are not added."""
    lib, op_dir = library(tmp_path)
    (lib / "common" / "inc" / "op_host" / "split_tiles.h").write_text('#include "op_util.h"\n')
    (lib / "common" / "inc" / "op_api").mkdir()
    (lib / "common" / "inc" / "op_api" / "op_util.h").write_text("constexpr unsigned SPLIT_TILES = 2;\n")
    (lib / "cmake").mkdir()
    (lib / "cmake" / "variables.cmake").write_text(
        "set(OP_PROTO_INCLUDE\n  ${METADEF_INCLUDE_DIRS}\n  ${OPS_LIB_DIR}/common/inc/\n"
        "  ${OPS_LIB_DIR}/common/inc/op_api  # the op-proto build's\n  ${OPS_LIB_DIR}/nowhere\n)\n"
        "set(OPAPI_INCLUDE ${OPS_LIB_DIR}/math)\n")
    from ascendrtc._op_library import cmake_include_dirs
    assert cmake_include_dirs(str(lib)) == [str(lib / "common" / "inc"), str(lib / "common" / "inc" / "op_api")]
    x = np.arange(4096, dtype=np.float32)
    op = arc.op_project(str(op_dir))
    assert op.tiling(x, x).fields["tileNum"] == 2


def test_unqualified_standard_names_as_canns_platform_headers_allow():
    """CANN's platform/platform_info_def.h (which platform_infos_def.h, the
    tiling headers' platform facts, includes) makes std::string, vector
    and map visible unqualified; its exe_graph shape header brings
    <iostream>.  Op host code of the libraries relies on both."""
    body = r'''
    string name = "tiles";
    vector<int> v{1, 2};
    map<string, int> m{{name, 3}};
    std::cerr << "";
    if (m["tiles"] + v[1] != 5) return ge::GRAPH_FAILED;'''
    op = arc.op_project(with_tiling_body(body, '#include "platform/platform_infos_def.h"\n'
                                               '#include "exe_graph/runtime/shape.h"'))
    x = np.ones(64, np.float32)
    assert op.tiling(x, x).fields["tileNum"] == 4


@pytest.mark.parametrize("kernel", [False, True], ids=["op-api-only", "shared-code"])
def test_a_directory_with_no_ascend_c_op_is_refused_saying_so(tmp_path, kernel):
    """An op-API (aclnn) or graph-only directory, or one of code other ops
    include, defines no op: refused as such, not as a failed compile, even
    where its DEPENDENCIES define another op (ops-nn's BatchNormElemt)."""
    lib, op_dir = library(tmp_path)
    d = lib / "math" / "add_split_api"
    (d / "op_host" / "op_api").mkdir(parents=True)
    (d / "op_host" / "op_api" / "aclnn_add_split.cpp").write_text("// aclnn entry\n")
    (d / "op_host" / "add_split_infershape.cpp").write_text("// InferShape only\n")
    (d / "CMakeLists.txt").write_text("add_modules_sources(OPTYPE add_split_api DEPENDENCIES add_split)\n")
    if kernel:
        (d / "op_kernel").mkdir()
        (d / "op_kernel" / "shared.h").write_text("// included by other ops\n")
    what = "code other ops include" if kernel else "an op-API \\(aclnn\\) or graph-only directory"
    with pytest.raises(arc.OpProjectError, match=r"op add_split_api: no Ascend C op here: no op definition "
                                                 r"\(OP_ADD\) among its op_host sources; (it is |its op_kernel/ is )?"
                                                 + what):
        arc.op_project(str(d))


def test_infer_shape_sets_an_output_dtype_through_the_node_info():
    """gert::ComputeNodeInfo's MutableOutputTdInfo (ops-nn's Threshold,
    Elu): writable descriptions of the instances, null past the last."""
    f = files()
    f["op_host/add_split.cpp"] = f["op_host/add_split.cpp"].replace(
        "    *context->GetOutputShape(0) = *context->GetInputShape(0);\n",
        "    *context->GetOutputShape(0) = *context->GetInputShape(0);\n"
        "    auto info = context->GetComputeNodeInfo();\n"
        "    auto in = info->GetInputTdInfo(1);\n"
        "    auto out = info->MutableOutputTdInfo(0);\n"
        "    if (in == nullptr || out == nullptr || info->MutableOutputTdInfo(1) != nullptr ||\n"
        "        info->MutableInputTdInfo(1)->GetDataType() != ge::DT_FLOAT16) return GRAPH_FAILED;\n"
        "    out->SetDataType(in->GetDataType());\n")
    op = arc.op_project(f)
    x = np.ones(64, np.float16)
    assert op.infer(x, x) == [((64,), np.dtype(np.float16))]
    with pytest.raises(arc.OpProjectError, match="InferShape"):
        op.infer(np.ones(64, np.float32), np.ones(64, np.float32))


def test_a_tiling_struct_registered_in_a_per_arch_host_header():
    """The struct registered in op_host/arch35/ (a host header: its C++ is
    no kernel's) reaches the kernel as the host code reports it, as
    CANN's build generates it (ops-math's Floor, TanhGrad)."""
    f = files()
    h = f.pop("op_host/add_split_tiling.h").replace("#include \"register/tilingdata_base.h\"",
                                                  "#include \"register/tilingdata_base.h\"\n#include <string>")
    f["op_host/arch35/add_split_tiling.h"] = h.replace("#endif", "inline std::string Describe() { return \"host\"; }\n#endif")
    f["op_host/add_split.cpp"] = f["op_host/add_split.cpp"].replace('"add_split_tiling.h"', '"arch35/add_split_tiling.h"')
    x = np.arange(4096, dtype=np.float32)
    np.testing.assert_array_equal(arc.op_project(f)(x, x), 2 * x)


def test_an_opbase_that_is_not_one_is_named(tmp_path):
    lib, op_dir = library(tmp_path)
    with pytest.raises(arc.OpProjectError, match=r"opbase '.*nowhere': not a checkout of CANN's opbase "
                                                 r"\(no include/op_common\)"):
        arc.op_project(str(op_dir), opbase=str(tmp_path / "nowhere"))
    x = np.arange(4096, dtype=np.float32)
    np.testing.assert_array_equal(arc.op_project(str(op_dir))(x, x), 2 * x)


def test_an_opbase_of_a_version_the_library_does_not_build_with_is_refused(tmp_path):
    """The library's version.cmake names the opbase it builds with; a checkout
    of another version is refused naming both, before anything compiles."""
    lib, op_dir = library(tmp_path)
    (lib / "version.cmake").write_text('set_cann_package(ops-nn VERSION "9.1.0")\n'
                                      'set_cann_build_dependencies(opbase ">=8.5")\n')
    base = tmp_path / "opbase"
    (base / "include" / "op_common").mkdir(parents=True)
    (base / "version.cmake").write_text('set_cann_package(opbase VERSION "8.0.0")\n')
    with pytest.raises(arc.OpProjectError, match=r"op add_split \(version.cmake\): ops-nn 9.1.0 needs opbase >=8.5 "
                                                 r"\(its version.cmake\), but the opbase checkout at .* is 8.0.0"):
        arc.op_project(str(op_dir), opbase=str(base))
    (base / "version.cmake").write_text('set_cann_package(opbase VERSION "9.0.0")\n')
    x = np.arange(4096, dtype=np.float32)
    np.testing.assert_array_equal(arc.op_project(str(op_dir), opbase=str(base))(x, x), 2 * x)


def test_what_the_op_logs_names_its_failure():
    f = with_tiling_body('REPORT_INNER_ERR_MSG("EZ9999", "tile count %d refused", 7);\n'
                         'DlogRecord(63, 3, "[%s] input is %s", "AddSplit", "empty");\n'
                         'DlogRecord(63, 2, "no %s library", "legacy");\nDlogRecord(63, 1, "an info line");\n'
                         'if (CheckLogLevel(63, 0) == 0) return ge::GRAPH_FAILED;',
                         '#include "base/err_msg.h"\n#include "graph/ge_error_codes.h"\n'
                         'extern "C" void DlogRecord(int32_t, int32_t, const char *, ...);\n'
                         'extern "C" int32_t CheckLogLevel(int32_t, int32_t);')
    op = arc.op_project(f)
    x = np.ones(4096, np.float32)
    with pytest.raises(arc.OpProjectError, match=r"returned ge::GRAPH_FAILED \(the op logged: EZ9999: tile count "
                                                 r"7 refused; \[AddSplit\] input is empty; warning: no legacy library\)"):
        op(x, x)
    # the next call starts with no logged errors
    ok = arc.op_project(files())
    np.testing.assert_array_equal(ok(x, x), 2 * x)


def test_platform_facts_through_every_door():
    """GetCurNpuArch, GetPlatformRes and fe::PlatformInfoManager answer the
    simulated NPU's facts; a fact it has none for answers false."""
    body = r'''
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    std::string soc, shortv, none;
    fe::PlatFormInfos *pi = context->GetPlatformInfo();
    if (!pi->GetPlatformRes("version", "SoC_version", soc) || !pi->GetPlatformRes("version", "Short_SoC_version", shortv))
        return ge::GRAPH_FAILED;
    if (pi->GetPlatformRes("AICoreintrinsicDtypeMap", "Intrinsic_mmad", none) || !none.empty())
        return ge::GRAPH_FAILED;
    fe::PlatformInfo info; fe::OptionalInfo opt;
    if (fe::PlatformInfoManager::Instance().GetPlatformInfoWithOutSocVersion(info, opt) != 0 ||
        info.soc_info.ai_core_cnt != plat.GetCoreNumAic() || info.str_info.short_soc_version != shortv)
        return ge::GRAPH_FAILED;
    uint64_t ub = 0;
    pi->GetLocalMemSize(fe::LocalMemType::UB, ub);
    if (ub == 0) return ge::GRAPH_FAILED;
    tiling.set_tileNum(static_cast<uint32_t>(plat.GetCurNpuArch()));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;'''
    op = arc.op_project(with_tiling_body(body, '#include "platform/platform_info.h"\n#include "platform/soc_spec.h"'))
    x = np.ones(64, np.float32)
    arch = arc.device_info().get("npu_arch") or 2201
    assert op.tiling(x, x).fields["tileNum"] == arch


def test_bounds_checked_functions():
    body = r'''
    char small[4];
    if (memcpy_s(small, sizeof small, "abcdefgh", 8) == EOK) return ge::GRAPH_FAILED;
    if (strcpy_s(small, sizeof small, "abcd") == EOK || small[0] != '\0') return ge::GRAPH_FAILED;
    if (memset_s(small, sizeof small, 1, 2) != EOK || small[1] != 1) return ge::GRAPH_FAILED;
    if (strcpy_s(small, sizeof small, "ab") != EOK || strcat_s(small, sizeof small, "c") != EOK ||
        std::string(small) != "abc" || strcat_s(small, sizeof small, "d") == EOK) return ge::GRAPH_FAILED;
    char num[8];
    if (snprintf_s(num, sizeof num, sizeof num - 1, "%d", 1234567) != 7 ||
        snprintf_s(num, sizeof num, sizeof num - 1, "%d", 12345678) != -1) return ge::GRAPH_FAILED;'''
    op = arc.op_project(with_tiling_body(body, '#include "securec.h"'))
    x = np.ones(64, np.float32)
    assert op.tiling(x, x).fields["tileNum"] == 4


@pytest.mark.parametrize("sel_first", [False, True], ids=["decl-then-sel", "sel-then-decl"])
def test_dtype_template_arguments_follow_an_input(sel_first):
    """ASCENDC_TPL_DATATYPE_DECL with C_DT_* values and ASCENDC_TPL_INPUT(0)
    (which input's dtype it follows: not a value); the kernel-type choice of
    a selection is not part of the key.  The selection may come before the
    declaration (opbase's reduce_tiling_key_sel.h, included first).  The
    host compile expands the selection to nothing, as CANN's does: a list
    only the kernel build reads may hold a name nothing declares (ops-nn's
    ClippedSwiglu: TPL_FLOOR)."""
    decl = r'''ASCENDC_TPL_ARGS_DECL(AddSplit, ASCENDC_TPL_DATATYPE_DECL(D_T, C_DT_FLOAT, C_DT_FLOAT16, ASCENDC_TPL_INPUT(0)),
                      ASCENDC_TPL_UINT_DECL(MODE, 8, ASCENDC_TPL_UI_LIST, 0, 1));'''
    sel = r'''ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
                                     ASCENDC_TPL_DATATYPE_SEL(D_T, C_DT_FLOAT16),
                                     ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, 1, TPL_NOT_DECLARED)));'''
    decl = '#include "ascendc/host_api/tiling/template_argument.h"\n' + \
        ("\n".join((sel, decl)) if sel_first else "\n".join((decl, sel)))
    body = r'''
    static_assert(C_DT_FLOAT == ge::DT_FLOAT && C_DT_BF16 == ge::DT_BF16, "C_DT_* are ge::DataType numbers");
    context->SetTilingKey(GET_TPL_TILING_KEY(context->GetInputDesc(0)->GetDataType(), 1));'''
    op = arc.op_project(with_tiling_body(body, decl))
    assert op.tiling(np.ones(64, np.float16), np.ones(64, np.float16)).tiling_key == 1 | (1 << 8)
    assert op.tiling(np.ones(64, np.float32), np.ones(64, np.float32)).tiling_key == 0 | (1 << 8)


def test_dependencies_compile_as_their_own_cmake_says():
    """A dependency's tiling directory for the SoC, and a dependency's
    dependency (ops-math's Pad needs PadV3's arch35 tiling, which needs
    Slice's), as the library links every op's tiling code into one library."""
    from ascendrtc._op_library import all_dependencies, host_sources
    rules = {"units": ["ascend950"], "dirs": ["arch35"], "deps": ["pad_v3"],
             "dep_rules": {"pad_v3": {"units": ["ascend950"], "dirs": ["arch35"], "deps": ["slice"],
                                      "dep_rules": {"slice": None}}}}
    assert list(all_dependencies(rules)) == ["pad_v3", "slice"]
    files = {p: "" for p in ("op_host/pad_def.cpp", "op_host/arch35/pad_tiling_arch35.cpp",
                             "pad_v3/op_host/pad_v3_def.cpp", "pad_v3/op_host/arch35/pad_v3_tiling_arch35.cpp",
                             "pad_v3/op_host/arch22/pad_v3_tiling.cpp", "slice/op_host/slice_tiling.cpp",
                             "slice/op_host/arch35/slice_tiling_arch35.cpp", "slice/op_host/op_api/aclnn_slice.cpp")}
    assert sorted(host_sources(files, rules, "ascend950")) == [
        "op_host/arch35/pad_tiling_arch35.cpp", "op_host/pad_def.cpp", "pad_v3/op_host/arch35/pad_v3_tiling_arch35.cpp",
        "pad_v3/op_host/pad_v3_def.cpp", "slice/op_host/slice_tiling.cpp"]


def test_a_shape_range_function_and_graph_vocabulary_compile():
    """What the libraries' InferShape sources declare for CANN's graph
    compile (IMPL_OP_INFERSHAPE(...).InferShapeRange with
    gert::InferShapeRangeContext, ge::char_t, register/register_types.h)
    compiles; ascendrtc runs on known shapes and never calls it, and the
    op runs as before."""
    decl = r'''
#include "register/op_impl_registry.h"
#include "register/register_types.h"
static FMK_FUNC_HOST_VISIBILITY ge::graphStatus AddSplitRange(gert::InferShapeRangeContext *context)
{
    const ge::char_t *name = "x";
    const gert::Range<gert::Shape> *in = context->GetInputShapeRange(0);
    gert::Range<gert::Shape> *out = context->GetOutputShapeRange(0);
    if (name == nullptr || in == nullptr || out == nullptr || in->GetMax() == nullptr) return ge::GRAPH_FAILED;
    *out->GetMax() = *in->GetMax();
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_INFERSHAPE(AddSplit).InferShapeRange(AddSplitRange);
'''
    op = arc.op_project(with_tiling_body("", decl))
    x = np.arange(4096, dtype=np.float32)
    np.testing.assert_array_equal(op(x, x), 2 * x)


def test_kernel_tiling_structs_by_their_global_names():
    """CANN's generated kernel_tiling.h exports its legacy structs to the
    global namespace (`using AscendC::tiling::TCubeTiling;`), beside the
    tiling API's optiling::TCubeTiling: ops-nn's matmul host code names
    `TCubeTiling` and `::TCubeTiling`, and `ge::float32_t`."""
    decl = '#include "kernel_tiling/kernel_tiling.h"\n#include "tiling/tiling_api.h"\n#include <type_traits>\n' \
           'struct HostMatmulTiling { TCubeTiling cube; };\nusing ge::float32_t;'
    body = r'''
    static_assert(std::is_same<::TCubeTiling, AscendC::tiling::TCubeTiling>::value, "one struct");
    static_assert(!std::is_same<::TCubeTiling, optiling::TCubeTiling>::value, "not the tiling class");
    static_assert(std::is_same<float32_t, float>::value && std::is_same<ge::float64_t, double>::value, "ge floats");
    HostMatmulTiling t{};
    t.cube.baseM = 3;
    if (t.cube.baseM != 3 || t.cube.baseN != 0) return ge::GRAPH_FAILED;'''
    op = arc.op_project(with_tiling_body(body, decl))
    x = np.ones(64, np.float32)
    assert op.tiling(x, x).fields["tileNum"] == 4


def test_a_header_reached_by_two_paths_is_one_file(tmp_path):
    """A dependency's header reached through the library root's include
    directory (its real path) and through the project's own layout of the
    dependency ("../dep/op_host/x.h", "dep/x.h" for its op_kernel files) is
    one file, as in the library's build: #pragma once holds (ops-nn's
    matmul ops).  A dependency that depends back on the op does not bring
    the op's own sources in twice (FusedMatMul and BatchMatMulV3)."""
    lib, op_dir = library(tmp_path)
    dep = lib / "math" / "split_common"
    (dep / "op_host").mkdir(parents=True)
    (dep / "op_kernel").mkdir()
    (dep / "op_host" / "split_key.h").write_text("#pragma once\nstruct SplitKey { unsigned v = 1; };\n")
    (dep / "op_kernel" / "split_shared.h").write_text("#pragma once\nstruct SplitShared { unsigned w = 2; };\n")
    (dep / "CMakeLists.txt").write_text("add_modules_sources(OPTYPE split_common DEPENDENCIES add_split)\n")
    (op_dir / "CMakeLists.txt").write_text("add_modules_sources(OPTYPE add_split DEPENDENCIES split_common)\n")
    host = (op_dir / "op_host" / "add_split.cpp").read_text()
    (op_dir / "op_host" / "add_split.cpp").unlink()
    (op_dir / "op_host" / "add_split_def.cpp").write_text(
        '#include "math/split_common/op_host/split_key.h"\n#include "../split_common/op_host/split_key.h"\n'
        '#include "math/split_common/op_kernel/split_shared.h"\n#include "split_common/split_shared.h"\n'
        '#include "split_common/op_kernel/split_shared.h"\n' + host)
    op = arc.op_project(str(op_dir))
    x = np.arange(4096, dtype=np.float32)
    np.testing.assert_array_equal(op(x, x), 2 * x)


@pytest.mark.parametrize("computed", [False, True], ids=["checked", "shape-computed"])
def test_graph_mode_callbacks_and_a_computed_output_shape(computed):
    """An op definition's graph-mode callbacks (SetCheckSupport with a
    ge::Operator, which op_def_registry.h brings; read back with
    GetCheckSupport for OpCheckFuncHelper, as ops-nn's UniqueConsecutive
    does) load; ascendrtc calls none of them.  An output whose shape the
    kernel computes (OutputShapeDependOnCompute) loads and is refused at
    launch, naming the output, not run with InferShape's shape."""
    f = files()
    host = f["op_host/add_split.cpp"].replace("namespace ops {", r'''namespace ops {
static ge::graphStatus CheckAddSplit(const ge::Operator &op, ge::AscendString &result)
{
    ge::TensorDesc x = op.GetInputDesc(0);  // by index, not ambiguous with a by-name form
    result = ge::AscendString(x.GetShape().GetDimNum() == 0 ? "empty" : "shaped");
    return ge::GRAPH_SUCCESS;
}''', 1)
    host = host.replace('this->AICore().SetTiling', 'this->AICore().SetCheckSupport(CheckAddSplit);\n'
                                                     '        this->AICore().SetTiling')
    if computed:
        host = host.replace('this->Output("z").ParamType(REQUIRED)',
                            'this->Output("z").OutputShapeDependOnCompute().ParamType(REQUIRED)')
        host += '\nIMPL_OP_INFERSHAPE(AddSplit).OutputShapeDependOnCompute({0});\n'
        host = host.replace('#include "register/op_def_registry.h"',
                            '#include "register/op_def_registry.h"\n#include "register/op_impl_registry.h"')
    f["op_host/add_split.cpp"] = host + r'''
static int ADD_SPLIT_CHECK = [](const char *name) {
    ops::AddSplit def(name);
    optiling::OpCheckFuncHelper(FUNC_CHECK_SUPPORTED, name, def.AICore().GetCheckSupport());
    return def.AICore().GetCheckSupport() == nullptr;
}("AddSplit");
'''
    op = arc.op_project(f)
    x = np.arange(4096, dtype=np.float32)
    if not computed:
        np.testing.assert_array_equal(op(x, x), 2 * x)
        return
    with pytest.raises(arc.OpProjectError, match=r"output\(s\) z: the kernel computes the shape "
                                                 r"\(OutputShapeDependOnCompute\); running such an op is not supported"):
        op(x, x)


def test_a_cmake_list_in_one_string(tmp_path):
    """set(SUPPORT_COMPUTE_UNIT "ascend950;ascend910b"): a CMake list, two
    compute units (ops-nn's SigmoidCrossEntropyWithLogitsGrad); a unit
    under its older name is the one it names now."""
    from ascendrtc._op_library import build_rules
    (tmp_path / "CMakeLists.txt").write_text(
        'set(SUPPORT_COMPUTE_UNIT "ascend950;ascend910b")\nset(SUPPORT_TILING_DIR "arch35;arch22")\n'
        'add_modules_sources(OPTYPE x COMPUTE_UNIT ${SUPPORT_COMPUTE_UNIT} TILING_DIR ${SUPPORT_TILING_DIR})\n')
    rules = build_rules(str(tmp_path))
    assert rules["units"] == ["ascend950", "ascend910b"] and rules["dirs"] == ["arch35", "arch22"]
    # ops-nn's older name of Ascend 950's compute unit (MapIndex)
    (tmp_path / "CMakeLists.txt").write_text('set(SUPPORT_COMPUTE_UNIT "ascend910_95")\nset(SUPPORT_TILING_DIR "arch35")\n'
                                             'add_modules_sources(OPTYPE x COMPUTE_UNIT ${SUPPORT_COMPUTE_UNIT} '
                                             'TILING_DIR ${SUPPORT_TILING_DIR})\n')
    assert build_rules(str(tmp_path))["units"] == ["ascend950"]


def test_host_names_of_the_libraries_tiling_code():
    """AscendC::BLOCK_CUBE and ONE_BLK_SIZE from tiling/tiling_api.h (ops-nn's
    conv and matmul tiling say `using AscendC::BLOCK_CUBE;`); an input's view
    queries on contiguous inputs (GetInputOffset: -1, no non-contiguous
    description, as CANN's page says) and a Stride's subscript; a std::string passed to a variadic
    log call compiles, as g++ accepts it (clang's call traps if it runs);
    the Sort scratch query with a SortConfig (ops-nn's scatter and index
    tiling), whose config the device headers define; NpuArch through the
    op-API's aclnn/opdev/platform.h (ops-math's CoalesceSparse)."""
    decl = '#include "tiling/tiling_api.h"\n#include "aclnn/opdev/platform.h"\n#include <cstdio>\n' \
           'using AscendC::BLOCK_CUBE;\nusing AscendC::ONE_BLK_SIZE;'
    body = r'''
    static_assert(BLOCK_CUBE == 16 && ONE_BLK_SIZE == 32, "block sizes");
    static_assert(static_cast<uint32_t>(NpuArch::DAV_3510) == 3510, "NpuArch by the op-API's platform header");
    gert::Stride stride({8, 1});
    stride[0] = 4;  // indexed like a shape (ops-math's GatherElements)
    if (stride[0] != 4 || stride.GetStride(1) != 1) return ge::GRAPH_FAILED;
    std::string what = "offset";
    if (context->GetInputOffset(0) != -1) printf("%s\n", what);
    if (context->InputIsView(0) || context->DynamicInputIsView(0, 0) || context->GetInputOffset(0) != -1 ||
        context->GetInputStride(0) != nullptr || context->GetDynamicInputStride(0, 0) != nullptr)
        return ge::GRAPH_FAILED;
    AscendC::SortConfig config;
    config.type = AscendC::SortType::RADIX_SORT;
    uint32_t most = 0, least = 0;
    AscendC::GetSortMaxMinTmpSize(ge::Shape({1024}), ge::DT_FLOAT, ge::DT_UINT32, false, config, most, least);
    if (least == 0 || least > most) return ge::GRAPH_FAILED;'''
    op = arc.op_project(with_tiling_body(body, decl))
    x = np.ones(64, np.float32)
    assert op.tiling(x, x).fields["tileNum"] == 4


def test_opbase_headers_come_before_the_librarys_own(tmp_path):
    """The libraries' tiling and proto builds list opbase's include
    directories before their own common/inc: where both hold a header
    (ops-math's older op_host/infershape_reduce_util.h), opbase's is read."""
    lib, op_dir = library(tmp_path)
    base = tmp_path / "opbase"
    (base / "include" / "op_common" / "op_host").mkdir(parents=True)
    (base / "include" / "op_common" / "op_host" / "split_tiles.h").write_text("constexpr unsigned SPLIT_TILES = 2;\n")
    x = np.arange(4096, dtype=np.float32)
    assert arc.op_project(str(op_dir)).tiling(x, x).fields["tileNum"] == 4
    op = arc.op_project(str(op_dir), opbase=str(base))
    assert op.tiling(x, x).fields["tileNum"] == 2
    np.testing.assert_array_equal(op(x, x), 2 * x)


def test_format_names():
    """ge::GetFormatName (ops-math's BiasAdd names a refused format) and
    TypeUtils::FormatToSerialString: the format's name without FORMAT_,
    from its primary format; "RESERVED" for a value that is none."""
    decl = '#include "graph/utils/type_utils.h"\n#include <cstring>'
    body = r'''
    if (std::strcmp(ge::GetFormatName(ge::FORMAT_NCDHW), "NCDHW") != 0 ||
        std::strcmp(ge::GetFormatName(ge::FORMAT_FRACTAL_Z_3D), "FRACTAL_Z_3D") != 0 ||
        std::strcmp(ge::GetFormatName(static_cast<ge::Format>(ge::FORMAT_FRACTAL_Z | (1 << 8))), "FRACTAL_Z") != 0 ||
        std::strcmp(ge::GetFormatName(static_cast<ge::Format>(200)), "RESERVED") != 0 ||
        ge::TypeUtils::FormatToSerialString(ge::FORMAT_NCL) != "NCL")
        return ge::GRAPH_FAILED;'''
    op = arc.op_project(with_tiling_body(body, decl))
    x = np.ones(64, np.float32)
    assert op.tiling(x, x).fields["tileNum"] == 4


def test_scratch_factors_agree_with_the_scratch_sizes():
    """Get<Name>TmpBufferFactorSize through the SDK paths the libraries
    include (tiling/math/log_tiling.h: ops-math's Asinh; adv_api/math/
    power_tiling.h: ops-nn's LpNormUpdate): the element count a scratch
    size holds by the pages' formula, (size - extraBuf) / maxLiveNodeCount /
    typeSize, needs no more than that size by Get<Name>MaxMinTmpSize; a
    type size that is none gives maxLiveNodeCount 0."""
    decl = '#include "tiling/math/log_tiling.h"\n#include "adv_api/math/power_tiling.h"\n' \
           '#include "tiling/math/sign_tiling.h"'
    body = r'''
    for (uint32_t ts : {1u, 2u, 4u, 8u}) {
        uint32_t live = 0, extra = 1, most = 0, least = 0;
        AscendC::GetLogTmpBufferFactorSize(ts, live, extra);
        if (live == 0) return ge::GRAPH_FAILED;
        const uint32_t room = 8192, n = (room - extra) / live / ts;
        AscendC::GetLogMaxMinTmpSize(ge::Shape({n}), ts, false, most, least);
        if (most > room || n == 0) return ge::GRAPH_FAILED;
        AscendC::GetPowerTmpBufferFactorSize(true, false, false, ts, live, extra);
        AscendC::GetSignMaxMinTmpSize(ge::Shape({(room - extra) / live / ts}), ts, false, most, least);
        if (live == 0 || most > room) return ge::GRAPH_FAILED;
    }
    uint32_t live = 1, extra = 1, most = 0, least = 0;
    AscendC::GetLog2TmpBufferFactorSize(3, live, extra);
    if (live != 0 || extra != 0) return ge::GRAPH_FAILED;
    // the Exp form answers whether it gave sizes (ops-nn's InplaceApplyPowerSign)
    bool shaped = AscendC::GetExpMaxMinTmpSize(ge::Shape({64}), 4, false, most, least);
    bool empty = AscendC::GetExpMaxMinTmpSize(ge::Shape({0}), 4, false, most, least);
    if (!shaped || empty) return ge::GRAPH_FAILED;'''
    op = arc.op_project(with_tiling_body(body, decl))
    x = np.ones(64, np.float32)
    assert op.tiling(x, x).fields["tileNum"] == 4
