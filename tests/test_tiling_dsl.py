"""The tiling DSL (csrc/device/arc/tiling_dsl.h) and the kernel's tiling
macros (arc/tiling.h): kernel-mode structs laid out as C lays out the same
struct (ctypes is the reference), GET_TILING_DATA and its variants, which
registered struct it reads, compile-time and launch-time tiling keys, the
error outside an op project, and host mode (set_/SaveToBuffer) giving the
same bytes."""
import ctypes
import os
import shutil
import subprocess

import numpy as np
import pytest

import ascendrtc as arc

ARCH = ["--npu-arch=dav-2201"]
DEVICE_HDRS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "csrc", "device")

TILING_H = r'''
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(Inner)
TILING_DATA_FIELD_DEF(uint8_t, a);
TILING_DATA_FIELD_DEF(uint64_t, b);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(InnerOp, Inner)

BEGIN_TILING_DATA_DEF(Outer)
TILING_DATA_FIELD_DEF(uint16_t, h);
TILING_DATA_FIELD_DEF_STRUCT(Inner, in);
TILING_DATA_FIELD_DEF_ARR(int32_t, 3, arr);
TILING_DATA_FIELD_DEF(float, f);
TILING_DATA_FIELD_DEF(int8_t, c);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MixedOp, Outer)

BEGIN_TILING_DATA_DEF(Other)
TILING_DATA_FIELD_DEF(int32_t, only);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(OtherOp, Other)
}
'''

KERNEL = r'''
#include "kernel_operator.h"
#include "mixed_tiling.h"
using namespace optiling;

extern "C" __global__ __aicore__ void read_outer(GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(Outer, t, tiling);
    __gm__ int64_t *o = (__gm__ int64_t *)out;
    o[0] = t.h; o[1] = t.in.a; o[2] = (int64_t)t.in.b;
    o[3] = t.arr[0]; o[4] = t.arr[2]; o[5] = (int64_t)(t.f * 4); o[6] = t.c; o[7] = sizeof(Outer);
    o[8] = __builtin_offsetof(Outer, f);
}

// GET_TILING_DATA: the op's struct (ASCENDRTC_OP_TYPE), else the last registered
extern "C" __global__ __aicore__ void read_default(GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    __gm__ int64_t *o = (__gm__ int64_t *)out;
    o[0] = sizeof(t);
    o[1] = *(const int32_t *)&t;
}

extern "C" __global__ __aicore__ void read_ptr_member(GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_PTR_WITH_STRUCT(Outer, p, tiling);
    GET_TILING_DATA_MEMBER(Outer, f, fv, tiling);
    GET_TILING_DATA_MEMBER(Outer, in, inner, tiling);
    __gm__ int64_t *o = (__gm__ int64_t *)out;
    o[0] = p->arr[1];
    o[1] = (int64_t)(fv * 4);
    o[2] = (int64_t)inner.b;
}

struct Plain { int32_t n; float scale; };
extern "C" __global__ __aicore__ void read_registered_default(GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(Plain);
    REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == 1", Other);
    GET_TILING_DATA(t, tiling);
    __gm__ int64_t *o = (__gm__ int64_t *)out;
    o[0] = t.n;
    o[1] = (int64_t)(t.scale * 4);
    o[2] = sizeof(t);
}

extern "C" __global__ __aicore__ void keyed(GM_ADDR out)
{
    __gm__ int64_t *o = (__gm__ int64_t *)out;
    o[0] = TILING_KEY_IS(1) ? 1 : TILING_KEY_IS(2) ? 2 : TILING_KEY_IS(0x100000003ull) ? 3 : -1;
    o[1] = (int64_t)TILING_KEY_VAR;
}
'''


class Inner(ctypes.Structure):
    _fields_ = [("a", ctypes.c_uint8), ("b", ctypes.c_uint64)]


class Outer(ctypes.Structure):
    _fields_ = [("h", ctypes.c_uint16), ("in_", Inner), ("arr", ctypes.c_int32 * 3), ("f", ctypes.c_float),
                ("c", ctypes.c_int8)]


def outer_bytes():
    t = Outer(h=7, in_=Inner(a=3, b=(1 << 40) + 5), f=2.25, c=-4)
    t.arr[:] = [11, 22, -33]
    return np.frombuffer(bytes(t), np.uint8)


def compile_kernels(options=()):
    prog = arc.Program(KERNEL, "mixed.cpp", headers={"mixed_tiling.h": TILING_H})
    return prog.compile(ARCH + list(options)).load()


def run(mod, name, *args, key=None, n=16):
    out = np.zeros(n, np.int64)
    mod.get_kernel(name)(out, *args, block_dim=1, tiling_key=key)
    arc.synchronize()
    return out


WS = np.zeros(32, np.uint8)


def test_kernel_struct_has_the_c_layout():
    mod = compile_kernels()
    got = run(mod, "read_outer", WS, outer_bytes())
    assert got[:9].tolist() == [7, 3, (1 << 40) + 5, 11, -33, 9, -4, ctypes.sizeof(Outer), Outer.f.offset]


def test_ptr_and_member_forms():
    got = run(compile_kernels(), "read_ptr_member", WS, outer_bytes())
    assert got[:3].tolist() == [22, 9, (1 << 40) + 5]


