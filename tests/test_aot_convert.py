"""convert_from_bytes<T>(bytes) (arc/aot.h), the compile-time conversion
CANN's AOT compilation guide builds its constant tiling holders on: a
constant struct from its bytes in a template argument's holder, used in a
kernel and checked by static_assert; a struct with a pointer refused at
compile time (a constant expression cannot reinterpret one)."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

SRC = r'''
#include "kernel_operator.h"
struct Tl { uint32_t m; uint16_t n; int16_t k; float s; };
constexpr uint8_t TL_BYTES[] = {7, 0, 0, 0, 3, 1, 0xfe, 0xff, 0, 0, 0xc0, 0x3f};  // 7, 259, -2, 1.5f
template <typename T, const uint8_t *B> struct Holder { static constexpr T value = convert_from_bytes<T>(B); };
using H = Holder<Tl, TL_BYTES>;
static_assert(H::value.m == 7 && H::value.n == 259 && H::value.k == -2 && H::value.s == 1.5f, "bytes -> struct");
extern "C" __global__ __aicore__ void k(GM_ADDR out)
{
    __gm__ float *o = (__gm__ float *)out;
    o[0] = H::value.m; o[1] = H::value.n; o[2] = H::value.k; o[3] = H::value.s;
}
'''


def test_constant_tiling_from_bytes():
    mod = dev.load(SRC, "aot.asc")
    out = np.zeros(8, np.float32)
    mod.get_kernel("k")[1](out)
    arc.synchronize()
    np.testing.assert_array_equal(out[:4], [7, 259, -2, 1.5])


def test_a_pointer_member_is_refused():
    # the same fields after a pointer, with bytes for all 24 (so only the pointer can fail)
    src = SRC.replace("struct Tl { uint32_t m;", "struct Tl { int *p; uint32_t m;").replace(
        "{7, 0, 0, 0, 3, 1, 0xfe, 0xff, 0, 0, 0xc0, 0x3f}",
        "{0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 3, 1, 0xfe, 0xff, 0, 0, 0xc0, 0x3f, 0, 0, 0, 0}")
    with pytest.raises(arc.CompileError, match=r"constexpr variable 'value' must be initialized by a constant expression"):
        dev.load(src, "aot_ptr.asc")
