"""The kernel scan decides the preprocessor groups it can, as the compile
will: a kernel under `#if VARIANT == 1` (asc-devkit's SCENARIO_NUM
examples) exists only in the variant the -D options or the source's own
#defines pick, so the rtc gives entries to those kernels only -- before, a
kernel the compile left out was still named, and the build failed with
"use of undeclared identifier".  A condition that names a macro the scan
cannot know (one a header may define, as it may VARIANT unless -D or -U
says) keeps its group, as before."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

#ifndef VARIANT
#define VARIANT 2
#endif
#define TWICE (VARIANT * 2)

#define WRITE(v)                                                    \
    GlobalTensor<int32_t> g;                                        \
    g.SetGlobalBuffer((__gm__ int32_t *)z, 8);                      \
    g.SetValue(0, (v));                                             \
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE>(g)

#if VARIANT == 1
extern "C" __global__ __aicore__ void k_one(GM_ADDR z) { WRITE(1); }
#elif (VARIANT << 1) == 4 && TWICE % 4 == 0 && defined(TWICE) && !(VARIANT > 2) /* two */
extern "C" __global__ __aicore__ void k_two(GM_ADDR z) { WRITE(2); }
#else
extern "C" __global__ __aicore__ void k_other(GM_ADDR z) { WRITE(VARIANT > 9 ? 10 : 3); }
#endif

#if defined(VARIANT) && VARIANT >= 3 ? 1 : 0
#undef TWICE
#define TWICE 0
#endif
#if TWICE == 0
extern "C" __global__ __aicore__ void k_zero(GM_ADDR z) { WRITE(4); }
#endif
"""


@pytest.mark.parametrize("opts, kernels", [
    (["-UVARIANT"], {"k_two": 2}),                 # the source's own default
    (["-DVARIANT=1"], {"k_one": 1}),
    (["-DVARIANT=3"], {"k_other": 3, "k_zero": 4}),
    (["-DVARIANT=12"], {"k_other": 10, "k_zero": 4}),
])
def test_only_the_variant_the_compile_picks_gets_entries(opts, kernels):
    mod = arc.Program(SRC, "variants.asc").compile(["--npu-arch=dav-2201"] + opts).load()
    for name, want in kernels.items():
        z = np.zeros(8, np.int32)
        mod.get_kernel(name)[1](z)
        arc.synchronize()
        assert z[0] == want, (name, z)
    for name in {"k_one", "k_two", "k_other", "k_zero"} - set(kernels):
        with pytest.raises(arc.Error, match=name):
            mod.get_kernel(name)


def test_a_condition_on_a_header_macro_keeps_its_group():
    # ASCENDC_CPU_DEBUG comes from kernel_operator.h (the scan does not read
    # headers): the group stays, and the compile decides
    src = SRC + """
#if defined(ASCENDC_CPU_DEBUG) && VARIANT == 3
extern "C" __global__ __aicore__ void k_debug(GM_ADDR z) { WRITE(5); }
#endif
"""
    mod = arc.Program(src, "variants.asc").compile(["--npu-arch=dav-2201", "-DVARIANT=3"]).load()
    z = np.zeros(8, np.int32)
    mod.get_kernel("k_debug")[1](z)
    arc.synchronize()
    assert z[0] == 5
