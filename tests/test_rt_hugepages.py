"""Device memory of 2 MiB or more is madvise(MADV_HUGEPAGE)'d (rt/acl/mem.c),
as NumPy does for its large arrays: streaming kernels otherwise take a TLB
miss per 4 KiB page per array.  Read back from /proc/self/smaps: the
mapping holding a 4 MiB allocation carries the `hg` flag, one of 64 KiB
does not; the guard page after each stays inaccessible."""
import os

import numpy as np
import pytest

import ascendrtc as arc

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/smaps"), reason="needs Linux's /proc/self/smaps")


def vm_flags(addr):
    """The VmFlags of the mapping holding addr."""
    with open("/proc/self/smaps") as f:
        inside = False
        for line in f:
            head = line.split()[0]
            if "-" in head and not head.endswith(":"):
                lo, hi = (int(x, 16) for x in head.split("-"))
                inside = lo <= addr < hi
            elif inside and line.startswith("VmFlags:"):
                return line.split()[1:]
    raise AssertionError("no mapping holds 0x%x" % addr)


def test_large_device_memory_asks_for_huge_pages():
    if os.environ.get("ASCENDRTC_GM_CHECKS") == "0":
        pytest.skip("device memory is malloc'd without guard mappings")
    big = arc.empty(1 << 20, np.float32)      # 4 MiB
    small = arc.empty(1 << 14, np.float32)    # 64 KiB
    assert "hg" in vm_flags(big.ptr)
    assert "hg" not in vm_flags(small.ptr)
    assert "rd" not in vm_flags(big.ptr + big.nbytes + 32)  # the guard after it
    x = np.arange(1 << 20, dtype=np.float32)
    big.set(x)
    np.testing.assert_array_equal(big.get(), x)
