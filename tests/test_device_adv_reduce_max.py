"""Device API: the advanced API's ReduceMax<T, Pattern::Reduce::AR|RA>
(lib/reduce/reduce_max.h) against NumPy's max over the reduced axis, the
inner axis stored 32-byte aligned; srcInnerPad = false is refused on
dav-2201 (its page); the host query GetReduceMaxMaxMinTmpSize is covered
by the asc-devkit example (tools/devkit_examples.py)."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev


def kernel(name, dt, pat, outer, inner, pad=True, tmp=False):
    per = 32 // np.dtype(dt).itemsize
    stride = (inner + per - 1) // per * per
    n = outer if pat == "AR" else inner
    t = [("x", dt, outer * stride), ("y", dt, n), ("tmp", np.uint8, 256)]
    body = ("uint32_t shape[2] = {%d, %d}; ReduceMax<%s, Pattern::Reduce::%s>(y, x, %sshape, %s);"
            % (outer, inner, dev.ctype(dt), pat, "tmp, " if tmp else "", "true" if pad else "false"))
    return dev.ub_kernel(name, t, body), t, stride


@pytest.mark.parametrize("arch", ["dav-2201", "dav-3510"])
@pytest.mark.parametrize("dt", [np.float32, np.float16, np.int32], ids=["float", "half", "int32"])
@pytest.mark.parametrize("pat", ["AR", "RA"])
def test_reduce_max(arch, dt, pat):
    outer, inner = 5, (24 if arch == "dav-2201" else 13)  # dav-3510 also takes an unaligned inner axis
    src, t, stride = kernel("rm", dt, pat, outer, inner, pad=arch == "dav-2201", tmp=pat == "RA")
    m = dev.program([src], options=("--npu-arch=%s" % arch,))
    rng = np.random.default_rng(2)
    x = np.zeros((outer, stride), dt)
    x[:, :inner] = rng.uniform(-100, 100, (outer, inner)).astype(dt)
    x[:, inner:] = 1000  # alignment padding: not part of the data
    y = dev.run(m, "rm", t, [x.ravel(), np.zeros(t[1][2], dt), np.zeros(256, np.uint8)])[1]
    want = x[:, :inner].max(axis=1 if pat == "AR" else 0)
    np.testing.assert_array_equal(y, want)


def test_unpadded_inner_axis_is_refused_on_dav2201():
    src, t, _ = kernel("rm_nopad", np.float32, "AR", 2, 8, pad=False)
    m = dev.program([src])
    with pytest.raises(arc.LaunchError, match=r"AscendC::ReduceMax: srcInnerPad must be true on dav-2201"):
        dev.run(m, "rm_nopad", t, [np.zeros(16, np.float32), np.zeros(2, np.float32), np.zeros(256, np.uint8)])
