"""The one SoC table (csrc/common/socs.h) and the one ge::DataType table
(csrc/common/ge_dtypes.h): Python's view (_C.ARCHS, _C.SOCS, _C.GE_DTYPES)
is what the runtime, the compiler's option parser, the cost model, the
device API and the host API each report, row by row."""
import os
import subprocess
import sys

import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc import _C

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def test_rows_are_well_formed():
    assert list(_C.ARCHS) == ["dav-2201", "dav-3510"]
    for name, a in _C.ARCHS.items():
        assert a["arch"] == name and a["soc"] in _C.SOCS and _C.SOCS[a["soc"]]["npu_arch"] == a["npu_arch"]
    nums = {a["npu_arch"] for a in _C.ARCHS.values()}
    for name, s in _C.SOCS.items():
        assert s["soc"] == name and s["npu_arch"] in nums, name
        assert s["aic"] > 0 and s["aiv"] > 0 and s["mhz"] > 0 and s["hbm"] > 0 and s["l2"] > 0
    # Ascend 950: arch 3510, AIC:AIV = 1:2, and the SoC names CANN's tools list
    a950 = [n for n, s in _C.SOCS.items() if n.startswith("Ascend950")]
    assert len([n for n in a950 if "_" in n]) == 35
    assert all(_C.SOCS[n]["npu_arch"] == 3510 and _C.SOCS[n]["aiv"] == 2 * _C.SOCS[n]["aic"]
               and _C.SOCS[n]["short"] == "Ascend950" for n in a950)
    d = _C.ARCHS["dav-3510"]
    assert (d["ub"], d["l1"], d["l0a"], d["l0b"], d["l0c"], d["vl_bytes"]) == (
        256 << 10, 512 << 10, 64 << 10, 64 << 10, 256 << 10, 256)
    assert d["soc"] == "Ascend950PR_9599"


_DEVICE_DUMP = r"""
import ctypes, os, sys
sys.path.insert(0, %r)
from helpers.rt import lib, ok
L = lib()
v = ctypes.c_int64()
for soc in sys.argv[1:]:
    os.environ["ASCENDRTC_SIM_SOC"] = soc
    row = [L.aclrtGetSocName().decode()]
    for attr in (101, 102, 201, 601, 301, 302, 1):  # aicore, cube, vector, arch, total mem, L2, aicpu
        ok(L.aclrtGetDeviceInfo(0, attr, ctypes.byref(v)))
        row.append(v.value)
    print(*row)
"""


def test_runtime_reports_every_row():
    """aclrtGetSocName / aclrtGetDeviceInfo under ASCENDRTC_SIM_SOC=<each SoC>."""
    names = list(_C.SOCS)
    r = subprocess.run([sys.executable, "-c", _DEVICE_DUMP % HERE, *names], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    got = [line.split() for line in r.stdout.splitlines()]
    assert len(got) == len(names)
    for name, (soc, *vals) in zip(names, got):
        s = _C.SOCS[name]
        assert (soc, *map(int, vals)) == (name, s["aic"], s["aic"], s["aiv"], s["npu_arch"], s["hbm"], s["l2"],
                                          s["aicpu"]), name


def test_runtime_reports_the_arch_memories():
    for arch, a in _C.ARCHS.items():
        code = ("import ascendrtc as arc; i = arc.device_info(); print(i['soc_name'], i['ub_size'], i['npu_arch'])")
        r = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, ASCENDRTC_SIM_SOC=arch),
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        assert r.stdout.split() == [a["soc"], str(a["ub"]), str(a["npu_arch"])]


def test_compiler_knows_every_row():
    for name, s in _C.SOCS.items():
        arch = next(a for a in _C.ARCHS.values() if a["npu_arch"] == s["npu_arch"])["arch"]
        assert _C.resolve_arch([f"--npu-soc={name}"]) == arch, name
    assert _C.resolve_arch(["--npu-soc=Ascend999"]) is None
    for bad in ("dav-2002", "dav-9999"):
        with pytest.raises(arc.CompileError, match="dav-2201, dav-3510"):
            arc.Program("__global__ __aicore__ void k() {}").compile([f"--npu-arch={bad}"])


_ARCH_KERNEL = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void facts(GM_ADDR out)
{
    reinterpret_cast<__gm__ int32_t *>(out)[0] = __NPU_ARCH__;
}
"""


def test_device_sees_its_arch():
    """__NPU_ARCH__ is the row's number for each --npu-arch of the table."""
    for arch, a in _C.ARCHS.items():
        mod = arc.Program(_ARCH_KERNEL, "facts.asc").compile([f"--npu-arch={arch}"]).load()
        out = np.zeros(8, np.int32)
        mod.get_kernel("facts")[1](out)
        arc.synchronize()
        assert out[0] == a["npu_arch"], arch


