"""The runtime's C core under ThreadSanitizer (`make tsan`): the asan
driver's memory, stream, event, launch, trap, fault and timeout paths -
launches from several threads, cores released by traps and by the
watchdog - must run without a data-race or deadlock report."""
import shutil
import subprocess

import pytest

from helpers import rt_kernels as K
from helpers.acl import ROOT


@pytest.mark.skipif(not shutil.which("make") or not shutil.which("cc") or not shutil.which("setarch"),
                    reason="needs make, a C compiler and setarch")
def test_c_core_is_clean_under_tsan(tmp_path):
    r = subprocess.run(["make", "--no-print-directory", "-j2", "tsan", "TSAN_KERNEL=" + K.sanitizer_driver_args(tmp_path)],
                       cwd=ROOT, capture_output=True, text=True, timeout=900)
    out = r.stdout + r.stderr
    if "cannot find -ltsan" in out or "libtsan" in out and "No such file" in out:
        pytest.skip("ThreadSanitizer runtime (libtsan) is not installed")
    assert r.returncode == 0, out[-6000:]
    assert "ASAN_RT_OK" in r.stdout, out[-6000:]
    assert "WARNING: ThreadSanitizer" not in out, out[-6000:]
