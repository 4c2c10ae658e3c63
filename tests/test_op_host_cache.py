"""Op host code kept between processes (issue 28, item 7): the object a
compile of op host code made is kept in the compile cache under its
inputs and re-checked against the files it read, so a new process loads
it without compiling, and a changed header compiles again.  Each load runs
in a child process sharing one cache directory; the child records the
compiler's calls to the cache (ascendrtc.cache._pch_load/_pch_save, which
csrc/ext/pch_store.c calls) to tell a kept object from a new compile."""
import json
import os
import subprocess
import sys

import pytest

from helpers.oplib import library
from test_op_library_units import opbase

HERE = os.path.dirname(os.path.abspath(__file__))
CHILD = r'''
import json, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import ascendrtc as arc, ascendrtc.cache as cache
calls = {"saved": [], "hits": []}
load, save = cache._pch_load, cache._pch_save
def kind(config):
    return config.split("\n", 1)[0]
def counted_load(config):
    got = load(config)
    if got is not None:
        calls["hits"].append(kind(config))
    return got
def counted_save(config, data):
    if cache._pch_cache(writing=True) is not None:  # the mode keeps it
        calls["saved"].append(kind(config))
    save(config, data)
cache._pch_load, cache._pch_save = counted_load, counted_save
op = arc.op_project(sys.argv[2], opbase=sys.argv[3] or None)
x = np.arange(4096, dtype=np.float32)
calls["tiles"] = op.tiling(x, x).fields["tileNum"]
np.testing.assert_array_equal(op(x, x), 2 * x)
print("RESULT " + json.dumps(calls))
'''
OP = "ascendrtc op host code (op)"
UNIT = "ascendrtc op host code (unit)"


def load_in_child(op_dir, cache_dir, opbase_dir="", mode="on"):
    env = dict(os.environ, ASCENDRTC_CACHE_DIR=str(cache_dir), ASCENDRTC_CACHE=mode)
    r = subprocess.run([sys.executable, "-c", CHILD, os.path.dirname(HERE), str(op_dir), opbase_dir], env=env,
                       capture_output=True, text=True, timeout=600)
    line = [x for x in r.stdout.splitlines() if x.startswith("RESULT ")]
    assert line, r.stdout[-2000:] + r.stderr[-3000:]
    return json.loads(line[-1][7:])


def test_a_new_process_loads_the_kept_object_and_a_changed_header_compiles_again(tmp_path):
    lib, op_dir = library(tmp_path)
    header = lib / "common" / "inc" / "op_host" / "split_tiles.h"
    cache_dir = tmp_path / "cache"
    first = load_in_child(op_dir, cache_dir)
    assert first["tiles"] == 4 and first["saved"].count(OP) == 1 and OP not in first["hits"]
    again = load_in_child(op_dir, cache_dir)
    assert again["tiles"] == 4 and OP in again["hits"] and OP not in again["saved"]
    # same size, new bytes and mtime: the kept object is stale
    header.write_text(header.read_text().replace("= 4;", "= 2;"))
    changed = load_in_child(op_dir, cache_dir)
    assert changed["tiles"] == 2 and changed["saved"].count(OP) == 1  # compiled again (the store still held the old)
    # a header touched but unchanged (new mtime, same bytes) still serves the kept object
    os.utime(header, ns=(1, 1))
    touched = load_in_child(op_dir, cache_dir)
    assert touched["tiles"] == 2 and OP in touched["hits"] and not touched["saved"]


def test_kept_library_units_run_their_initialisers_in_a_new_process(tmp_path):
    """The op's kept object runs the initialisers of the opbase units it
    links (named by content, the same in every process), themselves kept."""
    base = opbase(tmp_path)
    lib, op_dir = library(tmp_path)
    host = op_dir / "op_host" / "add_split.cpp"
    host.write_text(host.read_text().replace('#include "split_tiles.h"', '#include "split_tiles.h"\n'
                                             '#include "tile_count.h"').replace(
        "tiling.set_tileNum(SPLIT_TILES);", "tiling.set_tileNum(opcommon::TileCount() * opcommon::Inits());"))
    cache_dir = tmp_path / "cache"
    first = load_in_child(op_dir, cache_dir, base)
    assert first["tiles"] == 4 and UNIT in first["saved"] and OP in first["saved"]
    again = load_in_child(op_dir, cache_dir, base)
    assert again["tiles"] == 4 and {OP, UNIT} <= set(again["hits"]) and not again["saved"]


@pytest.mark.parametrize("mode", ["off", "read"])
def test_cache_modes_apply_to_op_host_code(tmp_path, mode):
    """ASCENDRTC_CACHE=off keeps nothing and reads nothing; =read reads
    but keeps nothing new."""
    lib, op_dir = library(tmp_path)
    cache_dir = tmp_path / "cache"
    for _ in range(2):
        run = load_in_child(op_dir, cache_dir, mode=mode)
        assert run["tiles"] == 4 and not run["hits"]
    assert load_in_child(op_dir, cache_dir)["saved"].count(OP) == 1  # mode on: compiled, kept
    run = load_in_child(op_dir, cache_dir, mode=mode)
    assert (OP in run["hits"]) == (mode == "read") and not run["saved"]
