"""The host API single-source programs use next to their kernels, as
CANN's asc-devkit examples do (tests/cc_programs/host_tiling.asc): the
tiling DSL in host mode whatever the include order, optiling::TCubeTiling,
<iostream> through the host tiling headers, contexts, aclFloat16, and the
advanced API's element-wise scratch sizes (csrc/host_api/lib/adv_elem_tiling_api.h), Sort's
(sort_tiling_api.h), Welford's (welford_tiling_api.h), DeepNorm's and LayerNormGrad(Beta)'s tilings."""
import os
import subprocess

from test_cc import PROGS, cc, pytestmark  # noqa: F401  (the same skip)


def test_host_tiling_program(tmp_path):
    exe = tmp_path / "host_tiling"
    r = cc(tmp_path, os.path.join(PROGS, "host_tiling.asc"), "-o", str(exe), "--npu-arch=dav-2201")
    assert r.returncode == 0, r.stderr
    p = subprocess.run([str(exe)], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    # 400 floats: one 256-byte repeat at least, all of them (1600 bytes) at most
    assert "exp scratch 256..1600" in p.stdout
    assert "gelu min 256" in p.stdout
    assert "sort scratch 2048..2048" in p.stdout      # two copies of 128 (float value + uint32 index)
    assert "topk scratch 1024..1024" in p.stdout      # two copies of 64 (float, int32 index) structures
    assert "select scratch 256..2048" in p.stdout     # the mask's 512 elements as floats
    assert "cumsum scratch 256..1600" in p.stdout
    assert "welford update scratch 256..256" in p.stdout     # 64 floats: one repeat
    assert "welford finalize scratch 256..2048" in p.stdout  # 512 floats
    assert "GetWelfordUpdateMaxMinTmpSize: typeSizeU 2 is not 4" in p.stderr
    assert "deepnorm 10 h 64 ori 60 rows 8" in p.stdout                # LayerNorm's fields; originH from its shape
    assert "GetDeepNormTilingInfo: isBasicBlock needs H a multiple of 64" in p.stderr
    assert "lngrad 24 h 16 beta bs 8" in p.stdout
    assert "GetLayerNormGradMaxMinTmpSize: originH must equal H" in p.stderr
    assert "half 0x4100 -> 2.5" in p.stdout  # 2.5 = 1.25 * 2^1: exponent 16, mantissa 0x100
    assert "GetSigmoidMaxMinTmpSize: the shape has no elements" in p.stderr
    assert "PASS: 0 wrong" in p.stdout
