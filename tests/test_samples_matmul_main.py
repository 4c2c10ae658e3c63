"""Every kernel-launch Matmul sample (samples mirror, $ASCEND_SAMPLES_SRC;
skipped without it) launched as its own main.cpp launches it: the tiling
from the sample's own host tiling code (built with the system C++ compiler
against ascendrtc's host tiling API, on the simulated SoC's platform), the
blockDim main.cpp computes from it, no kernel type given (the samples write
none; CANN's compiler makes them MIX 1:2).  Every element of C is checked
against NumPy; C starts as NaN, so an element no block wrote fails."""
import os
import re
import shutil
import subprocess

import numpy as np
import pytest

import ascendrtc as arc
from helpers.samples import samples_root

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CXX = os.environ.get("CXX") or shutil.which("g++") or shutil.which("c++")
OPS = "operator/ascendc/"
SAMPLES = [
    "0_introduction/11_matmul_kernellaunch/MatmulInvocationNeo",
    "0_introduction/13_matmulleakyrelu_kernellaunch/MatmulLeakyReluInvocation",
    "0_introduction/13_matmulleakyrelu_kernellaunch/MatmulLeakyReluInvocationAsync",
    "1_utilities/0_printf/KernelLaunch/MatmulInvocationNeo",
    "1_utilities/3_assert/KernelLaunch/MatmulInvocationNeo",
    "2_features/13_matmul_api_ibshare/MatmulABshareInvocation",
    "tutorials/MatmulCustomSample/KernelLaunch/MatmulInvocationNeo",
    "tutorials/MatmulLeakyReluCustomSample/KernelLaunch/MatmulLeakyReluInvocation",
    "tutorials/MatmulLeakyReluCustomSample/KernelLaunch/MatmulLeakyReluInvocationAsync",
]

# Samples the simulator refuses, loudly rather than computing part of C:
# the printf sample passes a string for a %d (its format "printf %s is %d,
# %d is %d.\n" is given "isTransA", isTransA, "isTransB", isTransB).

REFUSED = {
    "1_utilities/0_printf/KernelLaunch/MatmulInvocationNeo":
        "conversion %d expects a signed integer but argument 3 is a string",
}

# Runs the sample's GenerateTiling on the simulated SoC's platform (what
# ascendrtc sets for op host code) and writes the tiling buffer to stdout.
DRIVER = r'''
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "tiling/platform/platform_ascendc.h"
#ifdef RETURNS_BUFFER
uint8_t *GenerateTiling(const char *socVersion);
#else
void GenerateTiling(const char *socVersion, uint8_t *tilingBuf);
#endif
int main(int, char **argv)
{
    static fe::PlatFormInfos p;
    p.soc_version = argv[1];
    p.short_soc_version = argv[2];
    p.aic_num = (uint32_t)atoi(argv[3]);
    p.aiv_num = (uint32_t)atoi(argv[4]);
    p.ub_size = strtoull(argv[5], nullptr, 10);
    platform_ascendc::PlatformAscendCManager::Current() = &p;
    static uint8_t buf[4096];
#ifdef RETURNS_BUFFER
    memcpy(buf, GenerateTiling(argv[1]), 256);
#else
    GenerateTiling(argv[1], buf);
#endif
    fwrite(buf, 1, sizeof buf, stdout);
    return 0;
}
'''


def read(d, name):
    with open(os.path.join(d, name)) as f:
        return f.read()


def host_tiling(d, tiling_file, tmp_path):
    """The bytes the sample's own tiling code writes on this SoC."""
    if not CXX:
        pytest.skip("no C++ compiler for the sample's host tiling code")
    src = read(d, tiling_file)
    drv = tmp_path / "driver.cpp"
    drv.write_text(DRIVER)
    exe = tmp_path / "tiling"
    flags = ["-DRETURNS_BUFFER"] if re.search(r"uint8_t\s*\*\s*GenerateTiling\s*\(", src) else []
    # register/tilingdata_base.h first: CANN's tiling_api.h brings optiling::TCubeTiling (the samples use it)
    subprocess.run([CXX, "-std=c++17", *flags, "-include", "register/tilingdata_base.h",
                    "-I", os.path.join(ROOT, "csrc/host_api"),
                    "-I", os.path.join(ROOT, "csrc/host_api/lib/matmul"), "-idirafter", os.path.join(ROOT, "csrc/device"),
                    "-idirafter", os.path.join(ROOT, "csrc"),
                    os.path.join(d, tiling_file), str(drv), "-o", str(exe)], check=True)
    info = arc.device_info()
    short = "Ascend910B" if info["npu_arch"] == 2201 else "Ascend950"
    out = subprocess.run([str(exe), info["soc_name"], short, str(info["cube_core_num"]), str(info["vector_core_num"]),
                          str(info["ub_size"])], capture_output=True, check=True).stdout
    return np.frombuffer(out, np.uint8).copy()


