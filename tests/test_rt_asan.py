"""The runtime's C core under AddressSanitizer and UBSan (`make asan`):
memory, stream, event, args and launch paths - good and bad inputs, from
several threads - must run without a sanitizer report."""
import shutil
import subprocess

import pytest

from helpers import rt_kernels as K
from helpers.acl import ROOT


@pytest.mark.skipif(not shutil.which("make") or not shutil.which("cc"), reason="needs make and a C compiler")
def test_c_core_is_clean_under_asan_and_ubsan(tmp_path):
    r = subprocess.run(["make", "--no-print-directory", "-j2", "asan", "ASAN_KERNEL=" + K.sanitizer_driver_args(tmp_path)],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-6000:]
    assert "ASAN_RT_OK" in r.stdout, out[-6000:]
    for marker in ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer"):
        assert marker not in out, out[-6000:]
