"""opbase's host sources as CANN's op libraries link them (issue 28,
item 2): each src/op_common .cpp the op includes the header of is a
translation unit of its own, compiled in process once per process and
options; its static initialisers run once, contained, before the op's.
The opbase here is a small tree the tests make; ops of the real libraries
are in test_op_library_mirrors.py."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.oplib import with_tiling_body

# tile_count.cpp's initialisers count their runs; an anonymous-namespace
# name of its own (g_inits) is also defined by the op: separate units.
UNITS = {
    "tile_count": (
        "namespace opcommon { unsigned TileCount(); unsigned Inits(); }\n",
        '#include "tile_count.h"\n#include <string>\n'
        "namespace { unsigned g_inits; struct Count { Count() { ++g_inits; } } g_count;\n"
        'const std::string g_name = "four"; }\n'
        "namespace opcommon {\nunsigned TileCount() { return g_name.size(); }\nunsigned Inits() { return g_inits; }\n}\n"),
    "broken": ("void Broken();\n", '#include "broken.h"\nvoid Broken() { this is not C++ }\n'),
    "thrower": ("int Thrown();\n", '#include "thrower.h"\n#include <stdexcept>\n'
                'static int g_x = (throw std::runtime_error("no config file"), 0);\nint Thrown() { return g_x; }\n'),
}


def opbase(tmp_path):
    root = tmp_path / "opbase"
    (root / "include" / "op_common").mkdir(parents=True)
    (root / "src" / "op_common" / "util").mkdir(parents=True)
    for name, (header, source) in UNITS.items():
        (root / "include" / "op_common" / (name + ".h")).write_text(header)
        (root / "src" / "op_common" / "util" / (name + ".cpp")).write_text(source)
    return str(root)


def op(unit, call, tag=""):
    """AddSplit whose tile count is `call` (a function of the unit)."""
    f = with_tiling_body(f"// {tag}\ntiling.set_tileNum({call});",
                         f'#include "{unit}.h"\nnamespace {{ unsigned g_inits = 7; }}\n'
                         "static unsigned OwnInits() { return g_inits; }\n")
    # the project's own set_tileNum would overwrite ours
    f["op_host/add_split.cpp"] = f["op_host/add_split.cpp"].replace("    tiling.set_tileNum(TILES);\n", "")
    return f


def tiles(f, base, run=False):
    """The tile count the op's tiling sets; with `run`, the op's result is checked too."""
    o = arc.op_project(f, opbase=base)
    x = np.arange(4096, dtype=np.float32)
    if run:
        np.testing.assert_array_equal(o(x, x), 2 * x)
    return o.tiling(x, x).fields["tileNum"]


def test_a_unit_compiled_once_its_initialisers_run_once(tmp_path):
    base = opbase(tmp_path)
    call = "opcommon::TileCount() * 10 + opcommon::Inits() + 100 * (OwnInits() == 7)"
    # two ops (different text) of the same options link the one unit: its
    # counter saw one run of its initialiser; broken.cpp (no header
    # included) is never compiled
    assert tiles(op("tile_count", call, "first"), base) == 141
    assert tiles(op("tile_count", call, "second"), base) == 141


def test_a_unit_that_does_not_compile_is_named(tmp_path):
    base = opbase(tmp_path)
    with pytest.raises(arc.OpProjectError, match=r"(?s)op_common/util/broken\.cpp:2:.*error: the library source "
                                                 r"opbase/src/op_common/util/broken\.cpp did not compile"):
        arc.op_project(op("broken", "4"), opbase=base)
    assert tiles(op("tile_count", "opcommon::TileCount()"), base, run=True) == 4


def test_a_unit_whose_initialiser_throws_is_named_then_refused(tmp_path):
    base = opbase(tmp_path)
    with pytest.raises(arc.OpProjectError, match=r"static initialisers of opbase/src/op_common/util/thrower\.cpp "
                                                 r"threw std::runtime_error: no config file"):
        arc.op_project(op("thrower", "Thrown()"), opbase=base)
    # a later op linking it does not run half-initialised code
    with pytest.raises(arc.OpProjectError, match=r"initialisers of opbase/src/op_common/util/thrower\.cpp threw "
                                                 r"std::runtime_error: they did not complete when an earlier op ran"):
        arc.op_project(op("thrower", "Thrown()", "again"), opbase=base)
    assert tiles(op("tile_count", "opcommon::TileCount()"), base, run=True) == 4


# A registry header of the shape ops-nn's register/tuning_tiling_registry.h
# declares (written for the test); CANN's register library defines it.
TUNING_REGISTRY = r'''#pragma once
#include <map>
#include <memory>
#include "graph/ascend_string.h"
namespace tuningtiling {
class TuningTilingDef {
public:
    ge::AscendString GetClassName() const;
    virtual ~TuningTilingDef() = default;
protected:
    ge::AscendString class_name_;
};
using TuningTilingDefConstructor = std::shared_ptr<TuningTilingDef> (*)();
class TuningTilingClassFactory {
public:
    static std::map<ge::AscendString, TuningTilingDefConstructor> &RegisterInfo();
    static void RegisterTilingData(const ge::AscendString &optype, TuningTilingDefConstructor const constructor);
    static std::shared_ptr<TuningTilingDef> CreateTilingDataInstance(const ge::AscendString &optype);
};
}
'''


def test_the_librarys_own_common_sources_link_as_its_build_links_them(tmp_path):
    """The library's tiling build links its common/src/op_host sources and
    each <category>/common/op_host module (OPTYPE common) into every op's
    library (ops-nn's TilingPrepareForOpCache, DebugTilingContext): each a
    unit compiled with the library's include directories and the
    definition its cmake/func.cmake makes for them; a source the build
    does not glob (op_api/) is not compiled.  CANN's tuning-tiling
    registry, which the library's headers declare, is ascendrtc's."""
    from helpers.oplib import library
    lib, op_dir = library(tmp_path)
    inc = lib / "common" / "inc" / "op_host"
    (inc / "split_count.h").write_text("#ifdef SPLIT_LEGACY\nnamespace Ops { unsigned SplitCount(); }\n#endif\n")
    (lib / "common" / "src" / "op_host").mkdir(parents=True)
    (lib / "common" / "src" / "op_host" / "split_count.cpp").write_text(
        '#include "op_host/split_count.h"\nnamespace Ops { unsigned SplitCount() { return 3; } }\n')
    (lib / "cmake").mkdir()
    (lib / "cmake" / "func.cmake").write_text(
        "target_compile_definitions(x_tiling_obj PRIVATE LOG_CPP\n"
        "    $<$<BOOL:${ENABLE_TEST}>:SPLIT_TEST> $<$<BOOL:${ENABLE_DLOPEN_LEGACY}>:SPLIT_LEGACY>)\n")
    common = lib / "math" / "common" / "op_host"
    (common / "op_tiling").mkdir(parents=True)
    (common / "op_api").mkdir()
    (common / "CMakeLists.txt").write_text("add_modules_sources(DIR ${CMAKE_CURRENT_SOURCE_DIR} OPTYPE common)\n")
    (common / "op_tiling" / "split_extra.h").write_text("namespace Ops { unsigned SplitExtra(); }\n")
    (common / "op_tiling" / "split_extra.cpp").write_text(
        '#include "split_extra.h"\nnamespace Ops { unsigned SplitExtra() { return 20; } }\n')
    (common / "op_api" / "split_api.h").write_text("// the aclnn library's\n")
    (common / "op_api" / "split_api.cpp").write_text("this is no tiling code\n")
    (inc / "register").mkdir()
    (inc / "register" / "tuning_tiling_registry.h").write_text(TUNING_REGISTRY)
    host = op_dir / "op_host" / "add_split.cpp"
    host.write_text(host.read_text().replace('#include "split_tiles.h"', r'''#include "split_tiles.h"
#include "op_host/split_count.h"
#include "math/common/op_host/op_tiling/split_extra.h"
#include "math/common/op_host/op_api/split_api.h"
#include "register/tuning_tiling_registry.h"
namespace {
struct SplitTuning : tuningtiling::TuningTilingDef { SplitTuning() { class_name_ = "SplitTuning"; } };
std::shared_ptr<tuningtiling::TuningTilingDef> MakeSplitTuning() { return std::make_shared<SplitTuning>(); }
const int g_registered = (tuningtiling::TuningTilingClassFactory::RegisterTilingData("AddSplit", MakeSplitTuning), 0);
unsigned Tuned()
{
    auto t = tuningtiling::TuningTilingClassFactory::CreateTilingDataInstance("AddSplit");
    bool none = tuningtiling::TuningTilingClassFactory::CreateTilingDataInstance("Other") == nullptr;
    return (t && std::string(t->GetClassName().GetString()) == "SplitTuning" ? 100 : 0) + (none ? 1000 : 0);
}
}''').replace("tiling.set_tileNum(SPLIT_TILES);", "tiling.set_tileNum(Ops::SplitCount() + Ops::SplitExtra() + Tuned());"))
    x = np.arange(4096, dtype=np.float32)
    assert arc.op_project(str(op_dir)).tiling(x, x).fields["tileNum"] == 1123
    from ascendrtc._op_library import own_units
    mine, other = own_units(str(lib), ["math"]), own_units(str(lib), ["nn"])
    assert "__lib__/oplib/math/common/op_host/op_tiling/split_extra.cpp" in mine and not any("op_api" in k for k in mine)
    assert sorted(other) == ["__lib__/oplib/common/src/op_host/split_count.cpp"]  # another category's modules: none


# The bank-key registries' declarations of the shape ops-nn's
# register/tuning_bank_key_registry.h gives them (written for the test;
# @ is "" for the first registry, "V2" for the second).
BANK_REGISTRY = r'''
using OpBankKeyConvertFun@ = std::function<bool(const gert::TilingContext *, std::shared_ptr<void> &, size_t &)>;
using OpBankParseFun@ = std::function<bool(const std::shared_ptr<void> &, size_t, ge::AscendString &)>;
using OpBankLoadFun@ = std::function<bool(std::shared_ptr<void> &, size_t &, const ge::AscendString &)>;
class OpBankKeyFuncInfo@ {
public:
    explicit OpBankKeyFuncInfo@(const ge::AscendString &optype);
    OpBankKeyFuncInfo@() = default;
    void SetOpConvertFunc@(const OpBankKeyConvertFun@ &f);
    void SetOpParseFunc@(const OpBankParseFun@ &f);
    void SetOpLoadFunc@(const OpBankLoadFun@ &f);
    const OpBankKeyConvertFun@ &GetBankKeyConvertFunc@() const;
    const OpBankParseFun@ &GetBankKeyParseFunc@() const;
    const OpBankLoadFun@ &GetBankKeyLoadFunc@() const;
    const ge::AscendString &GetOpType@() const { return optype@_; }
private:
    ge::AscendString optype@_;
    OpBankKeyConvertFun@ convert_func@_;
    OpBankParseFun@ parse_func@_;
    OpBankLoadFun@ load_func@_;
};
class OpBankKeyFuncRegistry@ {
public:
    OpBankKeyFuncRegistry@(const ge::AscendString &optype, const OpBankKeyConvertFun@ &convert);
    OpBankKeyFuncRegistry@(const ge::AscendString &optype, const OpBankParseFun@ &parse, const OpBankLoadFun@ &load);
    static std::unordered_map<ge::AscendString, OpBankKeyFuncInfo@> &RegisteredOpFuncInfo@();
};
'''


def bank_registry_header():
    return ("#pragma once\n#include <functional>\n#include <memory>\n#include <unordered_map>\n"
            '#include "graph/ascend_string.h"\n#include "exe_graph/runtime/tiling_context.h"\nnamespace tuningtiling {\n' +
            BANK_REGISTRY.replace("@", "") + BANK_REGISTRY.replace("@", "V2") + "}\n")


def test_the_tuning_bank_key_registry_is_ascendrtcs(tmp_path):
    """REGISTER_OP_BANK_KEY_*_V2's registry (ops-nn's conv tiling records
    its knowledge-bank key functions by op type, then finds them by
    ge::AscendString in an unordered_map): CANN's register library's
    functions, here a unit of ascendrtc's host API; an op type's info is
    made by its first registration and keeps what the next one adds."""
    from helpers.oplib import library
    lib, op_dir = library(tmp_path)
    (lib / "common" / "inc" / "op_host" / "register").mkdir()
    (lib / "common" / "inc" / "op_host" / "register" / "tuning_bank_key_registry.h").write_text(bank_registry_header())
    host = op_dir / "op_host" / "add_split.cpp"
    host.write_text(host.read_text().replace('#include "split_tiles.h"', r'''#include "split_tiles.h"
#include "register/tuning_bank_key_registry.h"
namespace {
bool Convert(const gert::TilingContext *, std::shared_ptr<void> &, size_t &size) { size = 7; return true; }
bool Parse(const std::shared_ptr<void> &, size_t size, ge::AscendString &out)
{
    out = ge::AscendString(std::string(size, 'k').c_str());
    return true;
}
bool Load(std::shared_ptr<void> &, size_t &, const ge::AscendString &) { return false; }
tuningtiling::OpBankKeyFuncRegistryV2 g_convert("AddSplit", Convert);
tuningtiling::OpBankKeyFuncRegistryV2 g_parse("AddSplit", Parse, Load);
unsigned Banked(const gert::TilingContext *context)
{
    auto &by_op = tuningtiling::OpBankKeyFuncRegistryV2::RegisteredOpFuncInfoV2();
    auto it = by_op.find(ge::AscendString("AddSplit"));
    if (it == by_op.end() || by_op.count(ge::AscendString("Other")) != 0 ||
        tuningtiling::OpBankKeyFuncRegistry::RegisteredOpFuncInfo().size() != 0)
        return 0;
    std::shared_ptr<void> args;
    size_t size = 0;
    ge::AscendString text;
    if (!it->second.GetBankKeyConvertFuncV2()(context, args, size) || !it->second.GetBankKeyParseFuncV2()(args, size, text))
        return 1;
    return text.GetLength() + (std::string(it->second.GetOpTypeV2().GetString()) == "AddSplit" ? 10 : 0);
}
}''').replace("tiling.set_tileNum(SPLIT_TILES);", "tiling.set_tileNum(Banked(context));"))
    x = np.arange(4096, dtype=np.float32)
    assert arc.op_project(str(op_dir)).tiling(x, x).fields["tileNum"] == 17
