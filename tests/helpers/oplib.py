"""The AddSplit test op project (tests/op_projects/AddSplit) as the op
library tests vary it: its files, a library tree holding it, a tiling
function with statements of a test's choosing."""
import os

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.join(HERE, "op_projects", "AddSplit")


def files():
    """The project's files, {relative path: text}."""
    out = {}
    for d, _, names in os.walk(ROOT):
        for n in names:
            p = os.path.join(d, n)
            out[os.path.relpath(p, ROOT)] = open(p).read()
    return out


def library(tmp_path):
    """A library tree: its root's common/inc holds a header the op's host
    code includes, as ops-nn's tiling build provides it."""
    lib = tmp_path / "oplib"
    (lib / "common" / "inc" / "op_host").mkdir(parents=True)
    (lib / "CMakeLists.txt").write_text("# an op library\n")
    (lib / "common" / "inc" / "op_host" / "split_tiles.h").write_text("constexpr unsigned SPLIT_TILES = 4;\n")
    op_dir = lib / "math" / "add_split"
    for rel, text in files().items():
        p = op_dir / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if rel == "op_host/add_split.cpp":
            text = text.replace('#include "add_split_tiling.h"', '#include "add_split_tiling.h"\n#include "split_tiles.h"')
            text = text.replace("tiling.set_tileNum(TILES);", "tiling.set_tileNum(SPLIT_TILES);")
        p.write_text(text)
    return lib, op_dir


def with_tiling_body(body, includes=""):
    """AddSplit whose tiling function runs `body` first (a statement list
    that may return early), with `includes` at the top."""
    f = files()
    host = f["op_host/add_split.cpp"]
    host = host.replace('#include "register/op_def_registry.h"', '#include "register/op_def_registry.h"\n' + includes)
    f["op_host/add_split.cpp"] = host.replace("    AddSplitTilingData tiling;\n",
                                              "    AddSplitTilingData tiling;\n" + body + "\n", 1)
    return f
