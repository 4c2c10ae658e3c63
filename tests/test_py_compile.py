"""Program -> Binary: compile errors with line and column, binaries that
round-trip through bytes and files, headers and name expressions."""
import pickle

import numpy as np
import pytest

import ascendrtc as arc
from helpers.py_kernels import add_binary, add_source

BROKEN = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void broken(GM_ADDR x)
{
    int32_t a = 1;
    a += undeclared_thing;
}
"""


def test_compile_error_has_line_column_and_caret():
    with pytest.raises(arc.CompileError) as ei:
        arc.Program(BROKEN, "broken.asc").compile(["--npu-arch=dav-2201"])
    e = ei.value
    assert isinstance(e, arc.AclError) and isinstance(e, RuntimeError)
    assert (e.line, e.column) == (5, 10)
    assert e.code == 176003 and e.name == "ACL_ERROR_RTC_COMPILATION"
    assert e.source == BROKEN and e.options == ["--npu-arch=dav-2201"]
    assert "undeclared_thing" in e.log
    text = str(e)
    assert "broken.asc:5:10: error:" in text
    assert "\n    5 |     a += undeclared_thing;\n      |          ^\n" in text


def test_compile_error_dump(capsys):
    with pytest.raises(arc.CompileError) as ei:
        arc.Program(BROKEN, "broken.asc").compile()
    ei.value.dump()
    err = capsys.readouterr().err
    assert ">    5      a += undeclared_thing;" in err


def test_invalid_option_is_a_compile_error():
    with pytest.raises(arc.CompileError) as ei:
        arc.Program(add_source(np.float32), "add.asc").compile(["--npu-arch=dav-9999"])
    assert ei.value.code == 176002 and ei.value.name == "ACL_ERROR_RTC_INVALID_OPTION"
    assert "dav-9999" in str(ei.value)


def test_options_type_checked():
    with pytest.raises(TypeError, match=r"options\[0\] must be str"):
        arc.Program(BROKEN).compile([3])


def test_binary_metadata_and_kernel_names():
    b = add_binary(np.float32)
    assert isinstance(b.data, bytes) and b.data[:4] == b"\x7fELF"
    assert b.kernel_names == ["add_custom"]
    assert b.lowered_name("add_custom") == "add_custom"
    with pytest.raises(KeyError, match="'nope' is not a kernel"):
        b.lowered_name("nope")


def test_binary_round_trip_bytes_and_file(tmp_path):
    b = add_binary(np.float32)
    b2 = arc.Binary.from_bytes(bytes(b))
    p = tmp_path / "add.bin"
    b.save(p)
    b3 = arc.Binary.from_file(p)
    assert b2.data == b3.data == b.data
    assert b3.kernel_names == ["add_custom"]
    x = np.arange(256, dtype=np.float32)
    for bb in (b2, b3):
        z = arc.empty_like(x)
        bb.load().get_kernel("add_custom")[8](x, x, z)
        np.testing.assert_array_equal(z.get(), 2 * x)


def test_garbage_binary_fails_to_load():
    with pytest.raises(arc.AclError) as ei:
        arc.Binary.from_bytes(b"not an elf object at all").load()
    assert ei.value.code != 0 and ei.value.name.startswith("ACL_ERROR")


def test_unknown_kernel_name():
    mod = add_binary(np.float32).load()
    with pytest.raises(arc.AclError, match="nope"):
        mod.get_kernel("nope")


def test_in_memory_headers_and_name_expressions():
    src = r'''
#include "kernel_operator.h"
#include "scale.h"
template <typename T>
__global__ __aicore__ void fill(GM_ADDR out, T v)
{
    if (AscendC::GetBlockIdx() == 0) ((__gm__ T *)out)[0] = v * SCALE;
}
'''
    prog = arc.Program(src, "fill.asc", headers={"scale.h": "#define SCALE 3\n"})
    prog.add_name_expression("fill<float>")
    prog.add_name_expression("fill<int32_t>")
    b = prog.compile()
    assert sorted(b.kernel_names) == ["fill<float>", "fill<int32_t>"]
    assert b.lowered_name("fill<float>") != "fill<float>"      # a mangled C++ symbol
    mod = b.load()
    out = arc.zeros(1, np.float32)
    mod.get_kernel("fill<float>")[1](out, 1.5)
    assert out.get()[0] == 4.5
    outi = arc.zeros(1, np.int32)
    k = mod.get_kernel("fill<int32_t>")
    assert k.params[1][1:3] == ("int", 4)
    k[1](outi, 7)
    assert outi.get()[0] == 21


def test_compile_error_pickles():
    with pytest.raises(arc.CompileError) as ei:
        arc.Program(BROKEN, "broken.asc").compile()
    e2 = pickle.loads(pickle.dumps(ei.value))
    assert (e2.line, e2.column, str(e2)) == (5, 10, str(ei.value))


def test_compile_error_in_an_in_memory_header():
    src = '#include "kernel_operator.h"\n#include "helper.h"\n' \
          'extern "C" __global__ __aicore__ void k(GM_ADDR x) { helper(); }\n'
    hdr = "inline void helper()\n{\n    return 1 + missing_name;\n}\n"
    with pytest.raises(arc.CompileError) as ei:
        arc.Program(src, "k.asc", headers={"helper.h": hdr}).compile()
    e = ei.value
    assert (e.file, e.line) == ("helper.h", 3)
    assert "helper.h:3:" in str(e) and "    3 |     return 1 + missing_name;" in str(e)


SCAN_SRC = r'''#include "kernel_operator.h"
/* a kernel in a block comment:
   extern "C" __global__ __aicore__ void in_comment(GM_ADDR x) {}
*/
// extern "C" __global__ __aicore__ void in_line_comment(GM_ADDR x) {}
#define NOTHING /* __global__ void in_macro_comment(GM_ADDR x) {}
                   over two lines */ 1
#if 0
extern "C" __global__ __aicore__ void in_if0(GM_ADDR x) {}
#endif
extern "C" __global__ __aicore__ void real_one(GM_ADDR x) { /* } */ }
template <typename T> __global__ __aicore__ void tk(GM_ADDR x) {}
extern "C" __global__ __aicore__ void real_two(GM_ADDR x) {}
'''


def test_kernel_scan_skips_comments_and_if0_and_counts_their_lines():
    b = arc.Program(SCAN_SRC, "scan.asc").compile()
    assert b.kernel_names == ["real_one", "real_two"]
    # the template on line 12 is named with its line, past comments that span lines
    assert "scan.asc:12: note: template kernel 'tk' is not instantiated" in b.log, b.log
