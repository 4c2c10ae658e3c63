"""The C++ standard library in device code: libc++'s headers (Debian's
libc++-19-dev) over the device's few C headers (csrc/device/libc).  A
kernel uses <tuple>, <utility>, <array>, <limits>, <type_traits>,
<algorithm>, <numeric>, <optional>, <cmath> and computes what NumPy does;
a C library function the device lacks is a compile error naming it, and the
next compile and launch are fine."""
import numpy as np
import pytest

import ascendrtc as arc

STD = r'''
#include <tuple>
#include <utility>
#include <array>
#include <limits>
#include <type_traits>
#include <algorithm>
#include <numeric>
#include <optional>
#include <cmath>
#include <cstdint>
#include <cstddef>
#include "kernel_operator.h"
#ifndef _LIBCPP_VERSION
#error "the device's standard library is libc++"
#endif

template <class T> struct Pack { using type = std::tuple<T, std::size_t>; };
static_assert(std::is_same_v<std::tuple_element_t<1, Pack<float>::type>, std::size_t>, "tuple_element");
static_assert(std::numeric_limits<int16_t>::max() == 32767, "numeric_limits");
static_assert(std::tuple_size<std::array<int, 5>>::value == 5, "tuple_size of array");

constexpr auto pick(std::integral_constant<int, 3>) { return std::make_pair(3, 7u); }

extern "C" __global__ __aicore__ void std_kernel(GM_ADDR x, GM_ADDR y)
{
    __gm__ float *in = (__gm__ float *)x + 8 * AscendC::GetBlockIdx();
    __gm__ float *out = (__gm__ float *)y + 8 * AscendC::GetBlockIdx();
    std::array<float, 8> v{};
    for (std::size_t i = 0; i < v.size(); i++) v[i] = in[i];
    std::sort(v.begin(), v.end());
    auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    std::tuple<float, float, float> t{*lo, *hi, std::accumulate(v.begin(), v.end(), 0.0f)};
    std::optional<float> root = std::get<2>(t) >= 0 ? std::optional<float>(std::sqrt(std::get<2>(t)))
                                                    : std::nullopt;
    auto [three, seven] = pick({});
    out[0] = std::get<0>(t);
    out[1] = std::get<1>(t);
    out[2] = std::get<2>(t);
    out[3] = root.value_or(-1.0f);
    out[4] = std::numeric_limits<float>::lowest();
    out[5] = (float)(three * seven);
    out[6] = std::fabs(in[0]);
    out[7] = v[3];
}
'''


def test_kernel_uses_the_standard_library():
    mod = arc.Program(STD, "std_kernel.asc").compile(["--npu-arch=dav-2201"]).load()
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    y = np.zeros((4, 8), np.float32)
    mod.get_kernel("std_kernel")[4](x, y)
    arc.synchronize()
    for b in range(4):
        s = np.sort(x[b])
        total = np.float32(0)
        for e in s:                       # std::accumulate: left to right over the sorted values
            total = np.float32(total + e)
        assert y[b, 0] == s[0] and y[b, 1] == s[-1]
        assert y[b, 2] == total
        assert y[b, 3] == (np.sqrt(total) if total >= 0 else -1)
        assert y[b, 4] == np.finfo(np.float32).min
        assert y[b, 5] == 21 and y[b, 6] == abs(x[b, 0]) and y[b, 7] == s[3]


@pytest.mark.parametrize("call", ["std::malloc(16)", "std::strtol(\"1\", nullptr, 10)"])
def test_c_library_function_the_device_lacks_is_a_compile_error(call, tmp_path):
    # <cstdlib> in the kernel file itself makes it a file with host code (the
    # system's libc); a library header on the -I path is device code.
    (tmp_path / "uses_libc.h").write_text("#pragma once\n#include <cstdlib>\n"
                                          "inline long from_libc() { return (long)" + call + "; }\n")
    src = ('#include "uses_libc.h"\n#include "kernel_operator.h"\n'
           'extern "C" __global__ __aicore__ void k(GM_ADDR x) { *(__gm__ long *)x = from_libc(); }\n')
    with pytest.raises(arc.CompileError) as ei:
        arc.Program(src, "libc_call.asc").compile(["--npu-arch=dav-2201", "-I" + str(tmp_path)])
    name = call.split("(")[0].split("::")[1]
    assert f"'{name}' is unavailable: the simulated NPU's device code has no C library" in ei.value.log, ei.value.log
    test_kernel_uses_the_standard_library()   # the next compile and launch are fine
