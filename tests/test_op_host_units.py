"""An op's op_host files are translation units of their own, as CANN's op
build compiles them (issue 28): names with internal linkage (static,
anonymous namespaces) and macros of one file do not meet another's; a
symbol two files define is a link error naming it."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.oplib import with_tiling_body

OTHER = r'''
#include <cstdint>
#define TILE_FACTOR 2              // this file's macro
namespace { constexpr uint32_t kTiles = 2; }
static uint32_t Twice(uint32_t v) { return v * TILE_FACTOR; }
uint32_t SplitTiles() { return Twice(kTiles); }
'''


def project(extra_decl="", other=OTHER):
    f = with_tiling_body("tiling.set_tileNum(SplitTiles() + kTiles - 1);  // 4 + 1 - 1",
                         "uint32_t SplitTiles();\n"
                         "namespace { constexpr uint32_t kTiles = 1; }  // the other file has its own\n"
                         "static uint32_t Twice(uint32_t v) { return v + 1000; }\n"
                         "#ifdef TILE_FACTOR\n#error the other file's macro leaked here\n#endif\n" + extra_decl)
    f["op_host/add_split.cpp"] = f["op_host/add_split.cpp"].replace("    tiling.set_tileNum(TILES);\n", "")
    f["op_host/add_split_tiles.cpp"] = other
    return f


def test_internal_names_and_macros_of_two_files_do_not_meet():
    op = arc.op_project(project())
    x = np.arange(4096, dtype=np.float32)
    assert op.tiling(x, x).fields["tileNum"] == 4
    np.testing.assert_array_equal(op(x, x), 2 * x)


def test_a_symbol_two_files_define_is_a_link_error():
    f = project("uint32_t SplitTiles() { return 9; }\n")
    with pytest.raises(arc.OpProjectError, match=r"(?s)do not link.*SplitTiles"):
        arc.op_project(f)
    x = np.arange(4096, dtype=np.float32)
    np.testing.assert_array_equal(arc.op_project(project())(x, x), 2 * x)