def block_dims(main_cpp, used_core_num):
    """The blockDim of each launch in main.cpp, off the CUSTOM_ASCEND310P branch."""
    lines, keep, dims = main_cpp.splitlines(), [True], []
    for ln in lines:
        s = ln.strip()
        if s.startswith("#ifdef CUSTOM_ASCEND310P"):
            keep.append(False)
        elif s.startswith("#if"):
            keep.append(keep[-1])
        elif s.startswith("#else") and len(keep) > 1:
            keep[-1] = not keep[-1]
        elif s.startswith("#endif") and len(keep) > 1:
            keep.pop()
        elif keep[-1]:
            m = re.match(r"uint32_t blockDim = (.+);", s)
            if m:
                expr = m.group(1).replace("reinterpret_cast<TCubeTiling *>(tilingBuf)->usedCoreNum", str(used_core_num))
                assert re.fullmatch(r"[0-9+/() ]+", expr), expr
                dims.append(eval(expr.replace("/", "//")))  # noqa: S307 - digits and + / ( ) only
    assert len(set(dims)) == 1, dims
    return dims[0]


def shape(tiling_src):
    return [int(re.search(rf"\b{v} = (\d+);", tiling_src).group(1)) for v in "MNK"]


def leaky_alpha(kernel_src):
    m = re.search(r"LeakyRelu\([^;]*?,\s*(?:\([^)]*\)\s*)?([0-9.]+f?)\s*,", kernel_src)
    return float(m.group(1).rstrip("f")) if m else None


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.split("/", 1)[1].replace("/", "-") for s in SAMPLES])
def test_matmul_sample_as_its_main_launches_it(sample, tmp_path):
    d = os.path.join(samples_root(), OPS, sample)
    if not os.path.isdir(d):
        pytest.skip(f"{sample} is not in this samples revision")
    main = read(d, "main.cpp")
    files = sorted(os.listdir(d))
    tiling_file = next(f for f in files if f.endswith("tiling.cpp"))
    tiling_src = read(d, tiling_file)
    assert "DT_FLOAT16" in tiling_src and "resultDtype = DataType::DT_FLOAT;" in tiling_src
    tiling = host_tiling(d, tiling_file, tmp_path)
    used = int(tiling[:4].view(np.int32)[0])
    blocks = block_dims(main, used)
    M, N, K = shape(tiling_src)
    rng = np.random.default_rng(len(sample))
    a = rng.integers(-3, 4, (M, K)).astype(np.float16)
    b = rng.integers(-3, 4, (K, N)).astype(np.float16)
    bias = rng.integers(-3, 4, N).astype(np.float32)
    for name in re.findall(r"ACLRT_LAUNCH_KERNEL\((\w+)\)", main):
        kfile = next(f for f in files if f.endswith(".cpp") and f not in ("main.cpp", tiling_file)
                     and re.search(rf"void {name}\s*\(", read(d, f)))
        ksrc = read(d, kfile)
        kernel = arc.Program(ksrc, kfile).compile(["--npu-arch=dav-2201", "-I" + d]).load().get_kernel(name)
        c = np.full((M, N), np.nan, np.float32)
        bufs = {"a": a, "b": b, "bias": bias, "c": c, "workspace": np.zeros(64, np.uint8), "tiling": tiling}
        args = [bufs[next(k for k in ("bias", "a", "b", "c", "workspace", "tiling") if p[0].startswith(k))]
                for p in kernel.params]
        if sample in REFUSED:
            with pytest.raises(arc.LaunchError, match=re.escape(REFUSED[sample])):
                kernel[blocks](*args)
                arc.synchronize()
            return
        # With IBShare (13_matmul_api_ibshare) both AIVs of the one block
        # compute all of C from the same A and B (CalcOffset is 0) and write
        # it alike: no race, as the GM check between cores knows.
        kernel[blocks](*args)
        arc.synchronize()
        want = a.astype(np.float64) @ b.astype(np.float64)
        if any(p[0].startswith("bias") for p in kernel.params):
            want = want + bias
        alpha = leaky_alpha(ksrc)
        if "LeakyRelu" in ksrc:
            assert alpha is not None
            want = np.where(want >= 0, want, want * np.float32(alpha))
        assert not np.isnan(c).any(), f"{name}: {np.isnan(c).sum()} elements of C never written"
        np.testing.assert_allclose(c, want, rtol=1e-6, atol=1e-6, err_msg=name)
