#!/usr/bin/env python3
"""CANN's asc-devkit examples, built with their own CMakeLists.txt and run
as their README says, on the simulated NPU.

Each example's README ("样例执行" section) gives a bash block: cmake with
``CMAKE_ASC_ARCHITECTURES``, ``make``, maybe ``scripts/gen_data.py``, the
program, maybe ``scripts/verify_result.py``; and the pass line its run
prints ("执行结果如下").  This tool runs that block unchanged in a copy of
the example directory, with the simulated CANN home's ``set_env.sh``
sourced (so ``find_package(ASC)`` finds the ASC language), and reports
whether the pass line appeared.

    python3 tools/devkit_examples.py [--arch dav-2201] [--filter SUBSTR] [--table]

``--table`` prints the docs/compatibility.md table.  The mirror comes from
$ASC_DEVKIT_SRC (a work tree).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import List, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import example_runner as er  # noqa: E402  (the pool, the first error, the table cells)

#: What the simulated NPU does not model, found in an example's files:
#: (pattern, the missing piece named in the failure).
NEEDS = (
    (re.compile(r"\.aicpu\b|aicpu_kernel|__aicpu__|AICPU", re.I), "the AI CPU"),
    (re.compile(r"aclrtSetDevice\(\s*[1-9]|deviceCount\s*>\s*1|HCCL|hccl", re.I), "more than one device"),
    (re.compile(r"torch_npu|TORCH_NPU|import torch\b"), "torch_npu (PyTorch on an NPU)"),
    (re.compile(r"tensorflow|onnx", re.I), "a framework plugin host (TensorFlow/ONNX/GE)"),
    (re.compile(r"msprof|msopprof|mssanitizer|msProf", re.I), "CANN's profiling/sanitizer tools"),
)


#: Examples that do not pass yet, with the first error of their run
#: (docs/compatibility.md shows the same); tests/test_devkit_examples.py
#: expects them to fail (strictly: one that starts passing must leave).
#: Measured at asc-devkit 82b89a15f: every example of the test's default
#: sample, and the ones the full runs reached.
KNOWN = {
    '01_simd_cpp_api/02_features/00_framework/00_pytorch/pybind':
        "ModuleNotFoundError: No module named 'torch'",
    '01_simd_cpp_api/03_basic_api/01_memory_vector_compute/transpose':
        "error: no type named 'TransposeParamsExt' in namespace 'AscendC'",
    '01_simd_cpp_api/03_basic_api/03_matrix_compute/mmad_load3dv2':
        '[ERROR] result error',
    '01_simd_cpp_api/03_basic_api/05_sync_control/task_sync':
        "error: no member named 'WaitPreTaskEnd' in namespace 'AscendC'",
    '01_simd_cpp_api/03_basic_api/09_utils/gm_by_dcache':
        "error: no member named 'ReduceRepeat' in namespace 'AscendC'",
    '01_simd_cpp_api/04_advanced_api/00_matmul/matmul_async_iterate_all':
        "error: no type named 'TCubeTiling' in namespace 'optiling'; did you mean simply 'TCubeTiling'?",
    '01_simd_cpp_api/04_advanced_api/00_matmul/matmul_fp8':
        "error: no member named 'op_key' in namespace '__arc_tiling'",
    '01_simd_cpp_api/04_advanced_api/00_matmul/matmul_l2cache':
        "error: no template named 'forward' in namespace 'AscendC::Std'; did you mean 'std::forward'?",
    '01_simd_cpp_api/04_advanced_api/00_matmul/matmul_partial_output':
        "error: no member named 'isPartialOutput' in 'MatmulConfig'",
    '01_simd_cpp_api/04_advanced_api/00_matmul/matmul_tscm_src_vecout':
        "error: no member named 'TSCM' in namespace 'AscendC'",
    '01_simd_cpp_api/04_advanced_api/01_activation/softmaxflashv2':
        "error: expected ';' after expression",
    '01_simd_cpp_api/04_advanced_api/02_normalization/rmsnorm':
        "error: unexpected type name 'uint8_t': expected expression",
    '01_simd_cpp_api/04_advanced_api/05_sort/topk':
        "error: unknown type name 'TopkTiling'",
    '01_simd_cpp_api/04_advanced_api/08_transpose/transdata':
        "error: no type named 'TransDataConfig' in namespace 'AscendC'",
    '01_simd_cpp_api/04_advanced_api/10_math/clamp':
        "error: no member named 'Clamp' in namespace 'AscendC'",
    '01_simd_cpp_api/04_advanced_api/10_math/isfinite':
        "error: use of undeclared identifier 'KERNEL_ERROR'",
    '01_simd_cpp_api/05_best_practices/03_fusion_compute/matmul_gelu_high_performance':
        'error: excess elements in struct initializer',
    '01_simd_cpp_api/06_compatibility_guide/set_loaddata_boundary':
        "error: redefinition of 'CubeFormat'",
    '02_simd_c_api/03_c_api/00_data_movement/data_copy_gm2l1':
        "error: use of undeclared identifier 'asc_copy_gm2l1'",
    '02_simd_c_api/03_c_api/02_reg_vector_compute/gather':
        'the example reads 512 bytes of its 256-byte half input (asc_copy_gm2ub_align with block_length * 4 '
        'bytes for 2-byte elements): the GM check reports the read past the allocation',
    '01_simd_cpp_api/03_basic_api/00_data_movement/copy_in_tensor_api':
        "error: 'tensor_api/tensor.h' file not found; host code in the kernel source: <tensor_api/tensor.h> is a host-side header that this machine does not have (not in",
    '01_simd_cpp_api/03_basic_api/00_data_movement/copy_out_tensor_api':
        "error: 'tensor_api/tensor.h' file not found; host code in the kernel source: <tensor_api/tensor.h> is a host-side header that this machine does not have (not in",
    '01_simd_cpp_api/03_basic_api/02_reg_vector_compute/cast':
        "error: no type named 'CastTrait' in namespace 'AscendC::Reg'",
    '01_simd_cpp_api/03_basic_api/02_reg_vector_compute/trait':
        "error: static assertion failed due to requirement 'RegTraitNumTwo.num == 1': AscendC::Reg::RegTensor: RegTraitNumTwo (two VL) is not simulated",
    '01_simd_cpp_api/03_basic_api/03_matrix_compute/batch_matmul_tensor_api':
        "error: 'tensor_api/tensor.h' file not found; host code in the kernel source: <tensor_api/tensor.h> is a host-side header that this machine does not have (not in",
    '01_simd_cpp_api/03_basic_api/03_matrix_compute/conv2d_forward_tensor_api':
        "error: 'tensor_api/tensor.h' file not found; host code in the kernel source: <tensor_api/tensor.h> is a host-side header that this machine does not have (not in",
    '01_simd_cpp_api/03_basic_api/03_matrix_compute/mmad_tensor_api':
        "error: 'tensor_api/tensor.h' file not found; host code in the kernel source: <tensor_api/tensor.h> is a host-side header that this machine does not have (not in",
    '01_simd_cpp_api/05_best_practices/01_matrix_compute/matmul_mxfp4_tensor_api_high_performance':
        "error: 'tensor_api/tensor.h' file not found; host code in the kernel source: <tensor_api/tensor.h> is a host-side header that this machine does not have (not in",
    '02_simd_c_api/00_introduction/04_reg_base_add_compute/c_api_simd_add':
        "error: use of undeclared identifier 'asc_load'",
    '02_simd_c_api/03_c_api/02_reg_vector_compute/cast':
        "error: use of undeclared identifier 'asc_loadalign_unpack'",
    '01_simd_cpp_api/05_best_practices/02_reg_compute/gelu_eltwise_high_performance':
        'race check (a false positive): the last Reg::LoadAlign of a tile reads a whole 256-byte register, '
        '128 bytes past its masked lanes into the other ping-pong buffer MTE2 is filling; the launch fails, the '
        'example ignores the error and checks zeros (ASCENDRTC_RACE_CHECK=warn computes the golden result)',
    '03_simt_api/02_features/06_compile/01_separate_compile':
        '-dc: relocatable device code (device functions linked across files) is not simulated',
    '05_simd_simt_hybrid/02_best_practices/simd_simt_hash_table_mte_queue':
        "asc_shfl: thread (33,0,0) of block (2,0,0) reads lane 0, which is not active (at "
        "hash_table_mte_queue.asc:358): its drain loop needs a warp's lanes to read the ring counters together "
        "(on the NPU they execute together); the simulator runs them one after another between points, lane 0 "
        "leaves the loop first (the VF's wait for its SIMD side itself is simulated)",
    '05_simd_simt_hybrid/02_best_practices/simd_simt_matrix_transpose':
        "error: use of undeclared identifier 'transpose_naive_kernel'; did you mean 'transpose_ub_pad_db_kernel'? "
        "(a __vector__ kernel that #if leaves out is still named in the single-source program's entries)",
    '03_simt_api/03_best_practices/00_memory_optimizations/cache_hint':
        'the example reads sin_table[TABLE_SIZE], one float past its 32 KiB aclrtMalloc allocation (x*L/pi '
        'rounds up to L just under pi; on Ascend 950 aclrtMalloc adds no 32-byte tail): the read faults, '
        '0 bytes past the end of the allocation',
    '03_simt_api/02_features/00_framework/00_pytorch/torch_library_roll':
        "error: 'torch/extension.h' file not found",
    '01_simd_cpp_api/00_introduction/02_matrix/matmul_advanced_api':
        "error: no member named 'cout' in namespace 'std'",
    '01_simd_cpp_api/00_introduction/02_matrix/matmul_basic_api':
        "error: no matching member function for call to 'Alloc'",
    '01_simd_cpp_api/00_introduction/02_matrix/matmul_tensor_api':
        "error: 'tensor_api/tensor.h' file not found",
    '01_simd_cpp_api/00_introduction/03_fusion_operation/matmul_leakyrelu_advanced_api':
        "error: no member named 'cout' in namespace 'std'",
    '01_simd_cpp_api/00_introduction/03_fusion_operation/matmul_leakyrelu_basic_api':
        "error: use of undeclared identifier 'QuantMode_t'; did you mean 'AscendC::QuantMode_t'?",
    '01_simd_cpp_api/01_utilities/00_printf/simple_printf':
        "error: no matching member function for call to 'Alloc'",
    '01_simd_cpp_api/01_utilities/01_assert':
        "error: no matching member function for call to 'Alloc'",
    '01_simd_cpp_api/01_utilities/02_dump/simd_vf_dump':
        "error: use of undeclared identifier 'asc_dump_reg'; did you mean 'asc_dump_gm'?",
    '01_simd_cpp_api/01_utilities/02_dump/simple_dump':
        "error: no matching member function for call to 'Alloc'",
    '01_simd_cpp_api/01_utilities/03_clock':
        'error: "SIMT kernels (simt_api/asc_simt.h) compile with --enable-simt and --npu-arch=dav-3510"',
    '01_simd_cpp_api/02_features/00_framework/00_pytorch/ge_torchair':
        "ModuleNotFoundError: No module named 'torch'",
    '01_simd_cpp_api/02_features/00_framework/00_pytorch/torch_library':
        "ModuleNotFoundError: No module named 'torch'",
    '01_simd_cpp_api/02_features/00_framework/01_tensorflow/tensorflow_custom':
        "ModuleNotFoundError: No module named 'tensorflow'",
    '01_simd_cpp_api/02_features/00_framework/02_onnx/onnx_plugin':
        "ModuleNotFoundError: No module named 'onnx'",
}


#: Examples whose README quotes another scenario's pass line than the one
#: its build-and-run block runs: the line that scenario's program prints.
PASS_LINES = {
    # SCENARIO_NUM=1 builds sync_barrier.asc; the README quotes memory_fence.asc's line
    '03_simt_api/02_features/01_api_features/01_sync_instruction/memory_fence':
        '[Success] Case accuracy verification passed.',
}


@dataclass
class Example:
    rel: str            # path under examples/
    commands: str       # the README's bash block
    pass_line: str      # what a passing run prints
    arch: str           # dav-2201, dav-3510, ...


def _block_after(text: str, marker: str, start: int = 0) -> Optional[str]:
    i = text.find(marker, start)
    if i < 0:
        return None
    m = re.search(r"```[^\n]*\n(.*?)```", text[i:], re.S)
    return m.group(1) if m else None


_PASS = re.compile(r"test pass|\[Success\]|passed|PASSED|\bOK\b|success", re.I)


def catalog(src: str) -> List[Example]:
    """The examples whose README gives a build-and-run block and a pass line."""
    out = []
    base = os.path.join(src, "examples")
    for root, dirs, files in os.walk(base):
        dirs.sort()
        if "CMakeLists.txt" not in files or "README.md" not in files:
            continue
        with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
            text = f.read()
        i = text.find("样例执行")
        cmds = _block_after(text, "样例执行")
        if i < 0 or cmds is None:
            continue
        res = _block_after(text, "执行结果如下", i)
        lines = [ln.strip() for ln in (res or "").splitlines() if _PASS.search(ln) and "fail" not in ln.lower()]
        if not lines:
            continue
        archs = re.findall(r"dav-\d+", cmds)
        rel = os.path.relpath(root, base)
        out.append(Example(rel, cmds, PASS_LINES.get(rel, lines[-1]), archs[0] if archs else "dav-2201"))
    return out


def needs(src: str, ex: Example) -> Optional[str]:
    """What the example needs that the simulated NPU does not model, or None."""
    d = os.path.join(src, "examples", ex.rel)
    for root, _, files in os.walk(d):
        for f in files:
            if f.endswith((".asc", ".cpp", ".h", ".txt", ".py", ".aicpu")):
                try:
                    with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
                        t = fh.read()
                except OSError:
                    continue
                for pat, what in NEEDS:
                    if f.endswith(".aicpu") or pat.search(t):
                        return what if not f.endswith(".aicpu") else "the AI CPU"
    return None


def script(ex: Example, home: str, cmake: str) -> str:
    """The README's block as a bash script, with the simulated home sourced."""
    lines = [f'. "{home}/set_env.sh"', f'cmake() {{ "{cmake}" "$@"; }}', "set -e"]
    for ln in ex.commands.splitlines():
        s = ln.strip()
        if not s or s.startswith("source ") or "set_env.sh" in s:
            continue
        lines.append(ln)
    return "\n".join(lines) + "\n"


