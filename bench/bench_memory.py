"""Memory: compile, load, launch and unload many distinct kernels; resident
memory after all of them must stay within 10% of where it was after the
first 50 (issue 7: no leak per compile, load or launch).

The row's baseline is the RSS after the first 50 kernels, its value the RSS
after the last (target: ratio <= 1.10)."""
import gc
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ascendrtc as arc  # noqa: E402

SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k%d(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float *)x, 64);
    g.SetValue(AscendC::GetBlockIdx(), (float)%d);
}
'''


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def one(i, x, y):
    binary = arc.Program(SRC % (i, i), "k%d.asc" % i).compile(["--npu-arch=dav-2201", "-O0"])
    module = binary.load()
    module.get_kernel("k%d" % i)[2](x, y)
    arc.synchronize()
    assert x.get()[1] == i
    del module, binary


def rows(quick=False):
    total, warm = (150, 50) if quick else (1000, 50)
    x, y = arc.zeros(64, np.float32), arc.zeros(64, np.float32)
    after_warm = None
    for i in range(total):
        one(i, x, y)
        if i + 1 == warm:
            gc.collect()
            after_warm = rss_bytes()
    gc.collect()
    end = rss_bytes()
    return [("RSS after %d kernels compiled+loaded+launched+unloaded" % total, [end],
             "RSS after the first %d" % warm, [after_warm], 1.10, "bytes")]


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    from run import print_rows
    print_rows(rows(quick="--quick" in sys.argv))