def test_cost_model_prices_every_row():
    """arc.profile(soc=) accepts each SoC and prices it at the row's clock and cores."""
    from helpers.cost_kernels import OPS, inputs, tuned_kernel
    k = tuned_kernel()
    x, y = inputs(8 * 2048, "add")
    z = np.zeros_like(x)
    for name, s in _C.SOCS.items():
        with arc.profile(name) as prof:
            k[128](x, y, z, 8 * 2048, 128, 1, 0, OPS["add"])
        r = prof[0]
        assert (r.soc, r.clock_mhz, r.cores) == (name, s["mhz"], s["aiv"]), name


def test_op_projects_see_the_arch_memories():
    from ascendrtc._op_project import _soc_facts
    for a in _C.ARCHS.values():
        f = _soc_facts({"npu_arch": a["npu_arch"]})
        assert (f["l1"], f["l0a"], f["l0b"], f["l0c"]) == (a["l1"], a["l0a"], a["l0b"], a["l0c"])


_GE_DUMP = r"""
#include <cstdio>
#include "graph/types.h"
#include "graph/utils/type_utils.h"
int main()
{
    for (int v = 0; v < ge::DT_MAX; v++) {
        auto dt = static_cast<ge::DataType>(v);
        std::printf("%s %d %d\n", ge::TypeUtils::DataTypeToSerialString(dt).c_str(), v, ge::GetSizeByDataType(dt));
    }
}
"""


def test_ge_dtypes_are_the_host_apis(tmp_path):
    """The host API's ge::DataType (compiled here by the system compiler) is _C.GE_DTYPES."""
    import shutil
    cxx = shutil.which("clang++-19") or shutil.which("g++")
    if not cxx:
        pytest.skip("no C++ compiler")
    src = tmp_path / "ge.cpp"
    src.write_text(_GE_DUMP)
    exe = tmp_path / "ge"
    subprocess.run([cxx, "-std=c++17", "-I", os.path.join(ROOT, "csrc/host_api"), "-I", os.path.join(ROOT, "csrc"),
                    str(src), "-o", str(exe)], check=True)
    rows = [line.split() for line in subprocess.run([str(exe)], capture_output=True, text=True,
                                                    check=True).stdout.splitlines()]
    named = {int(v): (n, int(b)) for n, v, b in rows if n != "DT_UNDEFINED" or v == "28"}
    assert named == {v: (n, b) for n, v, b, _, _ in _C.GE_DTYPES}


def test_python_ge_tables_derive_from_c():
    from ascendrtc import _op_host, _op_kernel
    assert _op_host.GE_DTYPES["float16"] == 1 and _op_host.ge_dtype_of(np.float32) == 0
    # NumPy has no bfloat16 until ml_dtypes is imported (the op-library cases do): then it names it
    bf = _op_host.numpy_dtype_of(27)
    assert (bf is None and _op_host.ge_dtype_name(27) == "DT_BF16") or \
        (bf.name == "bfloat16" and _op_host.ge_dtype_name(27) == "DT_BF16 (bfloat16)")
    assert _op_host.ge_dtype_name(1) == "DT_FLOAT16 (float16)"
    assert _op_kernel.DTYPES["bfloat16"] == ("bfloat16_t", 27)
    assert {n for n, (c, v) in _op_kernel.DTYPES.items()} == {d for _, _, _, d, c in _C.GE_DTYPES if c and d}


@pytest.mark.parametrize("arch, value", [("dav-2201", 220), ("dav-3510", 310)])
def test_cce_aicore_is_defined_as_cann_defines_it(arch, value):
    # Undefined on dav-3510, a body under `#if __CCE_AICORE__ >= 220` compiled
    # to nothing and the kernel returned zeros without a word (ops-nn kernels).
    src = ("#include \"kernel_operator.h\"\n"
           "extern \"C\" __global__ __aicore__ void k(GM_ADDR out) {\n"
           "#if __CCE_AICORE__ >= 220\n    ((__gm__ int32_t *)out)[0] = __CCE_AICORE__;\n#endif\n}\n")
    k = arc.Program(src, "cce_aicore.cpp").compile(["--npu-arch=" + arch]).load().get_kernel("k")
    out = np.zeros(8, np.int32)
    k[1](arc.InOut(out))
    assert out[0] == value
