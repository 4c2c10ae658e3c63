"""The Matmul host tiling API for op projects (csrc/host_api/lib/matmul/
matmul_tiling_api.h: matmul_tiling::MultiCoreMatmulTiling /
MatmulApiTiling) gives the same TCubeTiling as ascendrtc.matmul_tiling
(one C computation), and respects the TCubeTiling constraints.  Built with
the system C++ compiler as host code is; skipped without one."""
import os
import shutil
import subprocess

import numpy as np
import pytest

import ascendrtc.matmul_tiling as mt

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CXX = os.environ.get("CXX") or shutil.which("g++") or shutil.which("c++")

MAIN = r'''
#include <stdio.h>
#include "matmul_tiling_api.h"
#define ASCENDRTC_TILING_HOST
#include "kernel_tiling/kernel_tiling.h"
int main() {
    using namespace matmul_tiling;
    AscendC::tiling::TCubeTiling t;
    MultiCoreMatmulTiling mm;
    mm.SetDim(8);
    mm.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    mm.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    mm.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mm.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mm.SetShape(512, 384, 256);
    mm.SetOrgShape(512, 384, 256);
    mm.SetBias(true);
    mm.SetBufferSpace(-1, -1, -1);
    if (mm.GetTiling(t) == -1) return 1;
    const int32_t *f = (const int32_t *)&t;
    for (int i = 0; i < 50; i++) printf("%d ", f[i]);
    printf("\n");
    MatmulApiTiling one;
    one.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8);
    one.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8);
    one.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_INT32);
    one.SetShape(64, 64, 0);
    printf("bad %lld\n", (long long)one.GetTiling(t));
    return 0;
}
'''


def build_and_run(tmp_path, name, source):
    """Compile a host program against the host tiling headers and run it."""
    src = tmp_path / (name + ".cpp")
    src.write_text(source)
    exe = tmp_path / name
    subprocess.run([CXX, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-I", os.path.join(ROOT, "csrc/host_api/lib/matmul"),
                    "-I", os.path.join(ROOT, "csrc/device"), "-I", os.path.join(ROOT, "csrc"), str(src), "-o", str(exe)], check=True)
    r = subprocess.run([str(exe)], capture_output=True, text=True, check=True)
    return r


@pytest.mark.skipif(CXX is None, reason="no C++ compiler")
def test_host_multicore_tiling_matches_python(tmp_path):
    r = build_and_run(tmp_path, "main", MAIN)
    lines = r.stdout.splitlines()
    got = np.array([int(v) for v in lines[0].split()], np.int32)
    want = mt.tiling(512, 384, 256, "float16", "float32", bias=True, cores=8).array()
    np.testing.assert_array_equal(got, want)
    assert lines[1] == "bad -1"
    assert "every dimension must be positive" in r.stderr


BLOCK = r'''
#include <stdio.h>
#include "matmul_tiling_api.h"
#define ASCENDRTC_TILING_HOST
#include "kernel_tiling/kernel_tiling.h"
int main() {
    using namespace matmul_tiling;
    AscendC::tiling::TCubeTiling t;
    // One core's 64 x 1024 block of a 128 x 1024 product (the kernel walks the
    // blocks itself), and A / B rows of different lengths (Ka != Kb).
    MatmulApiTiling one;
    one.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    one.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, true);
    one.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    one.SetShape(64, 1024, 128);
    one.SetOrgShape(128, 1024, 1024, 128);
    one.SetBias(false);
    if (one.GetTiling(t) == -1) return 1;
    printf("%d %d %d %d %d %d %d\n", t.M, t.N, t.Ka, t.Kb, t.singleCoreM, t.singleCoreN, t.singleCoreK);
    // The multi-core class still needs its blocks to fit SetDim's cores.
    MultiCoreMatmulTiling mc;
    mc.SetDim(1);
    mc.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    mc.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    mc.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mc.SetShape(128, 128, 64);
    mc.SetOrgShape(128, 128, 64);
    mc.SetSingleShape(64, 128, 64);
    printf("multi %lld\n", (long long)mc.GetTiling(t));
    // SetMatmulConfigParams: the traverse is the iterate order; the schedule keeps the blocks.
    MatmulApiTiling cp;
    cp.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    cp.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    cp.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    cp.SetShape(64, 64, 64);
    cp.SetMatmulConfigParams(MatmulConfigParams(1, false, ScheduleType::N_BUFFER_33, MatrixTraverse::FIRSTN));
    if (cp.GetTiling(t) == -1) return 1;
    printf("order %d %d %d\n", t.iterateOrder, t.baseM, t.baseN);
    // EnableMultiCoreSplitK: K in whole blocks over the cores the M x N grid leaves; A in TSCM: one M block.
    MultiCoreMatmulTiling sk;
    sk.SetDim(24);
    sk.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    sk.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    sk.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    sk.SetShape(16, 16, 1024);
    sk.SetOrgShape(16, 16, 1024);
    sk.EnableMultiCoreSplitK(true);
    if (sk.GetTiling(t) == -1) return 1;
    printf("splitk %d %d\n", t.usedCoreNum, t.singleCoreK);
    MultiCoreMatmulTiling ts;
    ts.SetDim(24);
    ts.SetAType(TPosition::TSCM, CubeFormat::NZ, DataType::DT_FLOAT16);
    ts.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    ts.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    ts.SetShape(64, 64, 64);
    ts.SetOrgShape(64, 64, 64);
    if (ts.GetTiling(t) == -1) return 1;
    printf("tscm %d %d\n", t.singleCoreM, t.usedCoreNum);
    return 0;
}
'''


@pytest.mark.skipif(CXX is None, reason="no C++ compiler")
def test_host_single_core_block_of_a_bigger_shape(tmp_path):
    r = build_and_run(tmp_path, "block", BLOCK)
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["128", "1024", "1024", "128", "64", "1024", "128"]
    assert lines[1] == "multi -1"
    assert "needs 2 cores, 1 given" in r.stderr
    assert lines[2] == "order 1 64 64"
    assert lines[3] == "splitk 16 64"         # 1024 = 16 x 64 on 16 of the 24 cores
    assert lines[4] == "tscm 64 4"            # A whole in each core's L1; N split in 4


@pytest.mark.parametrize("m, n, k, cores", [(256, 512, 192, 24), (640, 1024, 512, 48), (512, 384, 256, 8)])
def test_multicore_split_prefers_whole_blocks(m, n, k, cores):
    # asc-devkit's matmul_nbuffer33 and matmul_async_iterate offset whole blocks without SetTail
    t = mt.tiling(m, n, k, cores=cores).array()
    used, sm, sn = t[0], t[5], t[6]
    assert m % sm == 0 and n % sn == 0 and used == (m // sm) * (n // sn) <= cores
