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
