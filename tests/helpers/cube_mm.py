"""The cube matmul test kernels: tests/device_src/cube_mm.h's CubeMatmul
template, one extern "C" kernel per (name, types) (tests/test_device_cube_basic.py,
tests/test_cost_model.py), and MM_TILE: tests/device_src/mm_tile.h as an
in-memory header (one core's tile of C through the Matmul API)."""
import os

_HERE = os.path.dirname(os.path.abspath(__file__))

WRAP = ('extern "C" __global__ __aicore__ void %s(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, uint32_t M, '
        'uint32_t N, uint32_t K, uint32_t relu)\n{\n    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);\n'
        '    CubeMatmul<%s, %s, %d, %s>(a, b, bias, c, M, N, K, relu != 0);\n}\n')


def cube_mm_source(kernels):
    """The template and a kernel per ``name: (TA, TC, BMODE, BIAS)`` (C++
    type names, B's layout 0/1/2, "true"/"false"); without the
    kernel_operator.h include."""
    with open(os.path.join(_HERE, "..", "device_src", "cube_mm.h")) as f:
        mm = f.read()
    return mm + "\n".join(WRAP % (n, *t) for n, t in kernels.items())


with open(os.path.join(_HERE, "..", "device_src", "mm_tile.h")) as _f:
    MM_TILE = {"mm_tile.h": _f.read()}   # MatmulTile: one core's tile of C through the Matmul API