def run(src: str, ex: Example, work: str, timeout: float = 600, home: Optional[str] = None) -> dict:
    """Runs one example in a copy under ``work``; returns ok, output, seconds."""
    home = home or os.path.join(ROOT, "ascendrtc", "_home")
    cmake = shutil.which("cmake", path="/usr/bin") or shutil.which("cmake") or "cmake"
    d = os.path.join(work, ex.rel.replace("/", "_"))
    shutil.copytree(os.path.join(src, "examples", ex.rel), d, symlinks=True)
    t0 = time.perf_counter()
    out, rc = er.run_command(["bash", "-c", script(ex, home, cmake)], timeout, cwd=d, env=er.env_with_checkout(ROOT))
    ok = rc == 0 and ex.pass_line in out
    return {"ok": ok, "rc": rc, "output": out, "seconds": time.perf_counter() - t0}


reason = er.reason  # one line saying why a run failed


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", help="only examples for this arch (dav-2201, dav-3510)")
    ap.add_argument("--filter", default="", help="only examples whose path contains this")
    ap.add_argument("--table", action="store_true", help="print a markdown table")
    ap.add_argument("--timeout", type=float, default=600)
    a = ap.parse_args(argv)
    src = os.environ.get("ASC_DEVKIT_SRC")
    if not src or not os.path.isdir(os.path.join(src, "examples")):
        print("set ASC_DEVKIT_SRC to an asc-devkit work tree", file=sys.stderr)
        return 2
    exs = [e for e in catalog(src) if (not a.arch or e.arch == a.arch) and a.filter in e.rel]
    with tempfile.TemporaryDirectory(prefix="arc-devkit-") as work:
        def one(ex):
            r = run(src, ex, work, a.timeout)
            why = "" if r["ok"] else reason(r["output"])
            er.progress_line(ex.rel, r["ok"], r["seconds"], why)
            return ex, r["ok"], why, r["seconds"]
        rows = er.run_all(exs, one)
    for line in er.known_drift([(ex.rel, ok) for ex, ok, _, _ in rows], KNOWN):
        print(line, file=sys.stderr)
    npass = sum(1 for r in rows if r[1])
    if a.table:
        print(f"| example | arch | result |\n|---|---|---|")
        for ex, ok, why, _ in rows:
            print(f"| {ex.rel} | {ex.arch} | {'pass' if ok else er.cell(why)} |")
    print(f"{npass} of {len(rows)} pass", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
