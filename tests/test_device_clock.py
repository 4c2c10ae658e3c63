"""clock() in kernels (the Utils API's, utils/debug/asc_time.h; SIMD and
SIMT): the cycles of the simulated SoC's clock since the runtime started,
counted from the host's monotonic time, so two calls time a region (at the
host's speed).  It is not the C library's clock(), the process's CPU time,
which a single-source program's host code still gets."""
import os
import subprocess
import time

import numpy as np

import ascendrtc as arc
from test_cc import cc, pytestmark  # noqa: F401  (the same skip)

MHZ = 1850  # Ascend910B1, the default simulated SoC (common/socs.h)

SIMD = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void timed(GM_ADDR out, uint32_t spins)
{
    __gm__ uint64_t *o = (__gm__ uint64_t *)out;
    uint64_t a = clock();
    volatile uint32_t sink = 0;
    for (uint32_t i = 0; i < spins; i++) sink = sink + i;
    uint64_t b = clock();
    o[2 * AscendC::GetBlockIdx()] = a;
    o[2 * AscendC::GetBlockIdx() + 1] = b;
}
'''

SIMT = r'''
__global__ void stamps(uint64_t *o) { o[blockIdx.x * blockDim.x + threadIdx.x] = clock(); }
'''

PROGRAM = r'''
#include <cstdio>
#include <ctime>
#include "acl/acl.h"
#include "kernel_operator.h"
__global__ __aicore__ void k(__gm__ uint64_t *o) { o[0] = clock(); }
int main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    void *d = nullptr;
    aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    clock_t host = clock();  /* the C library's: CPU time */
    k<<<1, nullptr, nullptr>>>((uint64_t *)d);
    aclrtSynchronizeDevice();
    unsigned long long dev = 0;
    aclrtMemcpy(&dev, 8, d, 8, ACL_MEMCPY_DEVICE_TO_HOST);
    printf("device %llu host %ld\n", dev, (long)host);
    return dev > 0 ? 0 : 1;
}
'''


def test_simd_clock_times_a_region():
    k = arc.Program(SIMD, "clock.asc").compile(["--npu-arch=dav-2201"]).load().get_kernel("timed")
    t0 = time.monotonic()
    o = np.zeros(8, np.uint64)
    k[4](o, np.uint32(2_000_000))
    arc.synchronize()
    wall = time.monotonic() - t0
    a, b = o[0::2].astype(np.float64), o[1::2].astype(np.float64)
    assert np.all(b > a) and np.all(a > 0)
    # each block's region took at most the launch's wall time, at the SoC's clock
    assert np.all((b - a) / (MHZ * 1e6) <= wall + 0.05), ((b - a) / (MHZ * 1e6), wall)


def test_simt_clock():
    k = arc.Program(SIMT, "stamps.asc").compile(["--npu-arch=dav-3510", "--enable-simt"]).load() \
        .get_kernel("stamps")
    o = np.zeros(2 * 64, np.uint64)
    k[2, 64](o)
    arc.synchronize()
    assert np.all(o > 0)


def test_program_host_clock_is_the_c_librarys(tmp_path):
    (tmp_path / "p.asc").write_text(PROGRAM)
    r = cc(tmp_path, str(tmp_path / "p.asc"), "-o", str(tmp_path / "p"), "--npu-arch=dav-2201")
    assert r.returncode == 0, r.stderr
    p = subprocess.run([str(tmp_path / "p")], capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.startswith("device "), p.stdout + p.stderr
    dev, host = int(p.stdout.split()[1]), int(p.stdout.split()[3])
    assert dev > 0 and 0 <= host < 10 ** 7  # CPU microseconds so far, not device cycles
