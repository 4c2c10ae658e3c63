"""tools/devkit_check.py, the asc-devkit compile table's tool: which source
a file stands for (a host program that compiles its kernel at run time
with aclrtc stands for that string) and how its table reads.  The
mirror-wide run itself is the tool's (docs/compatibility.md)."""
from helpers.examples import load_tool

HOST_PROGRAM = r'''
#include "acl/acl_rt_compile.h"
const char* src = R""""(
extern "C" __global__ __vector__ void hello() {}
)"""";
int main() { return 0; }
'''


def test_a_runtime_compiled_kernel_is_its_string():
    dc = load_tool("devkit_check")
    assert dc.runtime_kernel(HOST_PROGRAM).strip() == 'extern "C" __global__ __vector__ void hello() {}'
    assert dc.runtime_kernel('__global__ void k() {}\nconst char *s = R"(x)";\n') is None   # a kernel file
    assert dc.runtime_kernel('const char *s = R"(no kernel)";\n__global__ void k() {}\n') is None


def test_table_counts_by_family():
    dc = load_tool("devkit_check")
    recs = [{"path": "examples/01_simd_cpp_api/a/a.asc", "family": "SIMD C++ API", "arch": "dav-2201",
             "options": [], "ok": True},
            {"path": "examples/03_simt_api/b/b.asc", "family": "SIMT", "arch": "dav-3510",
             "options": ["--enable-simt"], "ok": False, "error": "b.asc:3: bad | pipe"}]
    t = dc.markdown(recs, {"src_name": "asc-devkit", "commit": "0123456789abcdef", "version": "0"})
    assert "| SIMD C++ API | 1 | 1 | 100% |" in t and "| SIMT | 0 | 1 | 0% |" in t
    assert "| **all** | **1** | **2** | **50%** |" in t
    assert "**fails**: b.asc:3: bad \\| pipe" in t and "dav-3510 simt" in t


def test_build_defines_come_from_cmake_then_the_readme():
    dc = load_tool("devkit_check")
    cm = 'set(MODE "2")\ntarget_compile_definitions(demo PRIVATE MODE=${MODE} SCENARIO_NUM=${SCENARIO_NUM} FAST)\n'
    assert dc.cmake_defines(cm, "cmake .. -DSCENARIO_NUM=3 -DMODE=9") == ["-DMODE=2", "-DSCENARIO_NUM=3", "-DFAST"]


def test_asc_only_definitions_and_a_value_the_readme_names_in_prose():
    dc = load_tool("devkit_check")
    cm = "ascendc_compile_definitions(demo PRIVATE\n    -DVIA_SSBUF=true\n    -DSCENARIO_NUM=${SCENARIO_NUM}\n)\n"
    assert dc.cmake_defines(cm, "see the branch for SCENARIO_NUM=2 in the sample") == \
        ["-DVIA_SSBUF=true", "-DSCENARIO_NUM=2"]


def test_a_cache_default_yields_to_the_readme():
    # set(SCENARIO_NUM 0 CACHE ...) that the CMakeLists then rejects
    # (bank_conflict_3510): the README's `export SCENARIO_NUM=1` wins; with
    # no README value the cache default stands
    dc = load_tool("devkit_check")
    cm = 'set(SCENARIO_NUM 0 CACHE STRING "1-14")\ntarget_compile_definitions(demo PRIVATE SCENARIO_NUM=${SCENARIO_NUM})\n'
    assert dc.cmake_defines(cm, "export SCENARIO_NUM=1\ncmake .. -DSCENARIO_NUM=${SCENARIO_NUM}") == ["-DSCENARIO_NUM=1"]
    assert dc.cmake_defines(cm, "") == ["-DSCENARIO_NUM=0"]
    # a placeholder (`-DSCENARIO_NUM=N`) is skipped for the README's real command
    assert dc.cmake_defines(cm, "use -DSCENARIO_NUM=N (N=0~5)\ncmake .. -DSCENARIO_NUM=5") == ["-DSCENARIO_NUM=5"]
