"""Which precompiled prefix a compile gets (rtc/pch.h): a SIMT program that
does not include kernel_operator.h gets the SIMT API's (issue 25's compile
row), a single-source program (host code beside its kernels) the device
API's built in host mode (issue 26 item 5), so a compile parses only the
user's code; a file of the user's that could shadow the prefix's headers
turns the PCH off.  Values are the same either way."""
import numpy as np

import ascendrtc as arc

OPTS = ["--npu-arch=dav-3510", "--enable-simt", "-O2"]

SRC = r'''
__global__ void scale(const float* x, float* y, float a, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + ASC_SIMT_PCH_MARK;
}
'''


def compile_log(src, opts, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_RTC_TIMING", "1")
    monkeypatch.delenv("ASCENDRTC_NO_PCH", raising=False)
    b = arc.Program(src, "scale.asc").compile(opts, cache=False)
    return b, b.log


def run(b, x):
    k = b.load().get_kernel("scale")
    y = arc.empty(x.size, np.float32)
    k[4, 64](arc.to_device(x), y, np.float32(3.0), np.uint32(x.size))
    arc.synchronize()
    return y.get()


def test_simt_program_uses_the_simt_pch_and_computes_the_same(monkeypatch):
    x = np.arange(256, dtype=np.float32)
    b, log = compile_log("#define ASC_SIMT_PCH_MARK 1.0f\n" + SRC, OPTS, monkeypatch)
    assert " pch " in log and "pch failed" not in log, log   # the prefix precompiled (or taken from memory)
    np.testing.assert_array_equal(run(b, x), 3.0 * x + 1.0)
    monkeypatch.setenv("ASCENDRTC_NO_PCH", "1")
    plain = arc.Program("#define ASC_SIMT_PCH_MARK 1.0f\n" + SRC, "scale.asc").compile(OPTS, cache=False)
    assert " pch " not in plain.log
    np.testing.assert_array_equal(run(plain, x), 3.0 * x + 1.0)


def test_a_users_simt_api_directory_turns_the_pch_off(tmp_path, monkeypatch):
    """An -I directory with its own simt_api/ could shadow the prefix's
    headers: no PCH, and the user's header is the one the program sees."""
    (tmp_path / "simt_api").mkdir()
    (tmp_path / "simt_api" / "mark.h").write_text("#define ASC_SIMT_PCH_MARK 2.0f\n")
    src = '#include "simt_api/mark.h"\n' + SRC
    b, log = compile_log(src, OPTS + ["-I", str(tmp_path)], monkeypatch)
    assert " pch " not in log, log
    x = np.arange(256, dtype=np.float32)
    np.testing.assert_array_equal(run(b, x), 3.0 * x + 2.0)


SINGLE_SOURCE = r'''
#include <cstdio>
#include "acl/acl.h"
#include "kernel_operator.h"

__global__ __aicore__ void twice(GM_ADDR x)
{
    __gm__ int32_t *p = (__gm__ int32_t *)x + AscendC::GetBlockIdx();
    *p = 2 * *p + 1;
}

int main()
{
    std::printf("host part\\n");
    return 0;
}
'''


def test_single_source_program_uses_the_device_api_pch_in_host_mode(monkeypatch):
    monkeypatch.setenv("ASCENDRTC_RTC_TIMING", "1")
    monkeypatch.delenv("ASCENDRTC_NO_PCH", raising=False)
    b = arc.Program(SINGLE_SOURCE, "twice.asc").compile(["--npu-arch=dav-2201"], cache=False)
    assert " pch " in b.log and "pch failed" not in b.log, b.log
    x = np.arange(8, dtype=np.int32)
    b.load().get_kernel("twice")[8](x)
    arc.synchronize()
    np.testing.assert_array_equal(x, 2 * np.arange(8) + 1)