def test_get_tiling_data_reads_the_ops_struct_else_the_last():
    other = np.frombuffer(np.int32(1234).tobytes() + bytes(60), np.uint8)
    # no op named: the last registration (Other)
    assert run(compile_kernels(), "read_default", WS, other)[:2].tolist() == [4, 1234]
    # the op named (case and '_' ignored): its struct
    mod = compile_kernels(['-DASCENDRTC_OP_TYPE="mixed_op"'])
    assert run(mod, "read_default", WS, outer_bytes())[:2].tolist() == [ctypes.sizeof(Outer), 7]
    mod = compile_kernels(['-DASCENDRTC_OP_TYPE="INNEROP"'])
    assert run(mod, "read_default", WS, outer_bytes())[0] == ctypes.sizeof(Inner)


def test_register_tiling_default_wins():
    plain = np.frombuffer(np.array([(-8, 0.75)], dtype=[("n", "<i4"), ("s", "<f4")]).tobytes(), np.uint8)
    got = run(compile_kernels(['-DASCENDRTC_OP_TYPE="MixedOp"']), "read_registered_default", WS, plain)
    assert got[:3].tolist() == [-8, 3, 8]


def test_tiling_key_at_launch():
    mod = compile_kernels()
    assert run(mod, "keyed")[:2].tolist() == [-1, 0]
    assert run(mod, "keyed", key=2)[:2].tolist() == [2, 2]
    assert run(mod, "keyed", key=0x100000003)[:2].tolist() == [3, 0x100000003]


def test_tiling_key_fixed_at_compile_time_is_honoured():
    mod = compile_kernels(["-DTILING_KEY_VAR=2"])
    assert run(mod, "keyed")[:2].tolist() == [2, 2]
    # one compile per key: the key set at launch is not what TILING_KEY_IS reads
    assert run(mod, "keyed", key=1)[:2].tolist() == [2, 2]


def test_get_tiling_data_outside_an_op_project_names_the_fix():
    src = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    *(__gm__ int *)out = t.x;
}
'''
    with pytest.raises(arc.CompileError) as ei:
        arc.Program(src, "k.cpp").compile(ARCH)
    e = ei.value
    assert e.line == 5
    assert "no tiling struct is registered" in e.message
    assert "ascendrtc.op_kernel" in e.message and "REGISTER_TILING_DEFAULT" in e.message
    assert "__arc_tiling_default_t" not in e.log


HOST_MAIN = r'''
#define ASCENDRTC_TILING_HOST 1
#include <cstdint>
#include <cstdio>
#include "arc/tiling_dsl.h"
#include "mixed_tiling.h"

static unsigned long need_seen;
static void overflow(const char *, unsigned long need, unsigned long) { need_seen = need; }

int main()
{
    optiling::Outer t;
    t.set_h(7);
    t.in.set_a(3);
    t.in.set_b((1ull << 40) + 5);
    int32_t arr[3] = {11, 22, -33};
    t.set_arr(arr);
    t.set_f(2.25f);
    t.set_c(-4);
    unsigned char buf[256];
    t.SaveToBuffer(buf, sizeof buf);
    const __arc_tiling::reg_entry *e = __arc_tiling::registry_find("MixedOp");
    printf("%zu %s %zu %d %u\n", (size_t)t.GetDataSize(), e ? e->cls : "-", e ? (size_t)e->size : 0,
           __arc_tiling::registry_find("NoSuchOp") == nullptr, (unsigned)t.get_arr()[1]);
    for (size_t i = 0; i < t.GetDataSize(); i++)
        printf("%02x", buf[i]);
    __arc_tiling::overflow_hook() = overflow;
    t.SaveToBuffer(buf, 4);
    printf("\n%lu\n", need_seen);
    return 0;
}
'''


def test_host_mode_saves_the_kernel_struct_bytes(tmp_path):
    cxx = shutil.which("clang++-19") or shutil.which("clang++")
    if cxx is None:
        pytest.skip("no host C++ compiler (clang++) to build the host-mode check")
    (tmp_path / "mixed_tiling.h").write_text(TILING_H.replace('#include "register/tilingdata_base.h"', ""))
    (tmp_path / "main.cpp").write_text(HOST_MAIN)
    exe = tmp_path / "host"
    subprocess.run([cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-I", DEVICE_HDRS, "-I", os.path.dirname(DEVICE_HDRS), "-I", str(tmp_path),
                    str(tmp_path / "main.cpp"), "-o", str(exe)], check=True, capture_output=True)
    lines = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.splitlines()
    size, cls, reg_size, missing, arr1 = lines[0].split()
    assert (int(size), cls, int(reg_size), missing, arr1) == (ctypes.sizeof(Outer), "Outer", ctypes.sizeof(Outer),
                                                              "1", "22")
    # padding bytes are whatever the object held: compare the fields
    raw = bytes.fromhex(lines[1])
    ref = Outer.from_buffer_copy(outer_bytes().tobytes())
    got = Outer.from_buffer_copy(raw)
    for f, _ in Outer._fields_:
        if f == "in_":
            assert (got.in_.a, got.in_.b) == (ref.in_.a, ref.in_.b)
        elif f == "arr":
            assert list(got.arr) == list(ref.arr)
        else:
            assert getattr(got, f) == getattr(ref, f), f
    assert int(lines[2]) == ctypes.sizeof(Outer)     # a short buffer reports, copies nothing
